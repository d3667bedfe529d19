/**
 * Which products are at or below their reorder point, and which to reorder (DESIGN §9): the one
 * place that says it, in SQL text for the prepared statements of the dashboard and the reorder
 * suggestions. Low stock is 0 < stock ≤ the reorder point in force; reordering is stock + on
 * order ≤ it.
 *
 * product_stock keeps the reorder point in force (reorder_at: the product's own, or the store's
 * threshold as the server set it at its start) and what these readers show of a product, so the
 * rows come from a partial index of product_stock alone (migration 0027, decision 0032), not a
 * scan of every product nor a lookup per row: product_stock_low_idx (stock ≤ reorder_at, in stock
 * then name order) and product_stock_to_reorder_idx (stock + on order ≤ reorder_at, by supplier
 * then name). The conditions below must stay the indexes' own for the planner to use them.
 */

/**
 * Rows (product_id, stock, name_key, name, category_id) of every product whose stock is at or
 * below its reorder point in force, out of stock included.
 */
export const AT_OR_BELOW_REORDER_POINT = `(select s.product_id, s.stock, s.name_key, s.name, s.category_id
   from product_stock s where s.stock <= s.reorder_at)`;

/**
 * Rows (product_id, stock, on_order, reorder_point, name_key, name, supplier_id, cost,
 * reorder_quantity) of every product to reorder: stock + on order ≤ its reorder point in force.
 * On order (ordered − received over ordered and partly received purchase orders) is kept in
 * product_stock by the purchase orders' triggers (src/server/db/functions/
 * purchase_order_lines_on_order.sql and purchase_orders_on_order.sql); how many there are, in
 * product_totals' to_reorder by product_stock's (product_stock_to_reorder_counted.sql).
 */
export const TO_REORDER = `(select s.product_id, s.stock, s.on_order, s.reorder_at as reorder_point, s.name_key, s.name,
          s.supplier_id, s.cost, s.reorder_quantity
   from product_stock s where s.stock + s.on_order <= s.reorder_at)`;

/**
 * The quantity to order of a row `r` of TO_REORDER: its reorder quantity, or else 2 × reorder
 * point − stock − on order, at least 1.
 */
export const SUGGESTED_QUANTITY =
  'coalesce(r.reorder_quantity, greatest(1, 2 * r.reorder_point - r.stock - r.on_order))';
