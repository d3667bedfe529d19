-- A new product's figures (decisions 0005, 0013, 0016): adds it to product_totals and
-- category_stock in this transaction's slot (product_totals first: its row guards the slot's
-- category rows), and gives it its product_stock and product_sales rows.
-- Needs: products' id, name, stock, cost, category_id, reorder_point; product_totals (slot,
-- products, stock), product_stock (product_id, stock, name_key, reorder_point), product_sales
-- (product_id, units), category_stock (category_id, slot, products, units, value); counter_slot().
-- Trigger: product_totals_added, AFTER INSERT ON products REFERENCING NEW TABLE AS added_products
-- FOR EACH STATEMENT (migration 0005).
CREATE OR REPLACE FUNCTION product_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_totals AS t (slot, products, stock)
  SELECT counter_slot(), count(*), sum(stock) FROM added_products HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET products = t.products + excluded.products, stock = t.stock + excluded.stock;
  INSERT INTO product_stock (product_id, stock, name_key, reorder_point)
  SELECT id, stock, lower(name), reorder_point FROM added_products;
  INSERT INTO product_sales (product_id, units) SELECT id, 0 FROM added_products ORDER BY id;
  INSERT INTO category_stock AS t (category_id, slot, products, units, value)
  SELECT category_id, counter_slot(), count(*), sum(stock), sum(stock * coalesce(cost, 0))
  FROM added_products GROUP BY category_id ORDER BY category_id
  ON CONFLICT (category_id, slot) DO UPDATE
    SET products = t.products + excluded.products, units = t.units + excluded.units, value = t.value + excluded.value;
  RETURN NULL;
END $$;
