import { sql } from 'drizzle-orm';
import type { DashboardResponse } from '../../../shared/dashboard';
import type { Db } from '../../db/connection';
import { rowsOf } from '../../lib/sql';

/** The longest list a dashboard card shows; the rest are on the Products screen. */
const CARD_LIMIT = 100;

type Listed = { id: string; name: string; stock: number; category: string };

export async function dashboard(
  db: Db,
  options: { lowStockThreshold: number; timeZone: string },
): Promise<Omit<DashboardResponse, 'success'>> {
  const [totals, today, best, out, low] = await Promise.all([
    // product_totals, product_sales and order_totals are kept by triggers (migrations 0003, 0005).
    db.execute(sql`
      select coalesce(sum(products), 0)::int as products, coalesce(sum(stock), 0)::bigint as stock,
             (select coalesce(sum(revenue), 0) from order_totals) as revenue
      from product_totals`),
    db.execute(sql`
      select count(*)::int as n from orders
      where order_date >= (date_trunc('day', now() at time zone ${options.timeZone}) at time zone ${options.timeZone})`),
    db.execute(sql`
      select p.name, c.name as category, s.units as total
      from (select product_id, units from product_sales where units > 0 order by units desc, product_id limit 1) s
      join products p on p.id = s.product_id join categories c on c.id = p.category_id`),
    db.execute(sql`
      select p.id, p.name, p.stock, c.name as category from products p join categories c on c.id = p.category_id
      where p.stock = 0 order by lower(p.name) limit ${CARD_LIMIT}`),
    db.execute(sql`
      select p.id, p.name, p.stock, c.name as category from products p join categories c on c.id = p.category_id
      where p.stock > 0 and p.stock <= ${options.lowStockThreshold}
      order by p.stock, lower(p.name) limit ${CARD_LIMIT}`),
  ]);
  const t = rowsOf<{ products: number; stock: string; revenue: string }>(totals)[0];
  const top = rowsOf<{ name: string; category: string; total: number }>(best)[0];
  const listed = (rows: unknown) =>
    rowsOf<Listed>(rows).map((r) => ({
      _id: r.id,
      name: r.name,
      stock: r.stock,
      category: { name: r.category },
    }));
  return {
    totalProducts: t?.products ?? 0,
    totalStock: Number(t?.stock ?? 0),
    ordersToday: rowsOf<{ n: number }>(today)[0]?.n ?? 0,
    revenue: Number(t?.revenue ?? 0),
    outOfStock: listed(out).map(({ stock: _stock, ...rest }) => rest),
    highestSaleProduct: top
      ? { name: top.name, category: top.category, totalQuantity: top.total }
      : { message: 'No sales yet.' },
    lowStock: listed(low),
  };
}
