-- Decision 0052: a narrower structure for product search. Every word of a product name once
-- (name_words, under a trigram index) and a row a product of what a search reads (product_search:
-- the name's words under an exact array index, its sort key, category, item, whether active), kept
-- by product_search_kept.sql; the products' trigram index on names, which only the search read,
-- goes (a sale's change of a product row no longer updates it). Filled here from the products.
CREATE TABLE "name_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_search" (
	"product_id" uuid PRIMARY KEY NOT NULL,
	"name_key" text NOT NULL,
	"words" text[] NOT NULL,
	"category_id" uuid NOT NULL,
	"item_id" uuid,
	"active" boolean NOT NULL
);
--> statement-breakpoint
DROP INDEX "products_name_trgm_idx";--> statement-breakpoint
ALTER TABLE "product_search" ADD CONSTRAINT "product_search_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "name_words_word_trgm_idx" ON "name_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "product_search_words_idx" ON "product_search" USING gin ("words");--> statement-breakpoint
CREATE INDEX "product_search_name_idx" ON "product_search" USING btree ("name_key","product_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_words(name text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT w ORDER BY w), '{}')
  FROM unnest(string_to_array(lower(name), ' ')) AS w
  WHERE w <> ''
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_search_kept() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
INSERT INTO "name_words" ("word")
SELECT DISTINCT w FROM "products", unnest(product_words("name")) AS w ORDER BY w;--> statement-breakpoint
INSERT INTO "product_search" ("product_id", "name_key", "words", "category_id", "item_id", "active")
SELECT "id", lower("name"), product_words("name"), "category_id", "item_id", "active" FROM "products";--> statement-breakpoint
CREATE TRIGGER product_search_added AFTER INSERT ON "products" REFERENCING NEW TABLE AS new_products
  FOR EACH STATEMENT EXECUTE FUNCTION product_search_kept();--> statement-breakpoint
CREATE TRIGGER product_search_changed AFTER UPDATE OF "name", "category_id", "item_id", "active" ON "products"
  FOR EACH ROW EXECUTE FUNCTION product_search_kept();
--> statement-breakpoint
ANALYZE "name_words";--> statement-breakpoint
ANALYZE "product_search";
