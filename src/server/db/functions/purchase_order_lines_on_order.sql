-- On order per product and per location (DESIGN §9 and §17, decision 0012), as a line changes: a
-- line of an open purchase order counts quantity − received in its product's
-- product_stock.on_order and in location_stock.on_order at the purchase order's location (a row
-- with stock 0 is made where the product has none yet).
-- Needs: purchase_orders (id, status, location_id), purchase_order_lines (purchase_order_id,
-- product_id, quantity, received), product_stock (product_id, on_order), location_stock
-- (product_id, location_id, on_order); purchase_order_is_open().
-- Trigger: purchase_order_lines_on_order, AFTER INSERT OR DELETE OR UPDATE OF quantity, received,
-- product_id ON purchase_order_lines FOR EACH ROW (migration 0012).
CREATE OR REPLACE FUNCTION purchase_order_lines_on_order() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  open boolean;
  place uuid;
BEGIN
  SELECT purchase_order_is_open(o.status), o.location_id INTO open, place FROM purchase_orders o
  WHERE o.id = coalesce(NEW.purchase_order_id, OLD.purchase_order_id);
  IF NOT coalesce(open, false) THEN RETURN NULL; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE product_stock SET on_order = on_order - (OLD.quantity - OLD.received) WHERE product_id = OLD.product_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    UPDATE product_stock SET on_order = on_order + (NEW.quantity - NEW.received) WHERE product_id = NEW.product_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE location_stock SET on_order = on_order - (OLD.quantity - OLD.received)
    WHERE product_id = OLD.product_id AND location_id = place;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO location_stock AS s (product_id, location_id, on_order)
    VALUES (NEW.product_id, place, NEW.quantity - NEW.received)
    ON CONFLICT (product_id, location_id) DO UPDATE SET on_order = s.on_order + excluded.on_order;
  END IF;
  RETURN NULL;
END $$;
