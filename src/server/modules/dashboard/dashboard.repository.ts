import type { DashboardResponse } from '../../../shared/dashboard';
import { type Database, statement } from '../../db/connection';

/** The longest list a dashboard card shows; the rest are on the Products screen. */
const CARD_LIMIT = 100;

type Listed = { _id: string; name: string; stock: number; category: { name: string } };
type Figures = {
  products: number;
  stock: string;
  revenue: string;
  today: number;
  best: { name: string; category: string; total: number } | null;
  out: Listed[];
  low: Listed[];
};

/** Products whose stock matches `where`, in stock then name order (product_stock's index), as JSON. */
const listed = (where: string) => `
  (select coalesce(json_agg(json_build_object('_id', p.id, 'name', p.name, 'stock', l.stock,
                                              'category', json_build_object('name', c.name))
                            order by l.n), '[]'::json)
   from (select s.product_id, s.stock, row_number() over (order by s.stock, s.name_key, s.product_id) as n
         from product_stock s where ${where}
         order by s.stock, s.name_key, s.product_id limit ${CARD_LIMIT}) l
   join products p on p.id = l.product_id
   join categories c on c.id = p.category_id)`;

/**
 * Every figure of the dashboard in one prepared statement, so a request costs one round trip and
 * no planning. The figures come from product_totals, product_sales, order_totals,
 * order_quarters and product_stock, which triggers keep (migrations 0003, 0005, 0007, 0008). $1 is the store's time
 * zone, $2 the low-stock threshold.
 */
const FIGURES = statement(
  'dashboard_figures',
  `select
     (select coalesce(sum(products), 0)::int from product_totals) as products,
     (select coalesce(sum(stock), 0)::bigint from product_totals) as stock,
     (select coalesce(sum(revenue), 0) from order_totals) as revenue,
     (select coalesce(sum(orders), 0)::int from order_quarters
      where quarter >= (date_trunc('day', now() at time zone $1::text) at time zone $1::text)) as today,
     (select json_build_object('name', p.name, 'category', c.name, 'total', s.units)
      from (select product_id, units from product_sales where units > 0
            order by units desc, product_id limit 1) s
      join products p on p.id = s.product_id join categories c on c.id = p.category_id) as best,
     ${listed('s.stock = 0')} as out,
     ${listed('s.stock > 0 and s.stock <= $2::int')} as low`,
);

export async function dashboard(
  database: Database,
  options: { lowStockThreshold: number; timeZone: string },
): Promise<Omit<DashboardResponse, 'success'>> {
  const [figures] = await database.run<Figures>(FIGURES, [options.timeZone, options.lowStockThreshold]);
  if (!figures) throw new Error('the dashboard statement answered no row');
  return {
    totalProducts: figures.products,
    totalStock: Number(figures.stock),
    ordersToday: figures.today,
    revenue: Number(figures.revenue),
    outOfStock: figures.out.map(({ stock: _stock, ...rest }) => rest),
    highestSaleProduct: figures.best
      ? { name: figures.best.name, category: figures.best.category, totalQuantity: figures.best.total }
      : { message: 'No sales yet.' },
    lowStock: figures.low,
  };
}
