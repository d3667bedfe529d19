-- Signed-out tokens by id until they would expire (decision 0017): the signed-in checks read this
-- table in their own statement, so a sign-out holds on every instance and after a restart.
CREATE TABLE "revoked_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "revoked_tokens_expires_idx" ON "revoked_tokens" USING btree ("expires_at");