import type { FastifyRequest } from 'fastify';
import type { Elsewhere, LocationName } from '../../../shared/locations';
import type { OrderLot } from '../../../shared/lots';
import {
  type CartLine,
  centsNumber,
  type Discount,
  formatCents,
  isCartProblem,
  linesOverLimit,
  type PricedCart,
  priceCart,
  toCents,
} from '../../../shared/money';
import type { Role } from '../../../shared/roles';
import { type ApprovalInput, type PaymentMethod, type Sale, saleNumberLabel } from '../../../shared/sales';
import {
  type CentsPayment,
  isPaymentProblem,
  type SaleMethod,
  type SettledPayment,
  settleCents,
} from '../../../shared/till';
import type { Runner } from '../../db/connection';
import { runnerOf, type Tx } from '../../db/connection';
import type { SignedInRunner } from '../../lib/auth';
import { signedInRunner } from '../../lib/auth';
import { AppError, badRequest, isId, notFound, refuse } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import { type Allowance, tryAgainIn } from '../../lib/throttle';
import { recordAudit } from '../audit/audit.repository';
import { lotForAdding, orderLots } from '../lots/lots.repository';
import { recordMovements } from '../stock/movements';
import {
  type CartRow,
  findApprover,
  readCart,
  receiptOf,
  type WriteLine,
  type WrittenRow,
  writeSale,
} from './sales.repository';

/** A line as a sale takes it. */
export type SellLine = {
  productId: string;
  quantity: number;
  discount?: Discount;
  overrideStock?: boolean;
  /** DESIGN §21, an offline sale's line: the unit price (money text) and tax rate id the device sold at. */
  unitPrice?: string;
  taxRate?: string | null;
};

/** A sale's lines as the statements take them: one per product, quantities added, in cart order. */
export type MergedLine = {
  productId: string;
  quantity: number;
  discount?: Discount;
  overrideStock: boolean;
  unitPrice?: string;
  taxRate?: string | null;
};

/**
 * Lines naming the same product become one, at its first place, with the quantities added (DESIGN
 * §11). Their discounts must agree: amounts add up (an amount is for its line), a percent must be
 * the same on each; otherwise the cart is a 400. overrideStock holds when any of them asks for it.
 */
export function mergeLines(lines: readonly SellLine[]): MergedLine[] {
  const merged = new Map<string, MergedLine & { parts: (Discount | undefined)[] }>();
  for (const line of lines) {
    const known = merged.get(line.productId);
    if (!known) {
      merged.set(line.productId, {
        productId: line.productId,
        quantity: line.quantity,
        discount: line.discount,
        overrideStock: line.overrideStock === true,
        ...(line.unitPrice === undefined ? {} : { unitPrice: line.unitPrice, taxRate: line.taxRate ?? null }),
        parts: [line.discount],
      });
      continue;
    }
    // An offline sale's lines of one product were sold at one price and rate (DESIGN §21).
    if (line.unitPrice !== known.unitPrice || (line.taxRate ?? null) !== (known.taxRate ?? null))
      throw badRequest('The same product is on two lines at different prices or rates; put it on one line.');
    known.quantity += line.quantity;
    known.overrideStock ||= line.overrideStock === true;
    known.parts.push(line.discount);
  }
  return [...merged.values()].map(({ parts, ...line }) => {
    if (parts.length === 1) return line;
    const given = parts.filter((part): part is Discount => part !== undefined);
    if (given.length === 0) return line;
    if (given.every((part) => part.type === 'amount')) {
      const cents = given.reduce((sum, part) => sum + toCents(part.value), 0n);
      return { ...line, discount: { type: 'amount', value: centsNumber(cents) } };
    }
    const [first] = given;
    if (
      given.length === parts.length &&
      given.every((part) => part.type === 'percent' && part.value === first?.value)
    )
      return { ...line, discount: first };
    throw badRequest('The same product is on two lines with different discounts; put it on one line.');
  });
}

/** Why a sale was refused before anything was written, with what the refusal names. */
export type SaleRefusal =
  | { reason: 'productMissing' }
  /** DESIGN §22: an inactive product is not sold. */
  | { reason: 'productInactive'; product: string }
  /** The total the screen showed is not the one computation's on the database's data now. */
  | { reason: 'totalChanged'; total: bigint; shown: bigint; currency: string }
  /** Short at the sale's location (DESIGN §17), even when another holds it: `elsewhere` says where. */
  | { reason: 'shortOfStock'; product: string; stock: number; location: string; elsewhere: Elsewhere }
  /** A lot-tracked product's unexpired units at the location fall short (DESIGN §15); never overridden. */
  | { reason: 'unexpiredShort'; product: string; unexpired: number; elsewhere: Elsewhere }
  /** The location the sale would take from is inactive (its register's, or the seller's). */
  | { reason: 'locationInactive'; location: string }
  | { reason: 'customerMissing' }
  /** Amounts as the sentence writes them, in the store's currency (formatCents). */
  | { reason: 'tenderedShort'; total: string }
  | { reason: 'paymentsShort'; missing: string; total: string }
  | { reason: 'nonCashAboveTotal'; total: string }
  | { reason: 'creditNeedsCustomer' }
  | { reason: 'creditShort'; customer: string; balance: string }
  | { reason: 'sessionMissing' }
  | { reason: 'sessionClosed' }
  /** DESIGN §21: an offline sale whose total is not the one computation of its lines as sent (a device bug). */
  | { reason: 'offlineTotal'; total: string; sent: string }
  /** DESIGN §21: store credit is not spent offline. */
  | { reason: 'offlineCredit' };

/** DESIGN §21: why an offline sale is for an admin to look at. */
export type ReviewReason = 'stock' | 'price' | 'session';

/** DESIGN §21: a sale the device made offline, as the server records it. */
export type OfflineSale = {
  id: string;
  soldAt: Date;
  deviceNumber: string;
  /** The request's body, hashed: the same id with another body is refused. */
  hash: string;
  /** Since when (now − the store's offlineHours) a price the product had counts as its own. */
  pricesSince: Date;
};

/**
 * How a sale is paid, in cents from the parsed request on: the single payment of §11 (cash may say
 * what was tendered; without it, and for every other method, the customer paid the exact total)
 * or the payments of §13.
 */
export type SellPayment =
  | { method: PaymentMethod; tendered: bigint | null }
  | { payments: readonly CentsPayment[] };

export type SellInput = {
  lines: readonly SellLine[];
  customerId: string | null;
  discount?: Discount;
  approval?: ApprovalInput;
  payment: SellPayment;
  /** The open till session whose drawer takes the cash, or null: the sale belongs to no drawer. */
  sessionId?: string | null;
  /** The total the seller's screen showed (cents), when it says: another is refused (totalChanged). */
  total?: bigint;
  /** DESIGN §21: a sale made offline, recorded as the fact it is: see sellCart. */
  offline?: OfflineSale;
};

/** The payments a sale is judged by: the single payment of §11 as one payment of its total. */
function paymentsOf(payment: SellPayment, total: bigint): readonly CentsPayment[] {
  if ('payments' in payment) return payment.payments;
  const amount = payment.method === 'cash' && payment.tendered !== null ? payment.tendered : total;
  return [{ method: payment.method, amount }];
}

/** Σ of what `pick` gives of each payment (null counts as nothing). */
function sumOf(
  payments: readonly SettledPayment[],
  pick: (payment: SettledPayment) => bigint | null,
): bigint {
  return payments.reduce((sum, payment) => sum + (pick(payment) ?? 0n), 0n);
}

/** A written sale: its receipt, its orders, the lots each order took (none without lots) and the seller's role. */
export type Sold = {
  sale: Sale;
  orders: WrittenRow[];
  lots: Map<string, OrderLot[]>;
  sellerRole: Role;
  /** Where the sale took its units from (DESIGN §17). */
  location: LocationName;
};

/** What a sale needs of its caller: the signed-in check, the store's name, and the approvers' PIN counters. */
export type SellContext = {
  signedIn: (runner: Runner) => SignedInRunner;
  storeName: string;
  pins: Allowance;
};

/** A request's sale context: its signed-in seller (see signedInRunner). */
export function sellContext(request: FastifyRequest): SellContext {
  return {
    signedIn: (runner) => signedInRunner(request, runner),
    storeName: request.server.config.storeName,
    pins: request.server.allowances.approvalPins,
  };
}

/** A rate as a line is taxed at it: its name and percent (the product's in force, or the device's). */
type LineRate = { name: string; rate: string } | null;

/**
 * The cart as the shared computation takes it: from the database's own prices and rates, or for
 * an offline sale (DESIGN §21) the device's, which the customer paid. The rows are turned into
 * what is priced and written: an offline line's unit price and rate replace the product's.
 */
async function pricedRows(
  run: Runner,
  rows: readonly CartRow[],
  merged: readonly MergedLine[],
  offline: boolean,
): Promise<CartRow[]> {
  if (!offline) return [...rows];
  const ids = [...new Set(merged.flatMap((line) => (line.taxRate ? [line.taxRate] : [])))];
  const rates = new Map<string, LineRate>();
  if (ids.length > 0) {
    const known = ids.every(isId)
      ? await run.query<{ id: string; name: string; rate: string }>(
          'select id, name, rate::text as rate from tax_rates where id = any($1::uuid[])',
          [ids],
        )
      : [];
    for (const rate of known) rates.set(rate.id, { name: rate.name, rate: rate.rate });
    if (rates.size !== ids.length) throw notFound('Tax rate');
  }
  return rows.map((row, at) => {
    const line = merged[at] as MergedLine;
    const rate = line.taxRate ? (rates.get(line.taxRate) ?? null) : null;
    return {
      ...row,
      price: line.unitPrice ?? row.price,
      rate_name: rate?.name ?? null,
      rate: rate?.rate ?? null,
    };
  });
}

function cartOf(rows: readonly CartRow[], merged: readonly MergedLine[]): CartLine[] {
  return rows.map((row, at) => ({
    unitPrice: row.price ?? '0',
    quantity: row.quantity,
    taxRate:
      row.rate_name === null || row.rate === null ? null : { name: row.rate_name, rate: Number(row.rate) },
    discount: merged[at]?.discount ?? null,
  }));
}

/**
 * An admin's approval (DESIGN §12): the email of an active admin whose PIN matches. Each try counts
 * on that email's own PIN counter before the PIN is checked (429 once over, whatever the PIN),
 * never on its sign-in throttle, and only a right PIN takes its count back; every try that does
 * not approve is one 403 sentence (WRONG_PIN). Answers the approver.
 */
async function approve(
  context: SellContext,
  tx: Tx,
  approval: ApprovalInput | undefined,
): Promise<{ id: string; name: string }> {
  if (!approval) throw refuse('APPROVAL_NEEDED');
  const email = approval.email.trim().toLowerCase();
  const taken = await context.pins.take(email);
  if (!taken.admitted) throw refuse('TOO_MANY_PINS', { email, wait: tryAgainIn(taken.waitMs) });
  const approver = await findApprover(runnerOf(tx), email);
  const matches = await verifyPassword(approver?.pinHash ?? undefined, approval.pin);
  if (!approver || !matches) throw refuse('WRONG_PIN', { email });
  await context.pins.giveBack(taken);
  return approver;
}

/**
 * A sale (DESIGN §11, §12; decision 0027), in the caller's transaction `tx`, for the context's
 * signed-in seller: the cart is read with its products locked in id order, priced by the shared
 * computation (priceCart) on the database's prices and rates in force, then judged — invalid input
 * (400: discounts) first, then a total other than the seller's screen showed (409 totalChanged, so
 * no payment is judged against a total the screen did not show), then the payments (400, by
 * settlePayments; store credit without a customer), then the till session (409 once closed) and
 * the customer's store credit (409 above the balance, locked as it was read), then stock (409
 * unless the line overrides it), then whether an approval is needed (a selling role above the
 * store's limit, or a line overriding stock; checked only then) — and written in one statement,
 * with its payments and the store credit it spends. A line sold above stock with approval first
 * gets a `found` adjustment of the missing units by the approver, through the ledger. Answers the
 * receipt and the orders, or why nothing was written.
 */
export async function sellCart(context: SellContext, tx: Tx, input: SellInput): Promise<Sold | SaleRefusal> {
  const merged = mergeLines(input.lines);
  const run = context.signedIn(runnerOf(tx));
  const read = await readCart(run, {
    lines: merged,
    customerId: input.customerId,
    storeName: context.storeName,
    sessionId: input.sessionId ?? null,
  });
  if (read.length !== merged.length || read.some((row) => !row.found)) return { reason: 'productMissing' };
  const offline = input.offline;
  // An offline sale is a fact (DESIGN §21): the goods left with the customer, so a product made
  // inactive meanwhile is still recorded as sold.
  const inactive = offline ? undefined : read.find((row) => row.active === false);
  if (inactive) return { reason: 'productInactive', product: inactive.name ?? '' };
  const rows = await pricedRows(runnerOf(tx), read, merged, offline !== undefined);
  const review = new Set<ReviewReason>();
  const first = rows[0] as CartRow;
  const store = first.store;
  const priced = priceCart({
    lines: cartOf(rows, merged),
    discount: input.discount ?? null,
    pricesIncludeTax: store.pricesIncludeTax,
  });
  if (isCartProblem(priced)) {
    if (priced.problem === 'lineDiscountAboveGross')
      throw badRequest(
        `The discount on ${rows[priced.line]?.name ?? 'a line'} is more than the line's price.`,
      );
    throw badRequest("The sale's discount is more than its subtotal.");
  }
  // An offline sale's total is the one computation of its lines as sent: another is a device's bug.
  if (offline && input.total !== priced.total)
    return {
      reason: 'offlineTotal',
      total: formatCents(priced.total, store.currency),
      sent: formatCents(input.total ?? 0n, store.currency),
    };
  if (offline && (await pricesUnknown(runnerOf(tx), rows, merged, offline.pricesSince))) review.add('price');
  // What the customer was told is what they pay: a price, rate or setting that moved since the
  // screen priced the cart is said before anything else is judged against the new total.
  if (input.total !== undefined && input.total !== priced.total)
    return {
      reason: 'totalChanged',
      total: priced.total,
      shown: input.total,
      currency: store.currency,
    };
  if (input.customerId !== null && first.customer_found === 0) return { reason: 'customerMissing' };
  let sessionId = input.sessionId ?? null;
  if (sessionId !== null && first.session_found === 0) return { reason: 'sessionMissing' };

  // Every sale is judged by the one rule of payments (DESIGN §13), the single payment as one.
  const settled = settleCents(priced.total, paymentsOf(input.payment, priced.total));
  // Amounts in refusals are written in the store's currency, read with the cart.
  const money = (cents: bigint) => formatCents(cents, store.currency);
  if (isPaymentProblem(settled)) {
    if (settled.problem === 'nonCashAboveTotal')
      return { reason: 'nonCashAboveTotal', total: money(priced.total) };
    if (!('payments' in input.payment)) return { reason: 'tenderedShort', total: money(priced.total) };
    return { reason: 'paymentsShort', missing: money(settled.missing), total: money(priced.total) };
  }
  const credit = sumOf(settled.payments, (p) => (p.method === 'storeCredit' ? p.amount : null));
  const paysWithCredit = settled.payments.some((payment) => payment.method === 'storeCredit');
  if (paysWithCredit && offline) return { reason: 'offlineCredit' };
  if (paysWithCredit && input.customerId === null) return { reason: 'creditNeedsCustomer' };
  // The session was locked and read after any close that raced this sale (readCart). An offline
  // sale whose session closed meanwhile is recorded outside any session (DESIGN §21).
  if (sessionId !== null && first.session_status !== 'open') {
    if (!offline) return { reason: 'sessionClosed' };
    sessionId = null;
    review.add('session');
  }
  if (!first.location_active) return { reason: 'locationInactive', location: first.location_name };
  const location = { _id: first.location_id, name: first.location_name };
  const balance = toCents(first.customer_credit ?? '0');
  if (credit > balance)
    return { reason: 'creditShort', customer: first.customer_name ?? '', balance: money(balance) };
  const cashPaid = settled.payments.some((payment) => payment.method === 'cash');
  const method: SaleMethod =
    settled.payments.length === 1 ? (settled.payments[0] as SettledPayment).method : 'split';
  const tendered = cashPaid ? sumOf(settled.payments, (p) => p.tendered) : null;
  const change = cashPaid ? settled.change : null;

  // Expired units are never sold, nor found at the counter: a lot-tracked line short of unexpired
  // units at the location is refused whatever it asks (and, unexpired ≤ stock, never among the
  // short lines below).
  const expiredShort = offline
    ? undefined
    : rows.find((row) => row.tracking === 'lot' && (row.unexpired ?? 0) < row.quantity);
  if (expiredShort)
    return {
      reason: 'unexpiredShort',
      product: expiredShort.name ?? '',
      unexpired: expiredShort.unexpired ?? 0,
      elsewhere: expiredShort.elsewhere ?? [],
    };
  // Stock is the location's (DESIGN §17): a line short there is short, whatever others hold.
  const shortAt = (row: CartRow): SaleRefusal => ({
    reason: 'shortOfStock',
    product: row.name ?? '',
    stock: row.stock ?? 0,
    location: location.name,
    elsewhere: row.elsewhere ?? [],
  });
  const shortLines = rows.filter((row) => (row.stock ?? 0) < row.quantity);
  const seller0 = { id: first.seller_id ?? '', name: first.seller_name ?? '' };
  if (offline) {
    // The goods left with the customer (DESIGN §21): the units the system did not know of are
    // found first, with the reason offline, so stock never goes below zero.
    const missing = await recordOfflineFinds(runnerOf(tx), rows, location._id, seller0);
    if (missing) review.add('stock');
  }
  const refused = offline ? undefined : shortLines.find((row) => !merged[rows.indexOf(row)]?.overrideStock);
  if (refused) return shortAt(refused);

  const seller = {
    id: first.seller_id ?? '',
    name: first.seller_name ?? '',
    role: (first.seller_role ?? 'user') as Role,
  };
  const limited = seller.role !== 'admin';
  const overLimit = limited ? linesOverLimit(priced, Number(first.store_max_discount_percent)) : [];
  // Offline, no approval can be asked: a discount above the limit is for an admin to review.
  if (offline && overLimit.length > 0) review.add('price');
  const overriding = limited && !offline ? shortLines : [];
  // Without an approval a line above stock stays a 409, as any line short of stock (DESIGN §12).
  const unvouched = input.approval === undefined ? overriding[0] : undefined;
  if (unvouched) return shortAt(unvouched);
  // A line above stock without an approval was refused just above: only a discount can lack one here.
  const approver =
    !offline && (overLimit.length > 0 || overriding.length > 0)
      ? await approve(context, tx, input.approval)
      : undefined;

  // Units on the shelf the system does not know of: found first at the sale's location, by
  // whoever vouched for them, in product id order (one statement).
  const finder = approver ?? seller;
  const found = offline ? [] : [...shortLines].sort((a, b) => (a.product_id < b.product_id ? -1 : 1));
  await recordMovements(
    runnerOf(tx),
    found.map((row) => ({
      productId: row.product_id,
      kind: 'adjustment' as const,
      quantity: row.quantity - (row.stock ?? 0),
      reason: 'found' as const,
      note: 'Sold at the counter above the recorded stock',
      actor: { id: finder.id, name: finder.name },
      locationId: location._id,
    })),
  );

  const orders = await writeSale(run, {
    lines: rows.map((row, at) => writeLine(row, priced, at)),
    customerId: input.customerId,
    customerName: first.customer_name,
    method,
    tendered,
    change,
    subtotal: priced.subtotal,
    discount: priced.discount,
    tax: priced.tax,
    total: priced.total,
    store,
    sessionId,
    payments: settled.payments,
    storeCredit: credit > 0n ? credit : null,
    locationId: location._id,
    offline: offline
      ? {
          id: offline.id,
          hash: offline.hash,
          soldAt: offline.soldAt,
          deviceNumber: offline.deviceNumber,
          review: [...review].sort(),
        }
      : null,
  });
  const placed = orders[0];
  if (!placed?.sale_id) throw new AppError(500, 'A sale that passed its checks was not written.');
  // The lots the trigger picked: one statement more only when the cart holds a tracked product.
  const tracked = new Set(rows.filter((row) => row.tracking === 'lot').map((row) => row.product_id));
  const lots =
    tracked.size === 0
      ? new Map<string, OrderLot[]>()
      : await orderLots(
          runnerOf(tx),
          orders.filter((order) => tracked.has(order.product_id ?? '')).map((order) => order.id),
        );
  // The write's rows are the receipt's, as written (one mapping, receiptOf); only the payments,
  // settled here, go to the answer from cents.
  const sale = receiptOf(placed, store, orders, lots, {
    payments: settled.payments.map((payment) => ({
      method: payment.method,
      amount: centsNumber(payment.amount),
      tendered: payment.tendered === null ? null : centsNumber(payment.tendered),
    })),
    session: sessionId === null ? null : { _id: sessionId, number: Number(first.session_number ?? 0) },
    location,
  });

  const entity = { type: 'sale' as const, id: sale._id, name: saleNumberLabel(sale.number) };
  const vouching = { id: finder.id, name: finder.name, role: 'admin' as const };
  if (approver && overLimit.length > 0)
    await recordAudit(tx, {
      actor: vouching,
      action: 'discountApproved',
      entity,
      changes: [
        { field: 'seller', new: seller.name },
        { field: 'approvedBy', new: approver.name },
        { field: 'discount', new: centsNumber(priced.discount) },
        ...overLimit.map((at) => ({
          field: rows[at]?.name ?? 'line',
          new: centsNumber(priced.lines[at]?.discount ?? 0n),
        })),
      ],
    });
  // Every line sold above stock, approved or sold by an admin, names who vouched for the units
  // (an offline sale's finds name the seller and the reason offline instead).
  for (const row of offline ? [] : shortLines)
    await recordAudit(tx, {
      actor: vouching,
      action: 'stockOverridden',
      entity,
      changes: [
        { field: 'seller', new: seller.name },
        { field: 'approvedBy', new: finder.name },
        { field: 'product', new: row.name ?? '' },
        { field: 'found', new: row.quantity - (row.stock ?? 0) },
      ],
    });
  return { sale, orders, lots, sellerRole: seller.role, location };
}

function writeLine(row: CartRow, priced: PricedCart, at: number): WriteLine {
  const line = priced.lines[at];
  if (!line) throw new Error('a priced cart has a line for every row');
  return {
    productId: row.product_id,
    quantity: row.quantity,
    n: row.n,
    unitPrice: row.price ?? '0',
    unitCost: row.cost,
    total: line.total,
    discount: line.discount,
    tax: line.tax,
    rateName: row.rate_name,
    rate: row.rate,
    productName: row.name ?? '',
    categoryName: row.category_name ?? '',
  };
}

/**
 * DESIGN §21: whether a line of an offline sale was sold at a price or rate its product did not
 * have at any moment since `since` (product_prices keeps each product's price and own rate over
 * time; a product without a rate of its own is taxed at the store's default).
 */
async function pricesUnknown(
  run: Runner,
  rows: readonly CartRow[],
  merged: readonly MergedLine[],
  since: Date,
): Promise<boolean> {
  const lines = rows.map((row, at) => ({
    product_id: row.product_id,
    price: row.price,
    rate: merged[at]?.taxRate ?? null,
  }));
  const [row] = await run.query<{ unknown: number }>(
    `select count(*)::int as unknown
       from jsonb_to_recordset($1::jsonb) as l(product_id uuid, price numeric, rate uuid)
      where not exists (
        select 1 from product_prices h
         where h.product_id = l.product_id and h.price = l.price
           and coalesce(h.tax_rate_id, (select default_tax_rate_id from store_settings)) is not distinct from l.rate
           and (h.valid_to is null or h.valid_to >= $2::timestamptz))`,
    [JSON.stringify(lines), since.toISOString()],
  );
  return (row?.unknown ?? 0) > 0;
}

/**
 * DESIGN §21: an offline sale's units the system did not know the shelf had, found first at the
 * sale's location by the seller with the reason `offline`, in product id order: an untracked line
 * the units above its stock there; a lot-tracked one the units above its unexpired ones, into the
 * lot first-expiry-first-out would take next (the earliest unexpired lot holding some there) or,
 * when every lot there is empty or expired, into the lot UNKNOWN without expiry. Answers whether
 * any were found.
 */
async function recordOfflineFinds(
  run: Runner,
  rows: readonly CartRow[],
  locationId: string,
  seller: { id: string; name: string },
): Promise<boolean> {
  const short = rows
    .map((row) => ({
      row,
      missing: row.quantity - (row.tracking === 'lot' ? (row.unexpired ?? 0) : (row.stock ?? 0)),
    }))
    .filter((line) => line.missing > 0)
    .sort((a, b) => (a.row.product_id < b.row.product_id ? -1 : 1));
  if (short.length === 0) return false;
  const movements = [];
  for (const { row, missing } of short) {
    let lotId: string | null = null;
    if (row.tracking === 'lot') {
      const [next] = await run.query<{ lot_id: string }>(
        `select s.lot_id from lot_stock s join lots l on l.id = s.lot_id
          where s.product_id = $1::uuid and s.location_id = $2::uuid and s.quantity > 0
            and (l.expires_on is null or l.expires_on >= store_today())
          order by l.expires_on nulls last, l.number limit 1`,
        [row.product_id, locationId],
      );
      lotId =
        next?.lot_id ?? (await lotForAdding(run, row.product_id, { number: 'UNKNOWN', expiresOn: null }))._id;
    }
    movements.push({
      productId: row.product_id,
      kind: 'adjustment' as const,
      quantity: missing,
      reason: 'offline' as const,
      note: 'Sold offline above the recorded stock',
      actor: seller,
      locationId,
      lotId,
    });
  }
  await recordMovements(run, movements);
  return true;
}
