-- Every figure net of returns, the discount too (DESIGN §10, §12): orders gain returned_discount,
-- the share of the line's discount that its returned units took with them, given back by the rule
-- returns give money back (refundDue: round(discount × returned / quantity), cumulative), which
-- takeBack now writes beside returned_total and returned_tax. The function files
-- orders_figures_counted and sales_days_rebuild count discount − returned_discount (a line kept
-- its whole discount until its last unit came back before).
--
-- Adding the column holds orders exclusively until this migration is done, so nothing writes
-- orders (nor the figures their triggers keep) meanwhile. The backfill gives every order returned
-- so far its share, with the figures' triggers off (it changes only what they did not count
-- yet), and sales_days.discount, the one figure that changes, is recounted from the orders.
ALTER TABLE "orders" ADD COLUMN "returned_discount" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_returned_discount_within" CHECK ("orders"."returned_discount" between 0 and "orders"."discount");--> statement-breakpoint
ALTER TABLE "orders" DISABLE TRIGGER USER;--> statement-breakpoint
UPDATE "orders" SET "returned_discount" = round("discount" * "returned_quantity" / "quantity", 2)
WHERE "returned_quantity" > 0 AND "discount" > 0;--> statement-breakpoint
ALTER TABLE "orders" ENABLE TRIGGER USER;--> statement-breakpoint
UPDATE "sales_days" SET "discount" = 0 WHERE "discount" <> 0;--> statement-breakpoint
INSERT INTO "sales_days" AS d ("day", "slot", "discount")
SELECT ("order_date" AT TIME ZONE (SELECT "time_zone" FROM "report_settings"))::date, 0,
       sum("discount" - "returned_discount")
FROM "orders" WHERE "discount" > 0
GROUP BY 1 ORDER BY 1
ON CONFLICT ("day", "slot") DO UPDATE SET "discount" = excluded."discount";
