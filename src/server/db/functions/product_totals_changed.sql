-- Changed products' figures (decisions 0005, 0013, 0016): moves the difference of stock into
-- product_totals and of products, units and value into category_stock, in this transaction's slot,
-- and keeps product_stock's copies (stock, name, reorder point in force, category, supplier, cost,
-- reorder quantity; decision 0032). The slot's product_totals row is written first whenever a
-- category row of the slot may change, or a product may enter or leave "to reorder" (whose count
-- product_stock's triggers keep in that row), so it guards them.
-- Needs: products' id, name, stock, cost, stock_value (the value, DESIGN §19), category_id, supplier_id, reorder_point,
-- reorder_quantity; product_totals (slot, products, stock), product_stock (every column),
-- category_stock (category_id, slot, products, units, value); counter_slot(), low_stock_threshold().
-- Trigger: product_totals_changed, AFTER UPDATE ON products REFERENCING OLD TABLE AS old_products
-- NEW TABLE AS new_products FOR EACH STATEMENT (migration 0005).
CREATE OR REPLACE FUNCTION product_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx_slot smallint := counter_slot();
  delta bigint;
BEGIN
  SELECT coalesce((SELECT sum(stock) FROM new_products), 0) - coalesce((SELECT sum(stock) FROM old_products), 0)
    INTO delta;
  -- The slot's guard row first, whenever a category row of the slot may change below.
  IF delta <> 0 OR EXISTS (
    SELECT 1 FROM new_products n JOIN old_products o ON o.id = n.id
    WHERE (n.category_id, n.stock, n.cost, n.reorder_point, n.stock_value) IS DISTINCT FROM (o.category_id, o.stock, o.cost, o.reorder_point, o.stock_value)
  ) THEN
    INSERT INTO product_totals AS t (slot, products, stock)
    VALUES (tx_slot, 0, delta)
    ON CONFLICT (slot) DO UPDATE SET stock = t.stock + excluded.stock;
  END IF;
  INSERT INTO product_stock AS s (product_id, stock, name_key, reorder_point, reorder_at, name, category_id,
                                  supplier_id, cost, reorder_quantity)
  SELECT id, stock, lower(name), reorder_point, coalesce(reorder_point, low_stock_threshold()), name,
         category_id, supplier_id, cost, reorder_quantity
  FROM new_products
  ON CONFLICT (product_id) DO UPDATE
    SET stock = excluded.stock, name_key = excluded.name_key, reorder_point = excluded.reorder_point,
        reorder_at = excluded.reorder_at, name = excluded.name, category_id = excluded.category_id,
        supplier_id = excluded.supplier_id, cost = excluded.cost, reorder_quantity = excluded.reorder_quantity
  WHERE (s.stock, s.name, s.reorder_point, s.reorder_at, s.category_id, s.supplier_id, s.cost, s.reorder_quantity)
        IS DISTINCT FROM (excluded.stock, excluded.name, excluded.reorder_point, excluded.reorder_at,
                          excluded.category_id, excluded.supplier_id, excluded.cost, excluded.reorder_quantity);
  INSERT INTO category_stock AS t (category_id, slot, products, units, value)
  SELECT category_id, tx_slot, sum(n), sum(units), sum(value)
  FROM (SELECT category_id, 1 AS n, stock AS units, stock_value AS value FROM new_products
        UNION ALL
        SELECT category_id, -1, -stock, -stock_value FROM old_products) d
  GROUP BY category_id HAVING sum(n) <> 0 OR sum(units) <> 0 OR sum(value) <> 0 ORDER BY category_id
  ON CONFLICT (category_id, slot) DO UPDATE
    SET products = t.products + excluded.products, units = t.units + excluded.units, value = t.value + excluded.value;
  RETURN NULL;
END $$;
