import type { ItemReportResponse, ProductReportSort } from '../../../shared/reports';
import { type Runner, type Statement, statement } from '../../db/connection';
import { COUNTED_IN_RANGE } from './figures-from-orders';
import type { Range } from './reports.repository';

/**
 * The items report (DESIGN §22): the products report's lines summed by the item each variant
 * belongs to, a product on its own a line of its own. Each product's figures of the range are
 * summed first, and kept when it sold a unit net of returns, exactly as the products report keeps
 * a line; an item's line is then the sum of those lines, so the two reports agree to the cent.
 * Store-wide from the kept daily figures (sales_day_products' day index, as the products report
 * sums a range by its days); at a location from its orders (figures-from-orders.ts).
 */

type ItemLine = ItemReportResponse['items'][number];
type LineRow = {
  itemId: string | null;
  itemName: string | null;
  productId: string | null;
  productName: string | null;
  category: string;
  variants: number;
  units: number;
  revenue: string;
  margin: string;
};

const RANKED: Record<ProductReportSort, string> = {
  revenue: 'l.revenue',
  units: 'l.units',
  margin: 'l.revenue - l.cost',
};
const SORTS = ['revenue', 'units', 'margin'] as const;

/** The range's figures of each product that sold a unit in it: product_id, units, revenue, cost. */
const STORE_FIGURES = `
  select product_id, sum(units) as units, sum(revenue) as revenue, sum(cost) as cost
  from sales_day_products where day between $1::date and $2::date
  group by product_id having sum(units) > 0`;
/** As STORE_FIGURES, from the orders whose stock left from the location $3. */
const LOCATION_FIGURES = `
  select o.product_id, sum(o.units) as units, sum(o.revenue) as revenue, sum(o.cost) as cost
  from ${COUNTED_IN_RANGE} o where o.product_id is not null
  group by o.product_id having sum(o.units) > 0`;

/**
 * The best `limit` lines by `sort`, ties by name then id: the figures grouped by item (a product
 * without one, by itself), named, with the item's category (or the product's).
 */
const itemLines = (figures: string, sort: ProductReportSort, limit: string) => `
  with figures as (${figures}
  ), lines as (
    select p.item_id, case when p.item_id is null then p.id end as product_id, count(*) as variants,
           sum(f.units) as units, sum(f.revenue) as revenue, sum(f.cost) as cost
    from figures f join products p on p.id = f.product_id
    group by 1, 2
  )
  select l.item_id as "itemId", i.name as "itemName", l.product_id as "productId", p.name as "productName",
         c.name as category, l.variants::int as variants, l.units::int as units,
         l.revenue::text as revenue, (l.revenue - l.cost)::text as margin
  from lines l
  left join items i on i.id = l.item_id
  left join products p on p.id = l.product_id
  join categories c on c.id = coalesce(i.category_id, p.category_id)
  order by ${RANKED[sort]} desc, lower(coalesce(i.name, p.name)), coalesce(l.item_id, l.product_id)
  limit ${limit}`;

const byEachSort = (name: string, figures: string, limit: string) =>
  Object.fromEntries(
    SORTS.map((sort) => [sort, statement(`${name}_${sort}`, itemLines(figures, sort, limit))]),
  ) as Record<ProductReportSort, Statement>;

/** $1 from, $2 to, $3 how many. */
const ITEMS = byEachSort('reports_items', STORE_FIGURES, '$3');
/** $1 from, $2 to, $3 the location, $4 how many. */
const ITEMS_AT = byEachSort('reports_items_at_location', LOCATION_FIGURES, '$4');

const lineOf = (row: LineRow): ItemLine => ({
  item: row.itemId ? { _id: row.itemId, name: row.itemName as string } : null,
  product: row.productId ? { _id: row.productId, name: row.productName as string } : null,
  category: { name: row.category },
  variants: row.variants,
  units: row.units,
  revenue: Number(row.revenue),
  margin: Number(row.margin),
});

/** The best `limit` items (and products on their own) of the range, store-wide or at `location`. */
export async function topItems(
  db: Runner,
  range: Range,
  sort: ProductReportSort,
  limit: number,
  location?: string,
): Promise<ItemLine[]> {
  const rows = location
    ? await db.run<LineRow>(ITEMS_AT[sort], [range.from, range.to, location, limit])
    : await db.run<LineRow>(ITEMS[sort], [range.from, range.to, limit]);
  return rows.map(lineOf);
}
