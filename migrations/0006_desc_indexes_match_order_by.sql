DROP INDEX "orders_date_id_idx";--> statement-breakpoint
DROP INDEX "orders_user_date_id_idx";--> statement-breakpoint
DROP INDEX "product_sales_units_idx";--> statement-breakpoint
CREATE INDEX "orders_date_id_idx" ON "orders" USING btree ("order_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_user_date_id_idx" ON "orders" USING btree ("user_id","order_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "product_sales_units_idx" ON "product_sales" USING btree ("units" DESC NULLS FIRST);