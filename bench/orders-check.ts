import type { Database } from '../src/server/db/connection';
import { movementsInsert } from '../src/server/modules/stock/movements';

export interface OrderProducts {
  hot: string[];
  scarce: string[];
  initial: Map<string, number>;
  /** Database time just before the run: orders placed from then on belong to it. */
  since: string;
}

export const HOT_STOCK = 1_000_000;
export const SCARCE_STOCK = 40;

/**
 * Sets the stock of each product to `target` the way the app does it: a `count` movement of the
 * difference per product, which the ledger's trigger applies (a direct update of stock is refused).
 */
export async function setStock(database: Database, ids: string[], target: number): Promise<void> {
  await database.query(
    // Counted at every location (DESIGN §17): the target at the main store (the default, where
    // the scenarios sell), nothing elsewhere, so the product's stock is the target.
    movementsInsert({
      values: {
        product_id: 's.product_id',
        kind: "'count'",
        quantity: '(case when s.location_id = default_location() then $1::int else 0 end) - s.stock',
        note: "'Benchmark setup'",
        location_id: 's.location_id',
      },
      from: `products p join location_stock s on s.product_id = p.id`,
      where: `p.id = any($2::uuid[])
        and (case when s.location_id = default_location() then $1::int else 0 end) <> s.stock`,
      orderBy: 's.product_id, s.location_id',
    }),
    [target, ids],
  );
}

/** `count` products from `offset` on (by id), so that runs do not share them. */
export async function productsAt(database: Database, offset: number, count: number): Promise<string[]> {
  const rows = await database.query<{ id: string }>(
    'select id from products order by id offset $1 limit $2',
    [offset, count],
  );
  return rows.map((r) => r.id);
}

/** Ten hot products with large stock and ten that run out mid-run, chosen by offset so runs do not share them. */
export async function prepareOrderProducts(database: Database, offset: number): Promise<OrderProducts> {
  const ids = await productsAt(database, offset, 20);
  const hot = ids.slice(0, 10);
  const scarce = ids.slice(10, 20);
  await setStock(database, hot, HOT_STOCK);
  await setStock(database, scarce, SCARCE_STOCK);
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
  /** Products where final stock ≠ the sum of their movements. */
  ledgerMismatches: number;
  /** Accepted orders of the run without exactly one sale movement of their quantity. */
  unrecordedSales: number;
  negative: number;
  acceptedOrders: number;
  acceptedUnits: number;
  soldOut: number;
}

/**
 * For every product of the run: initial stock − the quantities of its accepted orders = final
 * stock = the sum of its movements, and every accepted order has its sale movement.
 */
export async function checkStock(database: Database, run: OrderProducts): Promise<StockCheck> {
  const ids = [...run.initial.keys()];
  const rows = await database.query<{
    id: string;
    stock: number;
    orders: number;
    units: number;
    ledger: number;
    unrecorded: number;
  }>(
    `select p.id, p.stock,
            (select count(*)::int from orders o where o.product_id = p.id and o.order_date >= $2::timestamptz) as orders,
            (select coalesce(sum(quantity), 0)::int from orders o
              where o.product_id = p.id and o.order_date >= $2::timestamptz) as units,
            (select coalesce(sum(quantity), 0)::int from stock_movements m where m.product_id = p.id) as ledger,
            (select count(*)::int from orders o
              where o.product_id = p.id and o.order_date >= $2::timestamptz
                and (select count(*) from stock_movements m
                     where m.order_id = o.id and m.kind = 'sale' and m.quantity = -o.quantity) <> 1) as unrecorded
     from products p where p.id = any($1::uuid[])`,
    [ids, run.since],
  );
  let mismatches = 0;
  let ledgerMismatches = 0;
  let unrecordedSales = 0;
  let negative = 0;
  let acceptedOrders = 0;
  let acceptedUnits = 0;
  let soldOut = 0;
  for (const row of rows) {
    if ((run.initial.get(row.id) ?? 0) - row.units !== row.stock) mismatches++;
    if (row.ledger !== row.stock) ledgerMismatches++;
    unrecordedSales += row.unrecorded;
    if (row.stock < 0) negative++;
    if (row.stock === 0) soldOut++;
    acceptedOrders += row.orders;
    acceptedUnits += row.units;
  }
  return {
    products: rows.length,
    mismatches,
    ledgerMismatches,
    unrecordedSales,
    negative,
    acceptedOrders,
    acceptedUnits,
    soldOut,
  };
}

/** A random product of the run (hot ones and scarce ones alike) and a quantity of 1 to 3. */
export function orderPicker(run: OrderProducts): () => { productId: string; quantity: number } {
  const all = [...run.hot, ...run.scarce];
  return () => ({
    productId: all[Math.floor(Math.random() * all.length)] as string,
    quantity: 1 + Math.floor(Math.random() * 3),
  });
}
