-- Cash put into or taken out of a drawer (DESIGN §19); not a supplier's payment (§20), which posts itself.
-- Needs: journal_post, account_of, store_day; cash_movements, register_sessions.
CREATE OR REPLACE FUNCTION post_cash(p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r cash_movements%ROWTYPE;
  src record;
BEGIN
  SELECT * INTO r FROM cash_movements WHERE id = p_id;
  -- Cash paid to a supplier from the drawer (DESIGN §20) is posted by its payment's entry.
  IF NOT FOUND OR r.payment_id IS NOT NULL THEN
    RETURN;
  END IF;
  SELECT register_id INTO src FROM register_sessions WHERE id = r.session_id;
  PERFORM journal_post('cash', r.id, store_day(r.at), CASE WHEN r.amount > 0 THEN 'Cash in' ELSE 'Cash out' END,
    jsonb_build_array(
      jsonb_build_object('account', account_of('tillCash'), 'amount', r.amount, 'register', src.register_id),
      jsonb_build_object('account', coalesce(r.account_id, account_of(CASE WHEN r.amount > 0 THEN 'safe' ELSE 'expenses' END)),
                         'amount', -r.amount)),
    NULL, r.user_id, r.user_name, NULL);
END $$;
