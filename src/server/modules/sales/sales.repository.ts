import type { OrderLot, Tracking } from '../../../shared/lots';
import { centsNumber, toCents } from '../../../shared/money';
import { searchWords } from '../../../shared/paging';
import { can, type Role } from '../../../shared/roles';
import {
  type PaymentMethod,
  type ReceiptStore,
  type Sale,
  type SaleSummary,
  saleNumberSearched,
} from '../../../shared/sales';
import type { SaleMethod } from '../../../shared/till';
import type { Runner } from '../../db/connection';
import { type SignedInRunner, signedInStatement } from '../../lib/auth';
import { wordMatch } from '../../lib/search';
import { orderLots } from '../lots/lots.repository';

/**
 * The store's settings as a sale reads them (DESIGN §12): the one row, or, while there is none,
 * the defaults (the name from STORE_NAME, given as `nameParam`). One row always.
 */
export function storeSettingsSql(nameParam: string): string {
  return `select coalesce(st.name, ${nameParam}::text) as name, coalesce(st.address, '') as address,
            coalesce(st.phone, '') as phone, coalesce(st.tax_number, '') as tax_number,
            coalesce(st.receipt_footer, '') as receipt_footer, coalesce(st.currency, 'USD') as currency,
            coalesce(st.prices_include_tax, false) as prices_include_tax,
            coalesce(st.max_discount_percent, 10)::text as max_discount_percent,
            st.default_tax_rate_id
     from (select) as one left join store_settings st on st.id = 1`;
}

/**
 * Reads a sale's cart inside its transaction (DESIGN §12, decision 0027), for the signed-in seller:
 * every line with its product, locked in product id order before anything is written (as before,
 * decisions 0015 and 0016: the stock read is the stock the sale takes, and two sales never wait on
 * each other in a circle), its price, cost and the tax rate in force (the product's own, else the
 * store's default), the store's settings, the customer (held against deletion until the sale is
 * written) and the seller's role. Prices come from the database, never the client.
 *
 * The customer is locked FOR NO KEY UPDATE, so their store credit balance read here is the one the
 * sale spends: a second sale paying with it waits until this one is done (DESIGN §13). The till
 * session is locked FOR SHARE and its status read after the lock: a close (which updates the row)
 * waits for the sales in flight, and a sale that waited on a close reads it closed, so no sale
 * lands in a closed session. Locks are taken in one order, products, then the customer, then the
 * session, so two sales of one customer never wait on each other in a circle.
 *
 * A lot-tracked product (DESIGN §15, decision 0031) also answers its unexpired units, its expired
 * lots locked after the product as every writer of lots locks them, so the sale is refused before
 * anything is written when they fall short; the ledger's trigger then picks the lots themselves.
 * An untracked cart reads nothing more.
 *
 * $1 product ids, $2 quantities (merged, see mergeLines), $3 customer id or null, $4 the store's
 * name while it has no settings, $5 the till session's id or null.
 */
const READ_CART = signedInStatement('sales_read_cart', {
  with: `lines as materialized (
     select t.product_id, t.quantity, t.n::int as n
     from unnest($1::uuid[], $2::int[]) with ordinality as t(product_id, quantity, n)
     order by t.product_id
   ), store as materialized (${storeSettingsSql('$4')}
   ), line_state as materialized (
     -- Each line's product by its primary key (lateral: a plan made for any number of lines
     -- still reads one product per line, never the catalogue), locked in product id order.
     select lines.*, p.id is not null as found, p.name, p.stock, p.price::text as price,
            p.cost::text as cost, p.category_name, r.name as rate_name, r.rate::text as rate, p.tracking,
            -- A lot-tracked product's unexpired units, as the ledger's trigger judges them (DESIGN
            -- §15): its stock (locked, so current) less its lots that expired before today in the
            -- report zone, read FOR SHARE after the product's lock, so current too. Read only for a
            -- tracked product (a CASE runs its subquery only when taken).
            case when p.tracking = 'lot' then p.stock - (
              select coalesce(sum(x.quantity), 0)::int from (
                select l.quantity from lots l
                where l.product_id = p.id and l.quantity > 0
                  and l.expires_on < store_today()
                for share of l
              ) x
            ) end as unexpired
     from lines left join lateral (
       select p.id, p.name, p.stock, p.price, p.cost, p.tax_rate_id, p.tracking, c.name as category_name
       from products p join categories c on c.id = p.category_id
       where p.id = lines.product_id
       for update of p
     ) p on true
     left join tax_rates r on r.id = coalesce(p.tax_rate_id, (select default_tax_rate_id from store))
   ), customer as materialized (
     -- After every product (the condition reads them all first): one order of locks for all sales.
     select id, name, credit_balance::text as credit_balance from customers
     where id = $3::uuid and (select count(*) from line_state) >= 0
     for no key update
   ), till_session as materialized (
     select id, number, status from register_sessions
     where id = $5::uuid and (select count(*) from customer) >= 0
     for share
   )`,
  select: `select l.n, l.product_id, l.found, l.name, l.stock, l.quantity, l.price, l.cost, l.category_name,
          l.rate_name, l.rate, l.tracking, l.unexpired, store.name as store_name, store.address as store_address,
          store.phone as store_phone, store.tax_number as store_tax_number,
          store.receipt_footer as store_receipt_footer, store.currency as store_currency,
          store.prices_include_tax as store_prices_include_tax,
          store.max_discount_percent as store_max_discount_percent,
          (select name from customer) as customer_name, (select count(*) from customer)::int as customer_found,
          (select credit_balance from customer) as customer_credit,
          (select count(*) from till_session)::int as session_found, (select number from till_session) as session_number,
          (select status from till_session) as session_status,
          (select id from signed_in_user) as seller_id, (select name from signed_in_user) as seller_name,
          (select role from signed_in_user) as seller_role
   from line_state l cross join store
   order by l.n`,
});

export type CartRow = {
  n: number;
  product_id: string;
  found: boolean;
  name: string | null;
  stock: number | null;
  quantity: number;
  price: string | null;
  cost: string | null;
  category_name: string | null;
  rate_name: string | null;
  rate: string | null;
  /** The product's tracking (null when it is missing). */
  tracking: Tracking | null;
  /** A lot-tracked product's units in lots unexpired today; null for an untracked one. */
  unexpired: number | null;
  store_name: string;
  store_address: string;
  store_phone: string;
  store_tax_number: string;
  store_receipt_footer: string;
  store_currency: string;
  store_prices_include_tax: boolean;
  store_max_discount_percent: string;
  customer_name: string | null;
  customer_found: number;
  /** The customer's store credit balance (exact text), locked; null without a customer. */
  customer_credit: string | null;
  session_found: number;
  session_number: string | number | null;
  session_status: 'open' | 'closed' | null;
  seller_id: string | null;
  seller_name: string | null;
  seller_role: Role | null;
};

/** Locks and reads a cart's lines (in cart order), the store and the seller; see READ_CART. */
export async function readCart(
  run: SignedInRunner,
  cart: {
    productIds: string[];
    quantities: number[];
    customerId: string | null;
    storeName: string;
    sessionId: string | null;
  },
): Promise<CartRow[]> {
  const rows = await run<CartRow>(READ_CART, [
    cart.productIds,
    cart.quantities,
    cart.customerId,
    cart.storeName,
    cart.sessionId,
  ]);
  return rows.filter((row) => row.n !== null).sort((a, b) => a.n - b.n);
}

/**
 * Writes a priced sale in one statement (decision 0027), for the signed-in seller, once every
 * check passed: the sale row draws its receipt number only now (a refusal costs no number), each
 * line becomes an order carrying what the shared computation gave it (discount, tax, the rate as a
 * snapshot, total_price = what the customer pays), and each order a `sale` movement, in product
 * id order, through the ledger's trigger (IMS01 undoes the whole statement). Nothing is written
 * unless the seller is still signed in and active (signed_in_user). Answers the orders.
 *
 * Line arrays, in product id order: $1 product ids, $2 quantities, $3 places on the receipt,
 * $4 unit prices, $5 unit costs, $6 totals, $7 discounts, $8 taxes, $9 rate names, $10 rates,
 * $11 product names, $12 category names; then $13 customer id, $14 customer name, $15 the sale's
 * method (its one payment's, or `split`), $16 the cash handed over (Σ, or null), $17 subtotal,
 * $18 discount, $19 tax, $20 total, $21 the store (jsonb), $22 the change (null without cash),
 * $23 the till session or null; payment arrays in the order given: $24 methods, $25 amounts put
 * towards the total, $26 cash handed over (null for the others); $27 the store credit spent or
 * null. Store credit spent is a `sale` entry whose trigger takes it off the customer's balance,
 * never below 0 (IMS03 undoes the whole statement).
 */
const WRITE_SALE = signedInStatement('sales_write', {
  with: `sale as (
     insert into sales (user_id, user_name, customer_id, customer_name, payment_method, tendered,
                        subtotal, discount, tax, total, store, change, session_id, created_at)
     select seller.id, seller.name, $13::uuid, $14::text, $15::text, $16::numeric,
            $17::numeric, $18::numeric, $19::numeric, $20::numeric, $21::jsonb, $22::numeric, $23::uuid,
            clock_timestamp()
     from signed_in_user seller
     returning *
   ), paid as (
     insert into sale_payments (sale_id, n, method, amount, tendered)
     select sale.id, p.n, p.method, p.amount, p.tendered
     from unnest($24::text[], $25::numeric[], $26::numeric[]) with ordinality as p(method, amount, tendered, n)
       cross join sale
   ), credited as (
     insert into store_credit_entries (customer_id, amount, kind, sale_id, user_id, user_name)
     select sale.customer_id, -$27::numeric, 'sale', sale.id, sale.user_id, sale.user_name
     from sale where $27::numeric is not null
   ), placed as (
     insert into orders (user_id, product_id, quantity, unit_price, unit_cost, total_price, discount, tax,
                         tax_rate_name, tax_rate, product_name, category_name, user_name, user_address,
                         sale_id, sale_number, sale_line, customer_id, customer_name, order_date)
     select sale.user_id, l.product_id, l.quantity, l.unit_price, l.unit_cost, l.total, l.discount, l.tax,
            l.rate_name, l.rate, l.product_name, l.category_name, sale.user_name, seller.address,
            sale.id, sale.number, l.n, sale.customer_id, sale.customer_name, sale.created_at
     from unnest($1::uuid[], $2::int[], $3::int[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[],
                 $8::numeric[], $9::text[], $10::numeric[], $11::text[], $12::text[])
            as l(product_id, quantity, n, unit_price, unit_cost, total, discount, tax, rate_name, rate,
                 product_name, category_name)
       cross join sale cross join signed_in_user seller
     order by l.product_id
     returning *
   ), sold as (
     insert into stock_movements (product_id, kind, quantity, user_id, user_name, order_id)
     select product_id, 'sale', -quantity, user_id, user_name, id from placed order by product_id
   )`,
  select: `select placed.*, placed.order_date::text as created_at_text from placed`,
});

/** An order as the write answers it (snake_case columns). */
export type PlacedRow = {
  id: string;
  user_id: string | null;
  product_id: string | null;
  quantity: number;
  unit_price: string;
  unit_cost: string | null;
  total_price: string;
  discount: string;
  tax: string;
  tax_rate_name: string | null;
  tax_rate: string | null;
  returned_total: string;
  returned_tax: string;
  returned_discount: string;
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

/** One priced line as the write takes it (money as text, exact). */
export type WriteLine = {
  productId: string;
  quantity: number;
  n: number;
  unitPrice: string;
  unitCost: string | null;
  total: string;
  discount: string;
  tax: string;
  rateName: string | null;
  rate: string | null;
  productName: string;
  categoryName: string;
};

export type WriteSale = {
  lines: WriteLine[];
  customerId: string | null;
  customerName: string | null;
  method: SaleMethod;
  /** Σ of the cash handed over, or null when no cash was paid. */
  tendered: string | null;
  /** Cash handed back, or null when no cash was paid. */
  change: string | null;
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  store: ReceiptStore;
  sessionId: string | null;
  /** Each payment in the order given, as settled (see settlePayments). */
  payments: { method: PaymentMethod; amount: string; tendered: string | null }[];
  /** The store credit spent (> 0), or null. */
  storeCredit: string | null;
};

/** Writes the sale (see WRITE_SALE): its orders in receipt order. */
export async function writeSale(run: SignedInRunner, sale: WriteSale): Promise<PlacedRow[]> {
  const lines = [...sale.lines].sort((a, b) =>
    a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0,
  );
  const column = <T>(pick: (line: WriteLine) => T) => lines.map(pick);
  const rows = await run<PlacedRow>(WRITE_SALE, [
    column((l) => l.productId),
    column((l) => l.quantity),
    column((l) => l.n),
    column((l) => l.unitPrice),
    column((l) => l.unitCost),
    column((l) => l.total),
    column((l) => l.discount),
    column((l) => l.tax),
    column((l) => l.rateName),
    column((l) => l.rate),
    column((l) => l.productName),
    column((l) => l.categoryName),
    sale.customerId,
    sale.customerName,
    sale.method,
    sale.tendered,
    sale.subtotal,
    sale.discount,
    sale.tax,
    sale.total,
    JSON.stringify(sale.store),
    sale.change,
    sale.sessionId,
    sale.payments.map((payment) => payment.method),
    sale.payments.map((payment) => payment.amount),
    sale.payments.map((payment) => payment.tendered),
    sale.storeCredit,
  ]);
  return rows.filter((row) => row.id !== null).sort((a, b) => (a.sale_line ?? 0) - (b.sale_line ?? 0));
}

/** An admin who may approve at the counter: active, by email, with their PIN hash (never answered). */
export async function findApprover(
  runner: Runner,
  email: string,
): Promise<{ id: string; name: string; pinHash: string | null } | undefined> {
  const [row] = await runner.query<{ id: string; name: string; pin_hash: string | null }>(
    `select id, name, pin_hash from users where email = $1 and active and role = 'admin'`,
    [email],
  );
  return row ? { id: row.id, name: row.name, pinHash: row.pin_hash } : undefined;
}

/**
 * Whose sales a caller reads: every seller's with sales:readAll (undefined: no seller filter),
 * otherwise only their own. Every sales answer filters by it, whatever else the query asks.
 */
export function salesSellerFilter(me: { id: string; role: Role }): string | undefined {
  return can(me.role, 'sales:readAll') ? undefined : me.id;
}

export type SaleRow = {
  id: string;
  number: string | number;
  created_at: string | Date;
  user_id: string | null;
  user_name: string;
  customer_id: string | null;
  customer_name: string | null;
  payment_method: SaleMethod;
  tendered: string | null;
  total: string;
  subtotal: string;
  discount: string;
  tax: string;
  /** Cash handed back (null before split payments: then tendered − total for cash). */
  change?: string | null;
};

/** A sale's columns as every answer reads them; a sale before taxes has subtotal = total. */
const SALE_FIELDS = `s.id, s.number, s.created_at, s.user_id, s.user_name, s.customer_id, s.customer_name,
  s.payment_method, s.tendered::text as tendered, s.total::text as total,
  coalesce(s.subtotal, s.total)::text as subtotal, s.discount::text as discount, s.tax::text as tax,
  s.change::text as change`;

function saleFields(row: SaleRow) {
  const cash = row.payment_method === 'cash' || (row.payment_method === 'split' && row.tendered !== null);
  const tendered = cash ? toCents(row.tendered ?? row.total) : null;
  const change =
    row.change !== undefined && row.change !== null
      ? toCents(row.change)
      : tendered === null
        ? null
        : tendered - toCents(row.total);
  return {
    _id: row.id,
    number: Number(row.number),
    createdAt: new Date(row.created_at).toISOString(),
    seller: { _id: row.user_id, name: row.user_name },
    customer: row.customer_name === null ? null : { _id: row.customer_id, name: row.customer_name },
    subtotal: Number(row.subtotal),
    discount: Number(row.discount),
    tax: Number(row.tax),
    total: Number(row.total),
    payment: { method: row.payment_method, tendered: tendered === null ? null : centsNumber(tendered) },
    change: change === null || tendered === null ? null : centsNumber(change),
  };
}

/** A receipt's line as the orders hold it (money as text). */
export type ReceiptLineRow = {
  id: string;
  product_id: string | null;
  product_name: string;
  quantity: number;
  unit_price: string;
  total_price: string;
  discount: string;
  tax: string;
  tax_rate_name: string | null;
  tax_rate: string | null;
  returned_quantity: number;
  returned_total: string;
};

/** What a receipt shows beside its lines (DESIGN §13): its payments, its session and its refunds. */
export type ReceiptExtras = {
  /** Each payment in order; undefined: the sale's one payment, from its own row. */
  payments?: Sale['payments'];
  session?: Sale['session'];
  refunds?: Sale['refunds'];
};

/** A sale's one payment as its own row says it (every sale before split payments, and lists). */
function onePayment(row: SaleRow): Sale['payments'] {
  if (row.payment_method === 'split') return [];
  const tendered = row.payment_method === 'cash' ? centsNumber(toCents(row.tendered ?? row.total)) : null;
  return [{ method: row.payment_method, amount: Number(row.total), tendered }];
}

/**
 * A receipt from what the database holds (DESIGN §12): each line's gross, discount, tax, rate,
 * total, net and money given back, and the taxes by rate (one per rate snapshot on its lines,
 * 0 % too, in the order the lines first name them; base = the lines' net). Lines sold before
 * taxes name no rate and are not listed. `lots`: the lots each line's order took (orderLots); a
 * line of a product without lots has none.
 */
export function receiptOf(
  sale: SaleRow,
  store: ReceiptStore,
  lines: readonly ReceiptLineRow[],
  lots: ReadonlyMap<string, OrderLot[]>,
  extras: ReceiptExtras = {},
): Sale {
  const taxes = new Map<string, { name: string; rate: number; base: bigint; tax: bigint }>();
  const receiptLines = lines.map((line) => {
    const total = toCents(line.total_price);
    const tax = toCents(line.tax);
    const rate = line.tax_rate === null ? null : Number(line.tax_rate);
    if (line.tax_rate_name !== null && rate !== null) {
      const key = `${line.tax_rate_name}\u0000${rate}`;
      const entry = taxes.get(key) ?? { name: line.tax_rate_name, rate, base: 0n, tax: 0n };
      entry.base += total - tax;
      entry.tax += tax;
      taxes.set(key, entry);
    }
    return {
      order: { _id: line.id },
      product: { _id: line.product_id, name: line.product_name },
      quantity: line.quantity,
      unitPrice: Number(line.unit_price),
      gross: centsNumber(toCents(line.unit_price) * BigInt(line.quantity)),
      discount: Number(line.discount),
      tax: centsNumber(tax),
      taxRate: line.tax_rate_name === null || rate === null ? null : { name: line.tax_rate_name, rate },
      total: centsNumber(total),
      net: centsNumber(total - tax),
      returnedQuantity: line.returned_quantity,
      returnedTotal: Number(line.returned_total),
      lots: lots.get(line.id) ?? [],
    };
  });
  return {
    ...saleFields(sale),
    payments: extras.payments ?? onePayment(sale),
    session: extras.session ?? null,
    refunds: extras.refunds ?? [],
    store,
    lines: receiptLines,
    taxes: [...taxes.values()].map((entry) => ({
      name: entry.name,
      rate: entry.rate,
      base: centsNumber(entry.base),
      tax: centsNumber(entry.tax),
    })),
  };
}

type StoreJson = {
  name?: string;
  address?: string;
  phone?: string;
  taxNumber?: string;
  receiptFooter?: string;
  currency?: string;
  pricesIncludeTax?: boolean;
};

/** A store snapshot as stored (sales.store), every field present. */
export function receiptStore(json: StoreJson | string, fallbackName: string): ReceiptStore {
  const store: StoreJson = typeof json === 'string' ? JSON.parse(json) : json;
  return {
    name: store.name ?? fallbackName,
    address: store.address ?? '',
    phone: store.phone ?? '',
    taxNumber: store.taxNumber ?? '',
    receiptFooter: store.receiptFooter ?? '',
    currency: store.currency ?? 'USD',
    pricesIncludeTax: store.pricesIncludeTax ?? false,
  };
}

/**
 * A sale as its receipt shows it, or undefined. `sellerId`: only a sale that person made (a
 * seller sees their own receipts; an admin every one). A sale from before stores were described
 * shows the store as its settings are now (or the configured name).
 */
export async function findSale(
  runner: Runner,
  id: string,
  storeName: string,
  sellerId?: string,
): Promise<Sale | undefined> {
  const [sale] = await runner.query<
    SaleRow & { store: StoreJson | string; session_id: string | null; session_number: string | number | null }
  >(
    `select ${SALE_FIELDS}, s.session_id,
       (select rs.number from register_sessions rs where rs.id = s.session_id) as session_number,
       coalesce(s.store, (
       select jsonb_build_object('name', st.name, 'address', st.address, 'phone', st.phone,
                                 'taxNumber', st.tax_number, 'receiptFooter', st.receipt_footer,
                                 'currency', st.currency, 'pricesIncludeTax', st.prices_include_tax)
       from (${storeSettingsSql('$3')}) as st)) as store
     from sales s where s.id = $1::uuid and ($2::uuid is null or s.user_id = $2::uuid)`,
    [id, sellerId ?? null, storeName],
  );
  if (!sale) return undefined;
  const lines = await runner.query<ReceiptLineRow>(
    `select id, product_id, product_name, quantity, unit_price::text as unit_price,
            total_price::text as total_price, discount::text as discount, tax::text as tax, tax_rate_name,
            tax_rate::text as tax_rate, returned_quantity, returned_total::text as returned_total
     from orders where sale_id = $1::uuid order by sale_line`,
    [id],
  );
  const [payments, refunds, lots] = await Promise.all([
    runner.query<{ method: PaymentMethod; amount: string; tendered: string | null }>(
      `select method, amount::text as amount, tendered::text as tendered
       from sale_payments where sale_id = $1::uuid order by n`,
      [id],
    ),
    runner.query<{
      id: string;
      number: string | number;
      total: string;
      method: PaymentMethod;
      created_at: string | Date;
    }>(
      `select id, number, total::text as total, method, created_at from refunds
       where sale_id = $1::uuid order by created_at, number`,
      [id],
    ),
    orderLots(
      runner,
      lines.map((line) => line.id),
    ),
  ]);
  return receiptOf(sale, receiptStore(sale.store, storeName), lines, lots, {
    payments: payments.map((payment) => ({
      method: payment.method,
      amount: Number(payment.amount),
      tendered: payment.tendered === null ? null : Number(payment.tendered),
    })),
    session:
      sale.session_id === null || sale.session_number === null
        ? null
        : { _id: sale.session_id, number: Number(sale.session_number) },
    refunds: refunds.map((refund) => ({
      _id: refund.id,
      number: Number(refund.number),
      total: Number(refund.total),
      method: refund.method,
      createdAt: new Date(refund.created_at).toISOString(),
    })),
  });
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
    ...words.map((word) => wordMatch(word).pattern),
  ];
  // One condition per word (the search rule of lib/search.ts), each its own, so the trigram index serves them.
  const named = words
    .map((word, at) => `and s.customer_name ${wordMatch(word).operator} $${7 + at}`)
    .join(' ');
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
                coalesce(sum(o.returned_total), 0)::text as returned_total
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
