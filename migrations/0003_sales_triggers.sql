-- Pre-aggregated sales figures, kept by the database itself so that every way of adding orders
-- (the API, the demo seed, bulk loads) keeps them right: product_sales (units per product, for
-- "Highest Sale Product") and order_totals (count and revenue, striped over 8 rows so concurrent
-- orders rarely queue on one row). Statement-level triggers see all rows of a bulk insert at once.
CREATE FUNCTION orders_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_sales AS s (product_id, units)
  SELECT product_id, sum(quantity) FROM added_orders WHERE product_id IS NOT NULL GROUP BY product_id
  ON CONFLICT (product_id) DO UPDATE SET units = s.units + excluded.units;
  INSERT INTO order_totals AS t (slot, orders, revenue)
  SELECT floor(random() * 8)::smallint, count(*), sum(total_price) FROM added_orders HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET orders = t.orders + excluded.orders, revenue = t.revenue + excluded.revenue;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION orders_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE product_sales AS s SET units = s.units - r.units
  FROM (SELECT product_id, sum(quantity) AS units FROM removed_orders
        WHERE product_id IS NOT NULL GROUP BY product_id) r
  WHERE s.product_id = r.product_id;
  INSERT INTO order_totals AS t (slot, orders, revenue)
  SELECT 0, -count(*), -sum(total_price) FROM removed_orders HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET orders = t.orders + excluded.orders, revenue = t.revenue + excluded.revenue;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_totals_added AFTER INSERT ON orders
  REFERENCING NEW TABLE AS added_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_totals_added();
--> statement-breakpoint
CREATE TRIGGER orders_totals_removed AFTER DELETE ON orders
  REFERENCING OLD TABLE AS removed_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_totals_removed();
--> statement-breakpoint
-- Orders that existed before this migration.
INSERT INTO product_sales (product_id, units)
SELECT product_id, sum(quantity) FROM orders WHERE product_id IS NOT NULL GROUP BY product_id;
--> statement-breakpoint
INSERT INTO order_totals (slot, orders, revenue)
SELECT 0, count(*), coalesce(sum(total_price), 0) FROM orders;
