import { EXPIRING_DAYS } from '../../../shared/lots';
import { type Runner, statement } from '../../db/connection';
import { type SignedInRunner, signedInStatement } from '../../lib/auth';
import { AT_OR_BELOW_REORDER_POINT } from '../products/low-stock';
import { countedOrders } from '../reports/figures-from-orders';

/** The longest list a dashboard card shows; the rest are on the Products screen. */
const CARD_LIMIT = 100;

/**
 * Products at or below their reorder point whose stock matches `where`, in stock then name order,
 * as a JSON array of `fields` (a json_build_object argument list over l, a row of
 * AT_OR_BELOW_REORDER_POINT, and c, its category): a range of product_stock_low_idx, which carries
 * the name and category, so no product is read.
 */
const listed = (where: string, fields: string) => `
  (select coalesce(json_agg(json_build_object(${fields}) order by l.stock, l.name_key, l.product_id), '[]'::json)
   from (select * from ${AT_OR_BELOW_REORDER_POINT} low where ${where}
         order by low.stock, low.name_key, low.product_id limit ${CARD_LIMIT}) l
   join categories c on c.id = l.category_id)`;

/**
 * The whole dashboard answer (DashboardResponse) as JSON text, built by the database in one
 * prepared statement: one round trip, no parameter but the caller's (so PostgreSQL plans it once
 * per connection), and nothing for the server to parse, check and serialize again. It checks the
 * signed-in user too (signedInStatement): the figures are only built for a caller in
 * `signed_in_user`.
 *
 * The figures come from product_totals, product_sales, order_totals, sales_days and
 * product_stock, which triggers keep (migrations 0003, 0005, 0008, 0011, 0013, 0020, 0027): the
 * products to reorder are a count kept in product_totals' slots (decision 0032); low stock as
 * low-stock.ts says. Today's sales and revenue are its sales_days row for store_today() (8 slots,
 * by primary key): a day is counted there in report_settings' zone, which the server sets to its
 * TZ at every start. The lots expiring soon (DESIGN §15: holding units, expiring on or before
 * today + 30 days, today as store_today() says, expired ones too) are a range of the partial
 * index lots_expiring_idx, each lot's cost one probe of the products' primary key: a subquery per
 * lot, not a join, so that no plan can read the whole catalogue for a few lots (a plan cached
 * while the catalogue was small took a hash join over every product once an import had grown it;
 * decision 0036).
 */
export const DASHBOARD = signedInStatement('dashboard_answer', {
  select: `select case when exists (select 1 from signed_in_user) then json_build_object(
            'success', true,
            'totalProducts', (select coalesce(sum(products), 0) from product_totals),
            'totalStock', (select coalesce(sum(stock), 0) from product_totals),
            'ordersToday', today.sales,
            'revenue', (select coalesce(sum(revenue), 0) from order_totals),
            'today', json_build_object(
              'sales', today.sales, 'revenue', today.revenue,
              'averageBasket', case when today.sales > 0 then round(today.revenue / today.sales, 2) else 0 end),
            'outOfStock', ${listed('low.stock = 0', `'_id', l.product_id, 'name', l.name, 'category', json_build_object('name', c.name)`)},
            'highestSaleProduct', coalesce(
              (select json_build_object('name', p.name, 'category', c.name, 'totalQuantity', s.units)
               from (select product_id, units from product_sales where units > 0
                     order by units desc, product_id limit 1) s
               join products p on p.id = s.product_id join categories c on c.id = p.category_id),
              json_build_object('message', 'No sales yet.')),
            'toReorder', (select coalesce(sum(to_reorder), 0) from product_totals),
            'expiringSoon', (
              select json_build_object('count', count(*), 'value', coalesce(sum(l.quantity * coalesce(
                       (select p.cost from products p where p.id = l.product_id), 0)), 0))
              from lots l
              where l.quantity > 0 and l.expires_on is not null
                and l.expires_on <= store_today() + ${EXPIRING_DAYS}),
            'lowStock', ${listed('low.stock > 0', `'_id', l.product_id, 'name', l.name, 'stock', l.stock, 'category', json_build_object('name', c.name)`)}
          )::text end as "body"
          from (select coalesce(sum(sales), 0) as sales, coalesce(sum(revenue), 0) as revenue
                from sales_days where day = store_today()) today`,
});

/** The dashboard as JSON text, for the runner's signed-in admin (the runner throws 401/403). */
export async function dashboardJson(run: SignedInRunner): Promise<string> {
  const [row] = await run<{ body: string }>(DASHBOARD, []);
  return row?.body as string;
}

/** The rows of figures-from-orders for the location $1: today's, and every day's. */
const TODAY_AT = countedOrders({ location: '$1', from: 'store_today()', to: 'store_today()' });
const EVER_AT = countedOrders({ location: '$1', from: "'1900-01-01'", to: 'store_today()' });

/**
 * Every product with its stock at the location $1 (0 where it never held any) and the reorder
 * point in force there (DESIGN §17): the location's own, else the product's, else the store's
 * threshold (product_stock.reorder_at is the product's or the threshold); on order there.
 */
const AT_LOCATION = `(select s.product_id, coalesce(ls.stock, 0) as stock, coalesce(ls.on_order, 0) as on_order,
          coalesce(ls.reorder_point, s.reorder_at) as reorder_at, s.name_key, s.name, s.category_id
   from product_stock s left join location_stock ls on ls.product_id = s.product_id and ls.location_id = $1::uuid)`;

const listedAt = (where: string, fields: string) => `
  (select coalesce(json_agg(json_build_object(${fields}) order by l.stock, l.name_key, l.product_id), '[]'::json)
   from (select * from ${AT_LOCATION} low where low.stock <= low.reorder_at and ${where}
         order by low.stock, low.name_key, low.product_id limit ${CARD_LIMIT}) l
   join categories c on c.id = l.category_id)`;

/**
 * The dashboard of one location ($1; DashboardResponse with `location` and `stockValue`): its
 * stock (units held there), today's sales and revenue of the orders whose stock left from it, its
 * revenue and best seller over all time (counted from its orders, figures-from-orders.ts), low and
 * out of stock and to reorder by its stock and the reorder point in force there, its lots expiring
 * soon and the value at cost of what it holds. The catalogue's size stays the store's. Not the
 * store-wide fast path (DASHBOARD): it reads the location's orders and the catalogue's stock rows.
 * The caller is checked before it runs (checkSignedInUser).
 */
export const DASHBOARD_AT = statement(
  'dashboard_at_location',
  `with today as (
     select coalesce(sum(sales), 0) as sales, coalesce(sum(revenue), 0) as revenue from ${TODAY_AT} o
   ), ever as materialized (
     select product_id, sum(units) as units, sum(revenue) as revenue from ${EVER_AT} o group by product_id
   ), held as (
     select count(*) as products, coalesce(sum(ls.stock), 0) as units,
            coalesce(sum(ls.stock_value), 0) as value
     from location_stock ls join products p on p.id = ls.product_id
     where ls.location_id = $1::uuid and ls.stock > 0
   )
   select json_build_object(
     'success', true,
     'location', (select json_build_object('_id', l.id, 'name', l.name) from locations l where l.id = $1::uuid),
     'totalProducts', (select coalesce(sum(products), 0) from product_totals),
     'totalStock', held.units,
     'ordersToday', today.sales,
     'revenue', (select coalesce(sum(revenue), 0) from ever),
     'today', json_build_object(
       'sales', today.sales, 'revenue', today.revenue,
       'averageBasket', case when today.sales > 0 then round(today.revenue / today.sales, 2) else 0 end),
     'outOfStock', ${listedAt('low.stock = 0', `'_id', l.product_id, 'name', l.name, 'category', json_build_object('name', c.name)`)},
     'highestSaleProduct', coalesce(
       (select json_build_object('name', p.name, 'category', c.name, 'totalQuantity', e.units)
        from (select e.product_id, e.units from ever e join products p on p.id = e.product_id
              where e.units > 0 order by e.units desc, e.product_id limit 1) e
        join products p on p.id = e.product_id join categories c on c.id = p.category_id),
       json_build_object('message', 'No sales yet.')),
     'toReorder', (select count(*) from ${AT_LOCATION} r where r.stock + r.on_order <= r.reorder_at),
     'expiringSoon', (
       select json_build_object('count', count(*), 'value', coalesce(sum(ls.quantity * coalesce(
                (select p.cost from products p where p.id = ls.product_id), 0)), 0))
       from lot_stock ls join lots l on l.id = ls.lot_id
       where ls.location_id = $1::uuid and ls.quantity > 0 and l.expires_on is not null
         and l.expires_on <= store_today() + ${EXPIRING_DAYS}),
     'lowStock', ${listedAt('low.stock > 0', `'_id', l.product_id, 'name', l.name, 'stock', l.stock, 'category', json_build_object('name', c.name)`)},
     'stockValue', json_build_object('products', held.products, 'units', held.units, 'value', held.value)
   )::text as body
   from today, held`,
);

/** The dashboard of one location as JSON text (the caller already checked). */
export async function dashboardAtJson(db: Runner, locationId: string): Promise<string> {
  const [row] = await db.run<{ body: string }>(DASHBOARD_AT, [locationId]);
  return row?.body as string;
}
