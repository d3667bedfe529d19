-- The sales of each day beside its revenue (DESIGN §16 "Dashboard", decision 0025): the dashboard's
-- "Order Today" and its day (sales, revenue net of returns, average basket) read one kept day row
-- (8 slots) instead of the orders.
--
-- A sale counts once on its day however many lines it has, and an order placed without a sale
-- counts once: an order counts 1 when it has no sale or is its sale's first line (sale_line 1; a
-- sale line without a number counts too). Counted from orders, not from the sales table, so it
-- moves with an order's date, and a catalogue order counts once whether or not it is recorded as a
-- one-line sale. A return does not take a sale away (it was placed); its revenue is net of it.
--
-- This file replaces the bodies of orders_figures_counted (0016's body, the current one) and
-- sales_days_rebuild (0015's body, the current one): each gains the sales column of sales_days and
-- keeps doing all it did. Writes to orders wait until this migration is done (SHARE lock, as 0014
-- takes, and taken first, before sales_days, in the order an order's trigger takes them), so no
-- order is counted twice or missed by the backfill below.
LOCK TABLE orders IN SHARE MODE;
--> statement-breakpoint
ALTER TABLE "sales_days" ADD COLUMN "sales" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_figures_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  factor int := TG_ARGV[0]::int;
  zone text := (SELECT time_zone FROM report_settings);
  stripe smallint := counter_slot();
BEGIN
  WITH o AS MATERIALIZED (
    SELECT (order_date AT TIME ZONE zone)::date AS day,
           date_trunc('month', order_date AT TIME ZONE zone)::date AS month,
           date_bin('15 minutes', order_date, timestamptz '2000-01-01 00:00:00+00') AS quarter,
           product_id, category_name, user_id, customer_id, customer_name, sale_id,
           factor * (status = 'placed')::int AS orders,
           factor * (sale_id IS NULL OR coalesce(sale_line, 1) = 1)::int AS sales,
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
    INSERT INTO sales_days AS d (day, slot, orders, units, revenue, cost, sales)
    SELECT day, stripe, sum(orders), sum(units), sum(revenue), sum(cost), sum(sales) FROM o GROUP BY day ORDER BY day
    ON CONFLICT (day, slot) DO UPDATE
      SET orders = d.orders + excluded.orders, units = d.units + excluded.units,
          revenue = d.revenue + excluded.revenue, cost = d.cost + excluded.cost, sales = d.sales + excluded.sales
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
  ), day_customers AS (
    -- By customer (a sale's lines are inserted by one statement, so a sale counts once a day).
    INSERT INTO sales_day_customers AS d (day, customer_id, sales, units, revenue)
    SELECT day, customer_id, factor * count(DISTINCT sale_id), sum(units), sum(revenue)
    FROM o WHERE customer_name IS NOT NULL GROUP BY day, customer_id ORDER BY day, customer_id
    ON CONFLICT (day, customer_id) DO UPDATE
      SET sales = d.sales + excluded.sales, units = d.units + excluded.units, revenue = d.revenue + excluded.revenue
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
  TRUNCATE sales_days, sales_day_customers, sales_day_products, sales_day_categories, sales_day_staff,
           sales_month_categories, sales_month_staff, sales_two_month_products;
  WITH o AS MATERIALIZED (
    SELECT (order_date AT TIME ZONE zone)::date AS day,
           date_trunc('month', order_date AT TIME ZONE zone)::date AS month,
           product_id, category_name, user_id, customer_id, customer_name, sale_id,
           (status = 'placed')::int AS orders,
           (sale_id IS NULL OR coalesce(sale_line, 1) = 1)::int AS sales,
           quantity - returned_quantity AS units,
           (quantity - returned_quantity) * unit_price AS revenue,
           (quantity - returned_quantity) * coalesce(unit_cost, 0) AS cost,
           greatest(0, (quantity - returned_quantity) * (unit_price - coalesce(unit_cost, 0))) AS margin_up
    FROM orders
  ), days AS (
    INSERT INTO sales_days (day, slot, orders, units, revenue, cost, sales)
    SELECT day, 0, sum(orders), sum(units), sum(revenue), sum(cost), sum(sales) FROM o GROUP BY day ORDER BY day
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
  ), day_customers AS (
    INSERT INTO sales_day_customers (day, customer_id, sales, units, revenue)
    SELECT day, customer_id, count(DISTINCT sale_id), sum(units), sum(revenue)
    FROM o WHERE customer_name IS NOT NULL GROUP BY day, customer_id ORDER BY day, customer_id
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
-- The sales of the days counted so far, in report_settings' zone (the days' other figures stay as
-- they are). A day with orders has its rows already; slot 0 is added where it is missing.
INSERT INTO sales_days AS d (day, slot, sales)
SELECT (order_date AT TIME ZONE (SELECT time_zone FROM report_settings))::date, 0, count(*)
FROM orders WHERE sale_id IS NULL OR coalesce(sale_line, 1) = 1
GROUP BY 1 ORDER BY 1
ON CONFLICT (day, slot) DO UPDATE SET sales = d.sales + excluded.sales;
