import { and, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { purchaseOrderNumber } from '../../../shared/purchasing';
import type { AdjustmentReason, Movement, MovementKind } from '../../../shared/stock';
import type { Db, Tx } from '../../db/connection';
import { orders, products, purchaseOrders, stockMovements } from '../../db/schema';
import { type CsvBatch, exactTime, type NewestCursor, nextNewest, olderThan } from '../../lib/csv-stream';
import { rowsOf } from '../../lib/sql';
import type { ZonedClock } from '../../lib/zoned-time';

export type MovementRow = typeof stockMovements.$inferSelect;

/**
 * A receipt's row carries its purchase order's number, a sale's row its sale and receipt number
 * (see movementPage).
 */
export const toMovement = (
  row: MovementRow & {
    purchaseOrderNumber?: number | null;
    saleId?: string | null;
    saleNumber?: number | null;
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
});

export type MovementInput = {
  productId: string;
  quantity: number;
  reason?: AdjustmentReason;
  note: string;
  actor: { id: string; name: string };
};

/**
 * Appends one movement; the ledger's trigger applies it to the product's stock (or refuses it:
 * IMS01 below zero, IMS02 no such product) and fills in the stock after it.
 */
async function appendMovement(tx: Tx, kind: MovementKind, input: MovementInput): Promise<MovementRow> {
  const [row] = await tx
    .insert(stockMovements)
    .values({
      productId: input.productId,
      kind,
      quantity: input.quantity,
      reason: input.reason ?? null,
      note: input.note,
      userId: input.actor.id,
      userName: input.actor.name,
    })
    .returning();
  return row as MovementRow;
}

/** A signed adjustment with its reason (DESIGN §8). */
export function adjustStock(tx: Tx, input: MovementInput & { reason: AdjustmentReason }) {
  return appendMovement(tx, 'adjustment', input);
}

/**
 * A count: the stock becomes what was counted, as a movement of the difference (zero too). The
 * product's row is locked first, so no sale slips between reading the stock and setting it.
 * Undefined when the product does not exist.
 */
export async function countStock(
  tx: Tx,
  input: Omit<MovementInput, 'quantity'> & { counted: number },
): Promise<MovementRow | undefined> {
  const [product] = await tx
    .select({ stock: products.stock })
    .from(products)
    .where(eq(products.id, input.productId))
    .for('update');
  if (!product) return undefined;
  return appendMovement(tx, 'count', { ...input, quantity: input.counted - product.stock });
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
      })
      .from(stockMovements)
      .leftJoin(purchaseOrders, eq(purchaseOrders.id, stockMovements.purchaseOrderId))
      .leftJoin(orders, eq(orders.id, stockMovements.orderId))
      .where(eq(stockMovements.productId, productId))
      .orderBy(desc(stockMovements.at), desc(stockMovements.id))
      .limit(window.limit)
      .offset(window.offset),
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
      cursorAt: exactTime(stockMovements.at),
    })
    .from(stockMovements)
    .leftJoin(purchaseOrders, eq(purchaseOrders.id, stockMovements.purchaseOrderId))
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
    ]),
    next: nextNewest(rows, size, (row) => ({ at: row.cursorAt, id: row.id })),
  };
}

/**
 * Every product whose stock differs from the sum of its movements. The triggers of migration
 * 0010 make this impossible; the check proves it, and would show a database changed behind them.
 */
export async function stockCheck(db: Db): Promise<{
  checked: number;
  mismatches: Array<{ id: string; name: string; stock: number; ledger: number }>;
}> {
  const result = await db.execute(sql`
    with ledger as (
      select product_id, sum(quantity)::bigint as total from ${stockMovements} group by product_id
    ), compared as (
      select p.id, p.name, p.stock, coalesce(l.total, 0) as ledger
      from ${products} p left join ledger l on l.product_id = p.id
    )
    select count(*)::int as checked,
           coalesce(json_agg(json_build_object('id', id, 'name', name, 'stock', stock, 'ledger', ledger)
                             order by lower(name), id) filter (where stock <> ledger), '[]'::json) as mismatches
    from compared`);
  const [row] = rowsOf<{
    checked: number;
    mismatches: Array<{ id: string; name: string; stock: number; ledger: number }> | string;
  }>(result);
  const mismatches =
    typeof row?.mismatches === 'string' ? JSON.parse(row.mismatches) : (row?.mismatches ?? []);
  return { checked: row?.checked ?? 0, mismatches };
}
