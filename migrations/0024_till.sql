-- The till (DESIGN §13): registers and their sessions (opened with a float, closed with the
-- drawer counted), cash put in and taken out, each sale's payments (split payments), refunds at
-- the counter with their lines, and customers' store credit kept by its entries.
--
-- Needs the function file store_credit_apply (src/server/db/functions): the stub below only lets
-- the trigger be created; the file gives its body at every start (decision 0026).
-- Writes to sales wait until this migration is done, so the backfill below sees every sale.
LOCK TABLE sales IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE SEQUENCE "public"."refund_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE "public"."register_session_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "cash_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"reason" text NOT NULL,
	"user_id" uuid,
	"user_name" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cash_movements_amount_nonzero" CHECK ("cash_movements"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "refund_lines" (
	"refund_id" uuid NOT NULL,
	"n" smallint NOT NULL,
	"order_id" uuid NOT NULL,
	"product_id" uuid,
	"product_name" text NOT NULL,
	"quantity" integer NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"tax" numeric(20, 2) NOT NULL,
	"tax_rate_name" text,
	"tax_rate" numeric(6, 3),
	CONSTRAINT "refund_lines_refund_id_n_pk" PRIMARY KEY("refund_id","n"),
	CONSTRAINT "refund_lines_quantity_positive" CHECK ("refund_lines"."quantity" >= 1),
	CONSTRAINT "refund_lines_amount_within" CHECK ("refund_lines"."amount" >= 0 and "refund_lines"."tax" between 0 and "refund_lines"."amount")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('refund_number_seq') NOT NULL,
	"sale_id" uuid NOT NULL,
	"sale_number" bigint NOT NULL,
	"session_id" uuid,
	"method" text NOT NULL,
	"restock" boolean NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"total" numeric(20, 2) NOT NULL,
	"tax" numeric(20, 2) NOT NULL,
	"customer_id" uuid,
	"customer_name" text,
	"user_id" uuid,
	"user_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_method_known" CHECK ("refunds"."method" in ('cash','card','other','storeCredit')),
	CONSTRAINT "refunds_total_nonnegative" CHECK ("refunds"."total" >= 0 and "refunds"."tax" between 0 and "refunds"."total"),
	CONSTRAINT "refunds_cash_in_session" CHECK ("refunds"."method" <> 'cash' or "refunds"."session_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "register_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('register_session_number_seq') NOT NULL,
	"register_id" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"opened_by_id" uuid,
	"opened_by_name" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opening_float" numeric(14, 2) NOT NULL,
	"closed_by_id" uuid,
	"closed_by_name" text,
	"closed_at" timestamp with time zone,
	"counted_cash" numeric(14, 2),
	"expected_cash" numeric(20, 2),
	"note" text DEFAULT '' NOT NULL,
	CONSTRAINT "register_sessions_status_known" CHECK ("register_sessions"."status" in ('open','closed')),
	CONSTRAINT "register_sessions_float_nonnegative" CHECK ("register_sessions"."opening_float" >= 0),
	CONSTRAINT "register_sessions_closed_whole" CHECK (("register_sessions"."status" = 'closed') = ("register_sessions"."closed_at" is not null and "register_sessions"."counted_cash" is not null and "register_sessions"."expected_cash" is not null))
);
--> statement-breakpoint
CREATE TABLE "registers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sale_payments" (
	"sale_id" uuid NOT NULL,
	"n" smallint NOT NULL,
	"method" text NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"tendered" numeric(20, 2),
	CONSTRAINT "sale_payments_sale_id_n_pk" PRIMARY KEY("sale_id","n"),
	CONSTRAINT "sale_payments_method_known" CHECK ("sale_payments"."method" in ('cash','card','other','storeCredit')),
	CONSTRAINT "sale_payments_amount_nonnegative" CHECK ("sale_payments"."amount" >= 0),
	CONSTRAINT "sale_payments_tendered_cash" CHECK ("sale_payments"."tendered" is null or ("sale_payments"."method" = 'cash' and "sale_payments"."tendered" >= "sale_payments"."amount"))
);
--> statement-breakpoint
CREATE TABLE "store_credit_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"kind" text NOT NULL,
	"sale_id" uuid,
	"refund_id" uuid,
	"user_id" uuid,
	"user_name" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"balance_after" numeric(20, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "store_credit_entries_kind_known" CHECK ("store_credit_entries"."kind" in ('refund','sale','adjustment')),
	CONSTRAINT "store_credit_entries_amount_nonzero" CHECK ("store_credit_entries"."amount" <> 0),
	CONSTRAINT "store_credit_entries_balance_nonnegative" CHECK ("store_credit_entries"."balance_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_known";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_known";--> statement-breakpoint
ALTER TABLE "sales" DROP CONSTRAINT "sales_payment_method_known";--> statement-breakpoint
ALTER TABLE "sales" DROP CONSTRAINT "sales_tendered_covers_total";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "credit_balance" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "session_id" uuid;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "change" numeric(20, 2);--> statement-breakpoint
ALTER TABLE "stock_movements" ADD COLUMN "refund_id" uuid;--> statement-breakpoint
ALTER TABLE "cash_movements" ADD CONSTRAINT "cash_movements_session_id_register_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."register_sessions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_movements" ADD CONSTRAINT "cash_movements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_lines" ADD CONSTRAINT "refund_lines_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_lines" ADD CONSTRAINT "refund_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_session_id_register_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."register_sessions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "register_sessions" ADD CONSTRAINT "register_sessions_register_id_registers_id_fk" FOREIGN KEY ("register_id") REFERENCES "public"."registers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "register_sessions" ADD CONSTRAINT "register_sessions_opened_by_id_users_id_fk" FOREIGN KEY ("opened_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "register_sessions" ADD CONSTRAINT "register_sessions_closed_by_id_users_id_fk" FOREIGN KEY ("closed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_payments" ADD CONSTRAINT "sale_payments_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_entries" ADD CONSTRAINT "store_credit_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cash_movements_session_idx" ON "cash_movements" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "refund_lines_order_idx" ON "refund_lines" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_number_key" ON "refunds" USING btree ("number");--> statement-breakpoint
CREATE INDEX "refunds_sale_idx" ON "refunds" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "refunds_session_idx" ON "refunds" USING btree ("session_id") WHERE "refunds"."session_id" is not null;--> statement-breakpoint
CREATE INDEX "refunds_created_idx" ON "refunds" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "register_sessions_number_key" ON "register_sessions" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "register_sessions_one_open" ON "register_sessions" USING btree ("register_id") WHERE "register_sessions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "register_sessions_opened_idx" ON "register_sessions" USING btree ("opened_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "register_sessions_user_opened_idx" ON "register_sessions" USING btree ("opened_by_id","opened_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "registers_name_lower_key" ON "registers" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "store_credit_entries_customer_at_idx" ON "store_credit_entries" USING btree ("customer_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_session_id_register_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."register_sessions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sales_session_idx" ON "sales" USING btree ("session_id") WHERE "sales"."session_id" is not null;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_known" CHECK ("audit_log"."action" in ('signedIn','signInFailed','signInThrottled','created','updated','deleted','stockAdjusted','stockCounted','returned','ordered','received','cancelled','closed','deactivated','reactivated','passwordReset','discountApproved','stockOverridden','pinChanged','opened','cashMoved','refunded','creditAdjusted'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_known" CHECK ("audit_log"."entity_type" in ('user','product','category','supplier','order','purchaseOrder','customer','store','taxRate','sale','register','registerSession','refund'));--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_credit_balance_nonnegative" CHECK ("customers"."credit_balance" >= 0);--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_change_nonnegative" CHECK ("sales"."change" is null or "sales"."change" >= 0);--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_payment_method_known" CHECK ("sales"."payment_method" in ('cash','card','other','storeCredit','split'));--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_tendered_covers_total" CHECK ("sales"."tendered" is null or "sales"."payment_method" = 'split' or ("sales"."payment_method" = 'cash' and "sales"."tendered" >= "sales"."total"));
--> statement-breakpoint
-- One register exists from the start.
INSERT INTO registers (name) VALUES ('Till 1');
--> statement-breakpoint
-- Every sale so far was paid one way: its payment is its total (cash keeps what was handed over).
INSERT INTO sale_payments (sale_id, n, method, amount, tendered)
SELECT id, 1, payment_method, total, CASE WHEN payment_method = 'cash' THEN coalesce(tendered, total) END
FROM sales;
--> statement-breakpoint
UPDATE sales SET change = coalesce(tendered, total) - total WHERE payment_method = 'cash';
--> statement-breakpoint
CREATE FUNCTION store_credit_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
--> statement-breakpoint
CREATE TRIGGER store_credit_apply BEFORE INSERT ON store_credit_entries
FOR EACH ROW EXECUTE FUNCTION store_credit_apply();
