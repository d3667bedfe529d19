-- The count of products to reorder (DESIGN §9, decision 0032): a product_stock row entering
-- "to reorder" (stock + on order ≤ the reorder point in force) adds 1 to product_totals.to_reorder
-- in this transaction's slot, one leaving it takes 1 away. The triggers' WHEN clauses fire it only
-- for such rows, so a sale that leaves its product on the same side runs no function here.
-- Whoever may change a row's side without holding its product's row (purchase_orders_on_order)
-- takes the slot's product_totals row first, as the products' triggers do (decision 0016).
-- Needs: product_stock (stock, on_order, reorder_at), product_totals (slot, products, stock,
-- to_reorder); counter_slot().
-- Triggers: product_stock_to_reorder_added (AFTER INSERT), product_stock_to_reorder_changed (AFTER
-- UPDATE), product_stock_to_reorder_removed (AFTER DELETE) ON product_stock FOR EACH ROW, each
-- WHEN the row is (or was) to reorder or changes side (migration 0027).
CREATE OR REPLACE FUNCTION product_stock_to_reorder_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer;
BEGIN
  delta := CASE
    WHEN TG_OP = 'DELETE' THEN -1
    WHEN NEW.stock + NEW.on_order <= NEW.reorder_at THEN 1
    ELSE -1 END;
  INSERT INTO product_totals AS t (slot, products, stock, to_reorder)
  VALUES (counter_slot(), 0, 0, delta)
  ON CONFLICT (slot) DO UPDATE SET to_reorder = t.to_reorder + excluded.to_reorder;
  RETURN NULL;
END $$;
