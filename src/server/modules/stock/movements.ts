import type { MovementKind } from '../../../shared/stock';
import type { Runner } from '../../db/connection';
import type { stockMovements } from '../../db/schema';

/**
 * The one writer of the stock ledger (DESIGN §8), as ERPNext's vouchers all call one function:
 * every sale, refund, receipt, adjustment, count, import, seed and bench row that records a
 * movement goes through this module, so a column a movement gains is added here once. The ledger's
 * trigger (src/server/db/functions/stock_movements_apply.sql) stays the one place that applies a
 * movement to a product's stock at its location (DESIGN §17) and its lots, refuses it (IMS01 below zero, IMS02 no product, IMS05
 * and IMS07 for lots) and fills in the stock after it. `movements.test.ts` lists the writers: no
 * other file inserts into stock_movements.
 *
 * Two ways in, one column list (decision 0039):
 * - `recordMovements(runner, movements)`: movements made in TypeScript, written in one statement
 *   from one jsonb parameter, in the order given (callers that take several products give them in
 *   product id order, the order the trigger locks them).
 * - `movementsInsert({...})`: the text of an `insert … select` for a statement that records the
 *   movements of rows it has just made (the sale's orders, a refund's write-offs), so the hot path
 *   stays one statement.
 * And `bulkLoadMovementsInsert`, the benchmark loader's alone, which also writes stock_after.
 */

/** A movement's columns the writers fill in (stock_after is the trigger's). */
export const MOVEMENT_COLUMNS = [
  'at',
  'product_id',
  'kind',
  'quantity',
  'reason',
  'note',
  'user_id',
  'user_name',
  'order_id',
  'purchase_order_id',
  'refund_id',
  'lot_id',
  'location_id',
  'transfer_id',
  'stocktake_id',
  'value',
] as const;
export type MovementColumn = (typeof MOVEMENT_COLUMNS)[number];

/** The movement reasons the ledger knows (its check constraint). */
export type MovementReason =
  | 'received'
  | 'damaged'
  | 'lost'
  | 'found'
  | 'returned'
  | 'correction'
  | 'expired'
  /** DESIGN §21: units an offline sale sold that the system did not know the shelf had. */
  | 'offline';

/** One movement to record. Signed quantity: units in (+) or out (−). */
export type NewMovement = {
  productId: string;
  kind: MovementKind;
  quantity: number;
  reason?: MovementReason | null;
  note?: string;
  /** Who made it (null: the system, e.g. a seed's opening stock). */
  actor?: { id: string; name: string } | null;
  orderId?: string | null;
  purchaseOrderId?: string | null;
  refundId?: string | null;
  lotId?: string | null;
  /** Where the units come in or go out (DESIGN §17); omitted or null: the default location. */
  locationId?: string | null;
  /** The transfer a transferOut, transferIn or transferLoss belongs to. */
  transferId?: string | null;
  /** The stocktake a count was posted by (DESIGN §18). */
  stocktakeId?: string | null;
  /**
   * DESIGN §19: what the units are worth, exact text ("12.30"), for a receipt (quantity × the
   * line's unit cost), an opening movement or a revaluation (the value it moves); omitted, the
   * ledger's trigger values the movement by its rules (the only way for any other kind).
   */
  value?: string | null;
  /**
   * When it happened: an ISO time (seeds and imported history); `'clock'` for the moment the row
   * is written (each row its own time, so a history reads a return before its write-off); omitted,
   * the transaction's time (the column's default).
   */
  at?: string | Date | 'clock';
};

/** A recorded movement, as the ledger's table reads through Drizzle (stock_after as the trigger set it). */
export type MovementRecord = typeof stockMovements.$inferSelect;

/** What runs the statement: a Runner (a Database, `runnerOf(tx)`) or anything that runs a raw query. */
export type MovementRunner = Pick<Runner, 'query'>;

const COLUMN_TYPES: Record<MovementColumn, string> = {
  at: 'text',
  product_id: 'uuid',
  kind: 'text',
  quantity: 'integer',
  reason: 'text',
  note: 'text',
  user_id: 'uuid',
  user_name: 'text',
  order_id: 'uuid',
  purchase_order_id: 'uuid',
  refund_id: 'uuid',
  lot_id: 'uuid',
  location_id: 'uuid',
  transfer_id: 'uuid',
  stocktake_id: 'uuid',
  value: 'numeric',
};

/** What a column is when a movement does not give it. */
const COLUMN_DEFAULTS: Partial<Record<MovementColumn, string>> = {
  at: 'now()',
  note: "''",
};

const value = (c: MovementColumn): string =>
  c === 'at'
    ? `case when x.at = 'clock' then clock_timestamp() else coalesce(x.at::timestamptz, now()) end`
    : COLUMN_DEFAULTS[c]
      ? `coalesce(x.${c}, ${COLUMN_DEFAULTS[c]})`
      : `x.${c}`;

const RECORD = `insert into stock_movements (${MOVEMENT_COLUMNS.join(', ')})
  select ${MOVEMENT_COLUMNS.map(value).join(', ')}
    from rows from (jsonb_to_recordset($1::jsonb) as (${MOVEMENT_COLUMNS.map((c) => `${c} ${COLUMN_TYPES[c]}`).join(', ')}))
         with ordinality as x(${MOVEMENT_COLUMNS.join(', ')}, n)
   order by x.n
  returning id, at, product_id as "productId", kind, quantity, stock_after as "stockAfter", reason, note,
            user_id as "userId", user_name as "userName", order_id as "orderId",
            purchase_order_id as "purchaseOrderId", refund_id as "refundId", lot_id as "lotId",
            location_id as "locationId", transfer_id as "transferId", stocktake_id as "stocktakeId",
            value::text as value`;

function toRow(movement: NewMovement): Record<MovementColumn, unknown> {
  return {
    at: movement.at instanceof Date ? movement.at.toISOString() : (movement.at ?? null),
    product_id: movement.productId,
    kind: movement.kind,
    quantity: movement.quantity,
    reason: movement.reason ?? null,
    note: movement.note ?? null,
    user_id: movement.actor?.id ?? null,
    user_name: movement.actor?.name ?? null,
    order_id: movement.orderId ?? null,
    purchase_order_id: movement.purchaseOrderId ?? null,
    refund_id: movement.refundId ?? null,
    lot_id: movement.lotId ?? null,
    location_id: movement.locationId ?? null,
    transfer_id: movement.transferId ?? null,
    stocktake_id: movement.stocktakeId ?? null,
    value: movement.value ?? null,
  };
}

/**
 * Records movements in one statement, in the order given; answers them as recorded (with the stock
 * after each). A refusal of the trigger (IMS01…) undoes the whole statement.
 */
export async function recordMovements(
  runner: MovementRunner,
  movements: readonly NewMovement[],
): Promise<MovementRecord[]> {
  if (movements.length === 0) return [];
  return runner.query<MovementRecord>(RECORD, [JSON.stringify(movements.map(toRow))]);
}

/** The SQL of a movementsInsert: each column's expression over `from`, the rows it takes and their order. */
export type MovementsSource = {
  values: Partial<Record<MovementColumn, string>> & { product_id: string; kind: string; quantity: string };
  /** What follows `from`: a table, a CTE's name, joins. */
  from: string;
  where?: string;
  groupBy?: string;
  /** The order the rows are inserted in, so the trigger locks products in it (product id order). */
  orderBy?: string;
};

/** The statement's text: each column given or with a default, in MOVEMENT_COLUMNS order, then `extra`. */
function insertText(source: MovementsSource, extra: Record<string, string> = {}): string {
  const given = MOVEMENT_COLUMNS.filter((c) => source.values[c] !== undefined || COLUMN_DEFAULTS[c]);
  const columns = [...given, ...Object.keys(extra)];
  const values = [...given.map((c) => source.values[c] ?? COLUMN_DEFAULTS[c]), ...Object.values(extra)];
  const where = source.where ? ` where ${source.where}` : '';
  const group = source.groupBy ? ` group by ${source.groupBy}` : '';
  const order = source.orderBy ? ` order by ${source.orderBy}` : '';
  return `insert into stock_movements (${columns.join(', ')})
     select ${values.join(', ')} from ${source.from}${where}${group}${order}`;
}

/**
 * The text of `insert into stock_movements (…) select … from <from> [where …] [group by …] [order by …]`, for a
 * statement that records the movements of rows it has just made (or reads): `values` gives each
 * column's SQL expression over `from` (columns left out take their default: null, '' for the note,
 * the transaction's time for `at`; `clock_timestamp()` gives each row its own moment).
 */
export function movementsInsert(source: MovementsSource): string {
  return insertText(source);
}

/**
 * movementsInsert for a bulk load that writes each movement's stock after it (`stockAfter`, an SQL
 * expression) itself, run only while the ledger's trigger (stock_movements_apply) is disabled, on a
 * database nobody else uses yet: the benchmark's loader (bench/load-data.ts) and nothing else. The
 * app never writes stock_after; the loader checks the ledger afterwards (checkLedger).
 */
export function bulkLoadMovementsInsert(source: MovementsSource & { stockAfter: string }): string {
  return insertText(source, { stock_after: source.stockAfter });
}
