CREATE SEQUENCE "public"."purchase_order_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "purchase_order_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purchase_order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"product_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"received" integer DEFAULT 0 NOT NULL,
	"unit_cost" numeric(12, 2) NOT NULL,
	CONSTRAINT "purchase_order_lines_quantity_positive" CHECK ("purchase_order_lines"."quantity" >= 1),
	CONSTRAINT "purchase_order_lines_received_within" CHECK ("purchase_order_lines"."received" between 0 and "purchase_order_lines"."quantity"),
	CONSTRAINT "purchase_order_lines_unit_cost_nonnegative" CHECK ("purchase_order_lines"."unit_cost" >= 0)
);
--> statement-breakpoint
CREATE TABLE "purchase_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('purchase_order_number_seq') NOT NULL,
	"supplier_id" uuid NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ordered_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	CONSTRAINT "purchase_orders_status_known" CHECK ("purchase_orders"."status" in ('draft','ordered','partially_received','received','cancelled','closed')),
	CONSTRAINT "purchase_orders_ordered_at_set" CHECK ("purchase_orders"."status" = 'cancelled' or ("purchase_orders"."ordered_at" is null) = ("purchase_orders"."status" = 'draft')),
	CONSTRAINT "purchase_orders_received_at_set" CHECK (("purchase_orders"."received_at" is not null) = ("purchase_orders"."status" = 'received'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_known";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_known";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "unit_cost" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "product_stock" ADD COLUMN "reorder_point" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cost" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "reorder_point" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "reorder_quantity" integer;--> statement-breakpoint
ALTER TABLE "purchase_order_lines" ADD CONSTRAINT "purchase_order_lines_purchase_order_id_purchase_orders_id_fk" FOREIGN KEY ("purchase_order_id") REFERENCES "public"."purchase_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_lines" ADD CONSTRAINT "purchase_order_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_orders" ADD CONSTRAINT "purchase_orders_supplier_id_suppliers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."suppliers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_order_lines_position_key" ON "purchase_order_lines" USING btree ("purchase_order_id","position");--> statement-breakpoint
CREATE INDEX "purchase_order_lines_product_idx" ON "purchase_order_lines" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_orders_number_key" ON "purchase_orders" USING btree ("number");--> statement-breakpoint
CREATE INDEX "purchase_orders_created_idx" ON "purchase_orders" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "purchase_orders_status_created_idx" ON "purchase_orders" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "purchase_orders_supplier_created_idx" ON "purchase_orders" USING btree ("supplier_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "product_stock_own_low_idx" ON "product_stock" USING btree (("stock" - "reorder_point")) WHERE "product_stock"."reorder_point" is not null;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_known" CHECK ("audit_log"."action" in ('signedIn','signInFailed','signInThrottled','created','updated','deleted','stockAdjusted','stockCounted','returned','ordered','received','cancelled','closed'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_known" CHECK ("audit_log"."entity_type" in ('user','product','category','supplier','order','purchaseOrder'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_cost_nonnegative" CHECK ("products"."cost" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_reorder_point_nonnegative" CHECK ("products"."reorder_point" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_reorder_quantity_positive" CHECK ("products"."reorder_quantity" >= 1);--> statement-breakpoint
-- product_stock also keeps each product's own reorder point, so low stock (0 < stock ≤ the point
-- in force) is two index ranges: product_stock_order_idx for the store's threshold, and
-- product_stock_own_low_idx for products with their own. These replace the functions of
-- migration 0008 (same triggers), adding reorder_point.
CREATE OR REPLACE FUNCTION product_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_totals AS t (slot, products, stock)
  SELECT floor(random() * 8)::smallint, count(*), sum(stock) FROM added_products HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET products = t.products + excluded.products, stock = t.stock + excluded.stock;
  INSERT INTO product_stock (product_id, stock, name_key, reorder_point)
  SELECT id, stock, lower(name), reorder_point FROM added_products;
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
  RETURN NULL;
END $$;
