-- Audit entries about a location (DESIGN §17): created, updated, deactivated, reactivated (the
-- entity `transfer` came with 0030).
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_known";--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_known" CHECK ("audit_log"."entity_type" in ('user','product','category','supplier','order','purchaseOrder','customer','store','taxRate','sale','register','registerSession','refund','import','transfer','location'));
