-- The books (DESIGN §19): nothing updates or deletes an entry, a line or a link (IMS13, a
-- programming error: a 500); a mistake is put right by a reversal.
-- Triggers: journal_entries_append_only, journal_lines_append_only, journal_movements_append_only,
-- BEFORE UPDATE OR DELETE OR TRUNCATE … FOR EACH STATEMENT (migration 0036).
CREATE OR REPLACE FUNCTION journal_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The journal is append-only: % is refused', TG_OP USING ERRCODE = 'IMS13';
END $$;
