import { z } from 'zod';
import { Elsewhere } from '../../../shared/locations';
import { type OrderLot, TRACKINGS } from '../../../shared/lots';
import { centsNumber, centsText, taxesByRate, toCents } from '../../../shared/money';
import { searchWords } from '../../../shared/paging';
import { can, ROLES, type Role } from '../../../shared/roles';
import {
  type PaymentMethod,
  ReceiptStore,
  type ReviewReason,
  type Sale,
  type SaleSummary,
  saleNumberSearched,
} from '../../../shared/sales';
import { SALE_METHODS, type SaleMethod, type SettledPayment } from '../../../shared/till';
import type { Runner } from '../../db/connection';
import { sqlFile, withAndSelect } from '../../db/sql-file';
import { type SignedInRunner, signedInStatement } from '../../lib/auth';
import { wordMatch } from '../../lib/search';
import { orderLots } from '../lots/lots.repository';
import { movementsInsert } from '../stock/movements';

/**
 * The store's settings as a sale reads them (DESIGN §12): the one row, or, while there is none,
 * the defaults (the name from STORE_NAME, given as `nameParam`). One row always; `receipt` is the
 * store as a receipt prints it (ReceiptStore), the snapshot a sale keeps in sales.store.
 */
export function storeSettingsSql(nameParam: string): string {
  return `select s.*, jsonb_build_object('name', s.name, 'address', s.address, 'phone', s.phone,
              'taxNumber', s.tax_number, 'receiptFooter', s.receipt_footer, 'currency', s.currency,
              'pricesIncludeTax', s.prices_include_tax) as receipt
     from (select coalesce(st.name, ${nameParam}::text) as name, coalesce(st.address, '') as address,
            coalesce(st.phone, '') as phone, coalesce(st.tax_number, '') as tax_number,
            coalesce(st.receipt_footer, '') as receipt_footer, coalesce(st.currency, 'USD') as currency,
            coalesce(st.prices_include_tax, false) as prices_include_tax,
            coalesce(st.max_discount_percent, 10)::text as max_discount_percent,
            st.default_tax_rate_id
     from (select) as one left join store_settings st on st.id = 1) as s`;
}

/**
 * The sale's two statements, each in its own file beside this one (decision 0040; each file says
 * what it does and what each $n is), run as named prepared statements with the signed-in check
 * written in (signedInStatement), so PostgreSQL plans each once per connection. What TypeScript
 * builds goes in once, here, at load: the store's settings, and the sale's stock movements through
 * the one writer of the ledger (movementsInsert).
 */
const SQL = 'src/server/modules/sales';
const READ_CART_SQL = sqlFile(`${SQL}/read-cart.sql`, { store_settings: storeSettingsSql('$3') });
const READ_CART = signedInStatement('sales_read_cart', withAndSelect('read-cart.sql', READ_CART_SQL));
const WRITE_SALE_SQL = sqlFile(`${SQL}/write-sale.sql`, {
  movements: movementsInsert({
    values: {
      product_id: 'product_id',
      kind: "'sale'",
      quantity: '-quantity',
      user_id: 'user_id',
      user_name: 'user_name',
      order_id: 'id',
      location_id: 'location_id',
    },
    from: 'placed',
    orderBy: 'product_id',
  }),
});
const WRITE_SALE = signedInStatement('sales_write', withAndSelect('write-sale.sql', WRITE_SALE_SQL));

/** numeric as the database writes it (exact text, "12.30"). */
const NumericText = z.string().regex(/^-?\d+(\.\d+)?$/);
/** bigint: text from node-postgres, a number from PGlite. */
const Int8 = z.union([z.string().regex(/^\d+$/), z.number().int()]);
const Time = z.union([z.string(), z.date()]);

/** A row of READ_CART (read-cart.sql): one a line. Tests parse every row with it. */
export const CartRow = z.object({
  n: z.number().int(),
  product_id: z.string(),
  found: z.boolean(),
  name: z.string().nullable(),
  /** The product's stock at the sale's location (DESIGN §17): 0 where it has none. */
  stock: z.number().int().nullable(),
  quantity: z.number().int(),
  price: NumericText.nullable(),
  cost: NumericText.nullable(),
  category_name: z.string().nullable(),
  rate_name: z.string().nullable(),
  rate: NumericText.nullable(),
  /** The product's tracking (null when it is missing). */
  tracking: z.enum(TRACKINGS).nullable(),
  /** DESIGN §22: whether the product is sold (null when it is missing). */
  active: z.boolean().nullable(),
  /** A lot-tracked product's units in lots unexpired today at the location; null for an untracked one. */
  unexpired: z.number().int().nullable(),
  /** Where the sale takes from: the session's register's location, else the seller's, else the default. */
  location_id: z.string(),
  location_name: z.string(),
  location_active: z.boolean(),
  /** A line short at the location: the other active locations holding some, most first; else null. */
  elsewhere: Elsewhere.nullable(),
  /** The store as the receipt prints it. */
  store: ReceiptStore,
  store_max_discount_percent: NumericText,
  customer_name: z.string().nullable(),
  customer_found: z.number().int(),
  /** The customer's store credit balance, locked; null without a customer. */
  customer_credit: NumericText.nullable(),
  session_found: z.number().int(),
  session_number: Int8.nullable(),
  session_status: z.enum(['open', 'closed']).nullable(),
  seller_id: z.string().nullable(),
  seller_name: z.string().nullable(),
  seller_role: z.enum(ROLES).nullable(),
});
export type CartRow = z.infer<typeof CartRow>;

/** Locks and reads a cart's lines (in cart order), the store and the seller; see read-cart.sql. */
export async function readCart(
  run: SignedInRunner,
  cart: {
    lines: readonly { productId: string; quantity: number }[];
    customerId: string | null;
    storeName: string;
    sessionId: string | null;
  },
): Promise<CartRow[]> {
  const lines = cart.lines.map((line) => ({ product_id: line.productId, quantity: line.quantity }));
  const rows = await run<CartRow>(READ_CART, [
    JSON.stringify(lines),
    cart.customerId,
    cart.storeName,
    cart.sessionId,
  ]);
  return rows.filter((row) => row.n !== null).sort((a, b) => a.n - b.n);
}

/** An order as the database answers it (snake_case columns, money as exact text). */
export const PlacedRow = z.object({
  id: z.string(),
  user_id: z.string().nullable(),
  product_id: z.string().nullable(),
  quantity: z.number().int(),
  unit_price: NumericText,
  unit_cost: NumericText.nullable(),
  total_price: NumericText,
  discount: NumericText,
  tax: NumericText,
  tax_rate_name: z.string().nullable(),
  tax_rate: NumericText.nullable(),
  returned_total: NumericText,
  returned_tax: NumericText,
  returned_discount: NumericText,
  returned_cost: NumericText,
  product_name: z.string(),
  category_name: z.string(),
  user_name: z.string(),
  user_address: z.string(),
  order_date: Time,
  status: z.string(),
  returned_quantity: z.number().int(),
  sale_id: z.string().nullable(),
  sale_number: Int8.nullable(),
  sale_line: z.number().int().nullable(),
  customer_id: z.string().nullable(),
  customer_name: z.string().nullable(),
  location_id: z.string(),
});
export type PlacedRow = z.infer<typeof PlacedRow>;

/**
 * A row of WRITE_SALE (write-sale.sql): an order with its sale's figures beside it, aliased as
 * SaleRow names them, so receiptOf maps the rows as they come. Tests parse every row with it.
 */
export const WrittenRow = PlacedRow.extend({
  sale_id: z.string(),
  sale_number: Int8,
  created_at: Time,
  payment_method: z.enum(SALE_METHODS),
  tendered: NumericText.nullable(),
  change: NumericText.nullable(),
  sale_subtotal: NumericText,
  sale_discount: NumericText,
  sale_tax: NumericText,
  sale_total: NumericText,
  device_number: z.string().nullable(),
  recorded_at: Time.nullable(),
  review: z.array(z.string()).nullable(),
});
export type WrittenRow = z.infer<typeof WrittenRow>;

/** One priced line as the write takes it: the amounts in cents; price, cost and rate as read. */
export type WriteLine = {
  productId: string;
  quantity: number;
  n: number;
  unitPrice: string;
  unitCost: string | null;
  total: bigint;
  discount: bigint;
  tax: bigint;
  rateName: string | null;
  rate: string | null;
  productName: string;
  categoryName: string;
};

/** A priced sale as the write takes it, every amount in cents. */
export type WriteSale = {
  lines: WriteLine[];
  customerId: string | null;
  customerName: string | null;
  method: SaleMethod;
  /** Σ of the cash handed over, or null when no cash was paid. */
  tendered: bigint | null;
  /** Cash handed back, or null when no cash was paid. */
  change: bigint | null;
  subtotal: bigint;
  discount: bigint;
  tax: bigint;
  total: bigint;
  store: ReceiptStore;
  sessionId: string | null;
  /** Each payment in the order given, as settled (see settleCents). */
  payments: readonly SettledPayment[];
  /** The store credit spent (> 0), or null. */
  storeCredit: bigint | null;
  /** Where the sale takes from (CartRow's location_id). */
  locationId: string;
  /** DESIGN §21: a sale made offline (when it was sold, its device number, what to review), or null. */
  offline: {
    id: string;
    hash: string;
    soldAt: Date;
    deviceNumber: string;
    review: readonly string[];
  } | null;
};

/** Cents as a numeric parameter takes them: the one conversion of a sale's money into SQL. */
const sqlMoney = (cents: bigint | null): string | null => (cents === null ? null : centsText(cents));

/** Writes the sale (see write-sale.sql): its orders in receipt order, each with the sale's figures. */
export async function writeSale(run: SignedInRunner, sale: WriteSale): Promise<WrittenRow[]> {
  const rows = await run<WrittenRow>(WRITE_SALE, [
    JSON.stringify({
      customer_id: sale.customerId,
      customer_name: sale.customerName,
      method: sale.method,
      tendered: sqlMoney(sale.tendered),
      change: sqlMoney(sale.change),
      subtotal: sqlMoney(sale.subtotal),
      discount: sqlMoney(sale.discount),
      tax: sqlMoney(sale.tax),
      total: sqlMoney(sale.total),
      store: sale.store,
      session_id: sale.sessionId,
      store_credit: sqlMoney(sale.storeCredit),
      location_id: sale.locationId,
      offline_id: sale.offline?.id ?? null,
      offline_hash: sale.offline?.hash ?? null,
      sold_at: sale.offline?.soldAt.toISOString() ?? null,
      device_number: sale.offline?.deviceNumber ?? null,
      review: sale.offline && sale.offline.review.length > 0 ? sale.offline.review : null,
    }),
    JSON.stringify(
      sale.lines.map((line) => ({
        product_id: line.productId,
        quantity: line.quantity,
        n: line.n,
        unit_price: line.unitPrice,
        unit_cost: line.unitCost,
        total: sqlMoney(line.total),
        discount: sqlMoney(line.discount),
        tax: sqlMoney(line.tax),
        rate_name: line.rateName,
        rate: line.rate,
        product_name: line.productName,
        category_name: line.categoryName,
      })),
    ),
    JSON.stringify(
      sale.payments.map((payment) => ({
        method: payment.method,
        amount: sqlMoney(payment.amount),
        tendered: sqlMoney(payment.tendered),
      })),
    ),
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

/**
 * A sale's own columns as every answer reads them (SALE_FIELDS, and the write's answer), named so
 * they sit beside an order's in one row (an order carries the sale's id, number, seller and
 * customer under the same names).
 */
export type SaleRow = {
  sale_id: string;
  sale_number: string | number;
  created_at: string | Date;
  user_id: string | null;
  user_name: string;
  customer_id: string | null;
  customer_name: string | null;
  payment_method: SaleMethod;
  tendered: string | null;
  sale_total: string;
  sale_subtotal: string;
  sale_discount: string;
  sale_tax: string;
  /** Cash handed back (null before split payments: then tendered − total for cash). */
  change: string | null;
  /** DESIGN §21: a sale made offline: the device's number, when it arrived, what to review. */
  device_number: string | null;
  recorded_at: string | Date | null;
  review: string[] | null;
};

/** A sale's columns as every answer reads them; a sale before taxes has subtotal = total. */
const SALE_FIELDS = `s.id as sale_id, s.number as sale_number, s.created_at, s.user_id, s.user_name,
  s.customer_id, s.customer_name, s.payment_method, s.tendered::text as tendered,
  s.total::text as sale_total, coalesce(s.subtotal, s.total)::text as sale_subtotal,
  s.discount::text as sale_discount, s.tax::text as sale_tax, s.change::text as change,
  s.device_number, s.recorded_at, s.review`;

function saleFields(row: SaleRow) {
  const cash = row.payment_method === 'cash' || (row.payment_method === 'split' && row.tendered !== null);
  const tendered = cash ? toCents(row.tendered ?? row.sale_total) : null;
  const change =
    row.change !== null ? toCents(row.change) : tendered === null ? null : tendered - toCents(row.sale_total);
  return {
    _id: row.sale_id,
    number: Number(row.sale_number),
    createdAt: new Date(row.created_at).toISOString(),
    seller: { _id: row.user_id, name: row.user_name },
    customer: row.customer_name === null ? null : { _id: row.customer_id, name: row.customer_name },
    subtotal: Number(row.sale_subtotal),
    discount: Number(row.sale_discount),
    tax: Number(row.sale_tax),
    total: Number(row.sale_total),
    payment: { method: row.payment_method, tendered: tendered === null ? null : centsNumber(tendered) },
    change: change === null || tendered === null ? null : centsNumber(change),
    ...(row.device_number !== null && row.recorded_at !== null
      ? {
          offline: {
            deviceNumber: row.device_number,
            recordedAt: new Date(row.recorded_at).toISOString(),
            review: (row.review ?? []) as ReviewReason[],
          },
        }
      : {}),
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
  /** Where the sale's units left from (DESIGN §17). */
  location?: Sale['location'];
};

/** A sale's one payment as its own row says it (every sale before split payments, and lists). */
function onePayment(row: SaleRow): Sale['payments'] {
  if (row.payment_method === 'split') return [];
  const tendered = row.payment_method === 'cash' ? Number(row.tendered ?? row.sale_total) : null;
  return [{ method: row.payment_method, amount: Number(row.sale_total), tendered }];
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
  const taxed = lines.map((line) => {
    const total = toCents(line.total_price);
    const tax = toCents(line.tax);
    const taxRate =
      line.tax_rate_name === null || line.tax_rate === null
        ? null
        : { name: line.tax_rate_name, rate: Number(line.tax_rate) };
    return { line, total, tax, net: total - tax, taxRate };
  });
  return {
    ...saleFields(sale),
    payments: extras.payments ?? onePayment(sale),
    session: extras.session ?? null,
    refunds: extras.refunds ?? [],
    ...(extras.location ? { location: extras.location } : {}),
    store,
    lines: taxed.map(({ line, total, tax, net, taxRate }) => ({
      order: { _id: line.id },
      product: { _id: line.product_id, name: line.product_name },
      quantity: line.quantity,
      unitPrice: Number(line.unit_price),
      gross: centsNumber(toCents(line.unit_price) * BigInt(line.quantity)),
      discount: Number(line.discount),
      tax: centsNumber(tax),
      taxRate,
      total: centsNumber(total),
      net: centsNumber(net),
      returnedQuantity: line.returned_quantity,
      returnedTotal: Number(line.returned_total),
      lots: lots.get(line.id) ?? [],
    })),
    taxes: taxesByRate(taxed).map((entry) => ({
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
    SaleRow & {
      store: StoreJson | string;
      session_id: string | null;
      session_number: string | number | null;
      location_id: string | null;
      location_name: string | null;
    }
  >(
    `select ${SALE_FIELDS}, s.session_id, w.id as location_id, w.name as location_name,
       (select rs.number from register_sessions rs where rs.id = s.session_id) as session_number,
       coalesce(s.store, (select st.receipt from (${storeSettingsSql('$3')}) as st)) as store
     from sales s left join lateral (
       select l.id, l.name from orders o join locations l on l.id = o.location_id
       where o.sale_id = s.id order by o.sale_line limit 1
     ) w on true
     where s.id = $1::uuid and ($2::uuid is null or s.user_id = $2::uuid)`,
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
    location:
      sale.location_id === null || sale.location_name === null
        ? undefined
        : { _id: sale.location_id, name: sale.location_name },
    refunds: refunds.map((refund) => ({
      _id: refund.id,
      number: Number(refund.number),
      total: Number(refund.total),
      method: refund.method,
      createdAt: new Date(refund.created_at).toISOString(),
    })),
  });
}

/** A search that is a device's receipt number (letters and digits joined by dashes), as the device wrote it. */
function deviceNumberSearched(search: string | undefined): string | undefined {
  const text = search?.trim() ?? '';
  return /^[A-Za-z0-9]+(-[A-Za-z0-9]+)*-\d+$/.test(text) ? text : undefined;
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
  // DESIGN §21: a device's receipt number (T1-K7Q2-000123) finds its sale, as its S- number does.
  const device = number === undefined ? deviceNumberSearched(filter.search) : undefined;
  const words = number === undefined && device === undefined ? searchWords(filter.search) : [];
  const params: unknown[] = [
    filter.customerId ?? null,
    filter.sellerId ?? null,
    number ?? null,
    filter.from ?? null,
    filter.to ?? null,
    timeZone,
    device ?? null,
    ...words.map((word) => wordMatch(word).pattern),
  ];
  // One condition per word (the search rule of lib/search.ts), each its own, so the trigram index serves them.
  const named = words
    .map((word, at) => `and s.customer_name ${wordMatch(word).operator} $${8 + at}`)
    .join(' ');
  const where = `($1::uuid is null or s.customer_id = $1::uuid) and ($2::uuid is null or s.user_id = $2::uuid)
    and ($3::bigint is null or s.number = $3::bigint)
    and ($4::date is null or s.created_at >= ($4::date)::timestamp at time zone $6::text)
    and ($5::date is null or s.created_at < ($5::date + 1)::timestamp at time zone $6::text)
    and ($7::text is null or s.device_number = $7::text) ${named}`;
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
