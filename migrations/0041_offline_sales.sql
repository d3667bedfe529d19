-- DESIGN §21 (decision 0050): sales made offline. A sale keeps the device's id for it (unique, for
-- ever), the body's hash, the receipt number the device printed and when it arrived; why it is
-- to be reviewed and who reviewed it. The store says how long a counter may sell offline. A
-- movement's reason may be `offline` (units the shelf had that the system did not know of). Each
-- product's price and own tax rate are kept over time (product_prices, products_price_history.sql;
-- a product known now starts at -infinity).
CREATE TABLE "product_prices" (
	"product_id" uuid NOT NULL,
	"price" numeric(12, 2),
	"tax_rate_id" uuid,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone,
	CONSTRAINT "product_prices_product_id_valid_from_pk" PRIMARY KEY("product_id","valid_from")
);
--> statement-breakpoint
ALTER TABLE "stock_movements" DROP CONSTRAINT "stock_movements_reason_known";--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "offline_id" uuid;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "offline_hash" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "device_number" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "recorded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "review" text[];--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "review_note" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "reviewed_by_id" uuid;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "reviewed_by_name" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "store_settings" ADD COLUMN "offline_hours" integer DEFAULT 72 NOT NULL;--> statement-breakpoint
ALTER TABLE "product_prices" ADD CONSTRAINT "product_prices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_prices_current_key" ON "product_prices" USING btree ("product_id") WHERE "product_prices"."valid_to" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "sales_offline_id_key" ON "sales" USING btree ("offline_id") WHERE "sales"."offline_id" is not null;--> statement-breakpoint
CREATE INDEX "sales_review_idx" ON "sales" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "sales"."review" is not null;--> statement-breakpoint
CREATE INDEX "sales_device_number_idx" ON "sales" USING btree ("device_number") WHERE "sales"."device_number" is not null;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_offline_whole" CHECK (("sales"."offline_id" is null) = ("sales"."device_number" is null) and ("sales"."offline_id" is null) = ("sales"."recorded_at" is null));--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_reviewed_whole" CHECK (("sales"."reviewed_at" is null) = ("sales"."review_note" is null));--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_reason_known" CHECK ("stock_movements"."reason" is null or "stock_movements"."reason" in ('received','damaged','lost','found','returned','correction','expired','offline'));--> statement-breakpoint
ALTER TABLE "store_settings" ADD CONSTRAINT "store_settings_offline_hours_within" CHECK ("store_settings"."offline_hours" between 1 and 168);--> statement-breakpoint
CREATE OR REPLACE FUNCTION products_price_history() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
INSERT INTO "product_prices" ("product_id", "price", "tax_rate_id", "valid_from")
SELECT "id", "price", "tax_rate_id", '-infinity' FROM "products";--> statement-breakpoint
CREATE TRIGGER products_prices_added AFTER INSERT ON "products" REFERENCING NEW TABLE AS new_products
  FOR EACH STATEMENT EXECUTE FUNCTION products_price_history();--> statement-breakpoint
CREATE TRIGGER products_prices_changed AFTER UPDATE OF "price", "tax_rate_id" ON "products"
  FOR EACH ROW EXECUTE FUNCTION products_price_history();
