-- A till session closed: 1050 the counted cash, 1000 the expected, 6100 the difference (DESIGN §19).
-- Needs: journal_post, account_of, store_day; register_sessions.
CREATE OR REPLACE FUNCTION post_session_close(p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r register_sessions%ROWTYPE;
BEGIN
  SELECT * INTO r FROM register_sessions WHERE id = p_id;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  PERFORM journal_post('sessionClose', r.id, store_day(r.closed_at), 'Till closed',
    jsonb_build_array(
      jsonb_build_object('account', account_of('safe'), 'amount', r.counted_cash),
      jsonb_build_object('account', account_of('tillCash'), 'amount', -r.expected_cash, 'register', r.register_id),
      jsonb_build_object('account', account_of('overShort'), 'amount', r.expected_cash - r.counted_cash,
                         'register', r.register_id)),
    NULL, r.closed_by_id, r.closed_by_name, NULL);
END $$;
