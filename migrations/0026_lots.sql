-- Lots and expiry (DESIGN §15): products' `tracking`, the lots of lot-tracked products, the lot a
-- movement names, the adjustment reason `expired`, and the guard that lets only the ledger change a
-- lot's quantity (trigger lots_quantity_from_ledger). Needs the function files
-- stock_movements_apply.sql (which now applies a movement to its lot and picks lots first-expiry-
-- first-out) and lots_quantity_from_ledger.sql (a stub here, replaced by its file at every start).
CREATE TABLE "lots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"number" text NOT NULL,
	"expires_on" date,
	"quantity" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lots_quantity_nonnegative" CHECK ("lots"."quantity" >= 0)
);
--> statement-breakpoint
ALTER TABLE "stock_movements" DROP CONSTRAINT "stock_movements_reason_known";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "tracking" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD COLUMN "lot_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "lots_product_number_key" ON "lots" USING btree ("product_id",lower("number"));--> statement-breakpoint
CREATE INDEX "lots_product_expiry_idx" ON "lots" USING btree ("product_id","expires_on","created_at","id");--> statement-breakpoint
CREATE INDEX "lots_expiring_idx" ON "lots" USING btree ("expires_on","id") WHERE "lots"."quantity" > 0 and "lots"."expires_on" is not null;--> statement-breakpoint
CREATE INDEX "stock_movements_lot_idx" ON "stock_movements" USING btree ("lot_id","at","id") WHERE "stock_movements"."lot_id" is not null;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_tracking_known" CHECK ("products"."tracking" in ('none','lot'));--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_reason_known" CHECK ("stock_movements"."reason" is null or "stock_movements"."reason" in ('received','damaged','lost','found','returned','correction','expired'));--> statement-breakpoint
CREATE FUNCTION lots_quantity_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
--> statement-breakpoint
CREATE TRIGGER lots_quantity_from_ledger BEFORE UPDATE OF quantity ON lots
FOR EACH ROW EXECUTE FUNCTION lots_quantity_from_ledger();
