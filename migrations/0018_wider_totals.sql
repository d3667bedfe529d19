-- Kept money totals could overflow: numeric(16,2) running sums (revenue, cost, margin_up of the
-- daily, monthly and per-product figures, order_totals) refused an honest order once they passed
-- 10^14, and category_stock.value (numeric(18,2)) could not hold stock x cost of a full catalogue.
-- Sums now have no bound (numeric). One order's total is at most 999,999,999.99 x 1,000,000 < 10^15
-- and a sale's 100 such lines < 10^17, so orders.total_price and sales.total become numeric(20,2).
ALTER TABLE "category_stock" ALTER COLUMN "value" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "category_stock" ALTER COLUMN "value" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "order_totals" ALTER COLUMN "revenue" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "order_totals" ALTER COLUMN "revenue" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "total_price" SET DATA TYPE numeric(20, 2);--> statement-breakpoint
ALTER TABLE "product_sales" ALTER COLUMN "revenue" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "product_sales" ALTER COLUMN "revenue" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "product_sales" ALTER COLUMN "margin_up" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "product_sales" ALTER COLUMN "margin_up" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales" ALTER COLUMN "total" SET DATA TYPE numeric(20, 2);--> statement-breakpoint
ALTER TABLE "sales_day_categories" ALTER COLUMN "revenue" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_day_categories" ALTER COLUMN "revenue" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_day_categories" ALTER COLUMN "cost" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_day_categories" ALTER COLUMN "cost" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_day_customers" ALTER COLUMN "revenue" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_day_customers" ALTER COLUMN "revenue" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_day_products" ALTER COLUMN "revenue" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_day_products" ALTER COLUMN "revenue" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_day_products" ALTER COLUMN "cost" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_day_products" ALTER COLUMN "cost" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_day_staff" ALTER COLUMN "revenue" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_day_staff" ALTER COLUMN "revenue" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_day_staff" ALTER COLUMN "cost" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_day_staff" ALTER COLUMN "cost" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_days" ALTER COLUMN "revenue" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_days" ALTER COLUMN "revenue" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_days" ALTER COLUMN "cost" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_days" ALTER COLUMN "cost" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_month_categories" ALTER COLUMN "revenue" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_month_categories" ALTER COLUMN "revenue" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_month_categories" ALTER COLUMN "cost" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_month_categories" ALTER COLUMN "cost" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_month_staff" ALTER COLUMN "revenue" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_month_staff" ALTER COLUMN "revenue" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_month_staff" ALTER COLUMN "cost" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_month_staff" ALTER COLUMN "cost" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_two_month_products" ALTER COLUMN "revenue" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_two_month_products" ALTER COLUMN "revenue" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sales_two_month_products" ALTER COLUMN "margin_up" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "sales_two_month_products" ALTER COLUMN "margin_up" SET DEFAULT '0';