-- The account a posting uses by its system key (DESIGN §19's default chart: 'tillCash' is 1000
-- Till cash, and so on; migration 0036 made them).
-- Needs: accounts (id, system). Called by the posting functions.
CREATE OR REPLACE FUNCTION account_of(key text) RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT id FROM accounts WHERE system = key
$$;
