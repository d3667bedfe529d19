CREATE TABLE "product_stock" (
	"product_id" uuid PRIMARY KEY NOT NULL,
	"stock" integer NOT NULL,
	"name_key" text NOT NULL
);
--> statement-breakpoint
DROP INDEX "products_stock_name_idx";--> statement-breakpoint
ALTER TABLE "product_stock" ADD CONSTRAINT "product_stock_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_stock_order_idx" ON "product_stock" USING btree ("stock","name_key","product_id");--> statement-breakpoint
-- Orders change products.stock. While an index named stock, each of those updates wrote a new row
-- version into every index of products, the trigram index included (measured: 0 of 26,850 updates
-- in place; the search then read a growing pending list and dead rows, and slowed with every
-- sale). Now no index of products names stock, and a page keeps 10 % free, so an order updates
-- the row in place (HOT). Lists in stock order read product_stock, which these triggers keep.
ALTER TABLE "products" SET (fillfactor = 90);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_totals AS t (slot, products, stock)
  SELECT floor(random() * 8)::smallint, count(*), sum(stock) FROM added_products HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET products = t.products + excluded.products, stock = t.stock + excluded.stock;
  INSERT INTO product_stock (product_id, stock, name_key)
  SELECT id, stock, lower(name) FROM added_products;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An upsert driven by the changed rows, so that its cost follows the rows changed whatever plan
-- the function cached first. Deleted products leave product_stock by the foreign key's cascade.
CREATE OR REPLACE FUNCTION product_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  SELECT coalesce((SELECT sum(stock) FROM new_products), 0) - coalesce((SELECT sum(stock) FROM old_products), 0)
    INTO delta;
  IF delta <> 0 THEN
    INSERT INTO product_totals AS t (slot, products, stock)
    VALUES (floor(random() * 8)::smallint, 0, delta)
    ON CONFLICT (slot) DO UPDATE SET stock = t.stock + excluded.stock;
  END IF;
  INSERT INTO product_stock AS s (product_id, stock, name_key)
  SELECT id, stock, lower(name) FROM new_products
  ON CONFLICT (product_id) DO UPDATE SET stock = excluded.stock, name_key = excluded.name_key
  WHERE s.stock <> excluded.stock OR s.name_key <> excluded.name_key;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Products that existed before this migration.
INSERT INTO product_stock (product_id, stock, name_key) SELECT id, stock, lower(name) FROM products;
