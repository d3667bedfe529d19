-- What the dashboard and the reorder suggestions read, kept in product_stock (decision 0032): the
-- reorder point in force (reorder_at: the product's own, or the store's threshold, which
-- report_settings now holds and the server sets at every start), the product's name, category,
-- supplier, cost and reorder quantity, and the count of products to reorder in product_totals'
-- slots. Needs the function files product_totals_added.sql and product_totals_changed.sql (which
-- now copy these columns), product_stock_to_reorder_counted.sql (a stub here, replaced by its file
-- at every start), low_stock_threshold.sql, low_stock_use_threshold.sql and
-- purchase_orders_on_order.sql (which now takes its slot's product_totals row first).
-- Replaces product_stock_own_low_idx (decision 0012) with product_stock_low_idx.
DROP INDEX "product_stock_own_low_idx";--> statement-breakpoint
ALTER TABLE "report_settings" ADD COLUMN "low_stock_threshold" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "product_totals" ADD COLUMN "to_reorder" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "product_stock" ADD COLUMN "reorder_at" integer;--> statement-breakpoint
ALTER TABLE "product_stock" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "product_stock" ADD COLUMN "category_id" uuid;--> statement-breakpoint
ALTER TABLE "product_stock" ADD COLUMN "supplier_id" uuid;--> statement-breakpoint
ALTER TABLE "product_stock" ADD COLUMN "cost" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "product_stock" ADD COLUMN "reorder_quantity" integer;--> statement-breakpoint
-- Products are held still while their copies are made and counted.
LOCK TABLE "products" IN SHARE MODE;--> statement-breakpoint
UPDATE "product_stock" s
SET "reorder_at" = coalesce(p."reorder_point", (SELECT "low_stock_threshold" FROM "report_settings")),
    "name" = p."name", "category_id" = p."category_id", "supplier_id" = p."supplier_id",
    "cost" = p."cost", "reorder_quantity" = p."reorder_quantity"
FROM "products" p WHERE p."id" = s."product_id";--> statement-breakpoint
ALTER TABLE "product_stock" ALTER COLUMN "reorder_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "product_stock" ALTER COLUMN "name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "product_stock" ALTER COLUMN "category_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "product_stock" ALTER COLUMN "supplier_id" SET NOT NULL;--> statement-breakpoint
-- Both carry what their readers want, so that the dashboard's cards and the suggestions read the
-- indexes alone. (Drizzle's schema cannot state INCLUDE; these are the indexes' full definitions.)
CREATE INDEX "product_stock_low_idx" ON "product_stock" USING btree ("stock","name_key","product_id") INCLUDE ("name", "category_id") WHERE "product_stock"."stock" <= "product_stock"."reorder_at";--> statement-breakpoint
CREATE INDEX "product_stock_to_reorder_idx" ON "product_stock" USING btree ("supplier_id","name_key","product_id") INCLUDE ("stock", "on_order", "reorder_at", "name", "cost", "reorder_quantity") WHERE "product_stock"."stock" + "product_stock"."on_order" <= "product_stock"."reorder_at";--> statement-breakpoint
INSERT INTO "product_totals" AS t ("slot", "products", "stock", "to_reorder")
SELECT 0, 0, 0, count(*) FROM "product_stock" WHERE "stock" + "on_order" <= "reorder_at"
ON CONFLICT ("slot") DO UPDATE SET "to_reorder" = excluded."to_reorder";--> statement-breakpoint
CREATE FUNCTION product_stock_to_reorder_counted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
--> statement-breakpoint
-- Fired only for a row that enters or leaves "to reorder", which most sales do not.
CREATE TRIGGER product_stock_to_reorder_added AFTER INSERT ON product_stock FOR EACH ROW
WHEN (NEW.stock + NEW.on_order <= NEW.reorder_at)
EXECUTE FUNCTION product_stock_to_reorder_counted();
--> statement-breakpoint
CREATE TRIGGER product_stock_to_reorder_changed AFTER UPDATE ON product_stock FOR EACH ROW
WHEN ((OLD.stock + OLD.on_order <= OLD.reorder_at) <> (NEW.stock + NEW.on_order <= NEW.reorder_at))
EXECUTE FUNCTION product_stock_to_reorder_counted();
--> statement-breakpoint
CREATE TRIGGER product_stock_to_reorder_removed AFTER DELETE ON product_stock FOR EACH ROW
WHEN (OLD.stock + OLD.on_order <= OLD.reorder_at)
EXECUTE FUNCTION product_stock_to_reorder_counted();
