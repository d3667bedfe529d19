-- Called at every start with the server's LOW_STOCK_THRESHOLD (low-stock-threshold.ts); answers
-- whether it changed it (decision 0032). A change moves the reorder point in force of every
-- product without its own (product_stock.reorder_at), and product_stock's triggers count the
-- products that enter or leave "to reorder" as they move. The settings row is locked first, so
-- that of several servers starting at once one changes it and the others find it set; writes to
-- products wait meanwhile (SHARE lock), so that none copies the old threshold after it.
-- Needs: report_settings.low_stock_threshold, product_stock (reorder_point, reorder_at),
-- product_totals (slot), the products table (locked); counter_slot().
CREATE OR REPLACE FUNCTION low_stock_use_threshold(threshold integer) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  kept integer;
BEGIN
  SELECT low_stock_threshold INTO kept FROM report_settings FOR UPDATE;
  IF kept = threshold THEN
    RETURN false;
  END IF;
  LOCK TABLE products IN SHARE MODE;
  -- The slot's product_totals row before any product_stock row (as purchase_orders_on_order).
  INSERT INTO product_totals AS t (slot, products, stock) VALUES (counter_slot(), 0, 0)
  ON CONFLICT (slot) DO UPDATE SET stock = t.stock;
  UPDATE report_settings SET low_stock_threshold = threshold;
  UPDATE product_stock SET reorder_at = threshold WHERE reorder_point IS NULL AND reorder_at <> threshold;
  RETURN true;
END $$;
