-- An admin's store credit adjustment: 6950 / 2300 (DESIGN §19).
-- Needs: journal_post, account_of, store_day; store_credit_entries.
CREATE OR REPLACE FUNCTION post_credit(p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r store_credit_entries%ROWTYPE;
BEGIN
  SELECT * INTO r FROM store_credit_entries WHERE id = p_id;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  PERFORM journal_post('credit', r.id, store_day(r.at), 'Store credit',
    jsonb_build_array(
      jsonb_build_object('account', account_of('goodwill'), 'amount', r.amount),
      jsonb_build_object('account', account_of('storeCredit'), 'amount', -r.amount, 'customer', r.customer_id)),
    NULL, r.user_id, r.user_name, NULL);
END $$;
