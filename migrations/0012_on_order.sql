ALTER TABLE "product_stock" ADD COLUMN "on_order" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Low stock and what to reorder, read from indexes alone (decision 0012). Products on the store's
-- threshold are the range stock ≤ threshold of product_stock_order_idx; products at or below their
-- own reorder point are the partial index product_stock_own_low_idx, in list order. Both carry
-- reorder_point and on_order, so neither the table nor purchase orders are read. (Drizzle's schema
-- cannot state INCLUDE; these are the indexes' only full definitions.)
DROP INDEX "product_stock_own_low_idx";--> statement-breakpoint
CREATE INDEX "product_stock_own_low_idx" ON "product_stock" USING btree ("stock","name_key","product_id") INCLUDE ("reorder_point", "on_order") WHERE "product_stock"."reorder_point" is not null and "product_stock"."stock" <= "product_stock"."reorder_point";--> statement-breakpoint
DROP INDEX "product_stock_order_idx";--> statement-breakpoint
CREATE INDEX "product_stock_order_idx" ON "product_stock" USING btree ("stock","name_key","product_id") INCLUDE ("reorder_point", "on_order");--> statement-breakpoint
-- On order per product, kept as purchase orders and their lines change. A line counts
-- quantity − received while its purchase order is ordered or partly received.
CREATE FUNCTION purchase_order_is_open(status text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT status IN ('ordered', 'partially_received')
$$;
--> statement-breakpoint
CREATE FUNCTION purchase_order_lines_on_order() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  open boolean;
BEGIN
  SELECT purchase_order_is_open(o.status) INTO open FROM purchase_orders o
  WHERE o.id = coalesce(NEW.purchase_order_id, OLD.purchase_order_id);
  IF NOT coalesce(open, false) THEN RETURN NULL; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE product_stock SET on_order = on_order - (OLD.quantity - OLD.received) WHERE product_id = OLD.product_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    UPDATE product_stock SET on_order = on_order + (NEW.quantity - NEW.received) WHERE product_id = NEW.product_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER purchase_order_lines_on_order AFTER INSERT OR DELETE OR UPDATE OF quantity, received, product_id
  ON purchase_order_lines FOR EACH ROW EXECUTE FUNCTION purchase_order_lines_on_order();
--> statement-breakpoint
CREATE FUNCTION purchase_orders_on_order() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign int;
BEGIN
  IF purchase_order_is_open(OLD.status) = purchase_order_is_open(NEW.status) THEN RETURN NULL; END IF;
  sign := CASE WHEN purchase_order_is_open(NEW.status) THEN 1 ELSE -1 END;
  UPDATE product_stock s SET on_order = s.on_order + sign * l.units
  FROM (SELECT product_id, sum(quantity - received)::int AS units FROM purchase_order_lines
        WHERE purchase_order_id = NEW.id GROUP BY product_id) l
  WHERE s.product_id = l.product_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER purchase_orders_on_order AFTER UPDATE OF status ON purchase_orders
  FOR EACH ROW EXECUTE FUNCTION purchase_orders_on_order();
--> statement-breakpoint
ALTER TABLE "product_stock" ADD CONSTRAINT "product_stock_on_order_nonnegative" CHECK ("on_order" >= 0);--> statement-breakpoint
-- Purchase orders that existed before this migration.
UPDATE product_stock s SET on_order = l.units
FROM (SELECT l.product_id, sum(l.quantity - l.received)::int AS units
      FROM purchase_order_lines l JOIN purchase_orders o ON o.id = l.purchase_order_id
      WHERE purchase_order_is_open(o.status) GROUP BY l.product_id) l
WHERE s.product_id = l.product_id;
