-- Counter slots per transaction, and one slot row that guards the rest (decision 0016).
--
-- The kept counters (product_totals, category_stock, order_totals, order_quarters, sales_days)
-- are striped over 8 slot rows so that concurrent writers seldom wait on one row. Until now each
-- statement chose its slot at random. A sale of n lines changes stock n times (one movement per
-- line, each its own UPDATE of products), so it took up to n slots of product_totals and of
-- category_stock, in random order, and held them to commit: two sales at the same time took the
-- same slots in opposite orders and deadlocked (PostgreSQL breaks it after a second by failing
-- one). A return did the same with its two figures statements (from / to).
--
-- Now a transaction writes one slot, counter_slot() (its transaction id modulo 8), in every
-- striped counter. And product_totals(slot) is always taken first, before any category_stock row
-- of that slot, so it guards them: a transaction waiting for category rows of its slot never
-- holds some already. (product_totals_changed upserts its row whenever the statement changes any
-- category's figures, even when the total stock does not move, e.g. a new cost.)
CREATE FUNCTION counter_slot() RETURNS smallint LANGUAGE sql VOLATILE AS $$
  SELECT (txid_current() % 8)::smallint
$$;
--> statement-breakpoint
-- The products' triggers: 0013's bodies with counter_slot() for the random slot.
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_totals AS t (slot, products, stock)
  SELECT counter_slot(), -count(*), -sum(stock) FROM removed_products HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET products = t.products + excluded.products, stock = t.stock + excluded.stock;
  INSERT INTO category_stock AS t (category_id, slot, products, units, value)
  SELECT category_id, counter_slot(), -count(*), -sum(stock), -sum(stock * coalesce(cost, 0))
  FROM removed_products GROUP BY category_id ORDER BY category_id
  ON CONFLICT (category_id, slot) DO UPDATE
    SET products = t.products + excluded.products, units = t.units + excluded.units, value = t.value + excluded.value;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx_slot smallint := counter_slot();
  delta bigint;
BEGIN
  SELECT coalesce((SELECT sum(stock) FROM new_products), 0) - coalesce((SELECT sum(stock) FROM old_products), 0)
    INTO delta;
  -- The slot's guard row first, whenever a category row of the slot may change below.
  IF delta <> 0 OR EXISTS (
    SELECT 1 FROM new_products n JOIN old_products o ON o.id = n.id
    WHERE (n.category_id, n.stock, n.cost) IS DISTINCT FROM (o.category_id, o.stock, o.cost)
  ) THEN
    INSERT INTO product_totals AS t (slot, products, stock)
    VALUES (tx_slot, 0, delta)
    ON CONFLICT (slot) DO UPDATE SET stock = t.stock + excluded.stock;
  END IF;
  INSERT INTO product_stock AS s (product_id, stock, name_key, reorder_point)
  SELECT id, stock, lower(name), reorder_point FROM new_products
  ON CONFLICT (product_id) DO UPDATE
    SET stock = excluded.stock, name_key = excluded.name_key, reorder_point = excluded.reorder_point
  WHERE s.stock <> excluded.stock OR s.name_key <> excluded.name_key
     OR s.reorder_point IS DISTINCT FROM excluded.reorder_point;
  INSERT INTO category_stock AS t (category_id, slot, products, units, value)
  SELECT category_id, tx_slot, sum(n), sum(units), sum(value)
  FROM (SELECT category_id, 1 AS n, stock AS units, stock * coalesce(cost, 0) AS value FROM new_products
        UNION ALL
        SELECT category_id, -1, -stock, -stock * coalesce(cost, 0) FROM old_products) d
  GROUP BY category_id HAVING sum(n) <> 0 OR sum(units) <> 0 OR sum(value) <> 0 ORDER BY category_id
  ON CONFLICT (category_id, slot) DO UPDATE
    SET products = t.products + excluded.products, units = t.units + excluded.units, value = t.value + excluded.value;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The orders' figures: 0015's body with counter_slot() for the random stripe, so a return's two
-- statements (the order's figures taken away, then added back) write the same slot rows.
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
