-- Variants (DESIGN §22, decision 0045): items with options, each variant a product (item_id and
-- its option_values, one product per combination), products' brand and active flag; imports read
-- with a preset (generic, shopify, square), each preset row's cells as the check read them
-- (translated) and its warnings, rows a preset skips (result 'skipped'); audit entries about an item.
CREATE TABLE "items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category_id" uuid NOT NULL,
	"supplier_id" uuid NOT NULL,
	"brand" text,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "items_options_array" CHECK (jsonb_typeof("items"."options") = 'array')
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_known";--> statement-breakpoint
ALTER TABLE "import_rows" DROP CONSTRAINT "import_rows_result_known";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "item_id" uuid;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "option_values" jsonb;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "brand" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "import_rows" ADD COLUMN "translated" text[];--> statement-breakpoint
ALTER TABLE "import_rows" ADD COLUMN "warnings" jsonb;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "preset" text DEFAULT 'generic' NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_supplier_id_suppliers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."suppliers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "items_name_lower_key" ON "items" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "products_item_variant_key" ON "products" USING btree ("item_id","option_values") WHERE "products"."item_id" is not null;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_known" CHECK ("audit_log"."entity_type" in ('user','product','category','supplier','order','purchaseOrder','customer','store','taxRate','sale','register','registerSession','refund','import','transfer','location','stocktake','item'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_variant_whole" CHECK (("products"."item_id" is null) = ("products"."option_values" is null));--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_result_known" CHECK ("import_rows"."result" in ('create','update','unchanged','error','skipped'));--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_preset_known" CHECK ("imports"."preset" in ('generic','shopify','square'));