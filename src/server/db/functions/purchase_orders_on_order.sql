-- On order per product (DESIGN §9, decision 0012), as a purchase order opens or closes: adds or
-- takes away quantity − received of its lines in product_stock.on_order.
-- Needs: purchase_orders (id, status), purchase_order_lines (purchase_order_id, product_id,
-- quantity, received), product_stock (product_id, on_order); purchase_order_is_open().
-- Trigger: purchase_orders_on_order, AFTER UPDATE OF status ON purchase_orders FOR EACH ROW
-- (migration 0012).
CREATE OR REPLACE FUNCTION purchase_orders_on_order() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign int;
BEGIN
  IF purchase_order_is_open(OLD.status) = purchase_order_is_open(NEW.status) THEN RETURN NULL; END IF;
  sign := CASE WHEN purchase_order_is_open(NEW.status) THEN 1 ELSE -1 END;
  UPDATE product_stock s SET on_order = s.on_order + sign * l.units
  FROM (SELECT product_id, sum(quantity - received)::int AS units FROM purchase_order_lines
        WHERE purchase_order_id = NEW.id GROUP BY product_id) l
  WHERE s.product_id = l.product_id;
  RETURN NULL;
END $$;
