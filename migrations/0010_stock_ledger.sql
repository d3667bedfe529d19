CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" smallint,
	"body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"product_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"quantity" integer NOT NULL,
	"stock_after" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"note" text DEFAULT '' NOT NULL,
	"user_id" uuid,
	"user_name" text,
	"order_id" uuid,
	"purchase_order_id" uuid,
	CONSTRAINT "stock_movements_kind_known" CHECK ("stock_movements"."kind" in ('initial','sale','return','receipt','adjustment','count')),
	CONSTRAINT "stock_movements_reason_known" CHECK ("stock_movements"."reason" is null or "stock_movements"."reason" in ('received','damaged','lost','found','returned','correction')),
	CONSTRAINT "stock_movements_stock_after_nonnegative" CHECK ("stock_movements"."stock_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_known";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_known";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "status" text DEFAULT 'placed' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "returned_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "stock_movements_product_at_idx" ON "stock_movements" USING btree ("product_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "stock_movements_order_idx" ON "stock_movements" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_known" CHECK ("audit_log"."action" in ('signedIn','signInFailed','signInThrottled','created','updated','deleted','stockAdjusted','stockCounted','returned'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_known" CHECK ("audit_log"."entity_type" in ('user','product','category','supplier','order'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_returned_within" CHECK ("orders"."returned_quantity" between 0 and "orders"."quantity");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_follows_returns" CHECK ("orders"."status" = case when "orders"."returned_quantity" = "orders"."quantity" then 'returned' else 'placed' end);--> statement-breakpoint
-- The stock ledger (DESIGN §8). The database itself keeps products.stock equal to the sum of its
-- product's movements:
-- - inserting a movement applies it: stock_movements_apply adds its quantity to the product's
--   stock in one conditional update (never below zero, refused with IMS01 "Not enough stock")
--   and records the stock right after it;
-- - nothing else may change stock: products_stock_from_ledger refuses a direct UPDATE of stock,
--   and a product inserted with stock gets its opening movement from products_opening_movement;
-- - a movement is never updated or deleted (stock_movements_append_only), and deleting a product
--   keeps its movements.
-- Every product that exists now gets an opening movement equal to its stock, written before the
-- triggers exist, so the invariant holds from the first moment.
INSERT INTO stock_movements (product_id, kind, quantity, stock_after, note, at)
SELECT id, 'initial', stock, stock, 'Opening balance', now() FROM products;
--> statement-breakpoint
CREATE FUNCTION stock_movements_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  after integer;
BEGIN
  -- The opening movement of a product inserted with its stock (products_opening_movement, one
  -- trigger level down) records stock that is already there.
  IF NEW.kind = 'initial' AND pg_trigger_depth() > 1 THEN
    RETURN NEW;
  END IF;
  UPDATE products SET stock = stock + NEW.quantity
  WHERE id = NEW.product_id AND stock + NEW.quantity >= 0
  RETURNING stock INTO after;
  IF NOT FOUND THEN
    IF EXISTS (SELECT 1 FROM products WHERE id = NEW.product_id) THEN
      RAISE EXCEPTION 'Not enough stock' USING ERRCODE = 'IMS01';
    END IF;
    RAISE EXCEPTION 'Product not found' USING ERRCODE = 'IMS02';
  END IF;
  NEW.stock_after := after;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER stock_movements_apply BEFORE INSERT ON stock_movements
  FOR EACH ROW EXECUTE FUNCTION stock_movements_apply();
--> statement-breakpoint
CREATE FUNCTION stock_movements_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'stock_movements is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER stock_movements_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON stock_movements
  FOR EACH STATEMENT EXECUTE FUNCTION stock_movements_append_only();
--> statement-breakpoint
-- Only stock_movements_apply (a trigger, so one level down) may change a product's stock.
CREATE FUNCTION products_stock_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.stock <> OLD.stock AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'Stock changes only through stock movements' USING ERRCODE = 'IMS03';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_stock_from_ledger BEFORE UPDATE OF stock ON products
  FOR EACH ROW EXECUTE FUNCTION products_stock_from_ledger();
--> statement-breakpoint
CREATE FUNCTION products_opening_movement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stock_movements (product_id, kind, quantity, stock_after, note)
  SELECT id, 'initial', stock, stock, 'Opening balance' FROM added_products WHERE stock <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_opening_movement AFTER INSERT ON products
  REFERENCING NEW TABLE AS added_products FOR EACH STATEMENT EXECUTE FUNCTION products_opening_movement();
--> statement-breakpoint
-- Returns (DESIGN §8): units that came back leave the best seller's units and the revenue, so
-- the dashboard counts net of returns; "orders today" still counts the orders placed.
CREATE FUNCTION orders_returns_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE product_sales AS s SET units = s.units - r.units
  FROM (SELECT n.product_id, sum(n.returned_quantity - o.returned_quantity) AS units
        FROM new_orders n JOIN old_orders o ON o.id = n.id
        WHERE n.product_id IS NOT NULL AND n.returned_quantity <> o.returned_quantity
        GROUP BY n.product_id) r
  WHERE s.product_id = r.product_id;
  INSERT INTO order_totals AS t (slot, orders, revenue)
  SELECT floor(random() * 8)::smallint, 0, -sum((n.returned_quantity - o.returned_quantity) * n.unit_price)
  FROM new_orders n JOIN old_orders o ON o.id = n.id
  WHERE n.returned_quantity <> o.returned_quantity
  HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET revenue = t.revenue + excluded.revenue;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_returns_counted AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION orders_returns_counted();
--> statement-breakpoint
-- Replaces 0007's body: a removed order takes away only what it still counted (net of returns).
CREATE OR REPLACE FUNCTION orders_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE product_sales AS s SET units = s.units - r.units
  FROM (SELECT product_id, sum(quantity - returned_quantity) AS units FROM removed_orders
        WHERE product_id IS NOT NULL GROUP BY product_id) r
  WHERE s.product_id = r.product_id;
  INSERT INTO order_totals AS t (slot, orders, revenue)
  SELECT 0, -count(*), -sum(total_price - returned_quantity * unit_price) FROM removed_orders HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET orders = t.orders + excluded.orders, revenue = t.revenue + excluded.revenue;
  INSERT INTO order_quarters AS q (quarter, slot, orders)
  SELECT date_bin('15 minutes', order_date, timestamptz '2000-01-01 00:00:00+00'), 0, -count(*)
  FROM removed_orders GROUP BY 1
  ON CONFLICT (quarter, slot) DO UPDATE SET orders = q.orders + excluded.orders;
  RETURN NULL;
END $$;
