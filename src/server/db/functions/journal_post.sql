-- The one writer of the journal (DESIGN §19, decision 0047): every entry, whether a trigger posts
-- it for its event (journal_source_posted) or the server for an admin (a manual entry, a
-- reversal, the opening), is written here. `lines` is a JSON array of {account (an account's id),
-- amount (signed: + debit, − credit), location, register, tax_rate, supplier, customer}; lines of
-- one account, side and concerns are added into one, lines of 0 dropped, the rest numbered in the
-- order given. The entry must balance (IMS12, a writer's fault: the database refuses it again at
-- commit, journal_entries_balanced); `movements` are the stock movements it values, each valued
-- by at most one entry (journal_movements' key). Answers the entry's id.
-- One statement writes the entry, its lines and its movements (the posting runs at every sale's
-- commit: decision 0047's bench).
-- Needs: journal_entries, journal_lines, journal_movements.
CREATE OR REPLACE FUNCTION journal_post(
  p_kind text, p_source uuid, p_date date, p_memo text, p_lines jsonb, p_movements uuid[],
  p_user_id uuid, p_user_name text, p_reverses uuid
) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  entry uuid;
  off numeric;
BEGIN
  WITH given AS MATERIALIZED (
    SELECT * FROM ROWS FROM (jsonb_to_recordset(coalesce(p_lines, '[]'::jsonb))
                    AS (account uuid, amount numeric, location uuid, register uuid, tax_rate text, supplier uuid,
                        customer uuid))
           WITH ORDINALITY AS l(account, amount, location, register, tax_rate, supplier, customer, n)
  ), made AS (
    INSERT INTO journal_entries (date, memo, source_kind, source_id, reverses, user_id, user_name)
    VALUES (p_date, coalesce(p_memo, ''), p_kind, p_source, p_reverses, p_user_id, p_user_name)
    RETURNING id
  ), lined AS (
    INSERT INTO journal_lines (entry_id, n, account_id, debit, credit, location_id, register_id, tax_rate,
                               supplier_id, customer_id)
    SELECT made.id, row_number() OVER (ORDER BY min(l.n)), l.account,
           CASE WHEN sum(l.amount) > 0 THEN sum(l.amount) ELSE 0 END,
           CASE WHEN sum(l.amount) < 0 THEN -sum(l.amount) ELSE 0 END,
           l.location, l.register, l.tax_rate, l.supplier, l.customer
    FROM given l CROSS JOIN made
    WHERE l.amount <> 0
    GROUP BY made.id, l.account, l.amount > 0, l.location, l.register, l.tax_rate, l.supplier, l.customer
    HAVING sum(l.amount) <> 0
  ), valued AS (
    INSERT INTO journal_movements (movement_id, entry_id)
    SELECT DISTINCT m.id, made.id FROM unnest(coalesce(p_movements, '{}'::uuid[])) AS m(id) CROSS JOIN made
  )
  SELECT made.id, (SELECT coalesce(sum(amount), 0) FROM given) INTO entry, off FROM made;
  IF off <> 0 THEN
    RAISE EXCEPTION 'The entry does not balance by %', off USING ERRCODE = 'IMS12';
  END IF;
  RETURN entry;
END $$;
