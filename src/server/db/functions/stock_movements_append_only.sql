-- The stock ledger (DESIGN §8, decision 0011): a movement is never updated or deleted, and the
-- ledger never truncated. Statement-level, so even a statement that matches no row is refused.
-- Needs: nothing. Trigger: stock_movements_append_only, BEFORE UPDATE OR DELETE OR TRUNCATE ON
-- stock_movements FOR EACH STATEMENT (migration 0010).
CREATE OR REPLACE FUNCTION stock_movements_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'stock_movements is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
