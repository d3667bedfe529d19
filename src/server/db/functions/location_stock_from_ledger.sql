-- Locations (DESIGN §17): only the ledger's triggers (stock_movements_apply, and
-- products_opening_movement for a product inserted with its stock: one trigger level down or
-- more) may put stock or value (DESIGN §19) at a location; any other INSERT with stock or UPDATE of it is refused with
-- IMS09 (a programming error: a 500). A row with stock 0 (a reorder point set there) may be made.
-- Needs: location_stock.stock, stock_value. Trigger: location_stock_from_ledger, BEFORE INSERT OR
-- UPDATE OF stock, stock_value ON location_stock FOR EACH ROW (migrations 0029, 0035).
CREATE OR REPLACE FUNCTION location_stock_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2
     AND ((TG_OP = 'INSERT' AND (NEW.stock <> 0 OR NEW.stock_value <> 0))
          OR (TG_OP = 'UPDATE' AND (NEW.stock <> OLD.stock OR NEW.stock_value <> OLD.stock_value))) THEN
    RAISE EXCEPTION 'Stock changes only through stock movements' USING ERRCODE = 'IMS09';
  END IF;
  RETURN NEW;
END $$;
