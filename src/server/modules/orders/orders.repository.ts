import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Order, OrderQuery } from '../../../shared/orders';
import { pageWindow } from '../../../shared/paging';
import { type Database, type Db, statement } from '../../db/connection';
import { orders, orderTotals } from '../../db/schema';
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
  signed_in: boolean | null;
  permitted: boolean | null;
  product_found: boolean | null;
};

/**
 * Checks the buyer, takes the stock and records the order in one statement.
 *
 * - The buyer is the token's user, read here rather than in a statement of its own: the order
 *   goes ahead only while that user exists with the token's version and an allowed role, so a
 *   deleted user or an old token is refused at once, as on every other route.
 * - The conditional update only succeeds while enough stock is left, so concurrent orders can
 *   never take it below zero, and the order row exists exactly when the stock was taken.
 * - The price comes from the database, never the client.
 * - It always answers one row: the order, or which check failed, so a refusal costs no second
 *   round trip.
 *
 * $1 product, $2 quantity, $3 the token's user, $4 its token version, $5 the allowed roles.
 */
const PLACE_ORDER = statement(
  'orders_place',
  `with me as (
     select id, name, address, role, token_version from users where id = $3::uuid
   ), buyer as (
     select id, name, address from me where token_version = $4::int and role = any($5::text[])
   ), taken as (
     update products set stock = stock - $2::int
     where id = $1::uuid and stock >= $2::int and exists (select 1 from buyer)
     returning id, name, price, category_id
   ), placed as (
     insert into orders (user_id, product_id, quantity, unit_price, total_price,
                         product_name, category_name, user_name, user_address)
     select buyer.id, taken.id, $2::int, taken.price, taken.price * $2::int,
            taken.name, categories.name, buyer.name, buyer.address
     from taken join categories on categories.id = taken.category_id cross join buyer
     returning *
   )
   select placed.*,
          (select token_version = $4::int from me) as signed_in,
          (select role = any($5::text[]) from me) as permitted,
          case when placed.id is null then exists(select 1 from products where id = $1::uuid) end as product_found
   from (select) as one left join placed on true`,
);

export type Placed =
  | { order: Order }
  | { order: undefined; signedIn: boolean; permitted: boolean; productFound: boolean };

export async function placeOrder(
  database: Database,
  order: {
    productId: string;
    quantity: number;
    buyer: { userId: string; tokenVersion: number; roles: readonly string[] };
  },
): Promise<Placed> {
  const { productId, quantity, buyer } = order;
  const [row] = await database.run<PlacedRow>(PLACE_ORDER, [
    productId,
    quantity,
    buyer.userId,
    buyer.tokenVersion,
    buyer.roles,
  ]);
  if (!row?.id) {
    return {
      order: undefined,
      signedIn: row?.signed_in === true,
      permitted: row?.permitted === true,
      productFound: row?.product_found === true,
    };
  }
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
