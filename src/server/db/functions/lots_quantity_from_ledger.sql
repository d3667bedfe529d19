-- Lots (DESIGN §15): only stock_movements_apply (a trigger, so one level down or more) may change
-- a lot's quantity; any other UPDATE of it is refused with IMS09 (a programming error: a 500).
-- Needs: lots.quantity. Trigger: lots_quantity_from_ledger, BEFORE UPDATE OF quantity ON lots
-- FOR EACH ROW (migration 0026).
CREATE OR REPLACE FUNCTION lots_quantity_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.quantity <> OLD.quantity AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'Stock changes only through stock movements' USING ERRCODE = 'IMS09';
  END IF;
  RETURN NEW;
END $$;
