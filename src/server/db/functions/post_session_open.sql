-- A till session opened with a float: 1000 / 1050 (DESIGN §19).
-- Needs: journal_post, account_of, store_day; register_sessions.
CREATE OR REPLACE FUNCTION post_session_open(p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r register_sessions%ROWTYPE;
BEGIN
  SELECT * INTO r FROM register_sessions WHERE id = p_id;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF r.opening_float > 0 THEN
    PERFORM journal_post('sessionOpen', r.id, store_day(r.opened_at), 'Till opened',
      jsonb_build_array(
        jsonb_build_object('account', account_of('tillCash'), 'amount', r.opening_float, 'register', r.register_id),
        jsonb_build_object('account', account_of('safe'), 'amount', -r.opening_float)),
      NULL, r.opened_by_id, r.opened_by_name, NULL);
  END IF;
END $$;
