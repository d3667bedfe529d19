-- The slot (0 to 7) a transaction writes in every striped counter (product_totals,
-- category_stock, order_totals, order_quarters, sales_days): its transaction id modulo 8, so a
-- transaction takes one slot row of each and two transactions never take two slots in opposite
-- orders (decision 0016).
-- Needs: nothing. Called by orders_figures_counted and the product_totals_* functions.
CREATE OR REPLACE FUNCTION counter_slot() RETURNS smallint LANGUAGE sql VOLATILE AS $$
  SELECT (txid_current() % 8)::smallint
$$;
