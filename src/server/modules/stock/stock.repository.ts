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
  value: Number(row.value),
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
      row.value,
    ]),
    next: nextNewest(rows, size, (row) => ({ at: row.cursorAt, id: row.id })),
  };
}

/**
 * A stock check's finding (StockMismatch): a product's; with `lot` one of its lots'; with
 * `location` its row (or its lot's row) at one location against the movements there.
 */
export type StockCheckRow = {
  productId: string;
  name: string;
  stock: number;
  ledger: number;
  /** A lot-tracked product's: the sum of its lots. */
  lots: number | null;
  lot: LotName | null;
  location: { _id: string; name: string } | null;
  /** A product's (or a lot's) stock summed over its locations, when it is not its stock. */
  locations: number | null;
  /** When Σ locations + in transit is not Σ movements outside transfers: those three. */
  inTransit: number | null;
  outsideTransfers: number | null;
};

/**
 * Every product whose stock differs from the sum of its movements, from the sum of its stock over
 * its locations or, lot-tracked, from the sum of its lots; every product whose stock over its
 * locations plus its units in transit is not the sum of its movements that are not transfers
 * (transferOut, transferIn); every lot whose units differ from the movements naming it or from its
 * units over locations; and every (product, location) and (lot, location) row that differs from
 * the movements there (DESIGN §8, §15, §17). The triggers make this impossible; the check proves
 * it, and would show a database changed behind them. One pass over the movements, grouped by
 * product, location, lot and whether a transfer moved them, serves every sum.
 */
export async function stockCheck(db: Db): Promise<{ checked: number; mismatches: StockCheckRow[] }> {
  const result = await db.execute(sql`
    with moved as materialized (
      select product_id, location_id, lot_id, kind in ('transferOut', 'transferIn') as transfer,
             sum(quantity)::bigint as total
      from ${stockMovements} group by product_id, location_id, lot_id, kind in ('transferOut', 'transferIn')
    ), ledger as (
      select product_id, sum(total)::bigint as total,
             coalesce(sum(total) filter (where not transfer), 0)::bigint as outside
      from moved group by product_id
    ), at_location as (
      select product_id, location_id, sum(total)::bigint as total from moved group by product_id, location_id
    ), lot_ledger as (
      select lot_id, sum(total)::bigint as total from moved where lot_id is not null group by lot_id
    ), lot_at_location as (
      select lot_id, location_id, sum(total)::bigint as total
      from moved where lot_id is not null group by lot_id, location_id
    ), in_lots as (
      select product_id, sum(quantity)::bigint as total from ${lots} group by product_id
    ), located as (
      select product_id, sum(stock)::bigint as total from location_stock group by product_id
    ), lot_located as (
      select lot_id, sum(quantity)::bigint as total from lot_stock group by lot_id
    ), transit as (
      select product_id, sum(sent - received - lost - returned)::bigint as total
      from transfer_lines where sent > received + lost + returned group by product_id
    ), compared as materialized (
      select p.id, p.name, p.stock, coalesce(l.total, 0) as ledger,
             case when p.tracking = 'lot' then coalesce(s.total, 0) end as lots,
             coalesce(c.total, 0) as located, coalesce(w.total, 0) as transit,
             coalesce(l.outside, 0) as outside
      from ${products} p
      left join ledger l on l.product_id = p.id
      left join in_lots s on s.product_id = p.id
      left join located c on c.product_id = p.id
      left join transit w on w.product_id = p.id
    ), place_rows as (
      select coalesce(s.product_id, m.product_id) as product_id, coalesce(s.location_id, m.location_id) as location_id,
             coalesce(s.stock, 0) as stock, coalesce(m.total, 0) as ledger
      from location_stock s full join at_location m on m.product_id = s.product_id and m.location_id = s.location_id
      -- A deleted product's rows go with it; its movements stay, as history.
      where coalesce(s.stock, 0) <> coalesce(m.total, 0)
        and exists (select 1 from ${products} p where p.id = coalesce(s.product_id, m.product_id))
    ), lot_place_rows as (
      select coalesce(s.lot_id, m.lot_id) as lot_id, coalesce(s.location_id, m.location_id) as location_id,
             coalesce(s.quantity, 0) as stock, coalesce(m.total, 0) as ledger
      from lot_stock s full join lot_at_location m on m.lot_id = s.lot_id and m.location_id = s.location_id
      where coalesce(s.quantity, 0) <> coalesce(m.total, 0)
        and exists (select 1 from ${lots} l where l.id = coalesce(s.lot_id, m.lot_id))
    ), found as (
      select id as "productId", name, stock, ledger, lots, null::json as lot, null::json as location,
             case when located <> stock then located end as locations,
             case when located + transit <> outside then transit end as "inTransit",
             case when located + transit <> outside then outside end as "outsideTransfers"
      from compared
      where stock <> ledger or stock <> coalesce(lots, stock) or stock <> located or located + transit <> outside
      union all
      select l.product_id, coalesce(p.name, 'Deleted product'), l.quantity, coalesce(m.total, 0), null,
             json_build_object('_id', l.id, 'number', l.number, 'expiresOn', l.expires_on::text), null,
             case when l.quantity <> coalesce(c.total, 0) then coalesce(c.total, 0) end, null, null
      from ${lots} l
      left join lot_ledger m on m.lot_id = l.id
      left join lot_located c on c.lot_id = l.id
      left join ${products} p on p.id = l.product_id
      where l.quantity <> coalesce(m.total, 0) or l.quantity <> coalesce(c.total, 0)
      union all
      select r.product_id, p.name, r.stock, r.ledger, null, null,
             json_build_object('_id', r.location_id, 'name', coalesce(o.name, 'Unknown location')), null, null, null
      from place_rows r
      join ${products} p on p.id = r.product_id
      left join locations o on o.id = r.location_id
      union all
      select l.product_id, coalesce(p.name, 'Deleted product'), r.stock, r.ledger, null,
             json_build_object('_id', l.id, 'number', l.number, 'expiresOn', l.expires_on::text),
             json_build_object('_id', r.location_id, 'name', coalesce(o.name, 'Unknown location')), null, null, null
      from lot_place_rows r
      join ${lots} l on l.id = r.lot_id
      left join ${products} p on p.id = l.product_id
      left join locations o on o.id = r.location_id
    )
    select (select count(*)::int from compared) as checked,
           (select coalesce(json_agg(found order by lower(name), "productId", lot->>'number' nulls first,
                                      location->>'name' nulls first), '[]'::json)
            from found) as mismatches`);
  const [row] = rowsOf<{ checked: number; mismatches: StockCheckRow[] | string }>(result);
  const mismatches =
    typeof row?.mismatches === 'string' ? JSON.parse(row.mismatches) : (row?.mismatches ?? []);
  return { checked: row?.checked ?? 0, mismatches };
}
