-- The lock date (DESIGN §19): no entry may be dated on or before it (IMS11, a 409 BOOKS_LOCKED).
-- Needs: accounting_settings.lock_date. Trigger: journal_entries_unlocked, BEFORE INSERT ON
-- journal_entries FOR EACH ROW (migration 0036).
CREATE OR REPLACE FUNCTION journal_entries_unlocked() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  locked date;
BEGIN
  SELECT lock_date INTO locked FROM accounting_settings;
  IF locked IS NOT NULL AND NEW.date <= locked THEN
    RAISE EXCEPTION 'The books are locked up to %', locked USING ERRCODE = 'IMS11',
      DETAIL = json_build_object('lockDate', locked)::text;
  END IF;
  RETURN NEW;
END $$;
