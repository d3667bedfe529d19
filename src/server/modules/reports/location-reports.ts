import type {
  CategoryReportResponse,
  CustomerReportResponse,
  NeverSoldResponse,
  ProductReportResponse,
  ProductReportSort,
  ReportGroup,
  SalesFigures,
  SalesReportResponse,
  StaffReportResponse,
  StockByLocationResponse,
  StockReportResponse,
  TaxReportResponse,
} from '../../../shared/reports';
import type { Role } from '../../../shared/roles';
import { type Runner, type Statement, statement } from '../../db/connection';
import type { CsvBatch } from '../../lib/csv-stream';
import { COUNTED_IN_RANGE } from './figures-from-orders';
import type { NameCursor, Range } from './reports.repository';

/**
 * The reports of DESIGN §10 for one location (§17): the sales figures of the orders whose stock
 * left from it, summed from figures-from-orders.ts's rows exactly as the store-wide reports sum
 * their kept rows (same answers, same order, same ties); the stock and its value at cost held
 * there (location_stock × the product's one moving-average cost). Parameters: $1 from, $2 to,
 * $3 the location's id, then each statement's own.
 */

type Money = string;
const money = (text: Money | null) => Number(text ?? 0);

type FiguresRow = {
  orders: number;
  units: number;
  revenue: Money;
  cost: Money;
  margin: Money;
  discount: Money;
  tax: Money;
};
const figuresOf = (row: FiguresRow): SalesFigures => ({
  orders: row.orders,
  units: row.units,
  revenue: money(row.revenue),
  cost: money(row.cost),
  margin: money(row.margin),
  discount: money(row.discount),
  tax: money(row.tax),
});

/** As reports_sales, from the location's orders. $4 'day' | 'week' | 'month'. */
const SALES_AT = statement(
  'reports_sales_at_location',
  `with days as (
     select day, sum(orders) as orders, sum(units) as units, sum(revenue) as revenue, sum(cost) as cost,
            sum(discount) as discount, sum(tax) as tax
     from ${COUNTED_IN_RANGE} o group by day
   ), periods as (
     select greatest(date_trunc($4::text, g)::date, $1::date) as start,
            coalesce(sum(d.orders), 0) as orders, coalesce(sum(d.units), 0) as units,
            coalesce(sum(d.revenue), 0) as revenue, coalesce(sum(d.cost), 0) as cost,
            coalesce(sum(d.discount), 0) as discount, coalesce(sum(d.tax), 0) as tax
     from generate_series($1::date::timestamp, $2::date::timestamp, interval '1 day') g
     left join days d on d.day = g::date
     group by 1
   ), answer as (
     select false as total, start, orders, units, revenue, cost, discount, tax from periods
     union all
     select true, null, coalesce(sum(orders), 0), coalesce(sum(units), 0), coalesce(sum(revenue), 0),
            coalesce(sum(cost), 0), coalesce(sum(discount), 0), coalesce(sum(tax), 0)
     from periods
   )
   select total, start::text as start, orders::int as orders, units::int as units,
          revenue::text as revenue, cost::text as cost, (revenue - cost)::text as margin,
          discount::text as discount, tax::text as tax
   from answer order by total, start`,
);

export async function salesReportAt(
  db: Runner,
  range: Range,
  location: string,
  groupBy: ReportGroup,
): Promise<Pick<SalesReportResponse, 'periods' | 'totals'>> {
  const rows = await db.run<FiguresRow & { total: boolean; start: string }>(SALES_AT, [
    range.from,
    range.to,
    location,
    groupBy,
  ]);
  const totals = rows.find((row) => row.total);
  if (!totals) throw new Error('the sales report always has a totals row');
  return {
    periods: rows.filter((row) => !row.total).map((row) => ({ start: row.start, ...figuresOf(row) })),
    totals: figuresOf(totals),
  };
}

const RANKED: Record<ProductReportSort, string> = {
  revenue: 'f.revenue',
  units: 'f.units',
  margin: 'f.revenue - f.cost',
};
const SORTS = ['revenue', 'units', 'margin'] as const;

/**
 * The best $4 products by each sort, ties by name: the location's orders of products that still
 * exist (as product_sales and sales_day_products leave out the orders of deleted products).
 */
const PRODUCTS_AT = Object.fromEntries(
  SORTS.map((sort) => [
    sort,
    statement(
      `reports_products_at_location_${sort}`,
      `with figures as (
         select o.product_id, sum(o.units) as units, sum(o.revenue) as revenue, sum(o.cost) as cost
         from ${COUNTED_IN_RANGE} o where o.product_id is not null
         group by o.product_id having sum(o.units) > 0
       )
       select p.id, p.name, i.id as "itemId", i.name as "itemName", c.name as category,
              f.units::int as units, f.revenue::text as revenue, (f.revenue - f.cost)::text as margin
       from figures f join products p on p.id = f.product_id join categories c on c.id = p.category_id
       left join items i on i.id = p.item_id
       order by ${RANKED[sort]} desc, lower(p.name), p.id
       limit $4`,
    ),
  ]),
) as Record<ProductReportSort, Statement>;

export async function topProductsAt(
  db: Runner,
  range: Range,
  location: string,
  sort: ProductReportSort,
  limit: number,
): Promise<ProductReportResponse['products']> {
  const rows = await db.run<{
    id: string;
    name: string;
    itemId: string | null;
    itemName: string | null;
    category: string;
    units: number;
    revenue: Money;
    margin: Money;
  }>(PRODUCTS_AT[sort], [range.from, range.to, location, limit]);
  return rows.map((row) => ({
    product: { _id: row.id, name: row.name },
    item: row.itemId ? { _id: row.itemId, name: row.itemName as string } : null,
    category: { name: row.category },
    units: row.units,
    revenue: money(row.revenue),
    margin: money(row.margin),
  }));
}

/**
 * Products of today's catalogue that sold no unit at the location in the range (net of returns),
 * by name, with their stock there; after the keyset ($6 lower-case name, $7 id), $4 limit (null:
 * all), $5 offset; `total` counts them all.
 */
const NEVER_SOLD_AT = statement(
  'reports_never_sold_at_location',
  `with sold as (
     select o.product_id from ${COUNTED_IN_RANGE} o where o.product_id is not null
     group by o.product_id having sum(o.units) > 0
   ), never as (
     select p.id, p.name, p.category_id, lower(p.name) as key from products p
     where not exists (select 1 from sold s where s.product_id = p.id)
   )
   select n.id, n.name, coalesce(ls.stock, 0)::int as stock, c.name as category, n.key,
          (select count(*) from never)::int as total
   from never n join categories c on c.id = n.category_id
   left join location_stock ls on ls.product_id = n.id and ls.location_id = $3::uuid
   where (n.key, n.id) > ($6::text, $7::uuid)
   order by n.key, n.id limit $4 offset $5`,
);
const FIRST_KEY = ['', '00000000-0000-0000-0000-000000000000'];

type NeverSoldRow = { id: string; name: string; stock: number; category: string; key: string; total: number };

export async function neverSoldAt(
  db: Runner,
  range: Range,
  location: string,
  window: { limit: number; offset: number },
): Promise<Pick<NeverSoldResponse, 'products' | 'total'>> {
  const rows = await db.run<NeverSoldRow>(NEVER_SOLD_AT, [
    range.from,
    range.to,
    location,
    window.limit,
    window.offset,
    ...FIRST_KEY,
  ]);
  const total = rows[0]?.total ?? (window.offset > 0 ? await neverSoldTotalAt(db, range, location) : 0);
  return {
    products: rows.map((row) => ({
      _id: row.id,
      name: row.name,
      stock: row.stock,
      category: { name: row.category },
    })),
    total,
  };
}

/** The count alone, for a page past the last one. */
async function neverSoldTotalAt(db: Runner, range: Range, location: string): Promise<number> {
  const [row] = await db.run<NeverSoldRow>(NEVER_SOLD_AT, [
    range.from,
    range.to,
    location,
    1,
    0,
    ...FIRST_KEY,
  ]);
  return row?.total ?? 0;
}

/** One batch of the location's never-sold CSV (REPORT_CSV_HEADERS.neverSold) after `after`, by name. */
export async function neverSoldCsvBatchAt(
  db: Runner,
  range: Range,
  location: string,
  after: NameCursor | undefined,
  size: number,
): Promise<CsvBatch<NameCursor>> {
  const rows = await db.run<NeverSoldRow>(NEVER_SOLD_AT, [
    range.from,
    range.to,
    location,
    size,
    0,
    ...(after ? [after.key, after.id] : FIRST_KEY),
  ]);
  const last = rows.at(-1);
  return {
    rows: rows.map((row) => [row.id, row.name, row.category, row.stock]),
    next: last && rows.length === size ? { key: last.key, id: last.id } : undefined,
  };
}

/** As reports_categories, from the location's orders. */
const CATEGORIES_AT = statement(
  'reports_categories_at_location',
  `with sums as (
     select category_name as name, sum(units) as units, sum(revenue) as revenue, sum(cost) as cost
     from ${COUNTED_IN_RANGE} o
     group by category_name having sum(units) > 0
   )
   select name, units::int as units, revenue::text as revenue, (revenue - cost)::text as margin,
          coalesce(round(revenue / nullif(sum(revenue) over (), 0), 4), 0)::text as share
   from sums order by sums.revenue desc, name`,
);

export async function categoryReportAt(
  db: Runner,
  range: Range,
  location: string,
): Promise<CategoryReportResponse['categories']> {
  const rows = await db.run<{ name: string; units: number; revenue: Money; margin: Money; share: string }>(
    CATEGORIES_AT,
    [range.from, range.to, location],
  );
  return rows.map((row) => ({
    name: row.name,
    units: row.units,
    revenue: money(row.revenue),
    margin: money(row.margin),
    share: Number(row.share),
  }));
}

/** As reports_staff, from the location's orders. */
const STAFF_AT = statement(
  'reports_staff_at_location',
  `select u.id, u.name, u.role, s.orders::int as orders, s.units::int as units, s.revenue::text as revenue
   from (select user_id, sum(orders) as orders, sum(units) as units, sum(revenue) as revenue
         from ${COUNTED_IN_RANGE} o
         group by user_id having sum(units) > 0) s
   left join users u on u.id = s.user_id
   order by s.revenue desc, u.name nulls last, u.id`,
);

export async function staffReportAt(
  db: Runner,
  range: Range,
  location: string,
): Promise<StaffReportResponse['staff']> {
  const rows = await db.run<{
    id: string | null;
    name: string | null;
    role: Role | null;
    orders: number;
    units: number;
    revenue: Money;
  }>(STAFF_AT, [range.from, range.to, location]);
  return rows.map((row) => ({
    user: row.id ? { _id: row.id, name: row.name as string, role: row.role as Role } : null,
    orders: row.orders,
    units: row.units,
    revenue: money(row.revenue),
  }));
}

/**
 * As reports_customers, from the location's orders: a sale counts once a day per customer, as
 * sales_day_customers counts it (count of distinct sales of the day). $4 how many.
 */
const CUSTOMERS_AT = statement(
  'reports_customers_at_location',
  `select c.id, c.name, s.sales::int as sales, s.units::int as units, s.revenue::text as revenue
   from (select customer_id, sum(sales) as sales, sum(units) as units, sum(revenue) as revenue
         from (select day, customer_id, count(distinct sale_id) as sales, sum(units) as units,
                      sum(revenue) as revenue
               from ${COUNTED_IN_RANGE} o where customer_name is not null
               group by day, customer_id) d
         group by customer_id having sum(units) > 0) s
   left join customers c on c.id = s.customer_id
   order by s.revenue desc, c.name nulls last, c.id
   limit $4`,
);

export async function customerReportAt(
  db: Runner,
  range: Range,
  location: string,
  limit: number,
): Promise<CustomerReportResponse['customers']> {
  const rows = await db.run<{
    id: string | null;
    name: string | null;
    sales: number;
    units: number;
    revenue: Money;
  }>(CUSTOMERS_AT, [range.from, range.to, location, limit]);
  return rows.map((row) => ({
    customer: row.id ? { _id: row.id, name: row.name as string } : null,
    sales: row.sales,
    units: row.units,
    revenue: money(row.revenue),
  }));
}

/** As reports_tax, from the location's orders. */
const TAX_AT = statement(
  'reports_tax_at_location',
  `with rates as (
     select rate_name as name, rate, sum(revenue) as base, sum(tax) as tax
     from ${COUNTED_IN_RANGE} o
     group by rate_name, rate having sum(revenue) <> 0 or sum(tax) <> 0
   ), answer as (
     select false as total, name, rate, base, tax from rates
     union all
     select true, null, null, coalesce(sum(base), 0), coalesce(sum(tax), 0) from rates
   )
   select total, name, rate::text as rate, base::text as base, tax::text as tax
   from answer order by total, answer.rate, name`,
);

export async function taxReportAt(
  db: Runner,
  range: Range,
  location: string,
): Promise<Pick<TaxReportResponse, 'rates' | 'totals'>> {
  const rows = await db.run<{ total: boolean; name: string; rate: string; base: Money; tax: Money }>(TAX_AT, [
    range.from,
    range.to,
    location,
  ]);
  const totals = rows.find((row) => row.total);
  if (!totals) throw new Error('the tax report always has a totals row');
  return {
    rates: rows
      .filter((row) => !row.total)
      .map((row) => ({ name: row.name, rate: Number(row.rate), base: money(row.base), tax: money(row.tax) })),
    totals: { base: money(totals.base), tax: money(totals.tax) },
  };
}

/**
 * What the stock held at a location is worth now, per category of today's catalogue (empty ones
 * too), most value first, then the totals: products holding units there, the units, Σ stock ×
 * cost (0 without one). $1 the location.
 */
const STOCK_AT = statement(
  'reports_stock_at_location',
  `with held as (
     select p.category_id, count(*) as products, sum(ls.stock) as units, sum(ls.stock_value) as value
     from location_stock ls join products p on p.id = ls.product_id
     where ls.location_id = $1::uuid and ls.stock > 0
     group by p.category_id
   ), sums as (
     select c.name, coalesce(h.products, 0) as products, coalesce(h.units, 0) as units,
            coalesce(h.value, 0) as value
     from categories c left join held h on h.category_id = c.id
   ), answer as (
     select false as total, name, products, units, value from sums
     union all
     select true, null, coalesce(sum(products), 0), coalesce(sum(units), 0), coalesce(sum(value), 0) from sums
   )
   select total, name, products::int as products, units::bigint as units, value::text as value
   from answer order by total, answer.value desc, name`,
);

type StockRow = { total: boolean; name: string; products: number; units: string; value: Money };
const stockValue = (row: Pick<StockRow, 'products' | 'units' | 'value'>) => ({
  products: row.products,
  units: Number(row.units),
  value: money(row.value),
});

export async function stockReportAt(
  db: Runner,
  location: string,
): Promise<Pick<StockReportResponse, 'categories' | 'totals'>> {
  const rows = await db.run<StockRow>(STOCK_AT, [location]);
  const totals = rows.find((row) => row.total);
  if (!totals) throw new Error('the stock report always has a totals row');
  return {
    categories: rows.filter((row) => !row.total).map((row) => ({ name: row.name, ...stockValue(row) })),
    totals: stockValue(totals),
  };
}

/**
 * Each location's stock (or the one asked for, $1; null: every location, inactive ones too) by
 * name: products holding units there, the units and their value at cost; then the totals
 * (`total` true). Units in transit belong to no location (DESIGN §17), so the totals are the
 * store's stock less what is on the road.
 */
const STOCK_BY_LOCATION = statement(
  'reports_stock_by_location',
  `with sums as (
     select l.id, l.name, l.active, count(ls.product_id) as products, coalesce(sum(ls.stock), 0) as units,
            coalesce(sum(ls.stock_value), 0) as value
     from locations l
     left join location_stock ls on ls.location_id = l.id and ls.stock > 0
     left join products p on p.id = ls.product_id
     where $1::uuid is null or l.id = $1::uuid
     group by l.id, l.name, l.active
   ), answer as (
     select false as total, id, name, active, products, units, value from sums
     union all
     select true, null, null, null, coalesce(sum(products), 0), coalesce(sum(units), 0), coalesce(sum(value), 0)
     from sums
   )
   select total, id, name, active, products::int as products, units::bigint as units, value::text as value
   from answer order by total, lower(name), id`,
);

export async function stockByLocation(
  db: Runner,
  location: string | null,
): Promise<Pick<StockByLocationResponse, 'locations' | 'totals'>> {
  const rows = await db.run<StockRow & { id: string; active: boolean }>(STOCK_BY_LOCATION, [location]);
  const totals = rows.find((row) => row.total);
  if (!totals) throw new Error('the stock by location always has a totals row');
  return {
    locations: rows
      .filter((row) => !row.total)
      .map((row) => ({ location: { _id: row.id, name: row.name }, active: row.active, ...stockValue(row) })),
    totals: stockValue(totals),
  };
}
