-- DESIGN §19 (decision 0047's bench): posting at every sale's commit writes less, and in order.
-- - A journal line and a valued movement's link name their entry and account without foreign
--   keys (a check per line, and the same few account rows share-locked by every sale): an entry
--   and its lines are written by one statement of the one writer and never deleted, and accounts
--   are never deleted (accounts_kept).
-- - A line has no id of its own: it is its entry's n-th (the key).
-- - An entry's id is time-ordered (time_ordered_uuid), so the entries' key and the lines' grow at
--   their end instead of touching a random page of a large index at each sale.
-- - The unique index of reversals holds only the entries that reverse one.
-- The functions' bodies come from their files at every start.
CREATE FUNCTION time_ordered_uuid() RETURNS uuid LANGUAGE sql VOLATILE AS $$ SELECT gen_random_uuid() $$;--> statement-breakpoint
CREATE FUNCTION accounts_kept() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
ALTER TABLE "journal_lines" DROP CONSTRAINT "journal_lines_entry_id_journal_entries_id_fk";--> statement-breakpoint
ALTER TABLE "journal_lines" DROP CONSTRAINT "journal_lines_account_id_accounts_id_fk";--> statement-breakpoint
ALTER TABLE "journal_movements" DROP CONSTRAINT "journal_movements_entry_id_journal_entries_id_fk";--> statement-breakpoint
ALTER TABLE "journal_lines" DROP COLUMN "id";--> statement-breakpoint
DROP INDEX "journal_lines_entry_n_key";--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_entry_n_key" PRIMARY KEY("entry_id","n");--> statement-breakpoint
ALTER TABLE "journal_entries" ALTER COLUMN "id" SET DEFAULT time_ordered_uuid();--> statement-breakpoint
DROP INDEX "journal_entries_reverses_key";--> statement-breakpoint
CREATE UNIQUE INDEX "journal_entries_reverses_key" ON "journal_entries" USING btree ("reverses") WHERE "journal_entries"."reverses" is not null;--> statement-breakpoint
CREATE TRIGGER "accounts_kept" BEFORE DELETE OR TRUNCATE ON "accounts"
  FOR EACH STATEMENT EXECUTE FUNCTION accounts_kept();
