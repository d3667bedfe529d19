CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_name" text,
	"actor_role" text,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" uuid,
	"entity_name" text NOT NULL,
	"changes" jsonb,
	"address" text,
	CONSTRAINT "audit_log_actor_whole" CHECK (("audit_log"."actor_id" is null) = ("audit_log"."actor_name" is null) and ("audit_log"."actor_id" is null) = ("audit_log"."actor_role" is null)),
	CONSTRAINT "audit_log_action_known" CHECK ("audit_log"."action" in ('signedIn','signInFailed','signInThrottled','created','updated','deleted')),
	CONSTRAINT "audit_log_entity_known" CHECK ("audit_log"."entity_type" in ('user','product','category','supplier'))
);
--> statement-breakpoint
CREATE INDEX "audit_log_at_id_idx" ON "audit_log" USING btree ("at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_at_id_idx" ON "audit_log" USING btree ("actor_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_entity_at_id_idx" ON "audit_log" USING btree ("entity_type","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_entity_id_at_idx" ON "audit_log" USING btree ("entity_type","entity_id","at" DESC NULLS FIRST);--> statement-breakpoint
-- The audit log is append-only (DESIGN §7): an entry, once written, is never changed or removed,
-- whoever asks. Statement-level, so even an UPDATE or DELETE that matches no row is refused, and
-- TRUNCATE too. (A superuser can still disable the trigger; no role of the application does.)
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
