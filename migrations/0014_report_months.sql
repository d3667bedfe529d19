CREATE TABLE "sales_month_categories" (
	"month" date NOT NULL,
	"category_name" text NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(16, 2) DEFAULT '0' NOT NULL,
	"cost" numeric(16, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "sales_month_categories_month_category_name_pk" PRIMARY KEY("month","category_name")
);
--> statement-breakpoint
CREATE TABLE "sales_month_staff" (
	"month" date NOT NULL,
	"user_id" uuid,
	"orders" integer DEFAULT 0 NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(16, 2) DEFAULT '0' NOT NULL,
	"cost" numeric(16, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "sales_month_staff_month_user_key" UNIQUE NULLS NOT DISTINCT("month","user_id")
);
--> statement-breakpoint
CREATE TABLE "sales_two_month_products" (
	"first_month" date NOT NULL,
	"product_id" uuid NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(16, 2) DEFAULT '0' NOT NULL,
	"margin_up" numeric(16, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "sales_two_month_products_first_month_product_id_pk" PRIMARY KEY("first_month","product_id")
);
--> statement-breakpoint
ALTER TABLE "sales_two_month_products" ADD CONSTRAINT "sales_two_month_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sales_two_month_products_revenue_idx" ON "sales_two_month_products" USING btree ("first_month","revenue" DESC NULLS FIRST,"product_id");--> statement-breakpoint
CREATE INDEX "sales_two_month_products_units_idx" ON "sales_two_month_products" USING btree ("first_month","units" DESC NULLS FIRST,"product_id");--> statement-breakpoint
CREATE INDEX "sales_two_month_products_margin_up_idx" ON "sales_two_month_products" USING btree ("first_month","margin_up" DESC NULLS FIRST,"product_id");--> statement-breakpoint
-- Monthly figures beside the daily ones (DESIGN §10, decision 0013).
--
-- sales_month_categories and sales_month_staff are the daily figures of 0013 summed by month (the
-- first day of the month in report_settings' zone): the categories and staff reports read a range's
-- whole months there and only the days of its partial months at the edges: for a year of the
-- bench's 200 categories, some 8,000 rows instead of 73,000. sales_two_month_products holds, per product, what it sold in two months
-- running (first_month and the month after; every month is in two such rows), with
-- margin_up as in product_sales: an upper bound of what the product sold in any range inside those
-- two months, so that the products report walks a range of up to two months (30 days, this month,
-- last month) the way it walks a year by product_sales.
--
-- This file now holds the current bodies of orders_figures_counted and sales_days_rebuild: it
-- replaces those of 0013, which they keep doing as they did, and adds the tables above to both.
--
-- Writes to orders wait until this migration is done (SHARE lock, as sales_days_use_time_zone
-- takes), so that no order counted by 0013's trigger is missed by the months filled below.
LOCK TABLE orders IN SHARE MODE;
--> statement-breakpoint
-- TG_ARGV[0] is the factor: 1 adds changed_orders, -1 subtracts them. Products' figures leave out
-- orders whose product is gone: product_id null, or (while a product is being deleted, its
-- orders' product_id being set null) a product no longer there; the product's own rows go with it
-- by the cascade, and writing to them then would break their foreign key. Rows are written in key
-- order, so that statements of many orders take their locks in one order. One statement: the
-- order path pays for one plan and one execution. Subtracting may end a product's last day with
-- sales, so then its last_day is looked up again (a backward probe of its days).
CREATE OR REPLACE FUNCTION orders_figures_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  factor int := TG_ARGV[0]::int;
  zone text := (SELECT time_zone FROM report_settings);
  stripe smallint := floor(random() * 8)::smallint;
BEGIN
  WITH o AS MATERIALIZED (
    SELECT (order_date AT TIME ZONE zone)::date AS day,
           date_trunc('month', order_date AT TIME ZONE zone)::date AS month,
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
  ), two_month_products AS (
    -- An order's month counts in the two months starting with it and in those starting a month before.
    INSERT INTO sales_two_month_products AS w (first_month, product_id, units, revenue, margin_up)
    SELECT w.first_month, product_id, sum(units), sum(revenue), sum(margin_up)
    FROM sold CROSS JOIN LATERAL (VALUES (month), ((month - interval '1 month')::date)) AS w(first_month)
    GROUP BY w.first_month, product_id ORDER BY w.first_month, product_id
    ON CONFLICT (first_month, product_id) DO UPDATE
      SET units = w.units + excluded.units, revenue = w.revenue + excluded.revenue,
          margin_up = w.margin_up + excluded.margin_up
  ), day_categories AS (
    INSERT INTO sales_day_categories AS d (day, category_name, units, revenue, cost)
    SELECT day, category_name, sum(units), sum(revenue), sum(cost)
    FROM o GROUP BY day, category_name ORDER BY day, category_name
    ON CONFLICT (day, category_name) DO UPDATE
      SET units = d.units + excluded.units, revenue = d.revenue + excluded.revenue, cost = d.cost + excluded.cost
  ), month_categories AS (
    INSERT INTO sales_month_categories AS m (month, category_name, units, revenue, cost)
    SELECT month, category_name, sum(units), sum(revenue), sum(cost)
    FROM o GROUP BY month, category_name ORDER BY month, category_name
    ON CONFLICT (month, category_name) DO UPDATE
      SET units = m.units + excluded.units, revenue = m.revenue + excluded.revenue, cost = m.cost + excluded.cost
  ), day_staff AS (
    INSERT INTO sales_day_staff AS d (day, user_id, orders, units, revenue, cost)
    SELECT day, user_id, sum(orders), sum(units), sum(revenue), sum(cost)
    FROM o GROUP BY day, user_id ORDER BY day, user_id
    ON CONFLICT (day, user_id) DO UPDATE
      SET orders = d.orders + excluded.orders, units = d.units + excluded.units,
          revenue = d.revenue + excluded.revenue, cost = d.cost + excluded.cost
  )
  INSERT INTO sales_month_staff AS m (month, user_id, orders, units, revenue, cost)
  SELECT month, user_id, sum(orders), sum(units), sum(revenue), sum(cost)
  FROM o GROUP BY month, user_id ORDER BY month, user_id
  ON CONFLICT (month, user_id) DO UPDATE
    SET orders = m.orders + excluded.orders, units = m.units + excluded.units,
        revenue = m.revenue + excluded.revenue, cost = m.cost + excluded.cost;
  IF factor < 0 THEN
    UPDATE product_sales s
    SET last_day = (SELECT max(d.day) FROM sales_day_products d WHERE d.product_id = s.product_id AND d.units > 0)
    WHERE s.product_id IN (SELECT product_id FROM changed_orders);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Every daily and monthly figure and every product's last day recounted from the orders, in
-- report_settings' zone: what orders_figures_counted keeps, computed the same way (keep the two in
-- step). For a change of zone (sales_days_use_time_zone, 0013, calls it).
CREATE OR REPLACE FUNCTION sales_days_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  zone text := (SELECT time_zone FROM report_settings);
BEGIN
  TRUNCATE sales_days, sales_day_products, sales_day_categories, sales_day_staff,
           sales_month_categories, sales_month_staff, sales_two_month_products;
  WITH o AS MATERIALIZED (
    SELECT (order_date AT TIME ZONE zone)::date AS day,
           date_trunc('month', order_date AT TIME ZONE zone)::date AS month,
           product_id, category_name, user_id,
           (status = 'placed')::int AS orders,
           quantity - returned_quantity AS units,
           (quantity - returned_quantity) * unit_price AS revenue,
           (quantity - returned_quantity) * coalesce(unit_cost, 0) AS cost,
           greatest(0, (quantity - returned_quantity) * (unit_price - coalesce(unit_cost, 0))) AS margin_up
    FROM orders
  ), days AS (
    INSERT INTO sales_days (day, slot, orders, units, revenue, cost)
    SELECT day, 0, sum(orders), sum(units), sum(revenue), sum(cost) FROM o GROUP BY day ORDER BY day
  ), day_products AS (
    -- In key order: the primary key then grows at its end (a third faster at a million orders).
    INSERT INTO sales_day_products (product_id, day, orders, units, revenue, cost)
    SELECT product_id, day, sum(orders), sum(units), sum(revenue), sum(cost)
    FROM o WHERE product_id IS NOT NULL GROUP BY product_id, day ORDER BY product_id, day
  ), two_month_products AS (
    INSERT INTO sales_two_month_products (first_month, product_id, units, revenue, margin_up)
    SELECT w.first_month, product_id, sum(units), sum(revenue), sum(margin_up)
    FROM o CROSS JOIN LATERAL (VALUES (month), ((month - interval '1 month')::date)) AS w(first_month)
    WHERE product_id IS NOT NULL GROUP BY w.first_month, product_id ORDER BY w.first_month, product_id
  ), day_categories AS (
    INSERT INTO sales_day_categories (day, category_name, units, revenue, cost)
    SELECT day, category_name, sum(units), sum(revenue), sum(cost)
    FROM o GROUP BY day, category_name ORDER BY day, category_name
  ), month_categories AS (
    INSERT INTO sales_month_categories (month, category_name, units, revenue, cost)
    SELECT month, category_name, sum(units), sum(revenue), sum(cost)
    FROM o GROUP BY month, category_name ORDER BY month, category_name
  ), day_staff AS (
    INSERT INTO sales_day_staff (day, user_id, orders, units, revenue, cost)
    SELECT day, user_id, sum(orders), sum(units), sum(revenue), sum(cost)
    FROM o GROUP BY day, user_id ORDER BY day, user_id
  )
  INSERT INTO sales_month_staff (month, user_id, orders, units, revenue, cost)
  SELECT month, user_id, sum(orders), sum(units), sum(revenue), sum(cost)
  FROM o GROUP BY month, user_id ORDER BY month, user_id;
  UPDATE product_sales s SET last_day = l.last_day
  FROM (SELECT p.product_id, d.last_day
        FROM product_sales p
        LEFT JOIN (SELECT product_id, max(day) AS last_day FROM sales_day_products WHERE units > 0
                   GROUP BY product_id) d ON d.product_id = p.product_id) l
  WHERE s.product_id = l.product_id AND s.last_day IS DISTINCT FROM l.last_day;
END $$;
--> statement-breakpoint
-- The months of the orders counted so far: categories and staff summed from their days (the
-- same figures by month), the products' two months from the orders (margin_up is per order).
INSERT INTO sales_month_categories (month, category_name, units, revenue, cost)
SELECT date_trunc('month', day::timestamp)::date, category_name, sum(units), sum(revenue), sum(cost)
FROM sales_day_categories GROUP BY 1, 2 ORDER BY 1, 2;
--> statement-breakpoint
INSERT INTO sales_month_staff (month, user_id, orders, units, revenue, cost)
SELECT date_trunc('month', day::timestamp)::date, user_id, sum(orders), sum(units), sum(revenue), sum(cost)
FROM sales_day_staff GROUP BY 1, 2 ORDER BY 1, 2;
--> statement-breakpoint
INSERT INTO sales_two_month_products (first_month, product_id, units, revenue, margin_up)
SELECT w.first_month, o.product_id, sum(o.units), sum(o.revenue), sum(o.margin_up)
FROM (SELECT date_trunc('month', order_date AT TIME ZONE (SELECT time_zone FROM report_settings))::date AS month,
             product_id, quantity - returned_quantity AS units, (quantity - returned_quantity) * unit_price AS revenue,
             greatest(0, (quantity - returned_quantity) * (unit_price - coalesce(unit_cost, 0))) AS margin_up
      FROM orders WHERE product_id IS NOT NULL) o
CROSS JOIN LATERAL (VALUES (o.month), ((o.month - interval '1 month')::date)) AS w(first_month)
GROUP BY 1, 2 ORDER BY 1, 2;
