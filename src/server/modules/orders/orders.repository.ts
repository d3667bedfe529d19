import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Order, OrderQuery } from '../../../shared/orders';
import { pageWindow } from '../../../shared/paging';
import type { Db } from '../../db/connection';
import { orders, orderTotals } from '../../db/schema';
import { type SignedInRunner, signedInStatement } from '../../lib/auth';
import { matchesSearch } from '../../lib/search';

const toOrder = (row: typeof orders.$inferSelect): Order => ({
  _id: row.id,
  user: { _id: row.userId, name: row.userName, address: row.userAddress },
  product: { _id: row.productId, name: row.productName, category: { name: row.categoryName } },
  quantity: row.quantity,
  unitPrice: Number(row.unitPrice),
  totalPrice: Number(row.totalPrice),
  orderDate: new Date(row.orderDate).toISOString(),
});

type PlacedRow = {
  id: string | null;
  user_id: string | null;
  product_id: string | null;
  quantity: number;
  unit_price: string;
  total_price: string;
  product_name: string;
  category_name: string;
  user_name: string;
  user_address: string;
  order_date: string | Date;
  product_found: boolean | null;
};

/**
 * Takes the stock and records the order in one statement, for the signed-in buyer.
 *
 * - The buyer is `signed_in_user` (see signedInStatement): the order goes ahead only while the
 *   token's user exists with its version and an allowed role.
 * - The conditional update only succeeds while enough stock is left, so concurrent orders can
 *   never take it below zero, and the order row exists exactly when the stock was taken.
 * - The price comes from the database, never the client.
 * - It always answers one row: the order, or whether the product exists, so a refusal costs no
 *   second round trip.
 *
 * $1 product, $2 quantity.
 */
const PLACE_ORDER = signedInStatement('orders_place', {
  with: `taken as (
     update products set stock = stock - $2::int
     where id = $1::uuid and stock >= $2::int and exists (select 1 from signed_in_user)
     returning id, name, price, category_id
   ), placed as (
     insert into orders (user_id, product_id, quantity, unit_price, total_price,
                         product_name, category_name, user_name, user_address)
     select buyer.id, taken.id, $2::int, taken.price, taken.price * $2::int,
            taken.name, categories.name, buyer.name, buyer.address
     from taken join categories on categories.id = taken.category_id cross join signed_in_user buyer
     returning *
   )`,
  select: `select placed.*,
          case when placed.id is null then exists(select 1 from products where id = $1::uuid) end as product_found
   from (select) as one left join placed on true`,
});

export type Placed = { order: Order } | { order: undefined; productFound: boolean };

/** Places the order for the runner's signed-in buyer (the runner throws 401/403). */
export async function placeOrder(
  run: SignedInRunner,
  order: { productId: string; quantity: number },
): Promise<Placed> {
  const [row] = await run<PlacedRow>(PLACE_ORDER, [order.productId, order.quantity]);
  if (!row?.id) return { order: undefined, productFound: row?.product_found === true };
  return {
    order: toOrder({
      id: row.id,
      userId: row.user_id,
      productId: row.product_id,
      quantity: row.quantity,
      unitPrice: row.unit_price,
      totalPrice: row.total_price,
      productName: row.product_name,
      categoryName: row.category_name,
      userName: row.user_name,
      userAddress: row.user_address,
      orderDate: new Date(row.order_date),
    }),
  };
}

/** Newest first unless asked otherwise; every user's orders when userId is undefined. */
export async function listOrders(
  db: Db,
  query: { userId?: string; search?: string; sort?: OrderQuery['sort']; page?: number; pageSize?: number },
): Promise<{ orders: Order[]; total: number }> {
  const search = matchesSearch(query.search, [orders.productName, orders.userName]);
  const where = and(query.userId ? eq(orders.userId, query.userId) : undefined, search);
  const order =
    query.sort === 'date'
      ? [asc(orders.orderDate), asc(orders.id)]
      : [desc(orders.orderDate), desc(orders.id)];
  const window = pageWindow(query);
  const listed = db
    .select()
    .from(orders)
    .where(where)
    .orderBy(...order);
  const rows = await (window ? listed.limit(window.limit).offset(window.offset) : listed);
  if (!window) return { orders: rows.map(toOrder), total: rows.length };
  return { orders: rows.map(toOrder), total: await countOrders(db, where) };
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
