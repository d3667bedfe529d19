-- The audit log is append-only (DESIGN §7, decision 0010): refuses every UPDATE, DELETE and
-- TRUNCATE of audit_log, whoever asks. Statement-level, so even a statement that matches no row is
-- refused. (A superuser can still disable the trigger; no role of the application does.)
-- Needs: nothing. Trigger: audit_log_append_only, BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
-- FOR EACH STATEMENT (migration 0009).
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
