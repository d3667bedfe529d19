-- Locations (DESIGN §17): only stock_movements_apply (a trigger, so one level down or more) may
-- change a lot's units at a location; any other INSERT with units or UPDATE of them is refused
-- with IMS09 (a programming error: a 500).
-- Needs: lot_stock.quantity. Trigger: lot_stock_from_ledger, BEFORE INSERT OR UPDATE OF quantity
-- ON lot_stock FOR EACH ROW (migration 0029).
CREATE OR REPLACE FUNCTION lot_stock_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2
     AND ((TG_OP = 'INSERT' AND NEW.quantity <> 0) OR (TG_OP = 'UPDATE' AND NEW.quantity <> OLD.quantity)) THEN
    RAISE EXCEPTION 'Stock changes only through stock movements' USING ERRCODE = 'IMS09';
  END IF;
  RETURN NEW;
END $$;
