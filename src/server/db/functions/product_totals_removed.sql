-- Deleted products' figures (decisions 0013, 0016): takes them out of product_totals and
-- category_stock in this transaction's slot (their product_stock and product_sales rows go by the
-- cascade).
-- Needs: products' stock, stock_value (DESIGN §19), cost, category_id; product_totals (slot, products, stock), category_stock
-- (category_id, slot, products, units, value); counter_slot().
-- Trigger: product_totals_removed, AFTER DELETE ON products REFERENCING OLD TABLE AS
-- removed_products FOR EACH STATEMENT (migration 0005).
CREATE OR REPLACE FUNCTION product_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_totals AS t (slot, products, stock)
  SELECT counter_slot(), -count(*), -sum(stock) FROM removed_products HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET products = t.products + excluded.products, stock = t.stock + excluded.stock;
  INSERT INTO category_stock AS t (category_id, slot, products, units, value)
  SELECT category_id, counter_slot(), -count(*), -sum(stock), -sum(stock_value)
  FROM removed_products GROUP BY category_id ORDER BY category_id
  ON CONFLICT (category_id, slot) DO UPDATE
    SET products = t.products + excluded.products, units = t.units + excluded.units, value = t.value + excluded.value;
  RETURN NULL;
END $$;
