-- The store's low-stock threshold (DESIGN §4, §9): the reorder point of every product without its
-- own, as the server set it at its start (low_stock_use_threshold). The one place the database
-- reads it: the products' triggers copy it into product_stock.reorder_at.
-- Needs: report_settings.low_stock_threshold. Called by product_totals_added and
-- product_totals_changed.
CREATE OR REPLACE FUNCTION low_stock_threshold() RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT low_stock_threshold FROM report_settings LIMIT 1
$$;
