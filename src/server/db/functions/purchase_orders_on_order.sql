-- On order per product (DESIGN §9, decision 0012), as a purchase order opens or closes: adds or
-- takes away quantity − received of its lines in product_stock.on_order. It holds no product's
-- row, so it takes its slot's product_totals row first (which the count of products to reorder
-- may change, decision 0032), as a sale does before its product_stock rows: never the other way
-- round.
-- Needs: purchase_orders (id, status), purchase_order_lines (purchase_order_id, product_id,
-- quantity, received), product_stock (product_id, on_order), product_totals (slot);
-- purchase_order_is_open(), counter_slot().
-- Trigger: purchase_orders_on_order, AFTER UPDATE OF status ON purchase_orders FOR EACH ROW
-- (migration 0012).
CREATE OR REPLACE FUNCTION purchase_orders_on_order() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign int;
BEGIN
  IF purchase_order_is_open(OLD.status) = purchase_order_is_open(NEW.status) THEN RETURN NULL; END IF;
  sign := CASE WHEN purchase_order_is_open(NEW.status) THEN 1 ELSE -1 END;
  INSERT INTO product_totals AS t (slot, products, stock) VALUES (counter_slot(), 0, 0)
  ON CONFLICT (slot) DO UPDATE SET stock = t.stock;
  UPDATE product_stock s SET on_order = s.on_order + sign * l.units
  FROM (SELECT product_id, sum(quantity - received)::int AS units FROM purchase_order_lines
        WHERE purchase_order_id = NEW.id GROUP BY product_id) l
  WHERE s.product_id = l.product_id;
  RETURN NULL;
END $$;
