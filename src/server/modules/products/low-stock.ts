/**
 * Which products are at or below their reorder point, and which to reorder (DESIGN §9): the one
 * place that says it, in SQL text for the prepared statements of the dashboard and the reorder
 * suggestions. Low stock is 0 < stock ≤ the reorder point in force; reordering is stock + on
 * order ≤ it.
 *
 * The reorder point in force is the product's own, or the store's threshold. Either way the rows
 * come from an index of product_stock alone, in (stock, name) order, not a scan of every product:
 * the range stock ≤ threshold of product_stock_order_idx (which carries reorder_point) for
 * products without their own point, and the partial index product_stock_own_low_idx (stock ≤
 * reorder_point) for those with one (migration 0012). The conditions below must stay the
 * indexes' own for the planner to use them.
 */

/**
 * Rows (product_id, stock, name_key, reorder_point, on_order) of every product whose stock is at
 * or below its reorder point in force; `threshold` is the SQL of the store's threshold.
 */
export function atOrBelowReorderPoint(threshold: string): string {
  return `(select s.product_id, s.stock, s.name_key, ${threshold} as reorder_point, s.on_order
     from product_stock s where s.reorder_point is null and s.stock <= ${threshold}
   union all
   select s.product_id, s.stock, s.name_key, s.reorder_point, s.on_order
     from product_stock s where s.reorder_point is not null and s.stock <= s.reorder_point)`;
}

/**
 * Rows of atOrBelowReorderPoint for every product to reorder: stock + on order ≤ its reorder
 * point. On order (ordered − received over ordered and partly received purchase orders) is kept
 * in product_stock by the triggers of migration 0012.
 */
export function toReorder(threshold: string): string {
  return `(select * from ${atOrBelowReorderPoint(threshold)} l where l.stock + l.on_order <= l.reorder_point)`;
}

/**
 * The quantity to order of a row `r` of toReorder whose product is `p`: its reorder quantity, or
 * else 2 × reorder point − stock − on order, at least 1.
 */
export const SUGGESTED_QUANTITY =
  'coalesce(p.reorder_quantity, greatest(1, 2 * r.reorder_point - r.stock - r.on_order))';

/**
 * Joins each row `r` to its product `p` by its key, one lookup per row. The row counts of the
 * index ranges above are hard to estimate, and a plan that guessed many would read every product
 * to hash them (measured: 20 ms at 100,000 products, per dashboard). `limit 1` (the key is unique)
 * keeps the planner from turning the lateral subquery back into such a join.
 */
export function productOf(row: string, columns: string): string {
  return `cross join lateral (select ${columns} from products where products.id = ${row}.product_id limit 1) p`;
}
