-- On order per product (DESIGN §9, decision 0012), as a line changes: a line of an open purchase
-- order counts quantity − received in its product's product_stock.on_order.
-- Needs: purchase_orders (id, status), purchase_order_lines (purchase_order_id, product_id,
-- quantity, received), product_stock (product_id, on_order); purchase_order_is_open().
-- Trigger: purchase_order_lines_on_order, AFTER INSERT OR DELETE OR UPDATE OF quantity, received,
-- product_id ON purchase_order_lines FOR EACH ROW (migration 0012).
CREATE OR REPLACE FUNCTION purchase_order_lines_on_order() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  open boolean;
BEGIN
  SELECT purchase_order_is_open(o.status) INTO open FROM purchase_orders o
  WHERE o.id = coalesce(NEW.purchase_order_id, OLD.purchase_order_id);
  IF NOT coalesce(open, false) THEN RETURN NULL; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE product_stock SET on_order = on_order - (OLD.quantity - OLD.received) WHERE product_id = OLD.product_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    UPDATE product_stock SET on_order = on_order + (NEW.quantity - NEW.received) WHERE product_id = NEW.product_id;
  END IF;
  RETURN NULL;
END $$;
