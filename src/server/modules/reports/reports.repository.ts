import type {
  CategoryReportResponse,
  NeverSoldResponse,
  ProductReportResponse,
  ProductReportSort,
  ReportGroup,
  SalesFigures,
  SalesReportResponse,
  StaffReportResponse,
  StockReportResponse,
  TaxReportResponse,
} from '../../../shared/reports';
import type { Role } from '../../../shared/roles';
import { type Runner, type Statement, statement } from '../../db/connection';
import type { CsvBatch } from '../../lib/csv-stream';

/**
 * The reports of DESIGN §10, read from the daily and monthly figures that the triggers on orders
 * keep (migrations 0013 and 0014, decision 0013): no report reads orders. Days are those of the
 * zone the figures were counted in, the server's TZ. Sums are exact (numeric) in SQL and become
 * JSON numbers only here, from their two-decimal text. A product, category or person is listed for
 * a range when it sold at least one unit in it, net of returns. Revenue is net (DESIGN §12): after
 * discounts, without tax, less what returns gave back without their tax.
 */

/** Both days included, YYYY-MM-DD. */
export type Range = { from: string; to: string };

/** Exact money as the database writes it ("12.30"); a JSON number only at the edge. */
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

/**
 * Every period of the range with its figures, zeros too, then the totals (`total` true). A period
 * is named by its first day inside the range; date_trunc's weeks start on Monday.
 * $1 from, $2 to, $3 'day' | 'week' | 'month'.
 */
const SALES = statement(
  'reports_sales',
  `with days as (
     select day, sum(orders) as orders, sum(units) as units, sum(revenue) as revenue, sum(cost) as cost,
            sum(discount) as discount, sum(tax) as tax
     from sales_days where day between $1::date and $2::date group by day
   ), periods as (
     select greatest(date_trunc($3::text, g)::date, $1::date) as start,
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

export async function salesReport(
  db: Runner,
  range: Range,
  groupBy: ReportGroup,
): Promise<Pick<SalesReportResponse, 'periods' | 'totals'>> {
  const rows = await db.run<FiguresRow & { total: boolean; start: string }>(SALES, [
    range.from,
    range.to,
    groupBy,
  ]);
  const totals = rows.find((row) => row.total);
  if (!totals) throw new Error('the sales report always has a totals row');
  return {
    periods: rows.filter((row) => !row.total).map((row) => ({ start: row.start, ...figuresOf(row) })),
    totals: figuresOf(totals),
  };
}

type ProductRow = {
  id: string;
  name: string;
  itemId: string | null;
  itemName: string | null;
  category: string;
  units: number;
  revenue: Money;
  margin: Money;
};
type ProductFigures = ProductReportResponse['products'][number];

const productOf = (row: ProductRow): ProductFigures => ({
  product: { _id: row.id, name: row.name },
  item: row.itemId ? { _id: row.itemId, name: row.itemName as string } : null,
  category: { name: row.category },
  units: row.units,
  revenue: money(row.revenue),
  margin: money(row.margin),
});

/** The figure each sort ranks by, over a range's sums f(units, revenue, cost). */
const RANKED: Record<ProductReportSort, string> = {
  revenue: 'f.revenue',
  units: 'f.units',
  margin: 'f.revenue - f.cost',
};
/** product_sales' column that bounds that figure from above in any range. */
const BOUND: Record<ProductReportSort, string> = { revenue: 'revenue', units: 'units', margin: 'margin_up' };
const SORTS = ['revenue', 'units', 'margin'] as const;

/**
 * The best `limit` of `figures` (a CTE of product_id, units, revenue, cost), named (with the item
 * a variant belongs to), ties by name.
 */
const bestNamed = (sort: ProductReportSort, limit: string, figures = 'figures') => `
  select p.id, p.name, i.id as "itemId", i.name as "itemName", c.name as category, f.units::int as units,
         f.revenue::text as revenue, (f.revenue - f.cost)::text as margin
  from ${figures} f join products p on p.id = f.product_id join categories c on c.id = p.category_id
  left join items i on i.id = p.item_id
  order by ${RANKED[sort]} desc, lower(p.name), p.id
  limit ${limit}`;

/**
 * What decides how the products report reads a range ($1 from, $2 to): the share of all units and
 * of all revenue that lies in it (0 when there is none), and, when it lies within two months
 * running, the first of the two (`twoMonths`, else null). A range within one month lies in two
 * such pairs, that month with the one before or with the one after: the pair whose other month
 * had fewer orders, whose rows then bound the range more closely.
 */
const RANGE_FACTS = statement(
  'reports_range_facts',
  `with months as (
     select date_trunc('month', $1::date::timestamp) as first,
            date_trunc('month', $2::date::timestamp) as last
   ), facts as (
     select coalesce(sum(d.units) filter (where d.day between $1::date and $2::date)::float8
                     / nullif(sum(d.units), 0), 0) as units_share,
            coalesce(sum(d.revenue) filter (where d.day between $1::date and $2::date)::float8
                     / nullif(sum(d.revenue), 0), 0) as revenue_share,
            coalesce(sum(d.orders) filter (where d.day >= m.first - interval '1 month'
                                             and d.day < m.first), 0) as orders_before,
            coalesce(sum(d.orders) filter (where d.day >= m.last + interval '1 month'
                                             and d.day < m.last + interval '2 months'), 0) as orders_after
     from months m left join sales_days d on true
     group by m.first, m.last
   )
   select f.units_share as "unitsShare", f.revenue_share as "revenueShare",
          (case when m.last = m.first + interval '1 month' then m.first
                when m.last = m.first and f.orders_before <= f.orders_after then m.first - interval '1 month'
                when m.last = m.first then m.first
           end)::date::text as "twoMonths"
   from months m, facts f`,
);
type RangeFacts = { unitsShare: number; revenueShare: number; twoMonths: string | null };

/**
 * Below this share of all sales in the range, the products report does not walk by all-time
 * figures (a range longer than two months is then summed by its days, sales_day_products' day
 * index): its figures are so far below the products' all-time figures that the walk would read
 * most products. Measured at the bench's size: a year's sales (share 1) settle after 200
 * candidates, 0.8 after 1,500, 0.66 after 1,500 for the best 10 only, 0.5 not at all; summing the
 * days costs about 0.9 s × share.
 */
const WALK_FROM_SHARE = 0.6;
/** Candidates read by the walk's first step, and by its second (the last) when the first did not settle. */
const WALK_STEPS = [200, 1500];
/** Steps of a walk that tests force: from a few candidates until it settles. */
const FORCED_STEPS = [5, 20, 80, 320, 1280, Number.MAX_SAFE_INTEGER];

/**
 * Where a walk reads its candidates, in descending order of a figure that bounds what they sold in
 * the range: product_sales (all time, any range) or sales_two_month_products (the two months
 * starting $5, a range inside them).
 */
const CANDIDATES = {
  allTime: (sort: ProductReportSort) =>
    `select product_id, ${BOUND[sort]} as bound from product_sales
     order by ${BOUND[sort]} desc, product_id limit $3`,
  twoMonths: (sort: ProductReportSort) =>
    `select product_id, ${BOUND[sort]} as bound from sales_two_month_products where first_month = $5::date
     order by ${BOUND[sort]} desc, product_id limit $3`,
};
type WalkSource = keyof typeof CANDIDATES;

/**
 * The walk (decision 0013): the first $3 candidates in descending order of their bound, each
 * summed over the range from its own rows of sales_day_products (a primary key range), and the
 * best $4 of those, named. Also how many candidates were read and the smallest bound among them:
 * every product not read is bounded by it. Always one row at least (`read`), products or none.
 * $1 from, $2 to.
 */
const WALK = Object.fromEntries(
  (Object.keys(CANDIDATES) as WalkSource[]).map((source) => [
    source,
    Object.fromEntries(
      SORTS.map((sort) => [
        sort,
        statement(
          `reports_products_walk_${source}_${sort}`,
          `with candidates as materialized (${CANDIDATES[source](sort)}
           ), figures as (
             select c.product_id, f.units, f.revenue, f.cost
             from candidates c cross join lateral (
               select sum(d.units) as units, sum(d.revenue) as revenue, sum(d.cost) as cost
               from sales_day_products d where d.product_id = c.product_id and d.day between $1::date and $2::date
             ) f
             where f.units > 0
           ), ranked as (
             -- Only the best and their ties are named: joined to every candidate, the catalogue was
             -- read whole (a hash join) once candidates were many.
             select * from figures f order by ${RANKED[sort]} desc fetch first $4 rows with ties
           ), best as (${bestNamed(sort, '$4', 'ranked')})
           select (select count(*) from candidates)::int as read, (select min(bound) from candidates)::text as bound,
                  best.*
           from (select) as one left join best on true`,
        ),
      ]),
    ),
  ]),
) as Record<WalkSource, Record<ProductReportSort, Statement>>;

/**
 * The range summed by its days from the day index (read from the index alone), ranked; the best
 * $3 and whoever ties with the last of them are then summed in full and named. $1 from, $2 to.
 */
const SUMMED = Object.fromEntries(
  SORTS.map((sort) => [
    sort,
    statement(
      `reports_products_summed_${sort}`,
      `with ranked as (
         select product_id from sales_day_products f where day between $1::date and $2::date
         group by product_id having sum(units) > 0
         order by sum(${RANKED[sort].replaceAll('f.', '')}) desc fetch first $3 rows with ties
       ), figures as (
         select r.product_id, f.units, f.revenue, f.cost
         from ranked r cross join lateral (
           select sum(d.units) as units, sum(d.revenue) as revenue, sum(d.cost) as cost
           from sales_day_products d where d.product_id = r.product_id and d.day between $1::date and $2::date
         ) f
       )
       ${bestNamed(sort, '$3')}`,
    ),
  ]),
) as Record<ProductReportSort, Statement>;

const SHARE_OF = { revenue: 'revenueShare', units: 'unitsShare', margin: 'revenueShare' } as const;

/** How the products report reads a range: tests hold each way to the same answer. */
export type ProductsWay = 'auto' | 'allTime' | 'twoMonths' | 'days';

/**
 * The best `limit` products of the range by `sort`, ties by name (DESIGN §10): exactly what summing
 * sales_day_products over the range and sorting would answer, without reading every product's
 * days when a walk can settle first (decision 0013).
 *
 * A walk reads products in descending order of a figure that no range inside its span can exceed
 * (per order, units and revenue net of returns are never negative; margin_up adds only the orders
 * with a positive margin): what they sold in the two months that hold the range, when it lies
 * within two months running (30 days, this month, last month), else what they sold in all time.
 * Once it holds `limit` products whose last (smallest) figure in the range is above the bound of
 * the last candidate read, no product still unread can enter the answer nor tie with its last.
 * A longer range that holds a small share of all sales is far below the all-time figures, and the
 * walk would read most products: it is summed by its days instead, and so is any range whose walk
 * does not settle in its last step (many ties, or margins at or below zero).
 */
export async function topProducts(
  db: Runner,
  range: Range,
  sort: ProductReportSort,
  limit: number,
  /** 'allTime' and 'twoMonths' walk until they settle (twoMonths: a range within two months), 'days' sums. */
  how: ProductsWay = 'auto',
): Promise<ProductFigures[]> {
  const [facts] = how === 'days' ? [] : await db.run<RangeFacts>(RANGE_FACTS, [range.from, range.to]);
  const steps = how === 'auto' ? WALK_STEPS : FORCED_STEPS;
  const walkWith = async (source: WalkSource, ...more: unknown[]) => {
    for (const read of steps) {
      const rows = await db.run<Partial<ProductRow> & { read: number; bound: Money | null }>(
        WALK[source][sort],
        [range.from, range.to, read, limit, ...more],
      );
      const found = rows.filter((row): row is ProductRow & { read: number; bound: Money } => row.id != null);
      const exhausted = (rows[0]?.read ?? 0) < read;
      const last = found[limit - 1];
      if (exhausted || (last && ranksAbove(sort, last, rows[0]?.bound ?? null))) return found.map(productOf);
    }
    return undefined;
  };
  const twoMonths = facts?.twoMonths ?? null;
  if (how === 'twoMonths' && twoMonths === null) throw new Error('the range is longer than two months');
  const share = facts?.[SHARE_OF[sort]] ?? 0;
  const walked =
    twoMonths !== null && (how === 'auto' || how === 'twoMonths')
      ? await walkWith('twoMonths', twoMonths)
      : how === 'allTime' || (how === 'auto' && share >= WALK_FROM_SHARE)
        ? await walkWith('allTime')
        : undefined;
  if (walked) return walked;
  const rows = await db.run<ProductRow>(SUMMED[sort], [range.from, range.to, limit]);
  return rows.map(productOf);
}

/** Whether the product ranks strictly above `bound` (compared exactly, in integer cents). */
function ranksAbove(sort: ProductReportSort, product: ProductRow, bound: Money | null): boolean {
  if (bound === null) return true;
  const value =
    sort === 'units' ? String(product.units) : sort === 'revenue' ? product.revenue : product.margin;
  return cents(value) > cents(bound);
}

/** A decimal text with at most two decimals, as integer cents (exact). */
function cents(text: string): bigint {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const value = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
  return negative ? -value : value;
}

/**
 * Never sold (DESIGN §10): a product of today's catalogue with no unit sold in the range, net of
 * returns. product_sales.last_day, the last day a product sold a unit, settles most products
 * without reading their days: none (null) or before the range, never sold in it; inside the range,
 * sold. Only a product whose last sale is after the range needs its days read ($1 from, $2 to).
 */
const SOLD_IN_RANGE = `(s.last_day is not null and s.last_day >= $1::date
    and (s.last_day <= $2::date
         or exists (select 1 from sales_day_products d
                    where d.product_id = s.product_id and d.day between $1::date and $2::date and d.units > 0)))`;

/** The never-sold products as three ranges of product_sales_last_day_idx. */
const NEVER_SOLD_SET = `
  select product_id from product_sales where last_day is null
  union all
  select product_id from product_sales where last_day < $1::date
  union all
  select s.product_id from product_sales s where s.last_day > $2::date and not ${SOLD_IN_RANGE}`;

/** How many, counted in product_sales_last_day_idx (every product has its row there). */
const NEVER_SOLD_TOTAL_BY_LAST_DAY = statement(
  'reports_never_sold_total_by_last_day',
  `select count(*)::int as total from (${NEVER_SOLD_SET}) never`,
);

/** How many, as the catalogue less the products that sold in the range (a range of few days). */
const NEVER_SOLD_TOTAL_BY_DAYS = statement(
  'reports_never_sold_total_by_days',
  `select (select coalesce(sum(products), 0) from product_totals)
          - (select count(*) from (select product_id from sales_day_products
                                   where day between $1::date and $2::date and units > 0
                                   group by product_id) sold) as total`,
);

const NEVER_SOLD_FIELDS = 'p.id, p.name, p.stock, c.name as category, lower(p.name) as key';

/** A page of the never-sold set, when it is small. $3 limit (null: all), $4 offset. */
const NEVER_SOLD_PAGE_OF_SET = statement(
  'reports_never_sold_page_of_set',
  `select ${NEVER_SOLD_FIELDS}
   from (${NEVER_SOLD_SET}) never
   join products p on p.id = never.product_id join categories c on c.id = p.category_id
   order by lower(p.name), p.id limit $3 offset $4`,
);

/**
 * The catalogue in name order, never-sold products only, after the keyset ($5 lower-case name, $6
 * id): when they are many, the next ones are near. $3 limit, $4 offset.
 */
const NEVER_SOLD_BY_NAME = statement(
  'reports_never_sold_by_name',
  `select ${NEVER_SOLD_FIELDS}
   from products p join product_sales s on s.product_id = p.id join categories c on c.id = p.category_id
   where not ${SOLD_IN_RANGE} and (lower(p.name), p.id) > ($5::text, $6::uuid)
   order by lower(p.name), p.id limit $3 offset $4`,
);

/** Up to this many never-sold products are found by product_sales' index and sorted; more, by name. */
const NEVER_SOLD_SET_MOST = 2000;
/**
 * Counting by last day probes the days of every product sold after the range: up to this many,
 * always; more only when the range holds at least NEVER_SOLD_BY_DAYS_BELOW of all sales, else the
 * range's own days are fewer to count.
 */
const NEVER_SOLD_PROBES_MOST = 5000;
const NEVER_SOLD_BY_DAYS_BELOW = 0.35;

/**
 * How many products sold after the range (up to NEVER_SOLD_PROBES_MOST: a range of the index),
 * and the share of all units sold in the range. $1 from, $2 to.
 */
const NEVER_SOLD_FACTS = statement(
  'reports_never_sold_facts',
  `select (select count(*) from (select 1 from product_sales where last_day > $2::date
                                 limit ${NEVER_SOLD_PROBES_MOST}) a)::int as "soldAfter",
          (select coalesce(sum(units) filter (where day between $1::date and $2::date)::float8
                           / nullif(sum(units), 0), 0) from sales_days) as "unitsShare"`,
);

type NeverSoldRow = { id: string; name: string; stock: number; category: string; key: string };
const neverSoldOf = (row: NeverSoldRow): NeverSoldResponse['products'][number] => ({
  _id: row.id,
  name: row.name,
  stock: row.stock,
  category: { name: row.category },
});

const FIRST_KEY = ['', '00000000-0000-0000-0000-000000000000'];

/**
 * How many products never sold in the range, and how to list them. By last day when few products
 * sold after the range (none when it ends on the last day with sales: no product's days are read)
 * or the range holds much of the sales; else by counting the range's days, which are then fewer.
 */
async function neverSoldPlan(
  db: Runner,
  range: Range,
  how: NeverSoldWay,
): Promise<{ total: number; fromSet: boolean }> {
  const [facts] =
    how === 'auto'
      ? await db.run<{ soldAfter: number; unitsShare: number }>(NEVER_SOLD_FACTS, [range.from, range.to])
      : [];
  const byLastDay =
    how === 'auto'
      ? (facts?.soldAfter ?? 0) < NEVER_SOLD_PROBES_MOST ||
        (facts?.unitsShare ?? 0) >= NEVER_SOLD_BY_DAYS_BELOW
      : how === 'lastDay';
  const [row] = await db.run<{ total: number | string }>(
    byLastDay ? NEVER_SOLD_TOTAL_BY_LAST_DAY : NEVER_SOLD_TOTAL_BY_DAYS,
    [range.from, range.to],
  );
  const total = Number(row?.total ?? 0);
  return { total, fromSet: byLastDay && total <= NEVER_SOLD_SET_MOST };
}

/** Tests hold each way to the same answer: 'lastDay' and 'days' force the count and the listing. */
export type NeverSoldWay = 'auto' | 'lastDay' | 'days';

export async function neverSold(
  db: Runner,
  range: Range,
  window: { limit: number; offset: number },
  how: NeverSoldWay = 'auto',
): Promise<Pick<NeverSoldResponse, 'products' | 'total'>> {
  const { total, fromSet } = await neverSoldPlan(db, range, how);
  if (total === 0 || window.offset >= total) return { products: [], total };
  const rows = fromSet
    ? await db.run<NeverSoldRow>(NEVER_SOLD_PAGE_OF_SET, [range.from, range.to, window.limit, window.offset])
    : await db.run<NeverSoldRow>(NEVER_SOLD_BY_NAME, [
        range.from,
        range.to,
        window.limit,
        window.offset,
        ...FIRST_KEY,
      ]);
  return { products: rows.map(neverSoldOf), total };
}

/** Where a never-sold export stopped: the last row's lower-case name and id. */
export type NameCursor = { key: string; id: string };

/**
 * One batch of the never-sold CSV (REPORT_CSV_HEADERS.neverSold) after `after`, by name: all of
 * them at once when they are few, else the next `size` from the catalogue in name order.
 */
export async function neverSoldCsvBatch(
  db: Runner,
  range: Range,
  after: NameCursor | undefined,
  size: number,
): Promise<CsvBatch<NameCursor>> {
  const csvRow = (row: NeverSoldRow) => [row.id, row.name, row.category, row.stock];
  if (!after) {
    const { total, fromSet } = await neverSoldPlan(db, range, 'auto');
    if (total === 0) return { rows: [] };
    if (fromSet) {
      const rows = await db.run<NeverSoldRow>(NEVER_SOLD_PAGE_OF_SET, [range.from, range.to, null, 0]);
      return { rows: rows.map(csvRow) };
    }
  }
  const rows = await db.run<NeverSoldRow>(NEVER_SOLD_BY_NAME, [
    range.from,
    range.to,
    size,
    0,
    ...(after ? [after.key, after.id] : FIRST_KEY),
  ]);
  const last = rows.at(-1);
  return {
    rows: rows.map(csvRow),
    next: last && rows.length === size ? { key: last.key, id: last.id } : undefined,
  };
}

/** The first day of the range's first whole month, and the day after its last whole month. */
const FIRST_WHOLE_MONTH = `(date_trunc('month', ($1::date - 1)::timestamp) + interval '1 month')::date`;
const AFTER_WHOLE_MONTHS = `date_trunc('month', ($2::date + 1)::timestamp)::date`;

/**
 * The rows that make up a range ($1 from, $2 to), `columns` of each: its whole months from the
 * month table (migration 0014), and from the day table the days before the first of them and those
 * after the last (when it holds no whole month, all its days, in the first part). A year is then
 * 11 or 12 months and up to 60 days instead of 365 days, each of which has a row per category or
 * person.
 */
const monthsAndDays = (monthTable: string, dayTable: string, columns: string) => `
  select ${columns} from ${monthTable}
  where month >= ${FIRST_WHOLE_MONTH} and month < ${AFTER_WHOLE_MONTHS}
  union all
  select ${columns} from ${dayTable}
  where day >= $1::date and day < least($2::date + 1, ${FIRST_WHOLE_MONTH})
  union all
  select ${columns} from ${dayTable}
  where day >= greatest($1::date, ${FIRST_WHOLE_MONTH}, ${AFTER_WHOLE_MONTHS}) and day <= $2::date`;

const CATEGORY_FIGURES = 'category_name, units, revenue, cost';

/** By the category each order was sold under, most revenue first. $1 from, $2 to. */
const CATEGORIES = statement(
  'reports_categories',
  `with sums as (
     select category_name as name, sum(units) as units, sum(revenue) as revenue, sum(cost) as cost
     from (${monthsAndDays('sales_month_categories', 'sales_day_categories', CATEGORY_FIGURES)}) r
     group by category_name having sum(units) > 0
   )
   select name, units::int as units, revenue::text as revenue, (revenue - cost)::text as margin,
          coalesce(round(revenue / nullif(sum(revenue) over (), 0), 4), 0)::text as share
   from sums order by sums.revenue desc, name`,
);

export async function categoryReport(
  db: Runner,
  range: Range,
): Promise<CategoryReportResponse['categories']> {
  const rows = await db.run<{ name: string; units: number; revenue: Money; margin: Money; share: string }>(
    CATEGORIES,
    [range.from, range.to],
  );
  return rows.map((row) => ({
    name: row.name,
    units: row.units,
    revenue: money(row.revenue),
    margin: money(row.margin),
    share: Number(row.share),
  }));
}

/**
 * By who placed the orders, most revenue first; staff since deleted (user_id null, or a user gone
 * while the report ran) as one row without a user. $1 from, $2 to.
 */
const STAFF = statement(
  'reports_staff',
  `select u.id, u.name, u.role, s.orders::int as orders, s.units::int as units, s.revenue::text as revenue
   from (select user_id, sum(orders) as orders, sum(units) as units, sum(revenue) as revenue
         from (${monthsAndDays('sales_month_staff', 'sales_day_staff', 'user_id, orders, units, revenue')}) r
         group by user_id having sum(units) > 0) s
   left join users u on u.id = s.user_id
   order by s.revenue desc, u.name nulls last, u.id`,
);

export async function staffReport(db: Runner, range: Range): Promise<StaffReportResponse['staff']> {
  const rows = await db.run<{
    id: string | null;
    name: string | null;
    role: Role | null;
    orders: number;
    units: number;
    revenue: Money;
  }>(STAFF, [range.from, range.to]);
  return rows.map((row) => ({
    user: row.id ? { _id: row.id, name: row.name as string, role: row.role as Role } : null,
    orders: row.orders,
    units: row.units,
    revenue: money(row.revenue),
  }));
}

/**
 * The range's tax by rate, from the kept figures (sales_day_taxes, migration 0023) summed over its
 * days, then the totals (`total` true). $1 from, $2 to.
 */
const TAX = statement(
  'reports_tax',
  `with rates as (
     select rate_name as name, rate, sum(base) as base, sum(tax) as tax
     from sales_day_taxes where day between $1::date and $2::date
     group by rate_name, rate having sum(base) <> 0 or sum(tax) <> 0
   ), answer as (
     select false as total, name, rate, base, tax from rates
     union all
     select true, null, null, coalesce(sum(base), 0), coalesce(sum(tax), 0) from rates
   )
   select total, name, rate::text as rate, base::text as base, tax::text as tax
   from answer order by total, answer.rate, name`,
);

export async function taxReport(
  db: Runner,
  range: Range,
): Promise<Pick<TaxReportResponse, 'rates' | 'totals'>> {
  const rows = await db.run<{ total: boolean; name: string; rate: string; base: Money; tax: Money }>(TAX, [
    range.from,
    range.to,
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
 * What the stock is worth now, at cost (a product without one counts 0), per category of today's
 * catalogue (empty ones too), most value first, then the totals (`total` true). From
 * category_stock, which product_totals_added/changed/removed keep (src/server/db/functions/): the catalogue itself
 * would be 100,000 rows to sum.
 */
const STOCK = statement(
  'reports_stock',
  `with sums as (
     select c.name, coalesce(sum(s.products), 0) as products, coalesce(sum(s.units), 0) as units,
            coalesce(sum(s.value), 0) as value
     from categories c left join category_stock s on s.category_id = c.id
     group by c.id, c.name
   ), answer as (
     select false as total, name, products, units, value from sums
     union all
     select true, null, coalesce(sum(products), 0), coalesce(sum(units), 0), coalesce(sum(value), 0) from sums
   )
   select total, name, products::int as products, units::bigint as units, value::text as value
   from answer order by total, answer.value desc, name`,
);

export async function stockReport(db: Runner): Promise<Pick<StockReportResponse, 'categories' | 'totals'>> {
  const rows = await db.run<{ total: boolean; name: string; products: number; units: string; value: Money }>(
    STOCK,
    [],
  );
  const stockValue = (row: (typeof rows)[number]) => ({
    products: row.products,
    units: Number(row.units),
    value: money(row.value),
  });
  const totals = rows.find((row) => row.total);
  if (!totals) throw new Error('the stock report always has a totals row');
  return {
    categories: rows.filter((row) => !row.total).map((row) => ({ name: row.name, ...stockValue(row) })),
    totals: stockValue(totals),
  };
}
