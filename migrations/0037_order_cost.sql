-- DESIGN §10, §19 (decision 0048): an order's cost is the value its sale movements took out of
-- stock, less the value its returns brought back (returned_cost, added by takeBack; order_cost.sql),
-- so §10's cost and margin equal the books' cost of sales. An order whose movements carry no value
-- (placed before stock had one) costs (quantity − returned) × unit cost as before. The orders
-- already here keep exactly the figures they count now: an order whose sale movements have values
-- gets the returned_cost that makes order_cost equal its old (quantity − returned) × unit cost,
-- with the orders' triggers off (nothing moves).
ALTER TABLE "orders" ADD COLUMN "returned_cost" numeric(20, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" DISABLE TRIGGER USER;--> statement-breakpoint
UPDATE "orders" o
SET "returned_cost" = s.took - (o.quantity - o.returned_quantity) * coalesce(o.unit_cost, 0)
FROM (SELECT order_id, -sum(value) AS took FROM stock_movements
      WHERE kind = 'sale' AND order_id IS NOT NULL AND value IS NOT NULL GROUP BY order_id) s
WHERE s.order_id = o.id;--> statement-breakpoint
ALTER TABLE "orders" ENABLE TRIGGER USER;
