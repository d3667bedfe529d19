/**
 * Which products are at or below their reorder point, and how much is on order (DESIGN §9): the
 * one place that says it, in SQL text for the prepared statements of the dashboard and the
 * reorder suggestions. Low stock is 0 < stock ≤ the reorder point in force; reordering is
 * stock + on order ≤ it.
 *
 * The reorder point in force is the product's own, or the store's threshold. Either way the rows
 * come from an index range of product_stock, not a scan of every product:
 * product_stock_order_idx (stock ≤ threshold) for products without their own point, and
 * product_stock_own_low_idx (stock − reorder_point ≤ 0) for those with one (migration 0011).
 */

/**
 * Rows (product_id, stock, name_key, reorder_point) of every product whose stock is at or below
 * its reorder point in force; `threshold` is the SQL of the store's threshold (a parameter).
 */
export function atOrBelowReorderPoint(threshold: string): string {
  return `(select s.product_id, s.stock, s.name_key, ${threshold} as reorder_point
     from product_stock s where s.reorder_point is null and s.stock <= ${threshold}
   union all
   select s.product_id, s.stock, s.name_key, s.reorder_point
     from product_stock s where s.reorder_point is not null and s.stock - s.reorder_point <= 0)`;
}

/** Rows (product_id, units): ordered − received over purchase orders still expected. */
export const ON_ORDER = `(select l.product_id, sum(l.quantity - l.received)::int as units
     from purchase_order_lines l join purchase_orders o on o.id = l.purchase_order_id
     where o.status in ('ordered', 'partially_received')
     group by l.product_id)`;

/**
 * Rows (product_id, stock, reorder_point, on_order, suggested) of every product to reorder:
 * stock + on order ≤ its reorder point. The suggested quantity is its reorder quantity, or else
 * 2 × reorder point − stock − on order, at least 1.
 */
export function toReorder(threshold: string): string {
  return `(select l.product_id, l.stock, l.name_key, l.reorder_point, coalesce(o.units, 0) as on_order,
          coalesce(p.reorder_quantity, greatest(1, 2 * l.reorder_point - l.stock - coalesce(o.units, 0))) as suggested
   from ${atOrBelowReorderPoint(threshold)} l
   join products p on p.id = l.product_id
   left join ${ON_ORDER} o on o.product_id = l.product_id
   where l.stock + coalesce(o.units, 0) <= l.reorder_point)`;
}
