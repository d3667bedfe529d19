-- The stock ledger (DESIGN §8, decision 0011): a product inserted with stock gets its opening
-- movement, so products.stock stays the sum of its movements. stock_movements_apply lets it
-- through without applying it (the stock is already there).
-- A bulk writer names its products' opening movements with transaction-local settings
-- (set_config(…, true)): ims.opening_note (the catalogue import's `import <file>`), and
-- ims.opening_user_id / ims.opening_user_name (who imports). While the note is set, every
-- product inserted gets its opening movement, one of 0 too (as a product created by hand does):
-- one statement-level insert instead of a movement applied row by row, which for 100,000 imported
-- products is most of the import's time.
-- Locations (DESIGN §17): the opening stock is at ims.opening_location_id when set (an import
-- into a location), else at the default location; its location_stock rows are made here, in one
-- statement too (one trigger level down, which location_stock_from_ledger lets through).
-- Value (DESIGN §19): the opening stock is worth the product's stock_value (stock × cost, which
-- products_opening_value gave it), at its location and in its movement.
-- Needs: products' id, stock, stock_value; stock_movements (product_id, kind, quantity, stock_after, note,
-- user_id, user_name, location_id, value); location_stock (product_id, location_id, stock, stock_value); default_location().
-- Trigger: products_opening_movement, AFTER INSERT ON products REFERENCING NEW TABLE AS
-- added_products FOR EACH STATEMENT (migration 0010).
CREATE OR REPLACE FUNCTION products_opening_movement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  named_note text := nullif(current_setting('ims.opening_note', true), '');
  place uuid := coalesce(nullif(current_setting('ims.opening_location_id', true), '')::uuid, default_location());
BEGIN
  INSERT INTO location_stock (product_id, location_id, stock, stock_value)
  SELECT id, place, stock, stock_value FROM added_products WHERE stock <> 0 ORDER BY id;
  INSERT INTO stock_movements (product_id, location_id, kind, quantity, stock_after, value, note, user_id, user_name)
  SELECT id, place, 'initial', stock, stock, stock_value, coalesce(named_note, 'Opening balance'),
         CASE WHEN named_note IS NULL THEN NULL
              ELSE nullif(current_setting('ims.opening_user_id', true), '')::uuid END,
         CASE WHEN named_note IS NULL THEN NULL
              ELSE nullif(current_setting('ims.opening_user_name', true), '') END
  FROM added_products WHERE stock <> 0 OR named_note IS NOT NULL;
  RETURN NULL;
END $$;
