-- Locations (DESIGN §17, decision 0043): the places stock lives in, `Main store` owning every
-- unit, lot, register, purchase order, order and movement that existed before; a product's stock
-- and a lot's units per location (location_stock, lot_stock, kept by stock_movements_apply and
-- guarded by location_stock_from_ledger / lot_stock_from_ledger: stubs here, replaced by their
-- files at every start; default_location as its file has it, since column defaults call it); movements name their location and transfer; the
-- transfers, their lines and the lots each line was sent with.
-- No foreign key from stock_movements or orders to locations: both are written on every sale, a
-- key check there would lock the location's row in every sale; locations are never deleted.
CREATE SEQUENCE "public"."transfer_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;
--> statement-breakpoint
CREATE TABLE "location_stock" (
	"product_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"reorder_point" integer,
	"reorder_quantity" integer,
	"on_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "location_stock_product_id_location_id_pk" PRIMARY KEY("product_id","location_id"),
	CONSTRAINT "location_stock_nonnegative" CHECK ("location_stock"."stock" >= 0),
	CONSTRAINT "location_stock_on_order_nonnegative" CHECK ("location_stock"."on_order" >= 0),
	CONSTRAINT "location_stock_reorder_point_nonnegative" CHECK ("location_stock"."reorder_point" is null or "location_stock"."reorder_point" >= 0),
	CONSTRAINT "location_stock_reorder_quantity_positive" CHECK ("location_stock"."reorder_quantity" is null or "location_stock"."reorder_quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'store' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "locations_kind_known" CHECK ("locations"."kind" in ('store','stockroom'))
);
--> statement-breakpoint
CREATE TABLE "lot_stock" (
	"lot_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"quantity" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "lot_stock_lot_id_location_id_pk" PRIMARY KEY("lot_id","location_id"),
	CONSTRAINT "lot_stock_nonnegative" CHECK ("lot_stock"."quantity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "transfer_line_lots" (
	"line_id" uuid NOT NULL,
	"lot_id" uuid NOT NULL,
	"sent" integer NOT NULL,
	"received" integer DEFAULT 0 NOT NULL,
	"lost" integer DEFAULT 0 NOT NULL,
	"returned" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "transfer_line_lots_line_id_lot_id_pk" PRIMARY KEY("line_id","lot_id"),
	CONSTRAINT "transfer_line_lots_within_sent" CHECK ("transfer_line_lots"."sent" > 0 and "transfer_line_lots"."received" >= 0 and "transfer_line_lots"."lost" >= 0 and "transfer_line_lots"."returned" >= 0 and "transfer_line_lots"."received" + "transfer_line_lots"."lost" + "transfer_line_lots"."returned" <= "transfer_line_lots"."sent")
);
--> statement-breakpoint
CREATE TABLE "transfer_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transfer_id" uuid NOT NULL,
	"line_no" smallint NOT NULL,
	"product_id" uuid NOT NULL,
	"product_name" text NOT NULL,
	"quantity" integer NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"received" integer DEFAULT 0 NOT NULL,
	"lost" integer DEFAULT 0 NOT NULL,
	"returned" integer DEFAULT 0 NOT NULL,
	"lots" jsonb,
	CONSTRAINT "transfer_lines_quantity_positive" CHECK ("transfer_lines"."quantity" > 0),
	CONSTRAINT "transfer_lines_within_sent" CHECK ("transfer_lines"."sent" >= 0 and "transfer_lines"."received" >= 0 and "transfer_lines"."lost" >= 0 and "transfer_lines"."returned" >= 0 and "transfer_lines"."received" + "transfer_lines"."lost" + "transfer_lines"."returned" <= "transfer_lines"."sent")
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('transfer_number_seq') NOT NULL,
	"from_location_id" uuid NOT NULL,
	"to_location_id" uuid NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"user_id" uuid,
	"user_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	CONSTRAINT "transfers_two_places" CHECK ("transfers"."from_location_id" <> "transfers"."to_location_id"),
	CONSTRAINT "transfers_status_known" CHECK ("transfers"."status" in ('draft','inTransit','partiallyReceived','received','cancelled','closed'))
);
--> statement-breakpoint
ALTER TABLE "store_settings" ADD COLUMN "default_location_id" uuid;
--> statement-breakpoint
CREATE FUNCTION default_location() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT default_location_id FROM store_settings WHERE id = 1),
                  (SELECT id FROM locations ORDER BY created_at, id LIMIT 1))
$$;
--> statement-breakpoint
CREATE FUNCTION location_stock_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
--> statement-breakpoint
CREATE FUNCTION lot_stock_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
--> statement-breakpoint
INSERT INTO "locations" ("name", "kind") VALUES ('Main store', 'store');
--> statement-breakpoint
DO $$
DECLARE
  main uuid := (SELECT "id" FROM "locations" WHERE "name" = 'Main store');
BEGIN
  -- A constant default adds the column without rewriting the table (orders and movements are big);
  -- the default then becomes default_location().
  EXECUTE format('ALTER TABLE "orders" ADD COLUMN "location_id" uuid DEFAULT %L NOT NULL', main);
  EXECUTE format('ALTER TABLE "purchase_orders" ADD COLUMN "location_id" uuid DEFAULT %L NOT NULL', main);
  EXECUTE format('ALTER TABLE "registers" ADD COLUMN "location_id" uuid DEFAULT %L NOT NULL', main);
  EXECUTE format('ALTER TABLE "stock_movements" ADD COLUMN "location_id" uuid DEFAULT %L NOT NULL', main);
END $$;
--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "location_id" SET DEFAULT default_location();--> statement-breakpoint
ALTER TABLE "purchase_orders" ALTER COLUMN "location_id" SET DEFAULT default_location();--> statement-breakpoint
ALTER TABLE "registers" ALTER COLUMN "location_id" SET DEFAULT default_location();--> statement-breakpoint
ALTER TABLE "stock_movements" ALTER COLUMN "location_id" SET DEFAULT default_location()
--> statement-breakpoint
ALTER TABLE "stock_movements" DROP CONSTRAINT "stock_movements_kind_known";
--> statement-breakpoint
ALTER TABLE "stock_movements" ADD COLUMN "transfer_id" uuid;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "location_id" uuid;
--> statement-breakpoint
ALTER TABLE "location_stock" ADD CONSTRAINT "location_stock_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "location_stock" ADD CONSTRAINT "location_stock_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "lot_stock" ADD CONSTRAINT "lot_stock_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "transfer_line_lots" ADD CONSTRAINT "transfer_line_lots_line_id_transfer_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."transfer_lines"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "transfer_lines" ADD CONSTRAINT "transfer_lines_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "transfer_lines" ADD CONSTRAINT "transfer_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_from_location_id_locations_id_fk" FOREIGN KEY ("from_location_id") REFERENCES "public"."locations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_to_location_id_locations_id_fk" FOREIGN KEY ("to_location_id") REFERENCES "public"."locations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "location_stock_location_idx" ON "location_stock" USING btree ("location_id","product_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "locations_name_lower_key" ON "locations" USING btree (lower("name"));
--> statement-breakpoint
CREATE INDEX "lot_stock_product_location_idx" ON "lot_stock" USING btree ("product_id","location_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_lines_transfer_line_key" ON "transfer_lines" USING btree ("transfer_id","line_no");
--> statement-breakpoint
CREATE INDEX "transfer_lines_product_idx" ON "transfer_lines" USING btree ("product_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_number_key" ON "transfers" USING btree ("number");
--> statement-breakpoint
CREATE INDEX "transfers_created_idx" ON "transfers" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
--> statement-breakpoint
CREATE INDEX "transfers_status_created_idx" ON "transfers" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
--> statement-breakpoint
CREATE INDEX "transfers_from_idx" ON "transfers" USING btree ("from_location_id","status");
--> statement-breakpoint
CREATE INDEX "transfers_to_idx" ON "transfers" USING btree ("to_location_id","status");
--> statement-breakpoint
ALTER TABLE "purchase_orders" ADD CONSTRAINT "purchase_orders_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "registers" ADD CONSTRAINT "registers_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "store_settings" ADD CONSTRAINT "store_settings_default_location_id_locations_id_fk" FOREIGN KEY ("default_location_id") REFERENCES "public"."locations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "stock_movements_transfer_idx" ON "stock_movements" USING btree ("transfer_id") WHERE "stock_movements"."transfer_id" is not null;
--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_kind_known" CHECK ("stock_movements"."kind" in ('initial','sale','return','receipt','adjustment','count','transferOut','transferIn','transferLoss'));
--> statement-breakpoint
UPDATE "store_settings" SET "default_location_id" = (SELECT "id" FROM "locations" WHERE "name" = 'Main store');
--> statement-breakpoint
INSERT INTO "location_stock" ("product_id", "location_id", "stock", "on_order")
SELECT p."id", l."id", p."stock", coalesce(s."on_order", 0)
FROM "products" p CROSS JOIN "locations" l LEFT JOIN "product_stock" s ON s."product_id" = p."id"
ORDER BY p."id";
--> statement-breakpoint
INSERT INTO "lot_stock" ("lot_id", "location_id", "product_id", "quantity")
SELECT t."id", l."id", t."product_id", t."quantity" FROM "lots" t CROSS JOIN "locations" l
WHERE t."quantity" > 0 ORDER BY t."id";
--> statement-breakpoint
CREATE TRIGGER location_stock_from_ledger BEFORE INSERT OR UPDATE OF stock ON location_stock
FOR EACH ROW EXECUTE FUNCTION location_stock_from_ledger();
--> statement-breakpoint
CREATE TRIGGER lot_stock_from_ledger BEFORE INSERT OR UPDATE OF quantity ON lot_stock
FOR EACH ROW EXECUTE FUNCTION lot_stock_from_ledger();
--> statement-breakpoint
CREATE INDEX "orders_location_date_idx" ON "orders" USING btree ("location_id","order_date");
