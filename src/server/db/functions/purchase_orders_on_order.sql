-- On order per product and per location (DESIGN §9 and §17, decision 0012), as a purchase order
-- opens or closes, or is delivered elsewhere while open: adds or takes away quantity − received of
-- its lines in product_stock.on_order (when it opens or closes) and in location_stock.on_order at
-- its location (taken from the old location, added at the new one; a row with stock 0 is made
-- where the product has none yet). It holds no product's row, so it takes its slot's
-- product_totals row first (which the count of products to reorder may change, decision 0032),
-- then product_stock, then location_stock, as a sale does: never the other way round.
-- Needs: purchase_orders (id, status, location_id), purchase_order_lines (purchase_order_id,
-- product_id, quantity, received), product_stock (product_id, on_order), location_stock
-- (product_id, location_id, on_order), product_totals (slot); purchase_order_is_open(),
-- counter_slot().
-- Trigger: purchase_orders_on_order, AFTER UPDATE OF status, location_id ON purchase_orders FOR
-- EACH ROW (migration 0030).
CREATE OR REPLACE FUNCTION purchase_orders_on_order() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_open boolean := purchase_order_is_open(OLD.status);
  is_open boolean := purchase_order_is_open(NEW.status);
BEGIN
  IF NOT was_open AND NOT is_open THEN RETURN NULL; END IF;
  IF was_open AND is_open AND OLD.location_id = NEW.location_id THEN RETURN NULL; END IF;
  IF was_open <> is_open THEN
    INSERT INTO product_totals AS t (slot, products, stock) VALUES (counter_slot(), 0, 0)
    ON CONFLICT (slot) DO UPDATE SET stock = t.stock;
    UPDATE product_stock s SET on_order = s.on_order + CASE WHEN is_open THEN 1 ELSE -1 END * l.units
    FROM (SELECT product_id, sum(quantity - received)::int AS units FROM purchase_order_lines
          WHERE purchase_order_id = NEW.id GROUP BY product_id) l
    WHERE s.product_id = l.product_id;
  END IF;
  IF was_open THEN
    UPDATE location_stock s SET on_order = s.on_order - l.units
    FROM (SELECT product_id, sum(quantity - received)::int AS units FROM purchase_order_lines
          WHERE purchase_order_id = NEW.id GROUP BY product_id) l
    WHERE s.product_id = l.product_id AND s.location_id = OLD.location_id AND l.units <> 0;
  END IF;
  IF is_open THEN
    INSERT INTO location_stock AS s (product_id, location_id, on_order)
    SELECT product_id, NEW.location_id, sum(quantity - received)::int FROM purchase_order_lines
    WHERE purchase_order_id = NEW.id GROUP BY product_id HAVING sum(quantity - received) <> 0
    ORDER BY product_id
    ON CONFLICT (product_id, location_id) DO UPDATE SET on_order = s.on_order + excluded.on_order;
  END IF;
  RETURN NULL;
END $$;
