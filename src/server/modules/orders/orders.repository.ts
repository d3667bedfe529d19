import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { CsvValue } from '../../../shared/csv';
import { ORDER_CSV_HEADER, type Order, type OrderQuery } from '../../../shared/orders';
import type { Role } from '../../../shared/roles';
import { saleNumberLabel } from '../../../shared/sales';
import { type Database, type Db, statementOf, type Tx } from '../../db/connection';
import { orders, orderTotals, stockMovements } from '../../db/schema';
import { type SignedInRunner, signedInStatement } from '../../lib/auth';
import { type CsvBatch, type CsvWriter, exactTime, nextNewest, olderThan } from '../../lib/csv-stream';
import { pgCode } from '../../lib/errors';
import type { JsonBatch } from '../../lib/json-stream';
import { matchesSearch } from '../../lib/search';
import type { ZonedClock } from '../../lib/zoned-time';

export const toOrder = (row: OrderRow): Order => ({
  _id: row.id,
  user: { _id: row.userId, name: row.userName, address: row.userAddress },
  product: { _id: row.productId, name: row.productName, category: { name: row.categoryName } },
  quantity: row.quantity,
  unitPrice: Number(row.unitPrice),
  unitCost: row.unitCost === null ? null : Number(row.unitCost),
  totalPrice: Number(row.totalPrice),
  orderDate: new Date(row.orderDate).toISOString(),
  status: row.status === 'returned' ? 'returned' : 'placed',
  returnedQuantity: row.returnedQuantity,
  sale: row.saleId === null ? null : { _id: row.saleId, number: Number(row.saleNumber) },
  customer: row.customerName === null ? null : { _id: row.customerId, name: row.customerName },
});

// The money columns of DESIGN §12 join the answer with the sales that write them.
type OrderRow = Omit<
  typeof orders.$inferSelect,
  'discount' | 'tax' | 'taxRateName' | 'taxRate' | 'returnedTotal' | 'returnedTax'
>;

/** A row as the raw statements answer it (snake_case), turned into the Drizzle row shape. */
type RawOrderRow = {
  id: string;
  user_id: string | null;
  product_id: string | null;
  quantity: number;
  unit_price: string;
  unit_cost: string | null;
  total_price: string;
  product_name: string;
  category_name: string;
  user_name: string;
  user_address: string;
  order_date: string | Date;
  status: string;
  returned_quantity: number;
  sale_id: string | null;
  sale_number: string | number | null;
  sale_line: number | null;
  customer_id: string | null;
  customer_name: string | null;
};

const fromRaw = (row: RawOrderRow): OrderRow => ({
  id: row.id,
  userId: row.user_id,
  productId: row.product_id,
  quantity: row.quantity,
  unitPrice: row.unit_price,
  unitCost: row.unit_cost,
  totalPrice: row.total_price,
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

/**
 * Records the order as a one-line sale (DESIGN §16: one way to sell) and takes its stock in one
 * statement, for the signed-in buyer.
 *
 * - The buyer is `signed_in_user` (see signedInStatement): the order goes ahead only while the
 *   token's user exists with its version and an allowed role.
 * - The product is locked as it is read (as a counter sale locks its products, decision 0016):
 *   the stock checked is the stock taken, so a refusal writes nothing and draws no receipt
 *   number, and the counters are reached holding the product, in the same order as a sale.
 * - The sale row (receipt number from `sale_number_seq`, the same numbering as the counter;
 *   payment `other`, no customer) is written only when the stock suffices; the order is its line
 *   1 with the sale's time, and its `sale` movement takes the stock through the ledger's trigger
 *   (migration 0010) in one conditional update that never goes below zero. Should the trigger
 *   refuse it anyway (IMS01), the whole statement is undone, sale row included.
 * - The price and the cost (for margins) come from the database, never the client.
 * - It always answers one row: the order, or whether the product exists, so a refusal costs no
 *   second round trip.
 *
 * $1 product, $2 quantity.
 */
const PLACE_ORDER = signedInStatement('orders_place', {
  with: `product as materialized (
     select p.id, p.name, p.price, p.cost, p.stock, c.name as category_name
     from products p join categories c on c.id = p.category_id
     where p.id = $1::uuid
     for update of p
   ), sale as (
     insert into sales (user_id, user_name, payment_method, total, created_at)
     select buyer.id, buyer.name, 'other', product.price * $2::int, clock_timestamp()
     from product cross join signed_in_user buyer
     where product.stock >= $2::int
     returning id, number, user_id, user_name, created_at
   ), placed as (
     insert into orders (user_id, product_id, quantity, unit_price, unit_cost, total_price,
                         product_name, category_name, user_name, user_address,
                         sale_id, sale_number, sale_line, order_date)
     select sale.user_id, product.id, $2::int, product.price, product.cost, product.price * $2::int,
            product.name, product.category_name, sale.user_name, buyer.address,
            sale.id, sale.number, 1, sale.created_at
     from sale cross join product cross join signed_in_user buyer
     returning *
   ), sold as (
     insert into stock_movements (product_id, kind, quantity, user_id, user_name, order_id)
     select product_id, 'sale', -quantity, user_id, user_name, id from placed
   )`,
  select: `select placed.*,
          case when placed.id is null then exists(select 1 from product) end as product_found,
          (select role from signed_in_user) as caller_role
   from (select) as one left join placed on true`,
});

/** The order placed and the buyer's role (which decides whether the answer shows the cost). */
export type Placed = { order: Order; callerRole: Role } | { order: undefined; productFound: boolean };

/** Places the order for the runner's signed-in buyer (the runner throws 401/403). */
export async function placeOrder(
  run: SignedInRunner,
  order: { productId: string; quantity: number },
): Promise<Placed> {
  let row: (RawOrderRow & { product_found: boolean | null; caller_role: Role }) | undefined;
  try {
    [row] = await run<RawOrderRow & { product_found: boolean | null; caller_role: Role }>(PLACE_ORDER, [
      order.productId,
      order.quantity,
    ]);
  } catch (error) {
    // Sold out between reading the stock and taking it: a refusal like any other.
    if (pgCode(error) === 'IMS01') return { order: undefined, productFound: true };
    throw error;
  }
  if (!row?.id) return { order: undefined, productFound: row?.product_found === true };
  return { order: toOrder(fromRaw(row)), callerRole: row.caller_role };
}

/**
 * Takes back part or all of an order (DESIGN §8): the order's returned quantity grows (never past
 * its quantity: the update is conditional, so racing returns cannot give back more than was
 * sold), its status follows, and the units go back to stock by a `return` movement naming the
 * order. The dashboard's counters follow through the orders trigger of migration 0010.
 * Undefined when the order does not exist; `tooMany` when more than what remains was asked.
 */
export async function returnOrder(
  tx: Tx,
  input: { orderId: string; quantity: number; reason?: string; actor: { id: string; name: string } },
): Promise<{ order: OrderRow } | { tooMany: number } | undefined> {
  const [updated] = await tx
    .update(orders)
    .set({
      returnedQuantity: sql`${orders.returnedQuantity} + ${input.quantity}`,
      // The money given back so far, pro rata and cents exact (DESIGN §12): the reports count it.
      returnedTotal: sql`round(${orders.totalPrice} * (${orders.returnedQuantity} + ${input.quantity}) / ${orders.quantity}, 2)`,
      returnedTax: sql`round(${orders.tax} * (${orders.returnedQuantity} + ${input.quantity}) / ${orders.quantity}, 2)`,
      status: sql`case when ${orders.returnedQuantity} + ${input.quantity} = ${orders.quantity} then 'returned' else 'placed' end`,
    })
    .where(
      and(
        eq(orders.id, input.orderId),
        sql`${orders.returnedQuantity} + ${input.quantity} <= ${orders.quantity}`,
      ),
    )
    .returning();
  if (!updated) {
    const [existing] = await tx
      .select({ quantity: orders.quantity, returned: orders.returnedQuantity })
      .from(orders)
      .where(eq(orders.id, input.orderId));
    return existing ? { tooMany: existing.quantity - existing.returned } : undefined;
  }
  // A product deleted since the sale has no stock to take the units back into.
  if (updated.productId) {
    await tx.insert(stockMovements).values({
      productId: updated.productId,
      kind: 'return',
      quantity: input.quantity,
      reason: 'returned',
      note: input.reason ?? '',
      userId: input.actor.id,
      userName: input.actor.name,
      orderId: updated.id,
    });
  }
  return { order: updated };
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

/** One page of orders, newest first unless asked otherwise; every user's when userId is undefined. */
export async function orderPage(
  db: Db,
  query: OrderFilter,
  window: { limit: number; offset: number },
): Promise<{ orders: Order[]; total: number }> {
  const { where, order } = orderFilter(query);
  const rows = await db
    .select()
    .from(orders)
    .where(where)
    .orderBy(...order)
    .limit(window.limit)
    .offset(window.offset);
  return { orders: rows.map(toOrder), total: await countOrders(db, where) };
}

/**
 * One batch of the unpaged orders list after `after`, in the list's order, read by keyset on
 * (order_date, id) like the CSV (the cursor keeps the date's microseconds). The route streams the
 * batches (sendJsonList); `shown` turns each order into what the caller may see.
 */
export async function orderJsonBatch(
  db: Db,
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
  const rows = await db
    .select({ order: orders, at: exactTime(orders.orderDate) })
    .from(orders)
    .where(and(where, past))
    .orderBy(...order)
    .limit(size);
  return {
    items: rows.map((row) => JSON.stringify(shown(toOrder(row.order)))),
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
  ${orders.unitCost}::float8, ${orders.totalPrice}::float8, ${orders.returnedQuantity}, ${orders.status},
  ${orders.saleNumber}, ${orders.customerName}, ${orders.orderDate}::text`;

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
      row[11] = row[11] === null ? null : saleNumberLabel(Number(row[11]));
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
