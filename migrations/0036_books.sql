-- The books (DESIGN §19, decision 0047): the chart of accounts (the default chart, each account
-- the postings use named by its system key), the journal (entries, their lines, the movements
-- each values), each account's kept totals per day (account_days), the settings (the lock date,
-- when the books began). Entries are written by journal_post alone and posted in each event's own
-- transaction by deferred constraint triggers (journal_source_posted); the database keeps the
-- journal append-only (journal_append_only), each entry balanced at commit
-- (journal_entries_balanced) and after the lock date (journal_entries_unlocked), and counts each
-- line into account_days (journal_lines_counted). The functions are stubs here, their files'
-- bodies at every start; the opening entry is the first start's (openBooks). A till's cash
-- movement may name its account.
CREATE SEQUENCE "public"."journal_entry_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "account_days" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"slot" smallint NOT NULL,
	"debit" numeric(20, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(20, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "account_days_account_id_day_slot_pk" PRIMARY KEY("account_id","day","slot")
);
--> statement-breakpoint
CREATE TABLE "accounting_settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"lock_date" date,
	"books_began_at" timestamp with time zone,
	CONSTRAINT "accounting_settings_one_row" CHECK ("accounting_settings"."id")
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"system" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_type_known" CHECK ("accounts"."type" in ('asset','liability','equity','income','expense')),
	CONSTRAINT "accounts_system_active" CHECK ("accounts"."system" is null or "accounts"."active")
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('journal_entry_number_seq') NOT NULL,
	"date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"source_kind" text NOT NULL,
	"source_id" uuid,
	"reverses" uuid,
	"user_id" uuid,
	"user_name" text,
	CONSTRAINT "journal_entries_source_known" CHECK ("journal_entries"."source_kind" in ('sale','refund','return','receipt','movement','transfer','stocktake','cash','sessionOpen','sessionClose','credit','bill','payment','manual','reversal','opening'))
);
--> statement-breakpoint
CREATE TABLE "journal_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid NOT NULL,
	"n" integer NOT NULL,
	"account_id" uuid NOT NULL,
	"debit" numeric(20, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(20, 2) DEFAULT '0' NOT NULL,
	"location_id" uuid,
	"register_id" uuid,
	"tax_rate" text,
	"supplier_id" uuid,
	"customer_id" uuid,
	CONSTRAINT "journal_lines_one_side" CHECK ("journal_lines"."debit" >= 0 and "journal_lines"."credit" >= 0 and ("journal_lines"."debit" > 0) <> ("journal_lines"."credit" > 0))
);
--> statement-breakpoint
CREATE TABLE "journal_movements" (
	"movement_id" uuid PRIMARY KEY NOT NULL,
	"entry_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cash_movements" ADD COLUMN "account_id" uuid;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_movements" ADD CONSTRAINT "journal_movements_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_code_key" ON "accounts" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_system_key" ON "accounts" USING btree ("system");--> statement-breakpoint
CREATE UNIQUE INDEX "journal_entries_number_key" ON "journal_entries" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "journal_entries_reverses_key" ON "journal_entries" USING btree ("reverses");--> statement-breakpoint
CREATE UNIQUE INDEX "journal_entries_source_key" ON "journal_entries" USING btree ("source_kind","source_id") WHERE "journal_entries"."source_kind" in ('sale','refund','movement','cash','sessionOpen','sessionClose','credit','bill','payment','opening');--> statement-breakpoint
CREATE INDEX "journal_entries_source_idx" ON "journal_entries" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "journal_entries_date_idx" ON "journal_entries" USING btree ("date","number");--> statement-breakpoint
CREATE UNIQUE INDEX "journal_lines_entry_n_key" ON "journal_lines" USING btree ("entry_id","n");--> statement-breakpoint
CREATE INDEX "journal_lines_account_idx" ON "journal_lines" USING btree ("account_id","entry_id");--> statement-breakpoint
CREATE INDEX "journal_movements_entry_idx" ON "journal_movements" USING btree ("entry_id");--> statement-breakpoint
ALTER TABLE "cash_movements" ADD CONSTRAINT "cash_movements_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_movements_purchase_order_idx" ON "stock_movements" USING btree ("purchase_order_id") WHERE "stock_movements"."purchase_order_id" is not null;--> statement-breakpoint
CREATE INDEX "stock_movements_posted_at_idx" ON "stock_movements" USING btree ("at") WHERE "stock_movements"."kind" in ('initial','adjustment','count','revaluation','receipt');
--> statement-breakpoint
INSERT INTO "accounts" ("code", "name", "type", "system") VALUES
  ('1000', 'Till cash', 'asset', 'tillCash'),
  ('1050', 'Safe', 'asset', 'safe'),
  ('1100', 'Bank', 'asset', 'bank'),
  ('1150', 'Card and other clearing', 'asset', 'clearing'),
  ('1300', 'Inventory', 'asset', 'inventory'),
  ('1310', 'Goods in transit', 'asset', 'inTransit'),
  ('1400', 'Input tax', 'asset', 'inputTax'),
  ('2000', 'Accounts payable', 'liability', 'payable'),
  ('2100', 'Goods received not billed', 'liability', 'receivedNotBilled'),
  ('2200', 'Tax payable', 'liability', 'taxPayable'),
  ('2300', 'Store credit', 'liability', 'storeCredit'),
  ('3000', 'Opening balance equity', 'equity', 'openingEquity'),
  ('3200', 'Retained earnings', 'equity', 'retainedEarnings'),
  ('4000', 'Sales', 'income', 'sales'),
  ('4100', 'Sales returns', 'income', 'salesReturns'),
  ('5000', 'Cost of goods sold', 'expense', 'cogs'),
  ('5100', 'Stock write-offs', 'expense', 'writeOffs'),
  ('5150', 'Inventory adjustments', 'expense', 'adjustments'),
  ('5200', 'Purchase price variance', 'expense', 'priceVariance'),
  ('6100', 'Cash over and short', 'expense', 'overShort'),
  ('6900', 'General expenses', 'expense', 'expenses'),
  ('6950', 'Goodwill', 'expense', 'goodwill');--> statement-breakpoint
INSERT INTO "accounting_settings" ("id") VALUES (true);--> statement-breakpoint
CREATE FUNCTION journal_source_posted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
CREATE FUNCTION journal_entries_balanced() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
CREATE FUNCTION journal_entries_unlocked() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;--> statement-breakpoint
CREATE FUNCTION journal_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
CREATE FUNCTION journal_lines_counted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_posted" AFTER INSERT ON "sales" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION journal_source_posted();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "refunds_posted" AFTER INSERT ON "refunds" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION journal_source_posted();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "stock_movements_posted" AFTER INSERT ON "stock_movements" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.value <> 0 AND NEW.refund_id IS NULL AND NEW.kind NOT IN ('sale', 'return'))
  EXECUTE FUNCTION journal_source_posted();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "register_sessions_opened" AFTER INSERT ON "register_sessions" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION journal_source_posted();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "register_sessions_closed" AFTER UPDATE OF "status" ON "register_sessions" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.status = 'open' AND NEW.status = 'closed') EXECUTE FUNCTION journal_source_posted();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cash_movements_posted" AFTER INSERT ON "cash_movements" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION journal_source_posted();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "store_credit_entries_posted" AFTER INSERT ON "store_credit_entries" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.kind = 'adjustment') EXECUTE FUNCTION journal_source_posted();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "journal_entries_balanced" AFTER INSERT ON "journal_entries" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION journal_entries_balanced();--> statement-breakpoint
CREATE TRIGGER "journal_entries_unlocked" BEFORE INSERT ON "journal_entries"
  FOR EACH ROW EXECUTE FUNCTION journal_entries_unlocked();--> statement-breakpoint
CREATE TRIGGER "journal_entries_append_only" BEFORE UPDATE OR DELETE OR TRUNCATE ON "journal_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION journal_append_only();--> statement-breakpoint
CREATE TRIGGER "journal_lines_append_only" BEFORE UPDATE OR DELETE OR TRUNCATE ON "journal_lines"
  FOR EACH STATEMENT EXECUTE FUNCTION journal_append_only();--> statement-breakpoint
CREATE TRIGGER "journal_movements_append_only" BEFORE UPDATE OR DELETE OR TRUNCATE ON "journal_movements"
  FOR EACH STATEMENT EXECUTE FUNCTION journal_append_only();--> statement-breakpoint
CREATE TRIGGER "journal_lines_counted" AFTER INSERT ON "journal_lines" REFERENCING NEW TABLE AS added_lines
  FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_counted();