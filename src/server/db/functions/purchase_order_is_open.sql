-- Whether a purchase order's lines count as on order (DESIGN §9, decision 0012): while it is
-- ordered or partly received.
-- Needs: nothing. Called by purchase_order_lines_on_order and purchase_orders_on_order.
CREATE OR REPLACE FUNCTION purchase_order_is_open(status text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT status IN ('ordered', 'partially_received')
$$;
