-- Stocktakes (DESIGN §18, decision 0044): a location counted while it trades. The products each
-- open stocktake counts (never two open ones sharing a location and product), its lines (one per
-- lot of a tracked product), every count sent, and the stocktake a count movement was posted by.
-- Audit entries about a stocktake: created, posted, cancelled.
CREATE SEQUENCE "public"."stocktake_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "stocktake_counts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"line_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"quantity" integer NOT NULL,
	"counted_after" integer NOT NULL,
	"expected_at_count" integer NOT NULL,
	"user_id" uuid,
	"user_name" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stocktake_counts_mode_known" CHECK ("stocktake_counts"."mode" in ('set','add'))
);
--> statement-breakpoint
CREATE TABLE "stocktake_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stocktake_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"lot_id" uuid,
	"counted" integer,
	"counted_by_id" uuid,
	"counted_by_name" text,
	"counted_at" timestamp with time zone,
	"expected_at_count" integer,
	"posted" integer,
	CONSTRAINT "stocktake_lines_counted_range" CHECK ("stocktake_lines"."counted" is null or "stocktake_lines"."counted" between 0 and 1000000),
	CONSTRAINT "stocktake_lines_count_whole" CHECK (("stocktake_lines"."counted" is null) = ("stocktake_lines"."counted_at" is null) and ("stocktake_lines"."counted" is null) = ("stocktake_lines"."expected_at_count" is null))
);
--> statement-breakpoint
CREATE TABLE "stocktake_products" (
	"stocktake_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"open" boolean DEFAULT true NOT NULL,
	CONSTRAINT "stocktake_products_stocktake_id_product_id_pk" PRIMARY KEY("stocktake_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "stocktakes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('stocktake_number_seq') NOT NULL,
	"location_id" uuid NOT NULL,
	"status" text DEFAULT 'counting' NOT NULL,
	"blind" boolean DEFAULT false NOT NULL,
	"scope" jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"user_id" uuid,
	"user_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"posted_at" timestamp with time zone,
	"posted_by_id" uuid,
	"posted_by_name" text,
	"cancelled_at" timestamp with time zone,
	"line_count" integer DEFAULT 0 NOT NULL,
	"uncounted" text,
	CONSTRAINT "stocktakes_status_known" CHECK ("stocktakes"."status" in ('counting','posted','cancelled')),
	CONSTRAINT "stocktakes_uncounted_known" CHECK ("stocktakes"."uncounted" is null or "stocktakes"."uncounted" in ('keep','zero')),
	CONSTRAINT "stocktakes_posted_whole" CHECK (("stocktakes"."status" = 'posted') = ("stocktakes"."posted_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_known";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_known";--> statement-breakpoint
ALTER TABLE "stock_movements" ADD COLUMN "stocktake_id" uuid;--> statement-breakpoint
ALTER TABLE "stocktake_counts" ADD CONSTRAINT "stocktake_counts_line_id_stocktake_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."stocktake_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_lines" ADD CONSTRAINT "stocktake_lines_stocktake_id_stocktakes_id_fk" FOREIGN KEY ("stocktake_id") REFERENCES "public"."stocktakes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_lines" ADD CONSTRAINT "stocktake_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_products" ADD CONSTRAINT "stocktake_products_stocktake_id_stocktakes_id_fk" FOREIGN KEY ("stocktake_id") REFERENCES "public"."stocktakes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_products" ADD CONSTRAINT "stocktake_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktakes" ADD CONSTRAINT "stocktakes_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stocktake_counts_line_idx" ON "stocktake_counts" USING btree ("line_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "stocktake_lines_product_key" ON "stocktake_lines" USING btree ("stocktake_id","product_id") WHERE "stocktake_lines"."lot_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "stocktake_lines_lot_key" ON "stocktake_lines" USING btree ("stocktake_id","lot_id") WHERE "stocktake_lines"."lot_id" is not null;--> statement-breakpoint
CREATE INDEX "stocktake_lines_product_idx" ON "stocktake_lines" USING btree ("stocktake_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stocktake_products_open_key" ON "stocktake_products" USING btree ("location_id","product_id") WHERE "stocktake_products"."open";--> statement-breakpoint
CREATE UNIQUE INDEX "stocktakes_number_key" ON "stocktakes" USING btree ("number");--> statement-breakpoint
CREATE INDEX "stocktakes_created_idx" ON "stocktakes" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "stocktakes_status_created_idx" ON "stocktakes" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "stocktakes_location_idx" ON "stocktakes" USING btree ("location_id","status");--> statement-breakpoint
CREATE INDEX "stock_movements_stocktake_idx" ON "stock_movements" USING btree ("stocktake_id") WHERE "stock_movements"."stocktake_id" is not null;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_known" CHECK ("audit_log"."action" in ('signedIn','signInFailed','signInThrottled','created','updated','deleted','stockAdjusted','stockCounted','returned','ordered','received','cancelled','closed','deactivated','reactivated','passwordReset','discountApproved','stockOverridden','pinChanged','opened','cashMoved','refunded','creditAdjusted','imported','sent','posted'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_known" CHECK ("audit_log"."entity_type" in ('user','product','category','supplier','order','purchaseOrder','customer','store','taxRate','sale','register','registerSession','refund','import','transfer','location','stocktake'));