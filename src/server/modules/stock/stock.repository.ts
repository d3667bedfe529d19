import { and, count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Lot, LotName, LotRef } from '../../../shared/lots';
import { purchaseOrderNumber } from '../../../shared/purchasing';
import type { AdjustmentReason, Movement, MovementKind } from '../../../shared/stock';
import { transferNumber } from '../../../shared/transfers';
import { type Db, runnerOf, type Tx } from '../../db/connection';
import {
  locationStock,
  locations,
  lotStock,
  lots,
  orders,
  products,
  purchaseOrders,
  stockMovements,
  transfers,
} from '../../db/schema';
import { type CsvBatch, exactTime, type NewestCursor, nextNewest, olderThan } from '../../lib/csv-stream';
import { badRequest, notFound, refuse, refuseWith } from '../../lib/errors';
import { rowsOf } from '../../lib/sql';
import type { ZonedClock } from '../../lib/zoned-time';
import { type LocationRef, locationFor } from '../locations/location-for';
import { lotForAdding, lotForTaking } from '../lots/lots.repository';
import { type MovementRecord, recordMovements } from './movements';

export type MovementRow = MovementRecord;

/**
 * A receipt's row carries its purchase order's number, a sale's row its sale and receipt number,
 * a row naming a lot that lot's number and expiry, every row its location's name and a transfer
 * movement its transfer's number (see movementPage).
 */
export const toMovement = (
  row: MovementRow & {
    purchaseOrderNumber?: number | null;
    saleId?: string | null;
    saleNumber?: number | null;
    lotNumber?: string | null;
    lotExpiresOn?: string | null;
    locationName: string;
    transferNumber?: number | null;
  },
): Movement => ({
  _id: row.id,
  at: new Date(row.at).toISOString(),
  kind: row.kind as MovementKind,
  quantity: row.quantity,
  stockAfter: row.stockAfter,
  reason: row.reason,
  note: row.note,
  user: row.userName === null ? null : { _id: row.userId, name: row.userName },
  ...(row.orderId
    ? {
        order: {
          _id: row.orderId,
          ...(row.saleId && row.saleNumber
            ? { sale: { _id: row.saleId, number: Number(row.saleNumber) } }
            : {}),
        },
      }
    : {}),
  ...(row.purchaseOrderId && row.purchaseOrderNumber
    ? { purchaseOrder: { _id: row.purchaseOrderId, number: purchaseOrderNumber(row.purchaseOrderNumber) } }
    : {}),
  ...(row.lotId && row.lotNumber
    ? { lot: { _id: row.lotId, number: row.lotNumber, expiresOn: row.lotExpiresOn ?? null } }
    : {}),
  location: { _id: row.locationId, name: row.locationName },
  ...(row.transferId && row.transferNumber
    ? { transfer: { _id: row.transferId, number: transferNumber(Number(row.transferNumber)) } }
    : {}),
});

/** The lot columns toMovement reads, joined from the lot a movement names. */
const lotColumns = { lotNumber: lots.number, lotExpiresOn: lots.expiresOn };
/** The location and transfer columns toMovement reads (every movement has a location). */
const placeColumns = { locationName: locations.name, transferNumber: transfers.number };

export type MovementInput = {
  productId: string;
  quantity: number;
  reason?: AdjustmentReason;
  note: string;
  actor: { id: string; name: string };
  /** The lot the units go into or come out of (a lot-tracked product's). */
  lotId?: string;
  /** Where (DESIGN §17); omitted: the default location. */
  locationId?: string;
};

/**
 * Appends one movement through the ledger's one writer (movements.ts); the ledger's trigger
 * (src/server/db/functions/stock_movements_apply.sql) applies it to the product's stock at its
 * location (or refuses it: IMS01 below zero, IMS02 no such product) and fills in the stock after it
 * (the location's).
 */
async function appendMovement(tx: Tx, kind: MovementKind, input: MovementInput): Promise<MovementRow> {
  const [row] = await recordMovements(runnerOf(tx), [
    {
      productId: input.productId,
      kind,
      quantity: input.quantity,
      reason: input.reason ?? null,
      note: input.note,
      actor: input.actor,
      lotId: input.lotId ?? null,
      locationId: input.locationId ?? null,
    },
  ]);
  return row as MovementRow;
}

/** A signed adjustment with its reason (DESIGN §8). */
export function adjustStock(tx: Tx, input: MovementInput & { reason: AdjustmentReason }) {
  return appendMovement(tx, 'adjustment', input);
}

/**
 * The product's row, locked as the ledger's trigger locks it (before its lots, decision 0031), so
 * that its tracking and stock, and its lots' units, hold until the movement is written.
 */
async function lockProduct(tx: Tx, productId: string) {
  const [product] = await tx
    .select({ name: products.name, stock: products.stock, tracking: products.tracking })
    .from(products)
    .where(eq(products.id, productId))
    .for('no key update');
  if (!product) throw notFound('Product');
  return product;
}

/** A product's stock at one location (0 where it never moved); read under the product's lock. */
async function stockAt(tx: Tx, productId: string, locationId: string): Promise<number> {
  const [row] = await tx
    .select({ stock: locationStock.stock })
    .from(locationStock)
    .where(and(eq(locationStock.productId, productId), eq(locationStock.locationId, locationId)));
  return row?.stock ?? 0;
}

/** A lot's units at one location (0 where it never was). */
async function lotStockAt(tx: Tx, lotId: string, locationId: string): Promise<number> {
  const [row] = await tx
    .select({ quantity: lotStock.quantity })
    .from(lotStock)
    .where(and(eq(lotStock.lotId, lotId), eq(lotStock.locationId, locationId)));
  return row?.quantity ?? 0;
}

/** The product's stock at every other location holding some (SHORT_AT_LOCATION's `elsewhere`), by name. */
export async function stockElsewhere(
  tx: Tx,
  productId: string,
  locationId: string,
): Promise<{ location: { _id: string; name: string }; stock: number }[]> {
  const rows = await tx
    .select({ id: locations.id, name: locations.name, stock: locationStock.stock })
    .from(locationStock)
    .innerJoin(locations, eq(locations.id, locationStock.locationId))
    .where(
      and(
        eq(locationStock.productId, productId),
        sql`${locationStock.locationId} <> ${locationId}::uuid`,
        sql`${locationStock.stock} > 0`,
      ),
    )
    .orderBy(sql`lower(${locations.name})`, locations.id);
  return rows.map((row) => ({ location: { _id: row.id, name: row.name }, stock: row.stock }));
}

/** A lot-tracked product's movement names its lot; another product's names none (DESIGN §15). */
function checkLotNamed(tracking: string, lot: LotRef | undefined): LotRef | undefined {
  if (tracking === 'lot' && lot === undefined) throw refuse('LOT_NEEDED');
  if (tracking !== 'lot' && lot !== undefined)
    throw badRequest('This product is not tracked by lot, so name no lot.');
  return lot;
}

/** A movement made by hand, with the lot it names and its location (for its answer). */
export type HandMovement = { row: MovementRow; lot?: Lot; location: LocationRef };

/**
 * An adjustment made by hand (DESIGN §8, §15, §17) at a location (the default when none is named;
 * an inactive one is refused): of a lot-tracked product, units added go into the lot named (a new
 * number with its expiry creates it, a known one must agree on its expiry) and units taken come
 * out of it there (never below 0 in the lot: the trigger's IMS07, a 409). Units taken beyond the
 * location's stock are refused naming the product and the location, with where else it is held.
 */
export async function adjustProduct(
  tx: Tx,
  input: Omit<MovementInput, 'locationId'> & { reason: AdjustmentReason; lot?: LotRef; location?: string },
): Promise<HandMovement> {
  const location = await locationFor(runnerOf(tx), input.location);
  const product = await lockProduct(tx, input.productId);
  const ref = checkLotNamed(product.tracking, input.lot);
  const lot = ref
    ? await (input.quantity > 0 ? lotForAdding : lotForTaking)(runnerOf(tx), input.productId, ref)
    : undefined;
  if (input.quantity < 0 && !lot) {
    const here = await stockAt(tx, input.productId, location.id);
    if (here + input.quantity < 0)
      throw refuseWith(
        'SHORT_AT_LOCATION',
        { elsewhere: await stockElsewhere(tx, input.productId, location.id) },
        { product: product.name, location: location.name, left: here },
      );
  }
  const row = await adjustStock(tx, { ...input, lotId: lot?._id, locationId: location.id });
  return { row, lot, location };
}

/**
 * A count at a location (DESIGN §17; the default when none is named, an inactive one refused): the
 * stock there becomes what was counted, as a movement of the difference (zero too). The product's
 * row is locked first, so no sale slips between reading the stock and setting it. A lot-tracked
 * product's count counts one lot there (`counted` = that lot's units at the location; a new number
 * with its expiry creates it), its lots read after the product's row is locked.
 */
export async function countStock(
  tx: Tx,
  input: Omit<MovementInput, 'quantity' | 'locationId'> & {
    counted: number;
    lot?: LotRef;
    location?: string;
  },
): Promise<HandMovement> {
  const location = await locationFor(runnerOf(tx), input.location);
  const product = await lockProduct(tx, input.productId);
  const ref = checkLotNamed(product.tracking, input.lot);
  const lot = ref ? await lotForAdding(runnerOf(tx), input.productId, ref) : undefined;
  const before = lot
    ? await lotStockAt(tx, lot._id, location.id)
    : await stockAt(tx, input.productId, location.id);
  const row = await appendMovement(tx, 'count', {
    ...input,
    quantity: input.counted - before,
    lotId: lot?._id,
    locationId: location.id,
  });
  return { row, lot, location };
}

/** A product's movements, newest first, and how many it has; an order's names its sale (by primary key). */
export async function movementPage(
  db: Db,
  productId: string,
  window: { limit: number; offset: number },
): Promise<{ movements: Movement[]; total: number }> {
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        ...getTableColumns(stockMovements),
        purchaseOrderNumber: purchaseOrders.number,
        saleId: orders.saleId,
        saleNumber: orders.saleNumber,
        ...lotColumns,
        ...placeColumns,
      })
      .from(stockMovements)
      .innerJoin(locations, eq(locations.id, stockMovements.locationId))
      .leftJoin(purchaseOrders, eq(purchaseOrders.id, stockMovements.purchaseOrderId))
      .leftJoin(orders, eq(orders.id, stockMovements.orderId))
      .leftJoin(lots, eq(lots.id, stockMovements.lotId))
      .leftJoin(transfers, eq(transfers.id, stockMovements.transferId))
      // The page's movements first (a range of stock_movements_product_at_idx), then their orders,
      // purchase orders and lots: joined before the limit, a busy product's whole history was
      // (hundreds of order lookups per page, when the planner expects a product's few).
      .where(
        inArray(
          stockMovements.id,
          db
            .select({ id: stockMovements.id })
            .from(stockMovements)
            .where(eq(stockMovements.productId, productId))
            .orderBy(desc(stockMovements.at), desc(stockMovements.id))
            .limit(window.limit)
            .offset(window.offset),
        ),
      )
      .orderBy(desc(stockMovements.at), desc(stockMovements.id)),
    db.select({ n: count() }).from(stockMovements).where(eq(stockMovements.productId, productId)),
  ]);
  return { movements: rows.map(toMovement), total: counted?.n ?? 0 };
}

/** One batch of a product's movements CSV (MOVEMENT_CSV_HEADER), newest first. */
export async function movementCsvBatch(
  db: Db,
  productId: string,
  after: NewestCursor | undefined,
  size: number,
  clock: ZonedClock,
): Promise<CsvBatch<NewestCursor>> {
  const rows = await db
    .select({
      ...getTableColumns(stockMovements),
      purchaseOrderNumber: purchaseOrders.number,
      ...lotColumns,
      ...placeColumns,
      cursorAt: exactTime(stockMovements.at),
    })
    .from(stockMovements)
    .innerJoin(locations, eq(locations.id, stockMovements.locationId))
    .leftJoin(purchaseOrders, eq(purchaseOrders.id, stockMovements.purchaseOrderId))
    .leftJoin(lots, eq(lots.id, stockMovements.lotId))
    .leftJoin(transfers, eq(transfers.id, stockMovements.transferId))
    .where(
      and(eq(stockMovements.productId, productId), olderThan(stockMovements.at, stockMovements.id, after)),
    )
    .orderBy(desc(stockMovements.at), desc(stockMovements.id))
    .limit(size);
  return {
    rows: rows.map((row) => [
      clock(new Date(row.at)),
      row.kind,
      row.quantity,
      row.stockAfter,
      row.reason,
      row.note,
      row.userName,
      row.orderId,
      row.purchaseOrderNumber ? purchaseOrderNumber(row.purchaseOrderNumber) : null,
      row.lotNumber,
      row.lotExpiresOn,
      row.locationName,
      row.transferNumber ? transferNumber(Number(row.transferNumber)) : null,
    ]),
    next: nextNewest(rows, size, (row) => ({ at: row.cursorAt, id: row.id })),
  };
}

/** A stock check's finding (StockMismatch): a product's, or with `lot` one of its lots'. */
export type StockCheckRow = {
  productId: string;
  name: string;
  stock: number;
  ledger: number;
  /** A lot-tracked product's: the sum of its lots. */
  lots: number | null;
  lot: LotName | null;
};

/**
 * Every product whose stock differs from the sum of its movements or, lot-tracked, from the sum of
 * its lots, and every lot whose units differ from the sum of the movements naming it (DESIGN §8,
 * §15). The triggers make this impossible; the check proves it, and would show a database changed
 * behind them. One pass over the movements, grouped by product and lot, serves both sums.
 */
export async function stockCheck(db: Db): Promise<{ checked: number; mismatches: StockCheckRow[] }> {
  const result = await db.execute(sql`
    with moved as materialized (
      select product_id, lot_id, sum(quantity)::bigint as total
      from ${stockMovements} group by product_id, lot_id
    ), ledger as (
      select product_id, sum(total)::bigint as total from moved group by product_id
    ), lot_ledger as (
      select lot_id, sum(total)::bigint as total from moved where lot_id is not null group by lot_id
    ), in_lots as (
      select product_id, sum(quantity)::bigint as total from ${lots} group by product_id
    ), compared as materialized (
      select p.id, p.name, p.stock, coalesce(l.total, 0) as ledger,
             case when p.tracking = 'lot' then coalesce(s.total, 0) end as lots
      from ${products} p
      left join ledger l on l.product_id = p.id
      left join in_lots s on s.product_id = p.id
    ), found as (
      select id as "productId", name, stock, ledger, lots, null::json as lot
      from compared where stock <> ledger or stock <> coalesce(lots, stock)
      union all
      select l.product_id, coalesce(p.name, 'Deleted product'), l.quantity, coalesce(m.total, 0), null,
             json_build_object('_id', l.id, 'number', l.number, 'expiresOn', l.expires_on::text)
      from ${lots} l
      left join lot_ledger m on m.lot_id = l.id
      left join ${products} p on p.id = l.product_id
      where l.quantity <> coalesce(m.total, 0)
    )
    select (select count(*)::int from compared) as checked,
           (select coalesce(json_agg(found order by lower(name), "productId", lot->>'number' nulls first), '[]'::json)
            from found) as mismatches`);
  const [row] = rowsOf<{ checked: number; mismatches: StockCheckRow[] | string }>(result);
  const mismatches =
    typeof row?.mismatches === 'string' ? JSON.parse(row.mismatches) : (row?.mismatches ?? []);
  return { checked: row?.checked ?? 0, mismatches };
}
