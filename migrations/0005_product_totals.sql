-- Product count and total stock for the dashboard, kept by statement-level triggers on products so
-- the dashboard never scans the catalogue. Striped over 8 rows like order_totals: every order
-- changes stock, and concurrent orders should rarely queue on one row.
CREATE FUNCTION product_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_totals AS t (slot, products, stock)
  SELECT floor(random() * 8)::smallint, count(*), sum(stock) FROM added_products HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET products = t.products + excluded.products, stock = t.stock + excluded.stock;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION product_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_totals AS t (slot, products, stock)
  SELECT floor(random() * 8)::smallint, -count(*), -sum(stock) FROM removed_products HAVING count(*) > 0
  ON CONFLICT (slot) DO UPDATE SET products = t.products + excluded.products, stock = t.stock + excluded.stock;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION product_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER product_totals_added AFTER INSERT ON products
  REFERENCING NEW TABLE AS added_products FOR EACH STATEMENT EXECUTE FUNCTION product_totals_added();
--> statement-breakpoint
CREATE TRIGGER product_totals_removed AFTER DELETE ON products
  REFERENCING OLD TABLE AS removed_products FOR EACH STATEMENT EXECUTE FUNCTION product_totals_removed();
--> statement-breakpoint
CREATE TRIGGER product_totals_changed AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_products NEW TABLE AS new_products
  FOR EACH STATEMENT EXECUTE FUNCTION product_totals_changed();
--> statement-breakpoint
-- Products that existed before this migration.
INSERT INTO product_totals (slot, products, stock) SELECT 0, count(*), coalesce(sum(stock), 0) FROM products;
