-- The books (DESIGN §19, decision 0047): every entry balances to the cent, or its transaction
-- does not commit (IMS12, a writer's fault: journal_post refuses it first).
-- Needs: journal_lines (entry_id, debit, credit). Trigger: journal_entries_balanced, AFTER INSERT
-- ON journal_entries DEFERRABLE INITIALLY DEFERRED FOR EACH ROW (migration 0036).
CREATE OR REPLACE FUNCTION journal_entries_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  off numeric;
BEGIN
  SELECT coalesce(sum(debit - credit), 0) INTO off FROM journal_lines WHERE entry_id = NEW.id;
  IF off <> 0 THEN
    RAISE EXCEPTION 'The entry does not balance by %', off USING ERRCODE = 'IMS12';
  END IF;
  RETURN NULL;
END $$;
