-- One customer per name and phone: the name trimmed, in lower case, its inner spaces collapsed,
-- and the phone's digits (none when it has none). "Ann  Lee" at (555) 0100 and "ann lee" at
-- 555-0100 are one customer.
-- Needs: nothing. The API (customers.repository.ts) and the seed store it in customers.duplicate_key,
-- under the unique index customers_duplicate_key (migration 0022).
CREATE OR REPLACE FUNCTION customer_duplicate_key(name text, phone text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT lower(btrim(regexp_replace(name, '\s+', ' ', 'g'))) || '|' || regexp_replace(phone, '\D', '', 'g')
$$;
