-- The stock ledger (DESIGN §8, decision 0011): inserting a movement applies it, adding its
-- quantity to the product's stock in one conditional update that never goes below zero (refused
-- with IMS01 "Not enough stock", IMS02 when the product is gone), and records the stock right
-- after it in the movement.
-- Needs: products (id, stock), stock_movements (product_id, kind, quantity, stock_after).
-- Trigger: stock_movements_apply, BEFORE INSERT ON stock_movements FOR EACH ROW (migration 0010).
CREATE OR REPLACE FUNCTION stock_movements_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  after integer;
BEGIN
  -- The opening movement of a product inserted with its stock (products_opening_movement, one
  -- trigger level down) records stock that is already there.
  IF NEW.kind = 'initial' AND pg_trigger_depth() > 1 THEN
    RETURN NEW;
  END IF;
  UPDATE products SET stock = stock + NEW.quantity
  WHERE id = NEW.product_id AND stock + NEW.quantity >= 0
  RETURNING stock INTO after;
  IF NOT FOUND THEN
    IF EXISTS (SELECT 1 FROM products WHERE id = NEW.product_id) THEN
      RAISE EXCEPTION 'Not enough stock' USING ERRCODE = 'IMS01';
    END IF;
    RAISE EXCEPTION 'Product not found' USING ERRCODE = 'IMS02';
  END IF;
  NEW.stock_after := after;
  RETURN NEW;
END $$;
