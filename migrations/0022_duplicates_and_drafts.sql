-- One customer per name and phone. The key is the name trimmed, in lower case, its inner spaces
-- collapsed, and the phone's digits (none when it has none): "Ann  Lee" at (555) 0100 and
-- "ann lee" at 555-0100 are one customer. Kept in a column (set by the API through this function)
-- under a unique index, so two customers stored at once cannot both pass.
CREATE FUNCTION customer_duplicate_key(name text, phone text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT lower(btrim(regexp_replace(name, '\s+', ' ', 'g'))) || '|' || regexp_replace(phone, '\D', '', 'g')
$$;
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "duplicate_key" text;--> statement-breakpoint
-- Duplicates stored before keep their rows: only the oldest of each takes the key, the others stay
-- null (no index entry), so the migration never fails on them and new ones are refused.
UPDATE "customers" c SET "duplicate_key" = k.key
FROM (
  SELECT DISTINCT ON (key) id, key
  FROM (SELECT id, created_at, customer_duplicate_key(name, phone) AS key FROM "customers") s
  ORDER BY key, created_at, id
) k
WHERE c.id = k.id;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_duplicate_key" ON "customers" USING btree ("duplicate_key");--> statement-breakpoint
-- Each supplier's newest draft purchase order, for the reorder suggestions (decision 0012).
CREATE INDEX "purchase_orders_supplier_draft_idx" ON "purchase_orders" USING btree ("supplier_id","number" DESC NULLS LAST) WHERE "purchase_orders"."status" = 'draft';
