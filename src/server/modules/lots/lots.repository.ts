import type { Lot, LotRef, OrderLot } from '../../../shared/lots';
import type { Runner } from '../../db/connection';
import { badRequest, conflict, isId, notFound } from '../../lib/errors';

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

/** How an expiry reads in a sentence. */
const expiryText = (expiresOn: string | null) => (expiresOn === null ? 'no expiry' : expiresOn);

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
      throw conflict(
        `Lot ${known.number} expires on ${expiryText(known.expiresOn)}, not ${expiryText(ref.expiresOn)}.`,
      );
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
    throw conflict(
      `Lot ${created.number} expires on ${expiryText(created.expiresOn)}, not ${expiryText(ref.expiresOn)}.`,
    );
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
