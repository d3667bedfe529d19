-- The chart of accounts (DESIGN §19): an account is never deleted (deactivate it instead), so a
-- journal line's account always exists without a foreign key (migration 0039; IMS13, a
-- programming error: a 500).
-- Trigger: accounts_kept, BEFORE DELETE OR TRUNCATE ON accounts FOR EACH STATEMENT (migration 0039).
CREATE OR REPLACE FUNCTION accounts_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Accounts are never deleted: % is refused (deactivate the account)', TG_OP USING ERRCODE = 'IMS13';
END $$;
