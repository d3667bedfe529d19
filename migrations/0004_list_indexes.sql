CREATE TABLE "product_totals" (
	"slot" smallint PRIMARY KEY NOT NULL,
	"products" integer DEFAULT 0 NOT NULL,
	"stock" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_order_date_idx";--> statement-breakpoint
DROP INDEX "orders_user_date_idx";--> statement-breakpoint
DROP INDEX "products_stock_idx";--> statement-breakpoint
CREATE INDEX "orders_date_id_idx" ON "orders" USING btree ("order_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_user_date_id_idx" ON "orders" USING btree ("user_id","order_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "products_stock_name_idx" ON "products" USING btree ("stock",lower("name"));