import type { Database } from '../src/server/db/connection';

export interface OrderProducts {
  hot: string[];
  scarce: string[];
  initial: Map<string, number>;
  /** Database time just before the run: orders placed from then on belong to it. */
  since: string;
}

export const HOT_STOCK = 1_000_000;
export const SCARCE_STOCK = 40;

/** Ten hot products with large stock and ten that run out mid-run, chosen by offset so runs do not share them. */
export async function prepareOrderProducts(database: Database, offset: number): Promise<OrderProducts> {
  const rows = await database.query<{ id: string }>(
    'select id from products order by id offset $1 limit 20',
    [offset],
  );
  const ids = rows.map((r) => r.id);
  const hot = ids.slice(0, 10);
  const scarce = ids.slice(10, 20);
  await database.query('update products set stock = $1 where id = any($2::uuid[])', [HOT_STOCK, hot]);
  await database.query('update products set stock = $1 where id = any($2::uuid[])', [SCARCE_STOCK, scarce]);
  const initial = new Map<string, number>([
    ...hot.map((id) => [id, HOT_STOCK] as const),
    ...scarce.map((id) => [id, SCARCE_STOCK] as const),
  ]);
  const [now] = await database.query<{ now: string }>('select now()::text as now');
  return { hot, scarce, initial, since: now?.now as string };
}

export interface StockCheck {
  products: number;
  /** Products where initial stock − accepted quantities ≠ final stock. */
  mismatches: number;
  negative: number;
  acceptedOrders: number;
  acceptedUnits: number;
  soldOut: number;
}

/** For every product of the run: initial stock − the quantities of its accepted orders = final stock. */
export async function checkStock(database: Database, run: OrderProducts): Promise<StockCheck> {
  const ids = [...run.initial.keys()];
  const rows = await database.query<{ id: string; stock: number; orders: number; units: number }>(
    `select p.id, p.stock,
            (select count(*)::int from orders o where o.product_id = p.id and o.order_date >= $2::timestamptz) as orders,
            (select coalesce(sum(quantity), 0)::int from orders o
              where o.product_id = p.id and o.order_date >= $2::timestamptz) as units
     from products p where p.id = any($1::uuid[])`,
    [ids, run.since],
  );
  let mismatches = 0;
  let negative = 0;
  let acceptedOrders = 0;
  let acceptedUnits = 0;
  let soldOut = 0;
  for (const row of rows) {
    if ((run.initial.get(row.id) ?? 0) - row.units !== row.stock) mismatches++;
    if (row.stock < 0) negative++;
    if (row.stock === 0) soldOut++;
    acceptedOrders += row.orders;
    acceptedUnits += row.units;
  }
  return { products: rows.length, mismatches, negative, acceptedOrders, acceptedUnits, soldOut };
}

/** A random product of the run (hot ones and scarce ones alike) and a quantity of 1 to 3. */
export function orderPicker(run: OrderProducts): () => { productId: string; quantity: number } {
  const all = [...run.hot, ...run.scarce];
  return () => ({
    productId: all[Math.floor(Math.random() * all.length)] as string,
    quantity: 1 + Math.floor(Math.random() * 3),
  });
}
