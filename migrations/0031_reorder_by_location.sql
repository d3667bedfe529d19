-- On order per location (DESIGN §17): a purchase order delivered elsewhere while open moves its
-- units on order, so purchase_orders_on_order (src/server/db/functions/purchase_orders_on_order.sql,
-- which now keeps location_stock.on_order too) also runs when location_id changes. Replaces the
-- trigger of migration 0012.
DROP TRIGGER "purchase_orders_on_order" ON "purchase_orders";--> statement-breakpoint
CREATE TRIGGER "purchase_orders_on_order" AFTER UPDATE OF "status", "location_id" ON "purchase_orders"
  FOR EACH ROW EXECUTE FUNCTION purchase_orders_on_order();
