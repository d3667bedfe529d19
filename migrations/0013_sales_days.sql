CREATE TABLE "category_stock" (
	"category_id" uuid NOT NULL,
	"slot" smallint NOT NULL,
	"products" integer DEFAULT 0 NOT NULL,
	"units" bigint DEFAULT 0 NOT NULL,
	"value" numeric(18, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "category_stock_category_id_slot_pk" PRIMARY KEY("category_id","slot")
);
--> statement-breakpoint
CREATE TABLE "report_settings" (
	"only" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"time_zone" text NOT NULL,
	CONSTRAINT "report_settings_one_row" CHECK ("report_settings"."only")
);
--> statement-breakpoint
CREATE TABLE "sales_day_categories" (
	"day" date NOT NULL,
	"category_name" text NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(16, 2) DEFAULT '0' NOT NULL,
	"cost" numeric(16, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "sales_day_categories_day_category_name_pk" PRIMARY KEY("day","category_name")
);
--> statement-breakpoint
CREATE TABLE "sales_day_products" (
	"product_id" uuid NOT NULL,
	"day" date NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(16, 2) DEFAULT '0' NOT NULL,
	"cost" numeric(16, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "sales_day_products_product_id_day_pk" PRIMARY KEY("product_id","day")
);
--> statement-breakpoint
CREATE TABLE "sales_day_staff" (
	"day" date NOT NULL,
	"user_id" uuid,
	"orders" integer DEFAULT 0 NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(16, 2) DEFAULT '0' NOT NULL,
	"cost" numeric(16, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "sales_day_staff_day_user_key" UNIQUE NULLS NOT DISTINCT("day","user_id")
);
--> statement-breakpoint
CREATE TABLE "sales_days" (
	"day" date NOT NULL,
	"slot" smallint NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(16, 2) DEFAULT '0' NOT NULL,
	"cost" numeric(16, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "sales_days_day_slot_pk" PRIMARY KEY("day","slot")
);
--> statement-breakpoint
DROP INDEX "product_sales_units_idx";--> statement-breakpoint
ALTER TABLE "product_sales" ADD COLUMN "revenue" numeric(16, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_sales" ADD COLUMN "margin_up" numeric(16, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_sales" ADD COLUMN "last_day" date;--> statement-breakpoint
ALTER TABLE "category_stock" ADD CONSTRAINT "category_stock_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_day_products" ADD CONSTRAINT "sales_day_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sales_day_products_day_idx" ON "sales_day_products" USING btree ("day");--> statement-breakpoint
CREATE INDEX "product_sales_revenue_idx" ON "product_sales" USING btree ("revenue" DESC NULLS FIRST,"product_id");--> statement-breakpoint
CREATE INDEX "product_sales_margin_up_idx" ON "product_sales" USING btree ("margin_up" DESC NULLS FIRST,"product_id");--> statement-breakpoint
CREATE INDEX "product_sales_last_day_idx" ON "product_sales" USING btree ("last_day","product_id");--> statement-breakpoint
CREATE INDEX "product_sales_units_idx" ON "product_sales" USING btree ("units" DESC NULLS FIRST,"product_id");--> statement-breakpoint
-- Reports read kept daily figures instead of orders (DESIGN §10, decision 0013).
--
-- This file holds the current body of every function that keeps figures from orders: it drops
-- the trigger functions of migrations 0003, 0007 and 0010 (orders_totals_added,
-- orders_totals_removed, orders_quarters_moved, orders_returns_counted) and their triggers, and
-- puts one function in their place, orders_figures_counted, which keeps order_totals,
-- order_quarters and product_sales as they did (net of returns now also for an order inserted with
-- units already returned, which they counted whole), and the daily figures of this migration. It also
-- holds the current bodies of the functions of the triggers on products (product_totals_added and
-- product_totals_changed, last replaced in 0011, and product_totals_removed, from 0005): they keep
-- category_stock too, and a new product gets its product_sales row.
--
-- How: every order counts, in every figure, what it is worth now (net of returns). Inserting
-- orders adds what the new rows are worth (factor 1), deleting them subtracts what the old rows
-- were worth (factor -1), and an update does both: one trigger subtracts the old rows, another
-- adds the new ones. So a return, a date that changes, a user deleted (user_id set null: their
-- figures move to the null row) or a product deleted (product_id set null) all move the right
-- amounts, in one statement per trigger that sees every row of the statement at once, as before.
-- Each of the four triggers names its transition table changed_orders, so one body serves them all.
DROP TRIGGER orders_totals_added ON orders;
--> statement-breakpoint
DROP TRIGGER orders_totals_removed ON orders;
--> statement-breakpoint
DROP TRIGGER orders_quarters_moved ON orders;
--> statement-breakpoint
DROP TRIGGER orders_returns_counted ON orders;
--> statement-breakpoint
DROP FUNCTION orders_totals_added();
--> statement-breakpoint
DROP FUNCTION orders_totals_removed();
--> statement-breakpoint
DROP FUNCTION orders_quarters_moved();
--> statement-breakpoint
DROP FUNCTION orders_returns_counted();
--> statement-breakpoint
-- TG_ARGV[0] is the factor: 1 adds changed_orders, -1 subtracts them. Products' figures leave out
-- orders whose product is gone: product_id null, or (while a product is being deleted, its
-- orders' product_id being set null) a product no longer there; the product's own rows go with it
-- by the cascade, and writing to them then would break their foreign key. Rows are written in key
-- order, so that statements of many orders take their locks in one order. One statement: the
-- order path pays for one plan and one execution. Subtracting may end a product's last day with
-- sales, so then its last_day is looked up again (a backward probe of its days).
CREATE FUNCTION orders_figures_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  factor int := TG_ARGV[0]::int;
  zone text := (SELECT time_zone FROM report_settings);
  stripe smallint := floor(random() * 8)::smallint;
BEGIN
  WITH o AS MATERIALIZED (
    SELECT (order_date AT TIME ZONE zone)::date AS day,
           date_bin('15 minutes', order_date, timestamptz '2000-01-01 00:00:00+00') AS quarter,
           product_id, category_name, user_id,
           factor * (status = 'placed')::int AS orders,
           factor * (quantity - returned_quantity) AS units,
           factor * (quantity - returned_quantity) * unit_price AS revenue,
           factor * (quantity - returned_quantity) * coalesce(unit_cost, 0) AS cost,
           factor * greatest(0, (quantity - returned_quantity) * (unit_price - coalesce(unit_cost, 0))) AS margin_up
    FROM changed_orders
  ), sold AS MATERIALIZED (
    SELECT * FROM o WHERE EXISTS (SELECT 1 FROM products p WHERE p.id = o.product_id)
  ), totals AS (
    INSERT INTO order_totals AS t (slot, orders, revenue)
    SELECT stripe, factor * count(*), sum(revenue) FROM o HAVING count(*) > 0
    ON CONFLICT (slot) DO UPDATE SET orders = t.orders + excluded.orders, revenue = t.revenue + excluded.revenue
  ), quarters AS (
    INSERT INTO order_quarters AS q (quarter, slot, orders)
    SELECT quarter, stripe, factor * count(*) FROM o GROUP BY quarter ORDER BY quarter
    ON CONFLICT (quarter, slot) DO UPDATE SET orders = q.orders + excluded.orders
  ), product_totals AS (
    INSERT INTO product_sales AS s (product_id, units, revenue, margin_up, last_day)
    SELECT product_id, sum(units), sum(revenue), sum(margin_up), max(day) FILTER (WHERE units > 0)
    FROM sold GROUP BY product_id ORDER BY product_id
    ON CONFLICT (product_id) DO UPDATE
      SET units = s.units + excluded.units, revenue = s.revenue + excluded.revenue,
          margin_up = s.margin_up + excluded.margin_up, last_day = greatest(s.last_day, excluded.last_day)
  ), days AS (
    INSERT INTO sales_days AS d (day, slot, orders, units, revenue, cost)
    SELECT day, stripe, sum(orders), sum(units), sum(revenue), sum(cost) FROM o GROUP BY day ORDER BY day
    ON CONFLICT (day, slot) DO UPDATE
      SET orders = d.orders + excluded.orders, units = d.units + excluded.units,
          revenue = d.revenue + excluded.revenue, cost = d.cost + excluded.cost
  ), day_products AS (
    INSERT INTO sales_day_products AS d (product_id, day, orders, units, revenue, cost)
    SELECT product_id, day, sum(orders), sum(units), sum(revenue), sum(cost)
    FROM sold GROUP BY product_id, day ORDER BY product_id, day
    ON CONFLICT (product_id, day) DO UPDATE
      SET orders = d.orders + excluded.orders, units = d.units + excluded.units,
          revenue = d.revenue + excluded.revenue, cost = d.cost + excluded.cost
  ), day_categories AS (
    INSERT INTO sales_day_categories AS d (day, category_name, units, revenue, cost)
    SELECT day, category_name, sum(units), sum(revenue), sum(cost)
    FROM o GROUP BY day, category_name ORDER BY day, category_name
    ON CONFLICT (day, category_name) DO UPDATE
      SET units = d.units + excluded.units, revenue = d.revenue + excluded.revenue, cost = d.cost + excluded.cost
  )
  INSERT INTO sales_day_staff AS d (day, user_id, orders, units, revenue, cost)
  SELECT day, user_id, sum(orders), sum(units), sum(revenue), sum(cost)
  FROM o GROUP BY day, user_id ORDER BY day, user_id
  ON CONFLICT (day, user_id) DO UPDATE
    SET orders = d.orders + excluded.orders, units = d.units + excluded.units,
        revenue = d.revenue + excluded.revenue, cost = d.cost + excluded.cost;
  IF factor < 0 THEN
    UPDATE product_sales s
    SET last_day = (SELECT max(d.day) FROM sales_day_products d WHERE d.product_id = s.product_id AND d.units > 0)
    WHERE s.product_id IN (SELECT product_id FROM changed_orders);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_figures_added AFTER INSERT ON orders
  REFERENCING NEW TABLE AS changed_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_figures_counted('1');
--> statement-breakpoint
CREATE TRIGGER orders_figures_removed AFTER DELETE ON orders
  REFERENCING OLD TABLE AS changed_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_figures_counted('-1');
--> statement-breakpoint
CREATE TRIGGER orders_figures_changed_from AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS changed_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_figures_counted('-1');
--> statement-breakpoint
CREATE TRIGGER orders_figures_changed_to AFTER UPDATE ON orders
  REFERENCING NEW TABLE AS changed_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_figures_counted('1');
--> statement-breakpoint
-- The triggers on products (0005): product_totals and product_stock as before (0011's bodies),
-- and now category_stock, each product's stock and its value at cost added to its category, and
-- (new products) a product_sales row without sales, so that products that never sold are found in
-- product_sales' indexes like the others. An order changes one product's stock: one more upsert.
CREATE OR REPLACE FUNCTION product_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_totals AS t (slot, products, stock)
  SELECT floor(random() * 8)::smallint, count(*), sum(stock) FROM added_products HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET products = t.products + excluded.products, stock = t.stock + excluded.stock;
  INSERT INTO product_stock (product_id, stock, name_key, reorder_point)
  SELECT id, stock, lower(name), reorder_point FROM added_products;
  INSERT INTO product_sales (product_id, units) SELECT id, 0 FROM added_products ORDER BY id;
  INSERT INTO category_stock AS t (category_id, slot, products, units, value)
  SELECT category_id, floor(random() * 8)::smallint, count(*), sum(stock), sum(stock * coalesce(cost, 0))
  FROM added_products GROUP BY category_id ORDER BY category_id
  ON CONFLICT (category_id, slot) DO UPDATE
    SET products = t.products + excluded.products, units = t.units + excluded.units, value = t.value + excluded.value;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_totals AS t (slot, products, stock)
  SELECT floor(random() * 8)::smallint, -count(*), -sum(stock) FROM removed_products HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET products = t.products + excluded.products, stock = t.stock + excluded.stock;
  INSERT INTO category_stock AS t (category_id, slot, products, units, value)
  SELECT category_id, floor(random() * 8)::smallint, -count(*), -sum(stock), -sum(stock * coalesce(cost, 0))
  FROM removed_products GROUP BY category_id ORDER BY category_id
  ON CONFLICT (category_id, slot) DO UPDATE
    SET products = t.products + excluded.products, units = t.units + excluded.units, value = t.value + excluded.value;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  SELECT coalesce((SELECT sum(stock) FROM new_products), 0) - coalesce((SELECT sum(stock) FROM old_products), 0)
    INTO delta;
  IF delta <> 0 THEN
    INSERT INTO product_totals AS t (slot, products, stock)
    VALUES (floor(random() * 8)::smallint, 0, delta)
    ON CONFLICT (slot) DO UPDATE SET stock = t.stock + excluded.stock;
  END IF;
  INSERT INTO product_stock AS s (product_id, stock, name_key, reorder_point)
  SELECT id, stock, lower(name), reorder_point FROM new_products
  ON CONFLICT (product_id) DO UPDATE
    SET stock = excluded.stock, name_key = excluded.name_key, reorder_point = excluded.reorder_point
  WHERE s.stock <> excluded.stock OR s.name_key <> excluded.name_key
     OR s.reorder_point IS DISTINCT FROM excluded.reorder_point;
  INSERT INTO category_stock AS t (category_id, slot, products, units, value)
  SELECT category_id, floor(random() * 8)::smallint, sum(n), sum(units), sum(value)
  FROM (SELECT category_id, 1 AS n, stock AS units, stock * coalesce(cost, 0) AS value FROM new_products
        UNION ALL
        SELECT category_id, -1, -stock, -stock * coalesce(cost, 0) FROM old_products) d
  GROUP BY category_id HAVING sum(n) <> 0 OR sum(units) <> 0 OR sum(value) <> 0 ORDER BY category_id
  ON CONFLICT (category_id, slot) DO UPDATE
    SET products = t.products + excluded.products, units = t.units + excluded.units, value = t.value + excluded.value;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Every daily figure and every product's last day recounted from the orders, in report_settings'
-- zone: what orders_figures_counted keeps, computed the same way (keep the two in step). For this
-- migration and for a change of zone.
CREATE FUNCTION sales_days_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  zone text := (SELECT time_zone FROM report_settings);
BEGIN
  TRUNCATE sales_days, sales_day_products, sales_day_categories, sales_day_staff;
  WITH o AS MATERIALIZED (
    SELECT (order_date AT TIME ZONE zone)::date AS day, product_id, category_name, user_id,
           (status = 'placed')::int AS orders,
           quantity - returned_quantity AS units,
           (quantity - returned_quantity) * unit_price AS revenue,
           (quantity - returned_quantity) * coalesce(unit_cost, 0) AS cost
    FROM orders
  ), days AS (
    INSERT INTO sales_days (day, slot, orders, units, revenue, cost)
    SELECT day, 0, sum(orders), sum(units), sum(revenue), sum(cost) FROM o GROUP BY day ORDER BY day
  ), day_products AS (
    -- In key order: the primary key then grows at its end (a third faster at a million orders).
    INSERT INTO sales_day_products (product_id, day, orders, units, revenue, cost)
    SELECT product_id, day, sum(orders), sum(units), sum(revenue), sum(cost)
    FROM o WHERE product_id IS NOT NULL GROUP BY product_id, day ORDER BY product_id, day
  ), day_categories AS (
    INSERT INTO sales_day_categories (day, category_name, units, revenue, cost)
    SELECT day, category_name, sum(units), sum(revenue), sum(cost)
    FROM o GROUP BY day, category_name ORDER BY day, category_name
  )
  INSERT INTO sales_day_staff (day, user_id, orders, units, revenue, cost)
  SELECT day, user_id, sum(orders), sum(units), sum(revenue), sum(cost)
  FROM o GROUP BY day, user_id ORDER BY day, user_id;
  UPDATE product_sales s SET last_day = l.last_day
  FROM (SELECT p.product_id, d.last_day
        FROM product_sales p
        LEFT JOIN (SELECT product_id, max(day) AS last_day FROM sales_day_products WHERE units > 0
                   GROUP BY product_id) d ON d.product_id = p.product_id) l
  WHERE s.product_id = l.product_id AND s.last_day IS DISTINCT FROM l.last_day;
END $$;
--> statement-breakpoint
-- Called at every start with the server's TZ; answers whether it changed the zone (and so
-- recounted). The settings row is locked first, so that of several servers starting at once one
-- recounts and the others, once it is done, find the zone set. Writes to orders wait meanwhile
-- (SHARE lock), so that no order is counted twice or missed.
CREATE FUNCTION sales_days_use_time_zone(zone text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  -- An unknown zone is refused here, before anything is locked.
  PERFORM now() AT TIME ZONE zone;
  IF EXISTS (SELECT 1 FROM report_settings WHERE time_zone = zone) THEN
    RETURN false;
  END IF;
  PERFORM 1 FROM report_settings FOR UPDATE;
  IF EXISTS (SELECT 1 FROM report_settings WHERE time_zone = zone) THEN
    RETURN false;
  END IF;
  LOCK TABLE orders IN SHARE MODE;
  UPDATE report_settings SET time_zone = zone;
  PERFORM sales_days_rebuild();
  RETURN true;
END $$;
--> statement-breakpoint
-- The schema declares it on (day) alone; INCLUDE lets a range of days be summed from the index.
DROP INDEX "sales_day_products_day_idx";
--> statement-breakpoint
CREATE INDEX "sales_day_products_day_idx" ON "sales_day_products" USING btree ("day") INCLUDE ("product_id", "units", "revenue", "cost");
--> statement-breakpoint
-- What existed before this migration: a product_sales row for every product, and every figure
-- recounted from the orders, net of returns. (The insert trigger of 0003 counted the whole quantity
-- and total of an order inserted with units already returned, as a bulk load may do.) The daily
-- figures count in the zone of the session that runs this; the server's TZ replaces it at start-up
-- when they differ.
INSERT INTO product_sales (product_id, units)
SELECT id, 0 FROM products ON CONFLICT (product_id) DO NOTHING;
--> statement-breakpoint
UPDATE product_sales s SET units = c.units, revenue = c.revenue, margin_up = c.margin_up
FROM (SELECT p.product_id, coalesce(o.units, 0) AS units, coalesce(o.revenue, 0) AS revenue,
             coalesce(o.margin_up, 0) AS margin_up
      FROM product_sales p
      LEFT JOIN (SELECT product_id, sum(quantity - returned_quantity) AS units,
                        sum((quantity - returned_quantity) * unit_price) AS revenue,
                        sum(greatest(0, (quantity - returned_quantity) * (unit_price - coalesce(unit_cost, 0))))
                          AS margin_up
                 FROM orders WHERE product_id IS NOT NULL GROUP BY product_id) o ON o.product_id = p.product_id) c
WHERE s.product_id = c.product_id;
--> statement-breakpoint
INSERT INTO category_stock (category_id, slot, products, units, value)
SELECT category_id, 0, count(*), sum(stock), sum(stock * coalesce(cost, 0)) FROM products GROUP BY category_id;
--> statement-breakpoint
TRUNCATE order_totals;
--> statement-breakpoint
INSERT INTO order_totals (slot, orders, revenue)
SELECT 0, count(*), coalesce(sum((quantity - returned_quantity) * unit_price), 0) FROM orders;
--> statement-breakpoint
INSERT INTO report_settings (time_zone) VALUES (current_setting('TimeZone'));
--> statement-breakpoint
SELECT sales_days_rebuild();
