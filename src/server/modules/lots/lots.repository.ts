import type { ExpiringLot, Lot, LotRef, OrderLot, TraceMovement, TraceResponse } from '../../../shared/lots';
import { purchaseOrderNumber } from '../../../shared/purchasing';
import type { Runner } from '../../db/connection';
import type { CsvBatch } from '../../lib/csv-stream';
import { badRequest, isId, notFound, refuse } from '../../lib/errors';

/**
 * Lots (DESIGN §15, decision 0031). A lot's quantity moves only through the ledger: a movement
 * that names its lot (stock_movements.lot_id) moves the lot with the product in its trigger
 * (src/server/db/functions/stock_movements_apply.sql), which also picks a sale's lots
 * first-expiry-first-out and a return's. This file finds the lot a hand-made movement names, and
 * reads lots for the answers; every path that adds or takes units by hand (product creation,
 * adjustments, counts, receipts, the import) names its lot through lotForAdding or lotForTaking.
 */

type LotRow = { id: string; number: string; expires_on: string | null; quantity: number };

const LOT_FIELDS = `id, number, expires_on::text as expires_on, quantity`;

export const toLot = (row: LotRow): Lot => ({
  _id: row.id,
  number: row.number,
  expiresOn: row.expires_on,
  quantity: row.quantity,
});

/**
 * The lot units are added to (DESIGN §15): by `_id` (the product's own, else 404), or by number,
 * ignoring case: a known number must agree on its expiry when one is given (409 naming both), a
 * new one is created with its expiry (400 when none was given; null means it does not expire).
 * Two writers creating one number at once both end with the one lot. Adding to an expired lot is
 * allowed (it is then written off).
 */
export async function lotForAdding(run: Runner, productId: string, ref: LotRef): Promise<Lot> {
  const known = await findLot(run, productId, ref);
  if (known) {
    if (ref.expiresOn !== undefined && ref.expiresOn !== known.expiresOn)
      throw refuse('LOT_EXPIRY_DIFFERS', { lot: known.number, known: known.expiresOn, given: ref.expiresOn });
    return known;
  }
  if (ref.number === undefined) throw notFound('Lot');
  if (ref.expiresOn === undefined)
    throw badRequest(`Give the expiry of the new lot ${ref.number} (null when it does not expire).`);
  await run.query(
    `insert into lots (product_id, number, expires_on) values ($1::uuid, $2, $3::date)
     on conflict (product_id, lower(number)) do nothing`,
    [productId, ref.number, ref.expiresOn],
  );
  const created = await findLot(run, productId, { number: ref.number });
  if (!created) throw notFound('Lot');
  if (created.expiresOn !== ref.expiresOn)
    throw refuse('LOT_EXPIRY_DIFFERS', {
      lot: created.number,
      known: created.expiresOn,
      given: ref.expiresOn,
    });
  return created;
}

/** The lot units are taken from or counted in: by `_id` or number, the product's own (404 otherwise). */
export async function lotForTaking(run: Runner, productId: string, ref: LotRef): Promise<Lot> {
  const known = await findLot(run, productId, ref);
  if (!known) throw notFound('Lot');
  return known;
}

async function findLot(run: Runner, productId: string, ref: LotRef): Promise<Lot | undefined> {
  if (ref._id !== undefined && !isId(ref._id)) return undefined;
  const [row] =
    ref._id !== undefined
      ? await run.query<LotRow>(
          `select ${LOT_FIELDS} from lots where id = $1::uuid and product_id = $2::uuid`,
          [ref._id, productId],
        )
      : await run.query<LotRow>(
          `select ${LOT_FIELDS} from lots where product_id = $1::uuid and lower(number) = lower($2)`,
          [productId, ref.number ?? ''],
        );
  return row ? toLot(row) : undefined;
}

/** A product's lots in the order a sale takes them (earliest expiry first, no expiry last), empty ones too. */
export async function productLots(run: Runner, productId: string): Promise<Lot[]> {
  const rows = await run.query<LotRow>(
    `select ${LOT_FIELDS} from lots where product_id = $1::uuid
     order by expires_on asc nulls last, created_at, id`,
    [productId],
  );
  return rows.map(toLot);
}

/**
 * The lots each order took its units from (its `sale` movements that name a lot), in the order a
 * sale takes them; an order without lots has none in the map. One statement for a page of orders,
 * through the movements' index on order_id.
 */
export async function orderLots(run: Runner, orderIds: readonly string[]): Promise<Map<string, OrderLot[]>> {
  const found = new Map<string, OrderLot[]>();
  if (orderIds.length === 0) return found;
  const rows = await run.query<LotRow & { order_id: string; taken: number }>(
    `select m.order_id, l.id, l.number, l.expires_on::text as expires_on, l.quantity, -sum(m.quantity)::int as taken
     from stock_movements m join lots l on l.id = m.lot_id
     where m.order_id = any($1::uuid[]) and m.kind = 'sale' and m.lot_id is not null
     group by m.order_id, l.id
     order by m.order_id, l.expires_on asc nulls last, l.created_at, l.id`,
    [orderIds],
  );
  for (const row of rows) {
    const lots = found.get(row.order_id) ?? [];
    lots.push({ lot: { _id: row.id, number: row.number, expiresOn: row.expires_on }, quantity: row.taken });
    found.set(row.order_id, lots);
  }
  return found;
}

/**
 * The lots holding units that expire on or before `today` + `days` (SQL expressions), expired ones
 * too, with their product and value at its cost (0 while it has none): the rows of the expiring
 * list and its CSV. A deleted product's lots are stock of nothing and stay out. The conditions are
 * those of lots_expiring_idx, whose order (expires_on, id) the list reads. With `location` (an SQL
 * expression of a location's id, DESIGN §17): the lots with units there (lot_stock), and those units.
 */
const expiring = (today: string, days: string, location?: string) =>
  location === undefined
    ? `
  select l.id, l.number, l.expires_on::text as expires_on, l.quantity,
         p.id as product_id, p.name as product_name, l.quantity * coalesce(p.cost, 0) as value
  from lots l join products p on p.id = l.product_id
  where l.quantity > 0 and l.expires_on is not null and l.expires_on <= ${today} + ${days}`
    : `
  select l.id, l.number, l.expires_on::text as expires_on, ls.quantity,
         p.id as product_id, p.name as product_name, ls.quantity * coalesce(p.cost, 0) as value
  from lot_stock ls join lots l on l.id = ls.lot_id join products p on p.id = l.product_id
  where ls.location_id = ${location} and ls.quantity > 0
    and l.expires_on is not null and l.expires_on <= ${today} + ${days}`;

type ExpiringRow = LotRow & { product_id: string; product_name: string; value: string };

const toExpiring = (row: ExpiringRow): ExpiringLot => ({
  lot: { _id: row.id, number: row.number, expiresOn: row.expires_on },
  product: { _id: row.product_id, name: row.product_name },
  quantity: row.quantity,
  value: Number(row.value),
});

/** Today in the report time zone, as YYYY-MM-DD. */
export async function reportToday(run: Runner): Promise<string> {
  const [row] = await run.query<{ today: string }>(`select store_today()::text as today`);
  return row?.today as string;
}

/**
 * One page of the lots expiring within `days` of today (DESIGN §15), with today and the totals
 * over every page, in one statement: today, the totals and the page read the same lots.
 */
export async function expiringPage(
  run: Runner,
  days: number,
  window: { limit: number; offset: number },
  locationId?: string,
): Promise<{ lots: ExpiringLot[]; today: string; total: number; quantity: number; value: number }> {
  const rows = await run.query<
    Partial<ExpiringRow> & { today: string; total: number; units: string; worth: string }
  >(
    `with day as (select store_today() as today),
     expiring as (${expiring('(select today from day)', '$1::int', locationId === undefined ? undefined : '$4::uuid')}),
     totals as (select count(*)::int as total, coalesce(sum(quantity), 0)::text as units,
                       coalesce(sum(value), 0)::text as worth from expiring)
     select day.today::text as today, totals.total, totals.units, totals.worth, page.*
     from day cross join totals
     left join lateral (select * from expiring order by expires_on, id limit $2 offset $3) page on true
     order by page.expires_on, page.id`,
    locationId === undefined
      ? [days, window.limit, window.offset]
      : [days, window.limit, window.offset, locationId],
  );
  const first = rows[0] as (typeof rows)[number];
  return {
    lots: rows.filter((row) => row.id != null).map((row) => toExpiring(row as ExpiringRow)),
    today: first.today,
    total: first.total,
    quantity: Number(first.units),
    value: Number(first.worth),
  };
}

/** Where an expiring list's CSV stopped: the last lot's expiry and id (the list's order). */
export type ExpiringCursor = { expiresOn: string; id: string };

/** One batch of the expiring list's CSV (EXPIRING_CSV_HEADER) after `after`, for `today`. */
export async function expiringCsvBatch(
  run: Runner,
  today: string,
  days: number,
  after: ExpiringCursor | undefined,
  size: number,
  locationId?: string,
): Promise<CsvBatch<ExpiringCursor>> {
  const rows = await run.query<ExpiringRow>(
    `${expiring('$1::date', '$2::int', locationId === undefined ? undefined : '$6::uuid')} and ($3::date is null or (l.expires_on, l.id) > ($3::date, $4::uuid))
     order by l.expires_on, l.id limit $5`,
    [
      today,
      days,
      after?.expiresOn ?? null,
      after?.id ?? null,
      size,
      ...(locationId === undefined ? [] : [locationId]),
    ],
  );
  const last = rows.at(-1);
  return {
    rows: rows.map((row) => [row.product_name, row.number, row.expires_on, row.quantity, Number(row.value)]),
    next: last && rows.length === size ? { expiresOn: last.expires_on as string, id: last.id } : undefined,
  };
}

/**
 * A lot with its product and every movement naming it, oldest first (DESIGN §15: who got units
 * of a recalled lot), through stock_movements_lot_idx; each with its order, the sale and the
 * customer from that order's snapshot, its purchase order and its user. Undefined when there is
 * no such lot. A deleted product is named as its orders kept it. `today`: the store's, by which
 * the screen judges the lot's expiry.
 */
export async function lotTrace(
  run: Runner,
  id: string,
): Promise<{ lot: TraceResponse['lot']; movements: TraceMovement[]; today: string } | undefined> {
  if (!isId(id)) return undefined;
  const [lot] = await run.query<LotRow & { product_id: string; product_name: string; today: string }>(
    `select l.id, l.number, l.expires_on::text as expires_on, l.quantity, l.product_id, store_today()::text as today,
            coalesce(p.name, (select o.product_name from stock_movements m join orders o on o.id = m.order_id
                              where m.lot_id = l.id limit 1), 'Deleted product') as product_name
     from lots l left join products p on p.id = l.product_id
     where l.id = $1::uuid`,
    [id],
  );
  if (!lot) return undefined;
  const rows = await run.query<{
    id: string;
    at: Date | string;
    kind: string;
    quantity: number;
    reason: string | null;
    note: string;
    order_id: string | null;
    sale_id: string | null;
    sale_number: string | number | null;
    customer_id: string | null;
    customer_name: string | null;
    purchase_order_id: string | null;
    purchase_order_number: string | number | null;
    user_id: string | null;
    user_name: string | null;
    location_id: string;
    location_name: string;
  }>(
    `select m.id, m.at, m.kind, m.quantity, m.reason, m.note, m.order_id,
            o.sale_id, o.sale_number, o.customer_id, o.customer_name,
            m.purchase_order_id, po.number as purchase_order_number, m.user_id, m.user_name,
            m.location_id, loc.name as location_name
     from stock_movements m
     join locations loc on loc.id = m.location_id
     left join orders o on o.id = m.order_id
     left join purchase_orders po on po.id = m.purchase_order_id
     where m.lot_id = $1::uuid
     order by m.at, m.id`,
    [id],
  );
  return {
    lot: { ...toLot(lot), product: { _id: lot.product_id, name: lot.product_name } },
    today: lot.today,
    movements: rows.map((row) => ({
      _id: row.id,
      at: new Date(row.at).toISOString(),
      kind: row.kind,
      quantity: row.quantity,
      reason: row.reason,
      note: row.note,
      ...(row.order_id === null ? {} : { order: { _id: row.order_id } }),
      ...(row.sale_id === null ? {} : { sale: { _id: row.sale_id, number: Number(row.sale_number) } }),
      ...(row.customer_name === null ? {} : { customer: { _id: row.customer_id, name: row.customer_name } }),
      ...(row.purchase_order_id === null
        ? {}
        : {
            purchaseOrder: {
              _id: row.purchase_order_id,
              number: purchaseOrderNumber(Number(row.purchase_order_number)),
            },
          }),
      // A movement without a user was made by the system (an opening stock written by SQL).
      user: { _id: row.user_id, name: row.user_name ?? 'System' },
      location: { _id: row.location_id, name: row.location_name },
    })),
  };
}
