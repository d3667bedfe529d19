import { centsNumber, centsText, toCents } from '../../../shared/money';
import { PAYMENT_METHODS, type PaymentMethod, type Refund, refundNumberLabel } from '../../../shared/till';
import { type Runner, runnerOf, type Tx } from '../../db/connection';
import { refundLines, refunds, storeCreditEntries } from '../../db/schema';
import { locationFor } from '../locations/location-for';
import { dueOnReturn, lockOrders, takeBack, valueBroughtBack } from '../orders/orders.repository';
import { movementsInsert, type NewMovement, recordMovements } from '../stock/movements';
import { storeCurrency } from '../store/store.repository';
import { drawerHolds } from '../till/till.repository';

/** The sale with this receipt number, or undefined. */
export async function saleIdByNumber(runner: Runner, number: number): Promise<string | undefined> {
  const [row] = await runner.query<{ id: string }>('select id from sales where number = $1::bigint', [
    number,
  ]);
  return row?.id;
}

/** A refund as asked for, its input already checked (ids are uuids, reason trimmed). */
export type RefundRequest = {
  saleId: string;
  lines: readonly { order: string; quantity: number }[];
  method: PaymentMethod;
  restock: boolean;
  sessionId: string | null;
  reason: string;
  actor: { id: string; name: string };
  /** Where the units go back (DESIGN §17); undefined: each line's order's location. */
  locationId?: string;
};

/** Why a refund was refused; the route turns each into its one sentence. */
export type RefundRefusal =
  | { refused: 'saleMissing' }
  | { refused: 'methodNotOfSale'; allowed: PaymentMethod[] }
  | { refused: 'noCustomer' }
  | { refused: 'cashNeedsSession' }
  | { refused: 'sessionMissing' }
  | { refused: 'sessionClosed'; number: number }
  | { refused: 'orderNotOfSale' }
  | { refused: 'tooMany'; product: string; left: number }
  /** `currency`: the store's, read when refusing, for the sentence's amounts. */
  | { refused: 'drawerShort'; holds: bigint; currency: string }
  /** Cash beyond what the sale took less what went back in cash; `others`: where the rest may go. */
  | { refused: 'cashAboveTaken'; left: bigint; others: PaymentMethod[]; currency: string };

/** What a written refund's audit entry and answer need. */
export type RefundDone = {
  id: string;
  number: number;
  saleNumber: number;
  total: bigint;
  /** The location named for the units, when one was (DESIGN §17). */
  location?: string;
};

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Lines naming the same order added together, in the order they were first named. */
function mergeLines(lines: RefundRequest['lines']): Map<string, number> {
  const merged = new Map<string, number>();
  for (const line of lines) merged.set(line.order, (merged.get(line.order) ?? 0) + line.quantity);
  return merged;
}

/**
 * Refunds part or all of a sale at the counter (DESIGN §13), in the caller's transaction, every
 * check before any write:
 * - the method is one the sale was paid with, or store credit (which needs the sale's customer);
 * - a named session is locked (no other refund, cash movement or closing runs against it until
 *   this commits) and must be open; a cash refund needs one, and its drawer must hold the money;
 * - a cash refund gives back at most the cash the sale took (its cash payments, already net of
 *   change) less the cash refunded from it already; the sale's row is locked for it, so two cash
 *   refunds of one sale at different tills take turns;
 * - the orders the lines name are locked in order id order, then their products (lockOrders),
 *   and must be this sale's;
 *   each gives back its units and money by the one rule returns use (dueOnReturn, takeBack), so
 *   no line gives back more than was sold less what came back, also when two refunds race, and
 *   refunding every unit gives back exactly what was paid.
 * Then the refund (its number from the sequence), the stock movements in product id order, as
 * sales take products (a `return` of each line's units, which the ledger's trigger sends back to
 * the lots its order took from for a lot-tracked product, then with restock false a `damaged`
 * adjustment of the same units from where they went back, each naming the refund), the orders
 * taking back units, money and the value the returns brought (takeBack), the refund's lines with
 * the orders' rate snapshots, and for store credit the customer's entry (the ledger's trigger
 * raises the balance).
 *
 * The session is taken FOR NO KEY UPDATE: it excludes closing (an update), cash movements and
 * other refunds of the session, but not the foreign-key check of a sale written into the session,
 * which takes the product locks first and would otherwise wait on a refund waiting on its products.
 */
export async function refundSale(tx: Tx, request: RefundRequest): Promise<RefundDone | RefundRefusal> {
  const run = runnerOf(tx);
  const [sale] = await run.query<{
    id: string;
    number: string | number;
    customer_id: string | null;
    customer_name: string | null;
    methods: PaymentMethod[];
  }>(
    `select s.id, s.number, s.customer_id, s.customer_name,
            array(select distinct p.method from sale_payments p where p.sale_id = s.id) as methods
     from sales s where s.id = $1::uuid`,
    [request.saleId],
  );
  if (!sale) return { refused: 'saleMissing' };
  const allowed = PAYMENT_METHODS.filter(
    (method) => method === 'storeCredit' || sale.methods.includes(method),
  );
  if (!allowed.includes(request.method)) return { refused: 'methodNotOfSale', allowed };
  if (request.method === 'storeCredit' && sale.customer_id === null) return { refused: 'noCustomer' };

  if (request.method === 'cash' && request.sessionId === null) return { refused: 'cashNeedsSession' };

  // Locks in the order a sale takes them (decision 0029): the products (after their orders) first,
  // the session last, so a refund and a sale in one session never wait on each other in a circle.
  const asked = mergeLines(request.lines);
  const locked = await lockOrders(tx, [...asked.keys()], sale.id);
  if (locked.length !== asked.size) return { refused: 'orderNotOfSale' };
  // Where the units go back (DESIGN §17): the location named (404 unknown, 409 inactive), else
  // where each order's units left from (an inactive one refused too: it holds nothing).
  const named = request.locationId === undefined ? undefined : await locationFor(run, request.locationId);
  if (!named) for (const id of new Set(locked.map((order) => order.locationId))) await locationFor(run, id);
  const cash = request.method === 'cash' ? await cashLeftOf(run, sale.id) : null;
  let session: { id: string; number: number } | null = null;
  if (request.sessionId !== null) {
    const [row] = await run.query<{ id: string; number: string | number; status: string }>(
      'select id, number, status from register_sessions where id = $1::uuid for no key update',
      [request.sessionId],
    );
    if (!row) return { refused: 'sessionMissing' };
    if (row.status !== 'open') return { refused: 'sessionClosed', number: Number(row.number) };
    session = { id: row.id, number: Number(row.number) };
  }
  let total = 0n;
  let tax = 0n;
  for (const order of locked) {
    const due = dueOnReturn(order, asked.get(order.id) ?? 0);
    if ('tooMany' in due) return { refused: 'tooMany', product: order.productName, left: due.tooMany };
    total += due.amount;
    tax += due.tax;
  }
  if (cash !== null && total > cash) {
    const others = allowed.filter(
      (method) => method !== 'cash' && (method !== 'storeCredit' || sale.customer_id !== null),
    );
    return { refused: 'cashAboveTaken', left: cash, others, currency: await storeCurrency(run) };
  }
  if (request.method === 'cash' && session) {
    const holds = await drawerHolds(run, session.id);
    if (holds < total) return { refused: 'drawerShort', holds, currency: await storeCurrency(run) };
  }

  // Every check passed: from here on, only writes.
  const [refund] = await tx
    .insert(refunds)
    .values({
      saleId: sale.id,
      saleNumber: Number(sale.number),
      sessionId: session?.id ?? null,
      method: request.method,
      restock: request.restock,
      reason: request.reason,
      total: centsText(total),
      tax: centsText(tax),
      customerId: sale.customer_id,
      customerName: sale.customer_name,
      userId: request.actor.id,
      userName: request.actor.name,
    })
    .returning({ id: refunds.id, number: refunds.number });
  if (!refund) throw new Error('an insert answers its row');
  const label = refundNumberLabel(refund.number);

  // A product deleted since the sale has no stock to take the units back into.
  const byProduct = locked
    .filter((order) => order.productId !== null)
    .sort((a, b) => compareText(a.productId ?? '', b.productId ?? ''));
  const note = request.reason ? `Refund ${label}: ${request.reason}` : `Refund ${label}`;
  const backs = byProduct.map(
    (order): NewMovement => ({
      productId: order.productId as string,
      kind: 'return',
      quantity: asked.get(order.id) ?? 0,
      reason: 'returned',
      note,
      actor: request.actor,
      orderId: order.id,
      refundId: refund.id,
      locationId: named?.id ?? order.locationId,
      // Each row its own moment, so a product's history reads the return before the write-off.
      at: 'clock',
    }),
  );
  await recordMovements(run, backs);
  // Written off from where the units just went back: for a lot-tracked product, the lots its
  // order took from, which the ledger's trigger chose for the return (one write-off per lot); for
  // another, the product. One statement, in product id order, through the movements' order index.
  if (!request.restock && backs.length > 0)
    await run.query(
      movementsInsert({
        values: {
          at: 'clock_timestamp()',
          product_id: 'm.product_id',
          kind: "'adjustment'",
          quantity: '-sum(m.quantity)::int',
          reason: "'damaged'",
          note: '$3',
          user_id: '$4::uuid',
          user_name: '$5',
          order_id: 'm.order_id',
          refund_id: 'm.refund_id',
          lot_id: 'm.lot_id',
          location_id: 'm.location_id',
        },
        from: 'stock_movements m',
        where: "m.order_id = any($1::uuid[]) and m.refund_id = $2::uuid and m.kind = 'return'",
        groupBy: 'm.product_id, m.order_id, m.refund_id, m.lot_id, m.location_id',
        orderBy: 'm.product_id, m.order_id, m.lot_id',
      }),
      [
        backs.map((back) => back.orderId),
        refund.id,
        `Refund ${label}: written off`,
        request.actor.id,
        request.actor.name,
      ],
    );

  // The orders take the units and money back, with the value the return brought back into stock
  // (DESIGN §10, §19), once the movements above are recorded.
  const valueBack = await valueBroughtBack(run, [...asked.keys()], refund.id);
  const taken = [];
  for (const order of locked) {
    const quantity = asked.get(order.id) ?? 0;
    const done = await takeBack(tx, order, quantity, valueBack.get(order.id) ?? 0n);
    // The rows are locked and were checked just above: a refusal here is a fault, not a race.
    if ('tooMany' in done) throw new Error('a locked order changed under its lock');
    taken.push({ ...done, quantity });
  }

  // The refund's lines in receipt order; the orders hold the rate snapshot the sale took.
  const receiptOrder = [...taken].sort((a, b) => (a.order.saleLine ?? 0) - (b.order.saleLine ?? 0));
  await tx.insert(refundLines).values(
    receiptOrder.map((line, at) => ({
      refundId: refund.id,
      n: at + 1,
      orderId: line.order.id,
      productId: line.order.productId,
      productName: line.order.productName,
      quantity: line.quantity,
      amount: centsText(line.amount),
      tax: centsText(line.tax),
      taxRateName: line.order.taxRateName,
      taxRate: line.order.taxRate,
    })),
  );

  if (request.method === 'storeCredit' && sale.customer_id !== null && total > 0n) {
    await tx.insert(storeCreditEntries).values({
      customerId: sale.customer_id,
      amount: centsText(total),
      kind: 'refund',
      saleId: sale.id,
      refundId: refund.id,
      userId: request.actor.id,
      userName: request.actor.name,
      note: `Refund ${label}`,
    });
  }
  return {
    id: refund.id,
    number: refund.number,
    saleNumber: Number(sale.number),
    total,
    location: named?.name,
  };
}

/**
 * The cash a sale may still give back (DESIGN §13): what its cash payments put towards its total
 * (cash paid less change) less its cash refunds, in cents. Locks the sale's row first (after its
 * orders and products, before the session, in the order refunds take their locks), so that cash
 * refunds of one sale are judged one after another.
 */
async function cashLeftOf(run: Runner, saleId: string): Promise<bigint> {
  await run.query('select 1 from sales where id = $1::uuid for no key update', [saleId]);
  // A statement of its own after the lock: read committed, it sees a refund that held the lock.
  const [row] = await run.query<{ left: string }>(
    `select ((select coalesce(sum(amount), 0) from sale_payments where sale_id = $1::uuid and method = 'cash')
             - (select coalesce(sum(total), 0) from refunds where sale_id = $1::uuid and method = 'cash'))::text
            as left`,
    [saleId],
  );
  return toCents(row?.left ?? '0');
}

/** A refund as its receipt shows it (R-000123), or undefined. */
export async function findRefund(runner: Runner, id: string): Promise<Refund | undefined> {
  const [row] = await runner.query<{
    id: string;
    number: string | number;
    sale_id: string;
    sale_number: string | number;
    session_id: string | null;
    session_number: string | number | null;
    total: string;
    tax: string;
    method: PaymentMethod;
    restock: boolean;
    reason: string;
    customer_id: string | null;
    customer_name: string | null;
    user_id: string | null;
    user_name: string;
    created_at: string | Date;
  }>(
    `select r.id, r.number, r.sale_id, r.sale_number, r.session_id, rs.number as session_number,
            r.total::text as total, r.tax::text as tax, r.method, r.restock, r.reason, r.customer_id,
            r.customer_name, r.user_id, r.user_name, r.created_at
     from refunds r left join register_sessions rs on rs.id = r.session_id
     where r.id = $1::uuid`,
    [id],
  );
  if (!row) return undefined;
  const lines = await runner.query<{
    order_id: string;
    product_id: string | null;
    product_name: string;
    quantity: number;
    amount: string;
    tax: string;
  }>(
    `select order_id, product_id, product_name, quantity, amount::text as amount, tax::text as tax
     from refund_lines where refund_id = $1::uuid order by n`,
    [id],
  );
  return {
    _id: row.id,
    number: Number(row.number),
    sale: { _id: row.sale_id, number: Number(row.sale_number) },
    session:
      row.session_id === null || row.session_number === null
        ? null
        : { _id: row.session_id, number: Number(row.session_number) },
    lines: lines.map((line) => ({
      order: { _id: line.order_id },
      product: { _id: line.product_id, name: line.product_name },
      quantity: line.quantity,
      amount: centsNumber(toCents(line.amount)),
      tax: centsNumber(toCents(line.tax)),
    })),
    total: centsNumber(toCents(row.total)),
    tax: centsNumber(toCents(row.tax)),
    method: row.method,
    restock: row.restock,
    reason: row.reason,
    customer: row.customer_name === null ? null : { _id: row.customer_id, name: row.customer_name },
    user: { _id: row.user_id, name: row.user_name },
    createdAt: new Date(row.created_at).toISOString(),
  };
}
