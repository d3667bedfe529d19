-- The catalogue import (DESIGN §14): each uploaded file (imports) and its data rows with their
-- cells as uploaded (import_rows), the check's result per row and the apply's mark; the audit
-- log's new action `imported` and entity `import`. Needs no database function.
CREATE TABLE "import_rows" (
	"import_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"cells" text[] NOT NULL,
	"result" text,
	"errors" jsonb,
	"product_id" uuid,
	"changes" jsonb,
	"applied_at" timestamp with time zone,
	CONSTRAINT "import_rows_import_id_line_pk" PRIMARY KEY("import_id","line"),
	CONSTRAINT "import_rows_result_known" CHECK ("import_rows"."result" in ('create','update','unchanged','error'))
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"status" text DEFAULT 'uploaded' NOT NULL,
	"columns" text[] NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"mapping" jsonb NOT NULL,
	"options" jsonb,
	"summary" jsonb,
	"processed" integer DEFAULT 0 NOT NULL,
	"failure" text,
	"lease_until" timestamp with time zone,
	"created_by_id" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	"applied_at" timestamp with time zone,
	CONSTRAINT "imports_status_known" CHECK ("imports"."status" in ('uploaded','checked','applying','applied','failed')),
	CONSTRAINT "imports_format_known" CHECK ("imports"."format" in ('csv','xlsx')),
	CONSTRAINT "imports_processed_nonnegative" CHECK ("imports"."processed" >= 0)
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_known";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_known";--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_rows_result_idx" ON "import_rows" USING btree ("import_id","result","line");--> statement-breakpoint
CREATE INDEX "imports_created_idx" ON "imports" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "imports_applying_idx" ON "imports" USING btree ("lease_until") WHERE "imports"."status" = 'applying';--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_known" CHECK ("audit_log"."action" in ('signedIn','signInFailed','signInThrottled','created','updated','deleted','stockAdjusted','stockCounted','returned','ordered','received','cancelled','closed','deactivated','reactivated','passwordReset','discountApproved','stockOverridden','pinChanged','opened','cashMoved','refunded','creditAdjusted','imported'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_known" CHECK ("audit_log"."entity_type" in ('user','product','category','supplier','order','purchaseOrder','customer','store','taxRate','sale','register','registerSession','refund','import'));