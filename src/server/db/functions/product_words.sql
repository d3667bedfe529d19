-- Decision 0052: the words of a product name as search keeps them: the name in lower case split at
-- its spaces, each word once, in order. A search word (never holding a space) is in the name
-- exactly when it is in one of these words; one of one or two characters starts a word of the
-- name exactly when it starts one of these (after their start or an ASCII punctuation mark).
-- Used by product_search_kept and migration 0042's first filling of product_search.
CREATE OR REPLACE FUNCTION product_words(name text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT w ORDER BY w), '{}')
  FROM unnest(string_to_array(lower(name), ' ')) AS w
  WHERE w <> ''
$$;
