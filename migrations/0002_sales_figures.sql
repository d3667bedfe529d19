CREATE TABLE "order_totals" (
	"slot" smallint PRIMARY KEY NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(16, 2) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_sales" (
	"product_id" uuid PRIMARY KEY NOT NULL,
	"units" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_sales" ADD CONSTRAINT "product_sales_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_sales_units_idx" ON "product_sales" USING btree ("units" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "products_name_sort_idx" ON "products" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin ("name" gin_trgm_ops);