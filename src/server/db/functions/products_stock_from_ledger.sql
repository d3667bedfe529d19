-- The stock ledger (DESIGN §8, decision 0011): only stock_movements_apply (a trigger, so one
-- level down) may change a product's stock or its value (DESIGN §19, decision 0046); any other
-- UPDATE of either is refused with IMS09 (a programming error: a 500; IMS03 is store credit's).
-- Needs: products.stock, stock_value. Trigger: products_stock_from_ledger, BEFORE UPDATE OF
-- stock, stock_value ON products FOR EACH ROW (migrations 0010, 0035).
CREATE OR REPLACE FUNCTION products_stock_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.stock <> OLD.stock OR NEW.stock_value <> OLD.stock_value) AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'Stock changes only through stock movements' USING ERRCODE = 'IMS09';
  END IF;
  RETURN NEW;
END $$;
