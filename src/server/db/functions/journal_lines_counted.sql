-- The books' kept totals (DESIGN §19, decision 0047): each account's debits and credits per day
-- (the entry's date), added in this transaction's slot (counter_slot), so that the trial balance
-- and the P&L over any days read a few rows per account and day, and sales posting at once do not
-- queue on one row.
-- Needs: journal_entries (id, date), account_days (account_id, day, slot, debit, credit),
-- counter_slot(). Trigger: journal_lines_counted, AFTER INSERT ON journal_lines REFERENCING NEW
-- TABLE AS added_lines FOR EACH STATEMENT (migration 0036).
CREATE OR REPLACE FUNCTION journal_lines_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_days AS d (account_id, day, slot, debit, credit)
  SELECT l.account_id, e.date, counter_slot(), sum(l.debit), sum(l.credit)
  FROM added_lines l JOIN journal_entries e ON e.id = l.entry_id
  GROUP BY l.account_id, e.date ORDER BY l.account_id, e.date
  ON CONFLICT (account_id, day, slot) DO UPDATE
    SET debit = d.debit + excluded.debit, credit = d.credit + excluded.credit;
  RETURN NULL;
END $$;
