import type { Database } from '../src/server/db/connection';
import { movementsInsert } from '../src/server/modules/stock/movements';
import { productsAt, setStock } from './orders-check';

/** A lot each product of a run gets: its expiry in days from today (negative: expired) and units. */
export type LotPlan = { days: number; units: number };

export interface LotProducts {
  ids: string[];
  /** Database time just before the run: orders placed from then on belong to it. */
  since: string;
  /** Units each product's expired lots held before the run (they must hold them after it). */
  expiredUnits: number;
}

/**
 * `count` products from `offset` on (by id), made lot-tracked (DESIGN §15) the way the app does
 * it: stock counted down to 0, tracking on, then one lot per plan entry (expiry counted from
 * today in the report zone), each filled by a `receipt` movement naming it, which the ledger's
 * trigger applies to the lot and the product together.
 */
export async function prepareLotProducts(
  database: Database,
  offset: number,
  count: number,
  plan: readonly LotPlan[],
): Promise<LotProducts> {
  const ids = await productsAt(database, offset, count);
  await setStock(database, ids, 0);
  await database.query(`update products set tracking = 'lot' where id = any($1::uuid[])`, [ids]);
  for (const [n, lot] of plan.entries()) {
    await database.query(
      `with made as (
         insert into lots (product_id, number, expires_on)
         select id, $2::text, (now() at time zone (select time_zone from report_settings))::date + $3::int
         from products where id = any($1::uuid[])
         returning id, product_id
       )
       ${movementsInsert({
         values: {
           product_id: 'product_id',
           kind: "'receipt'",
           quantity: '$4::int',
           note: "'Benchmark setup'",
           lot_id: 'id',
         },
         from: 'made',
         orderBy: 'product_id',
       })}`,
      [ids, `BENCH-${n + 1}`, lot.days, lot.units],
    );
  }
  const expiredUnits = plan.filter((lot) => lot.days < 0).reduce((sum, lot) => sum + lot.units, 0) * count;
  const [now] = await database.query<{ now: string }>('select now()::text as now');
  return { ids, since: now?.now as string, expiredUnits };
}

export interface LotCheck {
  products: number;
  lots: number;
  /** Lots whose quantity ≠ the sum of the movements naming them, or below zero. */
  lotMismatches: number;
  /** Products whose stock ≠ the sum of their lots, or ≠ the sum of their movements. */
  productMismatches: number;
  /** Units the run's sales took from lots expired before it (must be 0), and expired units left. */
  expiredTaken: number;
  expiredLeft: number;
  /** Accepted orders of the run whose lot movements do not add up to their quantity. */
  unwholeOrders: number;
  acceptedOrders: number;
  /** Accepted orders that took from two lots or more. */
  acrossLots: number;
}

/** Every invariant of DESIGN §15 over the run's products, from the database after the run. */
export async function checkLots(database: Database, run: LotProducts): Promise<LotCheck> {
  const [row] = await database.query<Omit<LotCheck, 'products'>>(
    `with today as (select (now() at time zone (select time_zone from report_settings))::date as d),
     run_lots as (select l.* from lots l where l.product_id = any($1::uuid[])),
     run_orders as (
       select o.id, o.quantity,
              (select coalesce(-sum(m.quantity), 0) from stock_movements m
               where m.order_id = o.id and m.kind = 'sale' and m.lot_id is not null) as from_lots,
              (select count(distinct m.lot_id) from stock_movements m where m.order_id = o.id and m.kind = 'sale') as lot_count
       from orders o where o.product_id = any($1::uuid[]) and o.order_date >= $2::timestamptz
     )
     select (select count(*)::int from run_lots) as lots,
            (select count(*)::int from run_lots l
             where l.quantity < 0 or l.quantity <> (select coalesce(sum(m.quantity), 0) from stock_movements m where m.lot_id = l.id))
              as "lotMismatches",
            (select count(*)::int from products p where p.id = any($1::uuid[])
               and (p.stock <> (select coalesce(sum(quantity), 0) from lots where product_id = p.id)
                    or p.stock <> (select coalesce(sum(quantity), 0) from stock_movements where product_id = p.id)))
              as "productMismatches",
            (select coalesce(-sum(m.quantity), 0)::int from stock_movements m join run_lots l on l.id = m.lot_id
             where l.expires_on < (select d from today) and m.kind = 'sale' and m.at >= $2::timestamptz) as "expiredTaken",
            (select coalesce(sum(l.quantity), 0)::int from run_lots l where l.expires_on < (select d from today))
              as "expiredLeft",
            (select count(*)::int from run_orders where from_lots <> quantity) as "unwholeOrders",
            (select count(*)::int from run_orders) as "acceptedOrders",
            (select count(*)::int from run_orders where lot_count > 1) as "acrossLots"`,
    [run.ids, run.since],
  );
  if (!row) throw new Error('the lot check answered nothing');
  return { products: run.ids.length, ...row };
}

/** What breaks the run's lots, in words (empty: they hold). */
export function lotProblems(check: LotCheck, run: LotProducts): string[] {
  return [
    ...(check.lotMismatches
      ? [`${check.lotMismatches} lots whose quantity ≠ the sum of their movements`]
      : []),
    ...(check.productMismatches
      ? [`${check.productMismatches} products whose stock ≠ the sum of their lots or movements`]
      : []),
    ...(check.expiredTaken ? [`${check.expiredTaken} expired units sold`] : []),
    ...(check.expiredLeft !== run.expiredUnits
      ? [`${check.expiredLeft} expired units left of ${run.expiredUnits}`]
      : []),
    ...(check.unwholeOrders
      ? [`${check.unwholeOrders} orders whose lots do not add up to their quantity`]
      : []),
  ];
}
