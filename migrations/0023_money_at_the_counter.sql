-- Money at the counter (DESIGN §12): tax rates, the store's settings (one row, written at start
-- with STORE_NAME), a product's tax rate, an admin's approval PIN, and the money of each line and
-- sale as the shared computation gives it (src/shared/money.ts). Orders and sales before this
-- change count with tax 0 and discount 0; nothing recomputes history.
--
-- Needs the function files that keep the new figures: orders_figures_counted and
-- sales_days_rebuild (src/server/db/functions) fill sales_days.discount/tax and sales_day_taxes.
-- Writes to orders wait until this migration is done (as in 0020), so the backfills below see
-- every order.
LOCK TABLE orders IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TABLE "sales_day_taxes" (
	"day" date NOT NULL,
	"rate_name" text NOT NULL,
	"rate" numeric(6, 3) NOT NULL,
	"base" numeric DEFAULT '0' NOT NULL,
	"tax" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "sales_day_taxes_day_rate_name_rate_pk" PRIMARY KEY("day","rate_name","rate")
);
--> statement-breakpoint
CREATE TABLE "store_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"name" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"tax_number" text DEFAULT '' NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"receipt_footer" text DEFAULT '' NOT NULL,
	"prices_include_tax" boolean DEFAULT false NOT NULL,
	"default_tax_rate_id" uuid,
	"max_discount_percent" numeric(5, 2) DEFAULT '10' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_settings_one_row" CHECK ("store_settings"."id" = 1),
	CONSTRAINT "store_settings_currency_code" CHECK ("store_settings"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "store_settings_max_discount_within" CHECK ("store_settings"."max_discount_percent" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"rate" numeric(6, 3) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_rates_rate_within" CHECK ("tax_rates"."rate" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_known";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_known";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_rate_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_rate" numeric(6, 3);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "returned_total" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "returned_tax" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "tax_rate_id" uuid;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "subtotal" numeric(20, 2);--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "discount" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "tax" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "store" jsonb;--> statement-breakpoint
ALTER TABLE "sales_days" ADD COLUMN "discount" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_days" ADD COLUMN "tax" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pin_hash" text;--> statement-breakpoint
ALTER TABLE "store_settings" ADD CONSTRAINT "store_settings_default_tax_rate_id_tax_rates_id_fk" FOREIGN KEY ("default_tax_rate_id") REFERENCES "public"."tax_rates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_name_lower_key" ON "tax_rates" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_tax_rate_id_tax_rates_id_fk" FOREIGN KEY ("tax_rate_id") REFERENCES "public"."tax_rates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_tax_rate_idx" ON "products" USING btree ("tax_rate_id") WHERE "products"."tax_rate_id" is not null;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_known" CHECK ("audit_log"."action" in ('signedIn','signInFailed','signInThrottled','created','updated','deleted','stockAdjusted','stockCounted','returned','ordered','received','cancelled','closed','deactivated','reactivated','passwordReset','discountApproved','stockOverridden','pinChanged'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_known" CHECK ("audit_log"."entity_type" in ('user','product','category','supplier','order','purchaseOrder','customer','store','taxRate','sale'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_nonnegative" CHECK ("orders"."discount" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tax_within" CHECK ("orders"."tax" between 0 and "orders"."total_price");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_returned_total_within" CHECK ("orders"."returned_total" between 0 and "orders"."total_price");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_returned_tax_within" CHECK ("orders"."returned_tax" between 0 and "orders"."tax");
--> statement-breakpoint
-- Money given back so far: before this change a return gave back its units at the unit price.
UPDATE orders SET returned_total = returned_quantity * unit_price WHERE returned_quantity > 0;
--> statement-breakpoint
-- The tax report's days so far: every order untaxed, under no rate ('' and 0), net of returns.
INSERT INTO sales_day_taxes (day, rate_name, rate, base, tax)
SELECT (order_date AT TIME ZONE (SELECT time_zone FROM report_settings))::date, '', 0,
       sum((quantity - returned_quantity) * unit_price), 0
FROM orders GROUP BY 1 ORDER BY 1;
