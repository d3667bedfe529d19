import type { Database } from '../src/server/db/connection';
import type { Actor } from '../src/server/modules/audit/audit.repository';
import { receivePurchaseOrder } from '../src/server/modules/purchasing/purchasing.repository';
import { toCents } from '../src/shared/money';
import { preparePurchaseOrders, RECEIVE_LINES } from './purchasing';
import { BILLS, quick } from './settings';
import { call, type Timed } from './stocktakes';

/**
 * DESIGN §20 (issue 42): suppliers' bills of received purchase orders, drafted, posted and paid in
 * full by bank transfer, one after another, as an accountant works through a pile of invoices.
 */

/** Lines of each bill: a whole purchase order of the receive row's size. */
export const BILL_LINES = RECEIVE_LINES;
/**
 * The bills' purchase orders' products: BILLS × BILL_LINES from this offset on (by id), past the
 * purchase orders the receive row and the suggestions use (1,000 to 1,000 + their lines: 2,400 at
 * --quick, 8,000 in full) and, in full, past the transfers' (about 9,000 to 9,400).
 */
export const BILL_PRODUCTS_OFFSET = quick ? 3_000 : 10_000;

/** The rows: each bill drafted from its purchase order, posted, then paid. */
export const BILL_DRAFT_ROW = `draft a ${BILL_LINES}-line bill from a received purchase order, one after another`;
export const BILL_POST_ROW = `post a ${BILL_LINES}-line bill, one after another`;
export const BILL_PAY_ROW = 'pay a bill in full by bank transfer, one after another';

/** Purchase orders received in full before the server starts, each with its supplier and lines. */
export interface BillSet {
  orders: Array<{
    id: string;
    supplier: string;
    lines: Array<{ line: string; quantity: number; unitCost: number }>;
  }>;
  /** The store's default tax rate, billed as input tax on every line (null: none, lines untaxed). */
  taxRate: string | null;
}

/**
 * `count` purchase orders of BILL_LINES lines over their own products (preparePurchaseOrders at
 * BILL_PRODUCTS_OFFSET), each received in full by the purchasing module's own writer
 * (receivePurchaseOrder: the receipt movements, their value to 2100) in its own transaction, as
 * the bench's admin, before the server starts: so the suggestions never see them on order.
 */
export async function prepareBills(database: Database, count = BILLS): Promise<BillSet> {
  const { toReceive } = await preparePurchaseOrders(
    database,
    { open: 0, toReceive: count },
    BILL_PRODUCTS_OFFSET,
  );
  const [admin] = await database.query<Actor>(
    "select id, name, role from users where email = 'user2@bench.example'",
  );
  if (!admin) throw new Error('the data set has no admin user2@bench.example');
  for (const order of toReceive)
    await database.db.transaction((tx) => receivePurchaseOrder(tx, order.id, order.lines, admin));
  const rows = await database.query<{
    id: string;
    supplier: string;
    line: string;
    quantity: number;
    unitCost: string;
  }>(
    `select o.id, o.supplier_id as supplier, l.id as line, l.received as quantity, l.unit_cost::text as "unitCost"
       from purchase_orders o join purchase_order_lines l on l.purchase_order_id = o.id
      where o.id = any($1::uuid[]) and o.status = 'received'
      order by o.number, l.position`,
    [toReceive.map((order) => order.id)],
  );
  const orders = new Map<string, BillSet['orders'][number]>();
  for (const row of rows) {
    const order = orders.get(row.id) ?? { id: row.id, supplier: row.supplier, lines: [] };
    order.lines.push({ line: row.line, quantity: row.quantity, unitCost: Number(row.unitCost) });
    orders.set(row.id, order);
  }
  if (orders.size !== count) throw new Error(`${orders.size} of ${count} purchase orders were received`);
  const [rate] = await database.query<{ id: string }>(
    'select r.id from tax_rates r join store_settings s on s.default_tax_rate_id = r.id',
  );
  return { orders: [...orders.values()], taxRate: rate?.id ?? null };
}

/** What the bills measured; `problems` is what did not hold, in words. */
export interface BillRun {
  draft: Timed;
  post: Timed;
  pay: Timed;
  /** The bills the run made, and how many it meant to. */
  bills: string[];
  expected: number;
  /** What GET /api/accounting/payables answered as owed in all afterwards (= the balance of 2000). */
  payables: number | undefined;
  problems: string[];
}

type BillAnswer = { bill: { _id: string; status: string; total: number; open: number } };
type PaymentAnswer = { payment: { _id: string; amount: number; unallocated: number } };

/**
 * Each purchase order of the set in turn: a bill of every line's received units drafted (at the
 * line's cost, one line in ten 2 % above it, so the price difference goes to 5200; taxed at the
 * store's default rate when it has one), posted, then paid in full by bank transfer (one payment
 * allocated to it whole), each request timed; then what is owed, from the payables report.
 */
export async function billAndPayAll(
  url: string,
  headers: Record<string, string>,
  set: BillSet,
  day: string,
): Promise<BillRun> {
  const timed = (): Timed => ({ ms: [], statuses: {}, errors: 0, seconds: 0 });
  const run: BillRun = {
    draft: timed(),
    post: timed(),
    pay: timed(),
    bills: [],
    expected: set.orders.length,
    payables: undefined,
    problems: [],
  };
  const problem = (text: string) => {
    if (run.problems.length < 5) run.problems.push(text);
  };
  const record = (into: Timed, answer: { status: number; ms: number }) => {
    into.ms.push(answer.ms);
    into.statuses[answer.status] = (into.statuses[answer.status] ?? 0) + 1;
    into.seconds += answer.ms / 1000;
  };
  for (const [n, order] of set.orders.entries()) {
    const made = await call<BillAnswer>(url, 'POST', '/bills', headers, {
      supplier: order.supplier,
      reference: `BENCH-${String(n + 1).padStart(4, '0')}`,
      date: day,
      lines: order.lines.map((line, at) => ({
        purchaseOrderLine: line.line,
        quantity: line.quantity,
        unitPrice: at % 10 === 0 ? Math.round(line.unitCost * 102) / 100 : line.unitCost,
        ...(set.taxRate ? { taxRate: set.taxRate } : {}),
      })),
    });
    record(run.draft, made);
    if (made.status !== 201 || !made.body) {
      problem(`drafting bill ${n + 1}: ${made.status} ${made.text.slice(0, 160)}`);
      continue;
    }
    const bill = made.body.bill._id;
    const posted = await call<BillAnswer>(url, 'POST', `/bills/${bill}/post`, headers);
    record(run.post, posted);
    if (posted.status !== 200 || posted.body?.bill.status !== 'posted') {
      problem(`posting bill ${n + 1}: ${posted.status} ${posted.text.slice(0, 160)}`);
      continue;
    }
    const total = posted.body.bill.total;
    const paid = await call<PaymentAnswer>(url, 'POST', '/supplier-payments', headers, {
      supplier: order.supplier,
      date: day,
      amount: total,
      method: 'bank',
      allocations: [{ bill, amount: total }],
    });
    record(run.pay, paid);
    if (paid.status !== 201 || paid.body?.payment.unallocated !== 0)
      problem(`paying bill ${n + 1}: ${paid.status} ${paid.text.slice(0, 160)}`);
    run.bills.push(bill);
  }
  const owed = await call<{ totals: { total: number } }>(url, 'GET', '/accounting/payables', headers);
  if (owed.status !== 200 || !owed.body) problem(`payables: ${owed.status} ${owed.text.slice(0, 160)}`);
  run.payables = owed.body?.totals.total;
  return run;
}

/** The database after the run: the bills' states and the balance of 2000 beside what is open. */
export interface BillCheck {
  bills: number;
  /** Of the run's bills, those paid in full (status paid, paid = total). */
  paid: number;
  /** 2000 Accounts payable (credit − debit), the open bills (posted, part paid), payments' credit. */
  payable: string;
  open: string;
  unallocated: string;
}

export async function checkBills(database: Database, run: BillRun): Promise<BillCheck> {
  const [row] = await database.query<BillCheck>(
    `select (select count(*)::int from bills where id = any($1::uuid[])) as bills,
            (select count(*)::int from bills where id = any($1::uuid[]) and status = 'paid' and paid = total) as paid,
            (select coalesce(sum(l.credit - l.debit), 0)::numeric(14, 2)::text from journal_lines l
               join accounts a on a.id = l.account_id where a.code = '2000') as payable,
            (select coalesce(sum(total - paid), 0)::numeric(14, 2)::text from bills
              where status in ('posted', 'partiallyPaid')) as open,
            (select coalesce(sum(amount - allocated), 0)::numeric(14, 2)::text from supplier_payments) as unallocated`,
    [run.bills],
  );
  return row as BillCheck;
}

/** What the bills' run and the database after it found wrong (nothing when the run did not run). */
export function billProblems(run: BillRun | undefined, check: BillCheck | undefined): string[] {
  if (!run) return [];
  const problems = [...run.problems];
  const answered = (x: Timed, code: string) => x.statuses[code] ?? 0;
  if (answered(run.post, '200') !== run.expected || answered(run.pay, '201') !== run.expected)
    problems.push(
      `${answered(run.post, '200')} of ${run.expected} bills posted, ${answered(run.pay, '201')} paid`,
    );
  if (check) {
    if (check.bills !== run.expected || check.paid !== run.expected)
      problems.push(`${check.paid} of ${run.expected} bills paid in full (${check.bills} made)`);
    if (toCents(check.payable) !== toCents(check.open) - toCents(check.unallocated))
      problems.push(
        `2000 Accounts payable holds ${check.payable}, not the open bills ${check.open} less the payments' credit ${check.unallocated}`,
      );
    if (run.payables === undefined || toCents(run.payables) !== toCents(check.payable))
      problems.push(`the payables report answered ${run.payables ?? 'nothing'}, 2000 holds ${check.payable}`);
  }
  return problems.map((problem) => `bills: ${problem}`);
}

/** The bills' checks in a line, for the log and the report. */
export function billCheckLine(run: BillRun, check: BillCheck | undefined): string {
  return check
    ? `${check.paid} of ${run.expected} bills paid in full; 2000 Accounts payable ${check.payable} = open bills ${check.open} − payments' credit ${check.unallocated}; payables report ${run.payables ?? '?'}`
    : `${run.bills.length} of ${run.expected} bills paid; payables report ${run.payables ?? '?'}`;
}
