/**
 * The sales figures of one location (DESIGN §17: where the stock left from, orders.location_id),
 * counted from the orders themselves. The kept daily figures (sales_days*, decision 0013) are
 * store-wide; a report or the dashboard asked for one location reads its orders in the range
 * instead, a range of orders_location_date_idx (location_id, order_date).
 *
 * THE one place that counts figures from orders for the reports: every per-location report reads
 * these rows and sums them as the store-wide report sums its kept rows. The rules are those of
 * orders_figures_counted.sql and sales_days_rebuild.sql (keep the three in step): an order counts
 * what it is worth now, net of returns: units (quantity − returned), revenue net of tax and of what
 * returns gave back ((total_price − tax) − (returned_total − returned_tax)), cost (order_cost.sql: what its
 * movements took out less what its returns brought back), discount kept (discount − returned_discount), tax kept (tax −
 * returned_tax); `orders` counts the placed ones, `sales` a sale once (its first line) and a
 * catalogue order once; days are report_settings' zone (the server's TZ). A test holds a store of
 * one location to the kept figures, to the cent (figures-from-orders.test.ts).
 */

/** SQL expressions (parameters or constants) naming the location and the range, days both included. */
export type CountedAt = { location: string; from: string; to: string };

/**
 * The location's orders placed in the range, one row each: day, month, product_id, category_name,
 * user_id, customer_id, customer_name, sale_id, rate_name, rate and the figures orders, sales,
 * units, revenue, cost, margin_up, discount, tax (exact numerics). A parenthesised subquery.
 */
export const countedOrders = ({ location, from, to }: CountedAt) => `(
  select (o.order_date at time zone z.zone)::date as day,
         date_trunc('month', o.order_date at time zone z.zone)::date as month,
         o.product_id, o.category_name, o.user_id, o.customer_id, o.customer_name, o.sale_id,
         coalesce(o.tax_rate_name, '') as rate_name, coalesce(o.tax_rate, 0) as rate,
         (o.status = 'placed')::int as orders,
         (o.sale_id is null or coalesce(o.sale_line, 1) = 1)::int as sales,
         o.quantity - o.returned_quantity as units,
         (o.total_price - o.tax) - (o.returned_total - o.returned_tax) as revenue,
         order_cost(o.id, o.quantity, o.returned_quantity, o.unit_cost, o.returned_cost) as cost,
         o.discount - o.returned_discount as discount,
         o.tax - o.returned_tax as tax
  from (select time_zone as zone from report_settings limit 1) z
  join orders o on o.location_id = ${location}::uuid
   and o.order_date >= ((${from})::date::timestamp at time zone z.zone)
   and o.order_date < (((${to})::date + 1)::timestamp at time zone z.zone)
)`;

/** The rows of `countedOrders` for a report's usual parameters: $1 from, $2 to, $3 the location. */
export const COUNTED_IN_RANGE = countedOrders({ location: '$3', from: '$1', to: '$2' });
