-- A new product's figures (decisions 0005, 0013, 0016): adds it to product_totals and
-- category_stock in this transaction's slot (product_totals first: its row guards the slot's
-- category rows), and gives it its product_stock row (with the copies the dashboard and the
-- reorder suggestions read, decision 0032) and its product_sales row.
-- Needs: products' id, name, stock, cost, stock_value (the value, DESIGN §19), category_id, supplier_id, reorder_point,
-- reorder_quantity; product_totals (slot, products, stock), product_stock (every column),
-- product_sales (product_id, units), category_stock (category_id, slot, products, units, value);
-- counter_slot(), low_stock_threshold().
-- Trigger: product_totals_added, AFTER INSERT ON products REFERENCING NEW TABLE AS added_products
-- FOR EACH STATEMENT (migration 0005).
CREATE OR REPLACE FUNCTION product_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_totals AS t (slot, products, stock)
  SELECT counter_slot(), count(*), sum(stock) FROM added_products HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET products = t.products + excluded.products, stock = t.stock + excluded.stock;
  INSERT INTO product_stock (product_id, stock, name_key, reorder_point, reorder_at, name, category_id,
                             supplier_id, cost, reorder_quantity)
  SELECT id, stock, lower(name), reorder_point, coalesce(reorder_point, low_stock_threshold()), name,
         category_id, supplier_id, cost, reorder_quantity
  FROM added_products;
  INSERT INTO product_sales (product_id, units) SELECT id, 0 FROM added_products ORDER BY id;
  INSERT INTO category_stock AS t (category_id, slot, products, units, value)
  SELECT category_id, counter_slot(), count(*), sum(stock), sum(stock_value)
  FROM added_products GROUP BY category_id ORDER BY category_id
  ON CONFLICT (category_id, slot) DO UPDATE
    SET products = t.products + excluded.products, units = t.units + excluded.units, value = t.value + excluded.value;
  RETURN NULL;
END $$;
