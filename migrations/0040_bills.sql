-- DESIGN §20 (decision 0049): suppliers' bills, their lines (on a purchase order line's received
-- units, or freight and services on an account), payments to suppliers and their allocations.
-- A purchase order line keeps the units posted bills bill (never above those received); a cash
-- movement names the supplier payment it paid (that payment posts it, post_cash does not). The
-- audit log knows bills and supplier payments, voided, paid and allocated.
CREATE SEQUENCE "public"."bill_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE "public"."supplier_payment_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "bill_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bill_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"purchase_order_line_id" uuid,
	"description" text DEFAULT '' NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" numeric(12, 2) NOT NULL,
	"tax_rate_id" uuid,
	"tax_rate_name" text,
	"tax_rate" numeric(6, 3),
	"account_id" uuid NOT NULL,
	"net" numeric(14, 2) NOT NULL,
	"tax" numeric(14, 2) NOT NULL,
	CONSTRAINT "bill_lines_quantity_positive" CHECK ("bill_lines"."quantity" >= 1),
	CONSTRAINT "bill_lines_unit_price_nonnegative" CHECK ("bill_lines"."unit_price" >= 0),
	CONSTRAINT "bill_lines_rate_whole" CHECK (("bill_lines"."tax_rate_name" is null) = ("bill_lines"."tax_rate" is null))
);
--> statement-breakpoint
CREATE TABLE "bills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('bill_number_seq') NOT NULL,
	"supplier_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"date" date NOT NULL,
	"due_date" date,
	"status" text DEFAULT 'draft' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"net" numeric(14, 2) NOT NULL,
	"tax" numeric(14, 2) NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"paid" numeric(14, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"posted_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"voided_on" date,
	CONSTRAINT "bills_status_known" CHECK ("bills"."status" in ('draft','posted','partiallyPaid','paid','void')),
	CONSTRAINT "bills_paid_within" CHECK ("bills"."paid" >= 0 and "bills"."paid" <= "bills"."total"),
	CONSTRAINT "bills_total_sum" CHECK ("bills"."total" = "bills"."net" + "bills"."tax"),
	CONSTRAINT "bills_status_paid" CHECK (case "bills"."status" when 'draft' then "bills"."paid" = 0 and "bills"."posted_at" is null
                          when 'void' then "bills"."paid" = 0 and "bills"."voided_on" is not null
                          when 'posted' then "bills"."paid" = 0 and "bills"."total" > 0
                          when 'partiallyPaid' then "bills"."paid" > 0 and "bills"."paid" < "bills"."total"
                          else "bills"."paid" = "bills"."total" end),
	CONSTRAINT "bills_due_after_date" CHECK ("bills"."due_date" is null or "bills"."due_date" >= "bills"."date")
);
--> statement-breakpoint
CREATE TABLE "payment_allocations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"bill_id" uuid NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_allocations_amount_positive" CHECK ("payment_allocations"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "supplier_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('supplier_payment_number_seq') NOT NULL,
	"supplier_id" uuid NOT NULL,
	"date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"method" text NOT NULL,
	"session_id" uuid,
	"allocated" numeric(14, 2) DEFAULT '0' NOT NULL,
	"user_id" uuid,
	"user_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supplier_payments_method_known" CHECK ("supplier_payments"."method" in ('bank','cash','card')),
	CONSTRAINT "supplier_payments_amount_positive" CHECK ("supplier_payments"."amount" > 0),
	CONSTRAINT "supplier_payments_allocated_within" CHECK ("supplier_payments"."allocated" >= 0 and "supplier_payments"."allocated" <= "supplier_payments"."amount"),
	CONSTRAINT "supplier_payments_session_cash" CHECK ("supplier_payments"."session_id" is null or "supplier_payments"."method" = 'cash')
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_known";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_known";--> statement-breakpoint
ALTER TABLE "purchase_order_lines" ADD COLUMN "billed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "cash_movements" ADD COLUMN "payment_id" uuid;--> statement-breakpoint
ALTER TABLE "bill_lines" ADD CONSTRAINT "bill_lines_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_lines" ADD CONSTRAINT "bill_lines_purchase_order_line_id_purchase_order_lines_id_fk" FOREIGN KEY ("purchase_order_line_id") REFERENCES "public"."purchase_order_lines"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_lines" ADD CONSTRAINT "bill_lines_tax_rate_id_tax_rates_id_fk" FOREIGN KEY ("tax_rate_id") REFERENCES "public"."tax_rates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_lines" ADD CONSTRAINT "bill_lines_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_supplier_id_suppliers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."suppliers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_payment_id_supplier_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."supplier_payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_payments" ADD CONSTRAINT "supplier_payments_supplier_id_suppliers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."suppliers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_payments" ADD CONSTRAINT "supplier_payments_session_id_register_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."register_sessions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_payments" ADD CONSTRAINT "supplier_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bill_lines_position_key" ON "bill_lines" USING btree ("bill_id","position");--> statement-breakpoint
CREATE INDEX "bill_lines_purchase_order_line_idx" ON "bill_lines" USING btree ("purchase_order_line_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bills_number_key" ON "bills" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "bills_reference_key" ON "bills" USING btree ("supplier_id",lower("reference"));--> statement-breakpoint
CREATE INDEX "bills_supplier_idx" ON "bills" USING btree ("supplier_id","date");--> statement-breakpoint
CREATE INDEX "bills_open_idx" ON "bills" USING btree (coalesce("due_date", "date")) WHERE "bills"."status" in ('posted','partiallyPaid');--> statement-breakpoint
CREATE INDEX "payment_allocations_payment_idx" ON "payment_allocations" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_allocations_bill_idx" ON "payment_allocations" USING btree ("bill_id");--> statement-breakpoint
CREATE UNIQUE INDEX "supplier_payments_number_key" ON "supplier_payments" USING btree ("number");--> statement-breakpoint
CREATE INDEX "supplier_payments_supplier_idx" ON "supplier_payments" USING btree ("supplier_id","date");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_known" CHECK ("audit_log"."action" in ('signedIn','signInFailed','signInThrottled','created','updated','deleted','stockAdjusted','stockCounted','returned','ordered','received','cancelled','closed','deactivated','reactivated','passwordReset','discountApproved','stockOverridden','pinChanged','opened','cashMoved','refunded','creditAdjusted','imported','sent','posted','reversed','voided','paid','allocated'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_known" CHECK ("audit_log"."entity_type" in ('user','product','category','supplier','order','purchaseOrder','customer','store','taxRate','sale','register','registerSession','refund','import','transfer','location','stocktake','item','account','journalEntry','books','bill','supplierPayment'));--> statement-breakpoint
ALTER TABLE "purchase_order_lines" ADD CONSTRAINT "purchase_order_lines_billed_within" CHECK ("purchase_order_lines"."billed" between 0 and "purchase_order_lines"."received");