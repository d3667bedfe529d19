-- Stock has a value (DESIGN §19, decision 0046): every movement its value (cents, signed; the
-- movements before it are worth 0), each product and each location its stock_value (the sum of
-- its movements' values, kept by stock_movements_apply; guarded, as stock is, by
-- products_stock_from_ledger and location_stock_from_ledger), a `revaluation` movement (0 units).
-- The stock already there is valued now at stock × cost, each location's by one revaluation
-- movement ("Valued when the books began"), so that a value is the sum of its movements' from
-- the start; the ledger's trigger is set aside for those rows (its body here may be an older one)
-- and each row says the stock after it itself. A product inserted with stock is worth stock ×
-- cost (products_opening_value: a stub here, its file's body at every start). Products' own
-- triggers are set aside while their values are written: nothing they count changes (the
-- categories' value is Σ stock × cost either way).
ALTER TABLE "stock_movements" DROP CONSTRAINT "stock_movements_kind_known";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "stock_value" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "location_stock" ADD COLUMN "stock_value" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD COLUMN "value" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_movements" ALTER COLUMN "value" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_stock_value_valid" CHECK ("products"."stock_value" >= 0 and ("products"."stock" > 0 or "products"."stock_value" = 0));--> statement-breakpoint
ALTER TABLE "location_stock" ADD CONSTRAINT "location_stock_value_valid" CHECK ("location_stock"."stock_value" >= 0 and ("location_stock"."stock" > 0 or "location_stock"."stock_value" = 0));--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_revaluation_no_units" CHECK ("stock_movements"."kind" <> 'revaluation' or "stock_movements"."quantity" = 0);--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_kind_known" CHECK ("stock_movements"."kind" in ('initial','sale','return','receipt','adjustment','count','transferOut','transferIn','transferLoss','revaluation'));
--> statement-breakpoint
UPDATE "location_stock" s SET "stock_value" = round(s."stock" * coalesce(p."cost", 0), 2)
FROM "products" p WHERE p."id" = s."product_id" AND s."stock" > 0;--> statement-breakpoint
ALTER TABLE "products" DISABLE TRIGGER USER;--> statement-breakpoint
UPDATE "products" p SET "stock_value" = v."value"
FROM (SELECT "product_id", sum("stock_value") AS "value" FROM "location_stock" GROUP BY "product_id") v
WHERE v."product_id" = p."id" AND v."value" <> 0;--> statement-breakpoint
ALTER TABLE "products" ENABLE TRIGGER USER;--> statement-breakpoint
ALTER TABLE "stock_movements" DISABLE TRIGGER "stock_movements_apply";--> statement-breakpoint
INSERT INTO "stock_movements" ("product_id", "location_id", "kind", "quantity", "stock_after", "value", "note")
SELECT "product_id", "location_id", 'revaluation', 0, "stock", "stock_value", 'Valued when the books began'
FROM "location_stock" WHERE "stock_value" <> 0 ORDER BY "product_id", "location_id";--> statement-breakpoint
ALTER TABLE "stock_movements" ENABLE TRIGGER "stock_movements_apply";--> statement-breakpoint
DROP TRIGGER "products_stock_from_ledger" ON "products";--> statement-breakpoint
CREATE TRIGGER "products_stock_from_ledger" BEFORE UPDATE OF "stock", "stock_value" ON "products"
  FOR EACH ROW EXECUTE FUNCTION products_stock_from_ledger();--> statement-breakpoint
DROP TRIGGER "location_stock_from_ledger" ON "location_stock";--> statement-breakpoint
CREATE TRIGGER "location_stock_from_ledger" BEFORE INSERT OR UPDATE OF "stock", "stock_value" ON "location_stock"
  FOR EACH ROW EXECUTE FUNCTION location_stock_from_ledger();--> statement-breakpoint
CREATE FUNCTION products_opening_value() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;--> statement-breakpoint
CREATE TRIGGER "products_opening_value" BEFORE INSERT ON "products"
  FOR EACH ROW EXECUTE FUNCTION products_opening_value();