import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { CsvValue } from '../../../shared/csv';
import type { LocationName } from '../../../shared/locations';
import type { OrderLot } from '../../../shared/lots';
import { centsNumber, centsText, refundDue, toCents } from '../../../shared/money';
import { ORDER_CSV_HEADER, type Order, type OrderQuery } from '../../../shared/orders';
import type { Role } from '../../../shared/roles';
import { saleNumberLabel } from '../../../shared/sales';
import { type Database, type Db, type Runner, runnerOf, statementOf, type Tx } from '../../db/connection';
import { orders, orderTotals, products } from '../../db/schema';
import { type CsvBatch, type CsvWriter, exactTime, nextNewest, olderThan } from '../../lib/csv-stream';
import type { JsonBatch } from '../../lib/json-stream';
import { matchesSearch } from '../../lib/search';
import type { ZonedClock } from '../../lib/zoned-time';
import { postReturn } from '../accounting/journal';
import { locationFor } from '../locations/location-for';
import { orderLots } from '../lots/lots.repository';
import type { PlacedRow } from '../sales/sales.repository';
import { type SaleRefusal, type SellContext, sellCart } from '../sales/sell';
import { recordMovements } from '../stock/movements';

/**
 * An order as answered, with the lots it took its units from (orderLots; [] without lots) and
 * where they left from (`location`, DESIGN §17; see locationNames).
 */
export const toOrder = (row: OrderRow, lots: OrderLot[], location?: LocationName): Order => ({
  _id: row.id,
  user: { _id: row.userId, name: row.userName, address: row.userAddress },
  product: { _id: row.productId, name: row.productName, category: { name: row.categoryName } },
  quantity: row.quantity,
  unitPrice: Number(row.unitPrice),
  unitCost: row.unitCost === null ? null : Number(row.unitCost),
  totalPrice: Number(row.totalPrice),
  discount: Number(row.discount),
  tax: Number(row.tax),
  taxRate:
    row.taxRateName === null || row.taxRate === null
      ? null
      : { name: row.taxRateName, rate: Number(row.taxRate) },
  netTotal: centsNumber(toCents(row.totalPrice) - toCents(row.tax)),
  returnedTotal: Number(row.returnedTotal),
  orderDate: new Date(row.orderDate).toISOString(),
  status: row.status === 'returned' ? 'returned' : 'placed',
  returnedQuantity: row.returnedQuantity,
  sale: row.saleId === null ? null : { _id: row.saleId, number: Number(row.saleNumber) },
  customer: row.customerName === null ? null : { _id: row.customerId, name: row.customerName },
  lots,
  ...(location ? { location } : {}),
});

/** The locations these ids name, by id (DESIGN §17): one statement, over the few locations a store has. */
export async function locationNames(
  runner: Pick<Runner, 'query'>,
  ids: readonly string[],
): Promise<Map<string, LocationName>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await runner.query<{ id: string; name: string }>(
    'select id, name from locations where id = any($1::uuid[])',
    [unique],
  );
  return new Map(rows.map((row) => [row.id, { _id: row.id, name: row.name }]));
}

/** Orders as answered, with their lots (orderLots) and locations (locationNames), a statement each. */
export async function withLots(runner: Runner, rows: readonly OrderRow[]): Promise<Order[]> {
  const [lots, locations] = await Promise.all([
    orderLots(
      runner,
      rows.map((row) => row.id),
    ),
    locationNames(
      runner,
      rows.map((row) => row.locationId),
    ),
  ]);
  return rows.map((row) => toOrder(row, lots.get(row.id) ?? [], locations.get(row.locationId)));
}

export type OrderRow = typeof orders.$inferSelect;

/** A row as the raw statements answer it (snake_case), turned into the Drizzle row shape. */
const fromRaw = (row: PlacedRow): OrderRow => ({
  id: row.id,
  userId: row.user_id,
  productId: row.product_id,
  quantity: row.quantity,
  unitPrice: row.unit_price,
  unitCost: row.unit_cost,
  totalPrice: String(row.total_price),
  discount: String(row.discount),
  tax: String(row.tax),
  taxRateName: row.tax_rate_name,
  taxRate: row.tax_rate === null ? null : String(row.tax_rate),
  returnedTotal: String(row.returned_total),
  returnedTax: String(row.returned_tax),
  returnedDiscount: String(row.returned_discount),
  returnedCost: String(row.returned_cost),
  locationId: row.location_id,
  productName: row.product_name,
  categoryName: row.category_name,
  userName: row.user_name,
  userAddress: row.user_address,
  orderDate: new Date(row.order_date),
  status: row.status,
  returnedQuantity: row.returned_quantity,
  saleId: row.sale_id,
  saleNumber: row.sale_number === null ? null : Number(row.sale_number),
  saleLine: row.sale_line,
  customerId: row.customer_id,
  customerName: row.customer_name,
});

/** The order placed and the buyer's role (which decides whether the answer shows the cost). */
export type Placed = { order: Order; callerRole: Role } | { order: undefined; refused: SaleRefusal };

/**
 * Places a catalogue order as a one-line sale (DESIGN §16: one way to sell), for the signed-in
 * buyer, in the caller's transaction: the same path as the counter (sellCart, decision 0027), so
 * it is priced and taxed by the shared computation on the database's own price and rate, its
 * product locked as it is read, its receipt number drawn only when it goes ahead, and its stock
 * taken through the ledger. Payment `other`, no customer, no discount.
 */
export async function placeOrder(
  context: SellContext,
  tx: Tx,
  order: { productId: string; quantity: number },
): Promise<Placed> {
  const sold = await sellCart(context, tx, {
    lines: [{ productId: order.productId, quantity: order.quantity }],
    customerId: null,
    payment: { method: 'other', tendered: null },
  });
  if ('reason' in sold) return { order: undefined, refused: sold };
  const [row] = sold.orders;
  if (!row) throw new Error('a one-line sale has its order');
  return {
    order: toOrder(fromRaw(row), sold.lots.get(row.id) ?? [], sold.location),
    callerRole: sold.sellerRole,
  };
}

/** An order's figures as taking units back reads them, under its row lock (money as exact text). */
export type LockedOrder = {
  id: string;
  saleId: string | null;
  productId: string | null;
  productName: string;
  quantity: number;
  returned: number;
  total: string;
  tax: string;
  discount: string;
  returnedTotal: string;
  returnedTax: string;
  returnedDiscount: string;
  /** Where the order's units left from: where they go back unless told otherwise (DESIGN §17). */
  locationId: string;
};

/**
 * Locks orders to take units back of them, in order id order, so two returns or refunds naming
 * the same orders wait in line, never in a circle; then their products, in product id order, as a
 * sale takes them (decisions 0015, 0016), before anything is written: the orders' counters and the
 * stock movements that follow then never wait on a sale that waits on them. `saleId`: only that
 * sale's orders are found. Answers the orders found, in id order.
 */
export async function lockOrders(tx: Tx, ids: readonly string[], saleId?: string): Promise<LockedOrder[]> {
  if (ids.length === 0) return [];
  const locked = await tx
    .select({
      id: orders.id,
      saleId: orders.saleId,
      productId: orders.productId,
      productName: orders.productName,
      quantity: orders.quantity,
      returned: orders.returnedQuantity,
      total: sql<string>`${orders.totalPrice}::text`,
      tax: sql<string>`${orders.tax}::text`,
      returnedTotal: sql<string>`${orders.returnedTotal}::text`,
      returnedTax: sql<string>`${orders.returnedTax}::text`,
      discount: sql<string>`${orders.discount}::text`,
      returnedDiscount: sql<string>`${orders.returnedDiscount}::text`,
      locationId: orders.locationId,
    })
    .from(orders)
    .where(and(inArray(orders.id, [...ids]), saleId === undefined ? undefined : eq(orders.saleId, saleId)))
    .orderBy(asc(orders.id))
    .for('update');
  const productIds = [...new Set(locked.flatMap((order) => (order.productId ? [order.productId] : [])))];
  if (productIds.length > 0)
    await tx.execute(sql`select id from ${products} where id in ${productIds} order by id for update`);
  return locked;
}

/**
 * What taking `quantity` units back of an order gives back (DESIGN §8, §12, §13): the one rule
 * for a return and a refund at the counter. Units returned brought to Q give back
 * round(total × Q / quantity) − what was given back so far (refundDue), the tax likewise, so the
 * last unit takes what is left and every unit back gives back exactly what was paid. The units take
 * their share of the line's discount with them by the same rule (`discount`), so the reports count
 * discounts net of returns as they count money (DESIGN §10).
 * `tooMany`: more than what remains was asked (how many remain).
 */
export function dueOnReturn(
  order: LockedOrder,
  quantity: number,
): { amount: bigint; tax: bigint; discount: bigint } | { tooMany: number } {
  const after = order.returned + quantity;
  if (after > order.quantity) return { tooMany: order.quantity - order.returned };
  return {
    amount: refundDue(toCents(order.total), order.quantity, after, toCents(order.returnedTotal)),
    tax: refundDue(toCents(order.tax), order.quantity, after, toCents(order.returnedTax)),
    discount: refundDue(toCents(order.discount), order.quantity, after, toCents(order.returnedDiscount)),
  };
}

/**
 * DESIGN §10, §19: what the `return` movements of each order named brought back into stock so far
 * (cents; every lot's part, which the ledger's trigger writes one level down), or only those of
 * one refund. Read before and after a return's movements are recorded, it tells what they brought,
 * which takeBack adds to the order's returned_cost (order_cost.sql).
 */
export async function valueBroughtBack(
  run: Pick<Runner, 'query'>,
  orderIds: readonly string[],
  refundId?: string,
): Promise<Map<string, bigint>> {
  const rows = await run.query<{ order_id: string; value: string }>(
    `select order_id, coalesce(sum(value), 0)::text as value from stock_movements
     where order_id = any($1::uuid[]) and kind = 'return' and ($2::uuid is null or refund_id = $2::uuid)
     group by order_id`,
    [[...orderIds], refundId ?? null],
  );
  return new Map(rows.map((row) => [row.order_id, toCents(row.value)]));
}

/**
 * Takes `quantity` units back of an order locked by lockOrders, once the return's movements are
 * recorded: the returned quantity grows (never past the quantity, also checked in the update
 * itself), the status follows, and the money, tax and discount given back (dueOnReturn) and the
 * value the movements brought back into stock (`valueBack`, cents: valueBroughtBack) are written
 * in the same update as the quantity, so the orders' figures (orders_figures_counted.sql) count the
 * return's cost as the books do. Stock is the caller's: each writes its own movements first.
 */
export async function takeBack(
  tx: Tx,
  order: LockedOrder,
  quantity: number,
  valueBack: bigint,
): Promise<{ order: OrderRow; amount: bigint; tax: bigint; discount: bigint } | { tooMany: number }> {
  const due = dueOnReturn(order, quantity);
  if ('tooMany' in due) return due;
  const [updated] = await tx
    .update(orders)
    .set({
      returnedQuantity: sql`${orders.returnedQuantity} + ${quantity}`,
      returnedTotal: sql`${orders.returnedTotal} + ${centsText(due.amount)}::numeric`,
      returnedTax: sql`${orders.returnedTax} + ${centsText(due.tax)}::numeric`,
      returnedDiscount: sql`${orders.returnedDiscount} + ${centsText(due.discount)}::numeric`,
      returnedCost: sql`${orders.returnedCost} + ${centsText(valueBack)}::numeric`,
      status: sql`case when ${orders.returnedQuantity} + ${quantity} = ${orders.quantity} then 'returned' else 'placed' end`,
    })
    .where(and(eq(orders.id, order.id), sql`${orders.returnedQuantity} + ${quantity} <= ${orders.quantity}`))
    .returning();
  if (!updated) return { tooMany: order.quantity - order.returned };
  return { order: updated, ...due };
}

/**
 * Takes back part or all of an order (DESIGN §8, §12): the order's row is locked, the units go
 * back to stock by a `return` movement naming the order, and takeBack gives back its units, money
 * and the value they brought back by the shared rule. The dashboard's counters follow through the
 * orders trigger (src/server/db/functions/orders_figures_counted.sql). Undefined when the order
 * does not exist; `tooMany` when more than what remains was asked.
 */
export async function returnOrder(
  tx: Tx,
  input: {
    orderId: string;
    quantity: number;
    reason?: string;
    actor: { id: string; name: string };
    /** Where the units go back (DESIGN §17); undefined: where they left from. */
    locationId?: string;
  },
): Promise<{ order: OrderRow; refunded: bigint; location: LocationName } | { tooMany: number } | undefined> {
  const [locked] = await lockOrders(tx, [input.orderId]);
  if (!locked) return undefined;
  // Resolved after the locks (products first, as every writer): a named one unknown is a 404; an
  // inactive one, named or the origin, a 409 (an inactive location holds nothing: name another).
  const place = await locationFor(runnerOf(tx), input.locationId ?? locked.locationId);
  const due = dueOnReturn(locked, input.quantity);
  if ('tooMany' in due) return due;
  // A product deleted since the sale has no stock to take the units back into.
  let valueBack = 0n;
  if (locked.productId) {
    const before = (await valueBroughtBack(runnerOf(tx), [locked.id])).get(locked.id) ?? 0n;
    await recordMovements(runnerOf(tx), [
      {
        productId: locked.productId,
        kind: 'return',
        quantity: input.quantity,
        reason: 'returned',
        note: input.reason ?? '',
        actor: input.actor,
        orderId: locked.id,
        locationId: place.id,
      },
    ]);
    valueBack = ((await valueBroughtBack(runnerOf(tx), [locked.id])).get(locked.id) ?? 0n) - before;
  }
  const taken = await takeBack(tx, locked, input.quantity, valueBack);
  // The row is locked and was checked just above: a refusal here is a fault, not a race.
  if ('tooMany' in taken) throw new Error('a locked order changed under its lock');
  const updated = taken.order;
  // DESIGN §19: its entry (it has no row of its own to post it), in the same transaction.
  await postReturn(runnerOf(tx), updated.id, { total: taken.amount, tax: taken.tax }, input.actor);
  return { order: updated, refunded: taken.amount, location: { _id: place.id, name: place.name } };
}

type OrderFilter = { userId?: string; search?: string; sort?: OrderQuery['sort'] };

/** The conditions and order of an orders list: one user's (userId) or every user's, and the search. */
function orderFilter(query: OrderFilter) {
  const search = matchesSearch(query.search, [orders.productName, orders.userName]);
  const where = and(query.userId ? eq(orders.userId, query.userId) : undefined, search);
  const ascending = query.sort === 'date';
  const order = ascending
    ? [asc(orders.orderDate), asc(orders.id)]
    : [desc(orders.orderDate), desc(orders.id)];
  return { where, order, ascending };
}

/**
 * One page of orders, newest first unless asked otherwise; every user's when userId is undefined;
 * each with its lots (one statement for the page).
 */
export async function orderPage(
  database: Database,
  query: OrderFilter,
  window: { limit: number; offset: number },
): Promise<{ orders: Order[]; total: number }> {
  const { where, order } = orderFilter(query);
  const rows = await database.db
    .select()
    .from(orders)
    .where(where)
    .orderBy(...order)
    .limit(window.limit)
    .offset(window.offset);
  return { orders: await withLots(database, rows), total: await countOrders(database.db, where) };
}

/**
 * One batch of the unpaged orders list after `after`, in the list's order, read by keyset on
 * (order_date, id) like the CSV (the cursor keeps the date's microseconds), with the batch's lots
 * in one more statement. The route streams the
 * batches (sendJsonList); `shown` turns each order into what the caller may see.
 */
export async function orderJsonBatch(
  database: Database,
  query: OrderFilter,
  after: OrderCursor | undefined,
  size: number,
  shown: (order: Order) => Order,
): Promise<JsonBatch<OrderCursor>> {
  const { where, order, ascending } = orderFilter(query);
  const past = after
    ? ascending
      ? sql`(${orders.orderDate}, ${orders.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
      : olderThan(orders.orderDate, orders.id, after)
    : undefined;
  const rows = await database.db
    .select({ order: orders, at: exactTime(orders.orderDate) })
    .from(orders)
    .where(and(where, past))
    .orderBy(...order)
    .limit(size);
  const answered = await withLots(
    database,
    rows.map((row) => row.order),
  );
  return {
    items: answered.map((order) => JSON.stringify(shown(order))),
    next: nextNewest(rows, size, (row) => ({ at: row.at, id: row.order.id })),
  };
}

/** Where an orders export stopped: the last row's date as the database wrote it (microseconds), and id. */
export type OrderCursor = { at: string; id: string };

/**
 * The columns of ORDER_CSV_HEADER, in its order (money as plain numbers; the date as milliseconds
 * and the sale's number, which the batch writes as the exports write times and as receipts show
 * them), then the cursor: the date as text.
 */
const ORDER_CSV_COLUMNS = sql`${orders.id},
  (extract(epoch from ${orders.orderDate}) * 1000)::float8, ${orders.productName},
  ${orders.categoryName}, ${orders.userName}, ${orders.quantity}, ${orders.unitPrice}::float8,
  ${orders.unitCost}::float8, ${orders.totalPrice}::float8, ${orders.discount}::float8, ${orders.tax}::float8,
  case when ${orders.taxRateName} is not null
    then ${orders.taxRateName} || ' ' || trim_scale(${orders.taxRate})::text || '%' end,
  (${orders.totalPrice} - ${orders.tax})::float8, ${orders.returnedQuantity}, ${orders.returnedTotal}::float8,
  ${orders.status}, ${orders.saleNumber}, ${orders.customerName}, ${orders.orderDate}::text`;

const SALE_NUMBER_COLUMN = ORDER_CSV_HEADER.indexOf('sale number');

/**
 * One batch of the orders CSV (ORDER_CSV_HEADER) after `after`, in the list's order: the same
 * filters as listOrders, read by keyset on (order_date, id), which the list's indexes serve. Each
 * row goes to `out` as it arrives (a million orders pass through here). The cursor keeps the
 * date's microseconds: orders that share the last row's millisecond are not skipped. `pick` keeps
 * the columns the caller may see.
 */
export async function orderCsvBatch(
  database: Database,
  query: { userId?: string; search?: string; sort?: OrderQuery['sort'] },
  clock: ZonedClock,
  after: OrderCursor | undefined,
  size: number,
  out: CsvWriter,
  pick: (row: CsvValue[]) => CsvValue[] = (row) => row,
): Promise<CsvBatch<OrderCursor>> {
  const ascending = query.sort === 'date';
  const past = after
    ? ascending
      ? sql`(${orders.orderDate}, ${orders.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
      : sql`(${orders.orderDate}, ${orders.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
    : undefined;
  const where = and(
    query.userId ? eq(orders.userId, query.userId) : undefined,
    matchesSearch(query.search, [orders.productName, orders.userName]),
    past,
  );
  const direction = sql.raw(ascending ? 'asc' : 'desc');
  let last: OrderCursor | undefined;
  const count = await database.eachRow(
    ...statementOf(
      sql`select ${ORDER_CSV_COLUMNS} from ${orders} ${where ? sql`where ${where}` : sql``}
          order by ${orders.orderDate} ${direction}, ${orders.id} ${direction} limit ${size}`,
    ),
    (row) => {
      last = { at: String(row[ORDER_CSV_HEADER.length]), id: String(row[0]) };
      // The cursor is not a column of the CSV.
      row.length = ORDER_CSV_HEADER.length;
      row[1] = clock(Number(row[1]));
      row[SALE_NUMBER_COLUMN] =
        row[SALE_NUMBER_COLUMN] === null ? null : saleNumberLabel(Number(row[SALE_NUMBER_COLUMN]));
      out.row(pick(row as CsvValue[]));
    },
  );
  return { rows: [], next: count === size ? last : undefined };
}

/** Every order is counted by the striped totals (kept by a trigger); a filtered list counts its rows. */
async function countOrders(db: Db, where: ReturnType<typeof and>): Promise<number> {
  if (!where) {
    const [row] = await db
      .select({ n: sql<string>`coalesce(sum(${orderTotals.orders}), 0)` })
      .from(orderTotals);
    return Number(row?.n ?? 0);
  }
  const [row] = await db.select({ n: count() }).from(orders).where(where);
  return row?.n ?? 0;
}
