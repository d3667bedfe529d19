-- The stock ledger (DESIGN §8, decision 0011): only stock_movements_apply (a trigger, so one
-- level down) may change a product's stock; any other UPDATE of stock is refused with IMS09 (a programming error: a 500; IMS03 is store credit's).
-- Needs: products.stock. Trigger: products_stock_from_ledger, BEFORE UPDATE OF stock ON products
-- FOR EACH ROW (migration 0010).
CREATE OR REPLACE FUNCTION products_stock_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.stock <> OLD.stock AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'Stock changes only through stock movements' USING ERRCODE = 'IMS09';
  END IF;
  RETURN NEW;
END $$;
