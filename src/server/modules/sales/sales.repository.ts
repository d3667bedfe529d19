import { searchWords } from '../../../shared/paging';
import { can, type Role } from '../../../shared/roles';
import { type PaymentMethod, type Sale, type SaleSummary, saleNumberSearched } from '../../../shared/sales';
import type { Runner } from '../../db/connection';
import { type SignedInRunner, signedInStatement } from '../../lib/auth';
import { likePattern } from '../../lib/search';

/** A sale's lines as the statement takes them: one per product, quantities added, in cart order. */
export type SaleLines = { productIds: string[]; quantities: number[] };

/** Lines naming the same product become one, at its first place, with the quantities added. */
export function mergeLines(lines: readonly { productId: string; quantity: number }[]): SaleLines {
  const quantities = new Map<string, number>();
  for (const { productId, quantity } of lines)
    quantities.set(productId, (quantities.get(productId) ?? 0) + quantity);
  return { productIds: [...quantities.keys()], quantities: [...quantities.values()] };
}

/**
 * Records a whole sale in one statement (DESIGN §11, decision 0015), for the signed-in seller:
 *
 * - every line is read with its product, and the products are locked in id order before anything
 *   is written (as a purchase receipt locks them): the stock read is the stock taken, and the
 *   counters the stock triggers keep are touched only once all products are held (migration
 *   0016, decision 0016), so two sales never wait on each other in a circle. The sale row is
 *   written only when every product exists, each has the stock its line takes, the customer
 *   (when named) exists and cash tendered covers the total. Otherwise nothing is written and the
 *   answer says which line or check failed.
 * - each line becomes an order (the usual snapshot, plus the sale, its number, its line and the
 *   customer) and each order a `sale` movement, in product id order. The ledger's trigger takes
 *   the stock in one conditional update per movement; should it refuse one (IMS01), the whole
 *   statement is undone: all lines or none.
 * - the receipt number is drawn from `sale_number_seq` only once the sale is sure to go ahead, so
 *   a refusal costs no number (with its products locked, the checks see the stock the ledger
 *   takes); only a transaction that fails after the draw (a crash, a deadlock's rerun) leaves a
 *   gap.
 * - prices and costs come from the database; money stays `numeric` (exact) and leaves as text.
 *
 * $1 product ids, $2 quantities (merged, see mergeLines), $3 customer id or null, $4 payment
 * method, $5 cash tendered or null.
 */
const PLACE_SALE = signedInStatement('sales_place', {
  with: `lines as materialized (
     select t.product_id, t.quantity, t.n::int as n
     from unnest($1::uuid[], $2::int[]) with ordinality as t(product_id, quantity, n)
     order by t.product_id
   ), line_state as materialized (
     -- Each line's product by its primary key (lateral: a plan made for any number of lines
     -- still reads one product per line, never the catalogue), locked in product id order
     -- before anything else is written (see above).
     select lines.*, p.id is not null as found, p.name, p.stock, p.price, p.cost, p.category_name
     from lines left join lateral (
       select p.id, p.name, p.stock, p.price, p.cost, c.name as category_name
       from products p join categories c on c.id = p.category_id
       where p.id = lines.product_id
       for update of p
     ) p on true
   ), verdict as (
     select bool_and(found and stock >= quantity) as stocked, sum(price * quantity) as total
     from line_state
   ), customer as (
     select id, name from customers where id = $3::uuid
   ), go as (
     select verdict.total, seller.id as seller_id, seller.name as seller_name,
            customer.id as customer_id, customer.name as customer_name
     from verdict cross join signed_in_user seller left join customer on true
     where verdict.stocked
       and ($3::uuid is null or customer.id is not null)
       and ($5::numeric is null or $5::numeric >= verdict.total)
   ), sale as (
     insert into sales (user_id, user_name, customer_id, customer_name, payment_method, tendered, total,
                        created_at)
     select go.seller_id, go.seller_name, go.customer_id, go.customer_name, $4::text, $5::numeric, go.total,
            clock_timestamp()
     from go
     returning *
   ), placed as (
     insert into orders (user_id, product_id, quantity, unit_price, unit_cost, total_price,
                         product_name, category_name, user_name, user_address,
                         sale_id, sale_number, sale_line, customer_id, customer_name, order_date)
     select sale.user_id, l.product_id, l.quantity, l.price, l.cost, l.price * l.quantity,
            l.name, l.category_name, sale.user_name, seller.address,
            sale.id, sale.number, l.n, sale.customer_id, sale.customer_name, sale.created_at
     from line_state l cross join sale cross join signed_in_user seller
     order by l.n
     returning id, product_id, quantity, user_id, user_name
   ), sold as (
     insert into stock_movements (product_id, kind, quantity, user_id, user_name, order_id)
     select product_id, 'sale', -quantity, user_id, user_name, id from placed order by product_id
   )`,
  select: `select l.n, l.product_id, l.found, l.name, l.stock, l.quantity,
          verdict.total::text as total, (select count(*) from customer)::int as customer_found,
          (select id from sale) as sale_id
   from line_state l cross join verdict
   order by l.n`,
});

type PlaceRow = {
  n: number;
  product_id: string;
  found: boolean;
  name: string | null;
  stock: number | null;
  quantity: number;
  total: string | null;
  customer_found: number;
  sale_id: string | null;
};

/**
 * Whose sales a caller reads: every seller's with sales:readAll (undefined: no seller filter),
 * otherwise only their own. Every sales answer filters by it, whatever else the query asks.
 */
export function salesSellerFilter(me: { id: string; role: Role }): string | undefined {
  return can(me.role, 'sales:readAll') ? undefined : me.id;
}

/** Why a sale was refused, with what the refusal names. */
export type SaleRefusal =
  | { reason: 'productMissing' }
  | { reason: 'shortOfStock'; product: string; stock: number }
  | { reason: 'customerMissing' }
  | { reason: 'tenderedShort'; total: string };

export type SaleInputValues = {
  lines: SaleLines;
  customerId: string | null;
  method: PaymentMethod;
  tendered: number | null;
};

/** Places the sale for the runner's signed-in seller: its id, or why nothing was taken. */
export async function placeSale(
  run: SignedInRunner,
  sale: SaleInputValues,
): Promise<{ saleId: string } | SaleRefusal> {
  // The products are locked as they are read, so the ledger cannot refuse a line the checks
  // passed; were it to (IMS01), the error handler answers 409 and the statement took nothing.
  const rows = await run<PlaceRow>(PLACE_SALE, [
    sale.lines.productIds,
    sale.lines.quantities,
    sale.customerId,
    sale.method,
    sale.tendered?.toFixed(2) ?? null,
  ]);
  const saleId = rows[0]?.sale_id;
  if (saleId) return { saleId };
  if (rows.some((row) => !row.found)) return { reason: 'productMissing' };
  const short = rows.find((row) => (row.stock ?? 0) < row.quantity);
  if (short) return { reason: 'shortOfStock', product: short.name ?? '', stock: short.stock ?? 0 };
  if (sale.customerId !== null && rows[0]?.customer_found === 0) return { reason: 'customerMissing' };
  return { reason: 'tenderedShort', total: rows[0]?.total ?? '0' };
}

type SaleRow = {
  id: string;
  number: string | number;
  created_at: string | Date;
  user_id: string | null;
  user_name: string;
  customer_id: string | null;
  customer_name: string | null;
  payment_method: PaymentMethod;
  tendered: string | null;
  total: string;
  change: string | null;
};

const SALE_FIELDS = `s.id, s.number, s.created_at, s.user_id, s.user_name, s.customer_id, s.customer_name,
  s.payment_method, s.tendered::text as tendered, s.total::text as total,
  case when s.payment_method = 'cash' then (coalesce(s.tendered, s.total) - s.total)::text end as change`;

function saleFields(row: SaleRow) {
  const tendered = row.payment_method === 'cash' ? Number(row.tendered ?? row.total) : null;
  return {
    _id: row.id,
    number: Number(row.number),
    createdAt: new Date(row.created_at).toISOString(),
    seller: { _id: row.user_id, name: row.user_name },
    customer: row.customer_name === null ? null : { _id: row.customer_id, name: row.customer_name },
    total: Number(row.total),
    payment: { method: row.payment_method, tendered },
    change: row.change === null ? null : Number(row.change),
  };
}

/**
 * A sale as its receipt shows it, or undefined. `sellerId`: only a sale that person made (a
 * seller sees their own receipts; an admin every one).
 */
export async function findSale(
  runner: Runner,
  id: string,
  storeName: string,
  sellerId?: string,
): Promise<Sale | undefined> {
  const [sale] = await runner.query<SaleRow>(
    `select ${SALE_FIELDS} from sales s where s.id = $1::uuid and ($2::uuid is null or s.user_id = $2::uuid)`,
    [id, sellerId ?? null],
  );
  if (!sale) return undefined;
  const lines = await runner.query<{
    id: string;
    product_id: string | null;
    product_name: string;
    quantity: number;
    unit_price: string;
    total_price: string;
    returned_quantity: number;
  }>(
    `select id, product_id, product_name, quantity, unit_price::text as unit_price,
            total_price::text as total_price, returned_quantity
     from orders where sale_id = $1::uuid order by sale_line`,
    [id],
  );
  return {
    ...saleFields(sale),
    store: { name: storeName },
    lines: lines.map((line) => ({
      order: { _id: line.id },
      product: { _id: line.product_id, name: line.product_name },
      quantity: line.quantity,
      unitPrice: Number(line.unit_price),
      total: Number(line.total_price),
      returnedQuantity: line.returned_quantity,
    })),
  };
}

/** What a sales list is filtered by (see salePage). */
export type SaleFilter = {
  customerId?: string;
  sellerId?: string;
  /** A receipt number (S-000123, 123) or words of the customer's name. */
  search?: string;
  /** Days (YYYY-MM-DD), both included, in the server's time zone. */
  from?: string;
  to?: string;
};

/**
 * Sales newest first, one page: a customer's (customerId) and/or one seller's (sellerId), or
 * every sale; found by receipt number or customer name (search) and from/to days. Each index
 * (created, seller, customer) is in the list's order, so a page is read; a receipt number is
 * found by its unique index, a customer's name by the trigram index on the sale's customer name
 * (migration 0021). Each row counts its lines and what came back of them through the orders'
 * index on sale_id (a sale has few lines).
 */
export async function salePage(
  runner: Runner,
  filter: SaleFilter,
  window: { limit: number; offset: number },
  timeZone: string,
): Promise<{ sales: SaleSummary[]; total: number }> {
  const number = saleNumberSearched(filter.search);
  const words = number === undefined ? searchWords(filter.search) : [];
  const params: unknown[] = [
    filter.customerId ?? null,
    filter.sellerId ?? null,
    number ?? null,
    filter.from ?? null,
    filter.to ?? null,
    timeZone,
    ...words.map(likePattern),
  ];
  // One ilike per word, each a condition of its own, so the trigram index serves them.
  const named = words.map((_, at) => `and s.customer_name ilike $${7 + at}`).join(' ');
  const where = `($1::uuid is null or s.customer_id = $1::uuid) and ($2::uuid is null or s.user_id = $2::uuid)
    and ($3::bigint is null or s.number = $3::bigint)
    and ($4::date is null or s.created_at >= ($4::date)::timestamp at time zone $6::text)
    and ($5::date is null or s.created_at < ($5::date + 1)::timestamp at time zone $6::text) ${named}`;
  const [limit, offset] = [params.length + 1, params.length + 2];
  const [rows, [counted]] = await Promise.all([
    runner.query<SaleRow & { line_count: number; returned_quantity: number; returned_total: string }>(
      `select ${SALE_FIELDS}, l.line_count, l.returned_quantity, l.returned_total
       from sales s cross join lateral (
         select count(*)::int as line_count, coalesce(sum(o.returned_quantity), 0)::int as returned_quantity,
                coalesce(sum(o.returned_quantity * o.unit_price), 0)::text as returned_total
         from orders o where o.sale_id = s.id
       ) l
       where ${where}
       order by s.created_at desc, s.id desc limit $${limit} offset $${offset}`,
      [...params, window.limit, window.offset],
    ),
    runner.query<{ n: number }>(`select count(*)::int as n from sales s where ${where}`, params),
  ]);
  return {
    sales: rows.map((row) => ({
      ...saleFields(row),
      lineCount: row.line_count,
      returnedQuantity: row.returned_quantity,
      returnedTotal: Number(row.returned_total),
    })),
    total: counted?.n ?? 0,
  };
}
