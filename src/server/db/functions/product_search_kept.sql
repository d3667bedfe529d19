-- Decision 0052: keeps product_search and name_words with products. New products (one statement
-- of many, an import: FOR EACH STATEMENT over new_products) get their row and their words; a change
-- of name, category, item or whether active (FOR EACH ROW, UPDATE OF those: a sale's stock change
-- never fires it) rewrites the product's row, and adds the new name's words. A deleted product's
-- row goes with it (ON DELETE CASCADE). Words are added in order, so two statements adding some of
-- the same new words wait for each other instead of deadlocking.
-- Needs: product_words(); products' id, name, category_id, item_id, active.
-- Triggers (migration 0042): product_search_added AFTER INSERT ON products REFERENCING NEW TABLE AS
-- new_products FOR EACH STATEMENT; product_search_changed AFTER UPDATE OF name, category_id,
-- item_id, active ON products FOR EACH ROW.
CREATE OR REPLACE FUNCTION product_search_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    INSERT INTO name_words (word)
    SELECT DISTINCT w FROM new_products, unnest(product_words(name)) AS w ORDER BY w
    ON CONFLICT DO NOTHING;
    INSERT INTO product_search (product_id, name_key, words, category_id, item_id, active)
    SELECT id, lower(name), product_words(name), category_id, item_id, active FROM new_products;
    RETURN NULL;
  END IF;
  IF (NEW.name, NEW.category_id, NEW.item_id, NEW.active) IS NOT DISTINCT FROM
     (OLD.name, OLD.category_id, OLD.item_id, OLD.active) THEN
    RETURN NULL;
  END IF;
  IF NEW.name IS DISTINCT FROM OLD.name THEN
    INSERT INTO name_words (word) SELECT w FROM unnest(product_words(NEW.name)) AS w ORDER BY w
    ON CONFLICT DO NOTHING;
  END IF;
  UPDATE product_search
  SET name_key = lower(NEW.name), words = product_words(NEW.name), category_id = NEW.category_id,
      item_id = NEW.item_id, active = NEW.active
  WHERE product_id = NEW.id;
  RETURN NULL;
END $$;
