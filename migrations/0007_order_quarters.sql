CREATE TABLE "order_quarters" (
	"quarter" timestamp with time zone NOT NULL,
	"slot" smallint NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "order_quarters_quarter_slot_pk" PRIMARY KEY("quarter","slot")
);
--> statement-breakpoint
-- Orders per quarter of an hour, so the dashboard's "orders today" sums at most 96 quarters (x 8
-- slots) instead of counting the day's orders, which an index-only scan cannot do cheaply while
-- the day's rows are too new to be all-visible. Every time zone in use today is offset from UTC
-- by a multiple of 15 minutes, so a local day is made of whole quarters. The existing
-- statement-level trigger functions of migration 0003 gain one statement each; a new trigger
-- moves orders whose order_date is changed.
CREATE OR REPLACE FUNCTION orders_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_sales AS s (product_id, units)
  SELECT product_id, sum(quantity) FROM added_orders WHERE product_id IS NOT NULL GROUP BY product_id
  ON CONFLICT (product_id) DO UPDATE SET units = s.units + excluded.units;
  INSERT INTO order_totals AS t (slot, orders, revenue)
  SELECT floor(random() * 8)::smallint, count(*), sum(total_price) FROM added_orders HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET orders = t.orders + excluded.orders, revenue = t.revenue + excluded.revenue;
  INSERT INTO order_quarters AS q (quarter, slot, orders)
  SELECT date_bin('15 minutes', order_date, timestamptz '2000-01-01 00:00:00+00'), floor(random() * 8)::smallint, count(*)
  FROM added_orders GROUP BY 1
  ON CONFLICT (quarter, slot) DO UPDATE SET orders = q.orders + excluded.orders;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE product_sales AS s SET units = s.units - r.units
  FROM (SELECT product_id, sum(quantity) AS units FROM removed_orders
        WHERE product_id IS NOT NULL GROUP BY product_id) r
  WHERE s.product_id = r.product_id;
  INSERT INTO order_totals AS t (slot, orders, revenue)
  SELECT 0, -count(*), -sum(total_price) FROM removed_orders HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET orders = t.orders + excluded.orders, revenue = t.revenue + excluded.revenue;
  INSERT INTO order_quarters AS q (quarter, slot, orders)
  SELECT date_bin('15 minutes', order_date, timestamptz '2000-01-01 00:00:00+00'), 0, -count(*)
  FROM removed_orders GROUP BY 1
  ON CONFLICT (quarter, slot) DO UPDATE SET orders = q.orders + excluded.orders;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION orders_quarters_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_quarters AS q (quarter, slot, orders)
  SELECT quarter, 0, sum(n)
  FROM (SELECT date_bin('15 minutes', n.order_date, timestamptz '2000-01-01 00:00:00+00') AS quarter, 1 AS n
        FROM new_orders n JOIN old_orders o ON o.id = n.id WHERE o.order_date <> n.order_date
        UNION ALL
        SELECT date_bin('15 minutes', o.order_date, timestamptz '2000-01-01 00:00:00+00'), -1
        FROM new_orders n JOIN old_orders o ON o.id = n.id WHERE o.order_date <> n.order_date) moved
  GROUP BY quarter HAVING sum(n) <> 0
  ON CONFLICT (quarter, slot) DO UPDATE SET orders = q.orders + excluded.orders;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_quarters_moved AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION orders_quarters_moved();
--> statement-breakpoint
-- Orders that existed before this migration.
INSERT INTO order_quarters (quarter, slot, orders)
SELECT date_bin('15 minutes', order_date, timestamptz '2000-01-01 00:00:00+00'), 0, count(*) FROM orders GROUP BY 1;
