-- Customers and the sale counter (DESIGN §11, decision 0015).
CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The list's order, and a search by any word of the name, phone or email (trigram indexes, as
-- products' names have).
CREATE INDEX "customers_name_sort_idx" ON "customers" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "customers_name_trgm_idx" ON "customers" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_phone_trgm_idx" ON "customers" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_email_trgm_idx" ON "customers" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
-- Receipt numbers (S-000123): unique and increasing. A sale draws one only once it is sure to go
-- ahead; one refused after that (its stock taken meanwhile) leaves a gap — decision 0015.
CREATE SEQUENCE "public"."sale_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
-- A sale: who sold, to whom (a snapshot of the name, kept when the customer is deleted), how it
-- was paid. Its lines are orders (orders.sale_id); its total is theirs, kept here as sold.
CREATE TABLE "sales" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('sale_number_seq') NOT NULL,
	"user_id" uuid,
	"user_name" text NOT NULL,
	"customer_id" uuid,
	"customer_name" text,
	"payment_method" text NOT NULL,
	"tendered" numeric(14, 2),
	"total" numeric(14, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_payment_method_known" CHECK ("sales"."payment_method" in ('cash','card','other')),
	CONSTRAINT "sales_tendered_covers_total" CHECK ("sales"."tendered" is null or ("sales"."payment_method" = 'cash' and "sales"."tendered" >= "sales"."total")),
	CONSTRAINT "sales_total_nonnegative" CHECK ("sales"."total" >= 0)
);
--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sales_number_key" ON "sales" USING btree ("number");--> statement-breakpoint
CREATE INDEX "sales_created_idx" ON "sales" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "sales_user_created_idx" ON "sales" USING btree ("user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "sales_customer_created_idx" ON "sales" USING btree ("customer_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "sales"."customer_id" is not null;--> statement-breakpoint
-- An order that is a line of a sale names it and its customer (null columns: adding them to a
-- million orders rewrites nothing).
ALTER TABLE "orders" ADD COLUMN "sale_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sale_number" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sale_line" smallint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_sale_idx" ON "orders" USING btree ("sale_id") WHERE "orders"."sale_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_customer_idx" ON "orders" USING btree ("customer_id") WHERE "orders"."customer_id" is not null;--> statement-breakpoint
-- Products may carry a SKU and a barcode, each unique ignoring case; the counter finds a product
-- by either exactly. Neither is changed by a sale, so orders still update products in place.
ALTER TABLE "products" ADD COLUMN "sku" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "barcode" text;--> statement-breakpoint
CREATE UNIQUE INDEX "products_sku_lower_key" ON "products" USING btree (lower("sku")) WHERE "products"."sku" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "products_barcode_lower_key" ON "products" USING btree (lower("barcode")) WHERE "products"."barcode" is not null;
--> statement-breakpoint
-- Customers' changes are in the activity log.
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_known";--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_known" CHECK ("audit_log"."entity_type" in ('user','product','category','supplier','order','purchaseOrder','customer'));
--> statement-breakpoint
-- BEGIN by customer (generated from 0014's functions: the same bodies, plus each order's customer)
-- Sales, units and revenue per day and customer (DESIGN §11: top customers in a range), kept by the
-- one trigger function of every figure (decision 0013) and recounted with the others. A customer
-- since deleted is the row whose customer_id is null (their orders keep the name). No order has
-- a customer before this migration, so there is nothing to count yet.
CREATE TABLE "sales_day_customers" (
	"day" date NOT NULL,
	"customer_id" uuid,
	"sales" integer DEFAULT 0 NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(16, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "sales_day_customers_day_customer_key" UNIQUE NULLS NOT DISTINCT("day","customer_id")
);
--> statement-breakpoint
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
--> statement-breakpoint
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
-- END by customer
