-- Every daily and monthly figure, the tax by day and rate, and every product's last day recounted
-- from the orders, in report_settings' zone (decision 0013; DESIGN §12): what
-- orders_figures_counted keeps, computed the same way (keep the two in step): revenue net of tax
-- and of what returns gave back, ((total_price − tax) − (returned_total − returned_tax)); tax
-- kept (tax − returned_tax); discount kept (discount − returned_discount); cost by order_cost.
-- Each product's units, revenue and margin_up (product_sales) are recounted too, so a writer that
-- gave an order its movements after the order (the demo's history) recounts with this.
-- order_totals and order_quarters do not depend on the zone or the cost and are left as they are.
-- Needs: report_settings.time_zone; orders' order_date, status, product_id, category_name, user_id,
-- customer_id, customer_name, sale_id, sale_line, quantity, returned_quantity, unit_cost, returned_cost,
-- total_price, discount, tax, tax_rate_name, tax_rate, returned_total, returned_tax,
-- returned_discount; it empties and
-- refills sales_days, sales_day_taxes, sales_day_products, sales_two_month_products,
-- sales_day_categories, sales_month_categories, sales_day_customers, sales_day_staff and
-- sales_month_staff, and recounts product_sales (units, revenue, margin_up, last_day).
-- Called by sales_days_use_time_zone.
CREATE OR REPLACE FUNCTION sales_days_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  zone text := (SELECT time_zone FROM report_settings);
BEGIN
  TRUNCATE sales_days, sales_day_taxes, sales_day_customers, sales_day_products, sales_day_categories,
           sales_day_staff, sales_month_categories, sales_month_staff, sales_two_month_products;
  UPDATE product_sales SET units = 0, revenue = 0, margin_up = 0;
  WITH n AS (
    SELECT *, (total_price - tax) - (returned_total - returned_tax) AS net,
           order_cost(id, quantity, returned_quantity, unit_cost, returned_cost) AS spent
    FROM orders
  ), o AS MATERIALIZED (
    SELECT (order_date AT TIME ZONE zone)::date AS day,
           date_trunc('month', order_date AT TIME ZONE zone)::date AS month,
           product_id, category_name, user_id, customer_id, customer_name, sale_id,
           coalesce(tax_rate_name, '') AS rate_name, coalesce(tax_rate, 0) AS rate,
           (status = 'placed')::int AS orders,
           (sale_id IS NULL OR coalesce(sale_line, 1) = 1)::int AS sales,
           quantity - returned_quantity AS units,
           net AS revenue,
           spent AS cost,
           greatest(0, net - spent) AS margin_up,
           discount - returned_discount AS discount,
           tax - returned_tax AS tax
    FROM n
  ), product_totals AS (
    -- Each product's all-time figures (zeroed just before), as orders_figures_counted keeps them.
    INSERT INTO product_sales AS s (product_id, units, revenue, margin_up)
    SELECT product_id, sum(units), sum(revenue), sum(margin_up)
    FROM o WHERE EXISTS (SELECT 1 FROM products p WHERE p.id = o.product_id) GROUP BY product_id ORDER BY product_id
    ON CONFLICT (product_id) DO UPDATE
      SET units = excluded.units, revenue = excluded.revenue, margin_up = excluded.margin_up
  ), days AS (
    INSERT INTO sales_days (day, slot, orders, units, revenue, cost, sales, discount, tax)
    SELECT day, 0, sum(orders), sum(units), sum(revenue), sum(cost), sum(sales), sum(discount), sum(tax)
    FROM o GROUP BY day ORDER BY day
  ), day_taxes AS (
    INSERT INTO sales_day_taxes (day, rate_name, rate, base, tax)
    SELECT day, rate_name, rate, sum(revenue), sum(tax) FROM o GROUP BY day, rate_name, rate ORDER BY day, rate_name, rate
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
