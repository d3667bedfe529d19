-- Keeps every figure counted from orders (decisions 0013, 0016, 0025; DESIGN §12): order_totals,
-- order_quarters, product_sales, the daily and monthly figures and the tax by day and rate. Every
-- order counts what it is worth now, net of returns: its units, its revenue net of tax (what the
-- customer paid, after discounts, less its tax, less what returns gave back less their tax:
-- (total_price − tax) − (returned_total − returned_tax)), its cost, its tax kept (tax −
-- returned_tax) and its discount net of returns (discount − returned_discount: the share its
-- returned units took with them, pro rata as its money; none is left once all came back).
-- Orders placed before taxes (tax 0, returned_total = returned units × unit price) count exactly
-- what they counted before, under no rate ('' and 0) in sales_day_taxes.
-- TG_ARGV[0] is the factor: 1 adds changed_orders, -1 subtracts them;
-- an update does both (one trigger subtracts the old rows, another adds the new ones), so a return,
-- a date that changes, a user or product deleted (its id set null) all move the right amounts.
-- Products' figures leave out orders whose product is gone (product_id null, or a product being
-- deleted: its own rows go with it by the cascade). Rows are written in key order, so statements
-- of many orders take their locks in one order; subtracting may end a product's last day with
-- sales, so then its last_day is looked up again. sales_days_rebuild computes the same figures
-- from scratch: keep the two in step.
-- Needs: report_settings.time_zone; products.id; orders' order_date, status, product_id,
-- category_name, user_id, customer_id, customer_name, sale_id, sale_line, quantity,
-- returned_quantity, unit_cost, returned_cost, total_price, discount, tax, tax_rate_name, tax_rate,
-- returned_total, returned_tax, returned_discount; it writes order_totals (slot, orders, revenue),
-- order_quarters (quarter, slot, orders), product_sales (product_id, units, revenue, margin_up, last_day),
-- sales_days (day, slot, orders, units, revenue, cost, sales, discount, tax), sales_day_taxes (day,
-- rate_name, rate, base, tax), sales_day_products, sales_two_month_products, sales_day_categories,
-- sales_month_categories, sales_day_customers, sales_day_staff and sales_month_staff, upserting on
-- their keys; counter_slot().
-- Triggers (migration 0013), each naming its transition table changed_orders, FOR EACH STATEMENT:
-- orders_figures_added AFTER INSERT ('1'), orders_figures_removed AFTER DELETE ('-1'),
-- orders_figures_changed_from AFTER UPDATE (OLD TABLE, '-1'), orders_figures_changed_to AFTER
-- UPDATE (NEW TABLE, '1'), all ON orders.
CREATE OR REPLACE FUNCTION orders_figures_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  factor int := TG_ARGV[0]::int;
  zone text := (SELECT time_zone FROM report_settings);
  stripe smallint := counter_slot();
BEGIN
  WITH n AS (
    SELECT *, (total_price - tax) - (returned_total - returned_tax) AS net,
           order_cost(id, quantity, returned_quantity, unit_cost, returned_cost) AS spent
    FROM changed_orders
  ), o AS MATERIALIZED (
    SELECT (order_date AT TIME ZONE zone)::date AS day,
           date_trunc('month', order_date AT TIME ZONE zone)::date AS month,
           date_bin('15 minutes', order_date, timestamptz '2000-01-01 00:00:00+00') AS quarter,
           product_id, category_name, user_id, customer_id, customer_name, sale_id,
           coalesce(tax_rate_name, '') AS rate_name, coalesce(tax_rate, 0) AS rate,
           factor * (status = 'placed')::int AS orders,
           factor * (sale_id IS NULL OR coalesce(sale_line, 1) = 1)::int AS sales,
           factor * (quantity - returned_quantity) AS units,
           factor * net AS revenue,
           factor * spent AS cost,
           factor * greatest(0, net - spent) AS margin_up,
           factor * (discount - returned_discount) AS discount,
           factor * (tax - returned_tax) AS tax
    FROM n
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
    INSERT INTO sales_days AS d (day, slot, orders, units, revenue, cost, sales, discount, tax)
    SELECT day, stripe, sum(orders), sum(units), sum(revenue), sum(cost), sum(sales), sum(discount), sum(tax)
    FROM o GROUP BY day ORDER BY day
    ON CONFLICT (day, slot) DO UPDATE
      SET orders = d.orders + excluded.orders, units = d.units + excluded.units,
          revenue = d.revenue + excluded.revenue, cost = d.cost + excluded.cost, sales = d.sales + excluded.sales,
          discount = d.discount + excluded.discount, tax = d.tax + excluded.tax
  ), day_taxes AS (
    -- The tax report's figures: the net (base) and tax kept of each day and rate sold under.
    INSERT INTO sales_day_taxes AS d (day, rate_name, rate, base, tax)
    SELECT day, rate_name, rate, sum(revenue), sum(tax)
    FROM o GROUP BY day, rate_name, rate ORDER BY day, rate_name, rate
    ON CONFLICT (day, rate_name, rate) DO UPDATE SET base = d.base + excluded.base, tax = d.tax + excluded.tax
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
