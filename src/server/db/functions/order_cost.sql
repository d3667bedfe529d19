-- DESIGN §10, §19 (decision 0048): what an order cost, net of its returns: the value its `sale`
-- movements took out of stock (each lot's part too) less what its returns brought back
-- (orders.returned_cost); an order whose movements carry no value (placed before stock had one)
-- costs (quantity − returned) × unit cost (0 without one), as before. The one rule:
-- orders_figures_counted, sales_days_rebuild and the per-location figures (figures-from-orders.ts)
-- all call it, so §10's cost equals the books' cost of sales (5000) for the same days. A sale's
-- movements are written in the sale's own statement and never change, so the same order costs
-- the same before and after any update of its row but its returns.
-- Needs: stock_movements (order_id, kind, value) and its index stock_movements_order_idx.
CREATE OR REPLACE FUNCTION order_cost(order_id uuid, quantity integer, returned_quantity integer,
                                      unit_cost numeric, returned_cost numeric)
RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT -sum(m.value) FROM stock_movements m WHERE m.order_id = $1 AND m.kind = 'sale') - $5,
                  ($2 - $3) * coalesce($4, 0))
$$;
