import { entryNumberLabel } from '../../../shared/accounting';
import {
  type Bill,
  type BillInput,
  type BillQuery,
  type BillStatus,
  billNumberLabel,
  MAX_BILL_AMOUNT,
  PAYABLE_STATUSES,
  paymentNumberLabel,
  priceBill,
} from '../../../shared/bills';
import { centsNumber, centsText, formatCents, moneyOfText, toCents } from '../../../shared/money';
import { purchaseOrderNumber } from '../../../shared/purchasing';
import { type Runner, runnerOf, type Tx } from '../../db/connection';
import { badRequest, isId, notFound, pgCode, refuse, violatedConstraint } from '../../lib/errors';
import { type PostLine, postEntry, reverseEntry, systemAccounts } from '../accounting/journal';
import { type Actor, createdFields, deletedFields, recordAudit } from '../audit/audit.repository';
import { storeCurrency } from '../store/store.repository';

/**
 * Suppliers' bills (DESIGN §20, decision 0049): a draft is written and rewritten whole; posting
 * bills its purchase order lines' received units (one conditional statement: never above received
 * − billed, also when two posts race) and writes its entry; voiding gives the units back and
 * reverses the entry. A bill's paid amount changes only through allocate (payments.repository).
 */

type BillRow = {
  id: string;
  number: string | number;
  supplier_id: string;
  supplier_name: string;
  reference: string;
  date: string;
  due_date: string;
  status: BillStatus;
  note: string;
  net: string;
  tax: string;
  total: string;
  paid: string;
  overdue_days: number;
  entry_id: string | null;
  entry_number: string | number | null;
  void_id: string | null;
  void_number: string | number | null;
  created_at: Date | string;
  posted_at: Date | string | null;
  voided_at: Date | string | null;
  lines: {
    _id: string;
    po_line: string | null;
    po_id: string | null;
    po_number: number | null;
    product_id: string | null;
    product_name: string | null;
    unit_cost: string | null;
    description: string;
    quantity: number;
    unit_price: string;
    tax_rate_id: string | null;
    tax_rate_name: string | null;
    tax_rate: string | null;
    account_id: string;
    account_code: string;
    account_name: string;
    net: string;
    tax: string;
  }[];
};

const money = moneyOfText;
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A bill's whole answer, from one row of BILL_SELECT. */
function toBill(row: BillRow): Bill {
  return {
    _id: row.id,
    number: billNumberLabel(Number(row.number)),
    supplier: { _id: row.supplier_id, name: row.supplier_name },
    reference: row.reference,
    date: row.date,
    dueDate: row.due_date,
    status: row.status,
    note: row.note,
    lines: row.lines.map((line) => ({
      _id: line._id,
      ...(line.po_line && line.po_id
        ? {
            purchaseOrderLine: {
              _id: line.po_line,
              purchaseOrder: { _id: line.po_id, number: purchaseOrderNumber(Number(line.po_number)) },
              product: { _id: line.product_id as string, name: line.product_name as string },
              unitCost: money(line.unit_cost),
            },
          }
        : {}),
      description: line.description,
      quantity: line.quantity,
      unitPrice: money(line.unit_price),
      taxRate:
        line.tax_rate_name === null
          ? null
          : { _id: line.tax_rate_id, name: line.tax_rate_name, rate: Number(line.tax_rate) },
      account: { _id: line.account_id, code: line.account_code, name: line.account_name },
      net: money(line.net),
      tax: money(line.tax),
    })),
    net: money(row.net),
    tax: money(row.tax),
    total: money(row.total),
    paid: money(row.paid),
    open: (PAYABLE_STATUSES as readonly BillStatus[]).includes(row.status)
      ? centsNumber(toCents(row.total) - toCents(row.paid))
      : 0,
    overdueDays: row.overdue_days,
    ...(row.entry_id
      ? { entry: { _id: row.entry_id, number: entryNumberLabel(Number(row.entry_number)) } }
      : {}),
    ...(row.void_id
      ? { voidEntry: { _id: row.void_id, number: entryNumberLabel(Number(row.void_number)) } }
      : {}),
    createdAt: iso(row.created_at) as string,
    postedAt: iso(row.posted_at),
    voidedAt: iso(row.voided_at),
  };
}

/** Days a bill is past its due date today: only an owed one (posted or part paid). */
const OVERDUE_DAYS = `case when b.status in ('posted','partiallyPaid')
         then greatest(store_today() - coalesce(b.due_date, b.date), 0) else 0 end`;

const BILL_SELECT = `select b.id, b.number, b.supplier_id, s.name as supplier_name, b.reference, b.date::text as date,
       coalesce(b.due_date, b.date)::text as due_date, b.status, b.note, b.net::text, b.tax::text, b.total::text,
       b.paid::text, (${OVERDUE_DAYS})::int as overdue_days, e.id as entry_id, e.number as entry_number,
       r.id as void_id, r.number as void_number, b.created_at, b.posted_at, b.voided_at,
       (select coalesce(json_agg(json_build_object(
                 '_id', l.id, 'po_line', l.purchase_order_line_id, 'po_id', po.id, 'po_number', po.number,
                 'product_id', p.id, 'product_name', p.name, 'unit_cost', pl.unit_cost::text,
                 'description', l.description, 'quantity', l.quantity, 'unit_price', l.unit_price::text,
                 'tax_rate_id', l.tax_rate_id, 'tax_rate_name', l.tax_rate_name, 'tax_rate', l.tax_rate::text,
                 'account_id', a.id, 'account_code', a.code, 'account_name', a.name,
                 'net', l.net::text, 'tax', l.tax::text) order by l.position), '[]'::json)
          from bill_lines l join accounts a on a.id = l.account_id
          left join purchase_order_lines pl on pl.id = l.purchase_order_line_id
          left join purchase_orders po on po.id = pl.purchase_order_id
          left join products p on p.id = pl.product_id
         where l.bill_id = b.id) as lines
  from bills b join suppliers s on s.id = b.supplier_id
  left join journal_entries e on e.source_kind = 'bill' and e.source_id = b.id
  left join journal_entries r on r.reverses = e.id`;

export async function findBill(run: Runner, id: string): Promise<Bill | undefined> {
  if (!isId(id)) return undefined;
  const [row] = await run.query<BillRow>(`${BILL_SELECT} where b.id = $1::uuid`, [id]);
  if (!row) return undefined;
  const payments = await run.query<{
    id: string;
    number: string | number;
    date: string;
    method: 'bank' | 'cash' | 'card';
    amount: string;
    allocated: string;
  }>(
    `select p.id, p.number, p.date::text as date, p.method, p.amount::text, sum(a.amount)::text as allocated
       from payment_allocations a join supplier_payments p on p.id = a.payment_id
      where a.bill_id = $1::uuid group by p.id order by p.date, p.number`,
    [id],
  );
  return {
    ...toBill(row),
    payments: payments.map((p) => ({
      _id: p.id,
      number: paymentNumberLabel(Number(p.number)),
      date: p.date,
      method: p.method,
      amount: money(p.amount),
      allocated: money(p.allocated),
    })),
  };
}

/** A page of bills: overdue first (most days first), then by due date, then number. */
export async function billPage(
  run: Runner,
  query: Omit<BillQuery, 'overdue'> & { overdue?: boolean },
  window: { offset: number; limit: number },
): Promise<{ bills: Bill[]; total: number }> {
  if (query.supplier !== undefined && !isId(query.supplier)) return { bills: [], total: 0 };
  const where = `($1::uuid is null or b.supplier_id = $1::uuid) and ($2::text is null or b.status = $2)
    and (not $3::boolean or (b.status in ('posted','partiallyPaid') and coalesce(b.due_date, b.date) < store_today()))`;
  const params = [query.supplier ?? null, query.status ?? null, query.overdue === true];
  const rows = await run.query<BillRow>(
    `${BILL_SELECT} where ${where}
      order by (${OVERDUE_DAYS}) desc, b.status = 'draft' desc, coalesce(b.due_date, b.date) desc, b.number desc
      limit $4 offset $5`,
    [...params, window.limit, window.offset],
  );
  const [count] = await run.query<{ n: number }>(
    `select count(*)::int as n from bills b where ${where}`,
    params,
  );
  return { bills: rows.map(toBill), total: count?.n ?? 0 };
}

type LockedBill = {
  id: string;
  number: string | number;
  supplier_id: string;
  supplier_name: string;
  reference: string;
  date: string;
  status: BillStatus;
  total: string;
  paid: string;
};

/** The bill, locked for the write that follows (404 when unknown). */
async function lockBill(run: Runner, id: string): Promise<LockedBill & { label: string }> {
  const [row] = isId(id)
    ? await run.query<LockedBill>(
        `select b.id, b.number, b.supplier_id, s.name as supplier_name, b.reference, b.date::text as date, b.status,
                b.total::text, b.paid::text
           from bills b join suppliers s on s.id = b.supplier_id where b.id = $1::uuid for update of b`,
        [id],
      )
    : [];
  if (!row) throw notFound('Bill');
  return { ...row, label: billNumberLabel(Number(row.number)) };
}

const STATUS_WORDS: Record<BillStatus, string> = {
  draft: 'a draft',
  posted: 'posted',
  partiallyPaid: 'part paid',
  paid: 'paid',
  void: 'void',
};
export const billStatusWords = (status: BillStatus) => STATUS_WORDS[status];

/**
 * The lines of a draft as stored: each checked against the database (the purchase order line is
 * one of the supplier's, 400 BILL_LINE_INVALID otherwise; an account is known, active, an expense
 * or asset; a tax rate is known, 404 otherwise) and priced by priceBill (§12's rounding).
 */
async function draftLines(run: Runner, supplierId: string, lines: BillInput['lines']) {
  const [goods] = await systemAccounts(run, ['receivedNotBilled']);
  const rateIds = [...new Set(lines.flatMap((line) => (line.taxRate ? [line.taxRate] : [])))];
  const rates = rateIds.every(isId)
    ? await run.query<{ id: string; name: string; rate: string }>(
        'select id, name, rate::text as rate from tax_rates where id = any($1::uuid[])',
        [rateIds],
      )
    : [];
  const accountIds = [...new Set(lines.flatMap((line) => (line.account ? [line.account] : [])))];
  const accounts = accountIds.every(isId)
    ? await run.query<{ id: string; code: string; name: string; type: string; active: boolean }>(
        'select id, code, name, type, active from accounts where id = any($1::uuid[])',
        [accountIds],
      )
    : [];
  const poLineIds = lines.flatMap((line) => (line.purchaseOrderLine ? [line.purchaseOrderLine] : []));
  const poLines = poLineIds.every(isId)
    ? await run.query<{ id: string; supplier_id: string }>(
        `select l.id, o.supplier_id from purchase_order_lines l join purchase_orders o on o.id = l.purchase_order_id
          where l.id = any($1::uuid[])`,
        [poLineIds],
      )
    : [];
  const checked = lines.map((line, at) => {
    const rate = line.taxRate === undefined ? null : rates.find((r) => r.id === line.taxRate);
    if (rate === undefined) throw notFound('Tax rate');
    let accountId = goods as string;
    if (line.purchaseOrderLine !== undefined) {
      const poLine = poLines.find((l) => l.id === line.purchaseOrderLine);
      if (!poLine) throw notFound('Purchase order line');
      if (poLine.supplier_id !== supplierId)
        throw refuse('BILL_LINE_INVALID', { line: at + 1, why: 'supplier' });
    } else {
      const account = accounts.find((a) => a.id === line.account);
      if (!account) throw notFound('Account');
      const named = `${account.code} ${account.name}`;
      if (!account.active)
        throw refuse('BILL_LINE_INVALID', { line: at + 1, why: 'inactive', account: named });
      if (account.type !== 'expense' && account.type !== 'asset')
        throw refuse('BILL_LINE_INVALID', { line: at + 1, why: 'account', account: named });
      accountId = account.id;
    }
    return { line, rate, accountId };
  });
  const priced = priceBill(
    checked.map(({ line, rate }) => ({
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      taxRate: rate ? { name: rate.name, rate: Number(rate.rate) } : null,
    })),
  );
  // A bill's figures are kept to 12 digits before the point (its columns): a larger one is a typing slip.
  if (priced.total > toCents(MAX_BILL_AMOUNT))
    throw badRequest('That bill is too large: check its quantities and prices.');
  return { checked, priced };
}

/** Writes a draft's fields and lines (its old lines go); answers nothing. */
async function writeDraft(run: Runner, id: string | null, input: BillInput): Promise<string> {
  const { checked, priced } = await draftLines(run, input.supplier, input.lines);
  const fields = [
    input.supplier,
    input.reference.trim(),
    input.date,
    input.dueDate ?? null,
    input.note?.trim() ?? '',
    centsText(priced.net),
    centsText(priced.tax),
    centsText(priced.total),
  ];
  const [taken] = await run.query<{ number: number; name: string }>(
    `select b.number, s.name from bills b join suppliers s on s.id = b.supplier_id
      where b.supplier_id = $1::uuid and lower(b.reference) = lower($2) and b.id is distinct from $3::uuid`,
    [input.supplier, input.reference.trim(), id],
  );
  const referenceTaken = (bill: string) =>
    refuse('BILL_REFERENCE_TAKEN', {
      supplier: taken?.name ?? 'This supplier',
      reference: input.reference.trim(),
      bill,
    });
  if (taken) throw referenceTaken(billNumberLabel(Number(taken.number)));
  let billId: string;
  try {
    if (id === null) {
      const [row] = await run.query<{ id: string }>(
        `insert into bills (supplier_id, reference, date, due_date, note, net, tax, total)
         values ($1::uuid, $2, $3::date, $4::date, $5, $6::numeric, $7::numeric, $8::numeric) returning id`,
        fields,
      );
      billId = row?.id as string;
    } else {
      await run.query(
        `update bills set supplier_id = $1::uuid, reference = $2, date = $3::date, due_date = $4::date, note = $5,
                net = $6::numeric, tax = $7::numeric, total = $8::numeric where id = $9::uuid`,
        [...fields, id],
      );
      await run.query('delete from bill_lines where bill_id = $1::uuid', [id]);
      billId = id;
    }
  } catch (error) {
    // Two drafts of the same reference racing: the second meets the first's key.
    if (pgCode(error) === '23505' && violatedConstraint(error) === 'bills_reference_key')
      throw referenceTaken('another bill');
    throw error;
  }
  await run.query(
    `insert into bill_lines (bill_id, position, purchase_order_line_id, description, quantity, unit_price,
                             tax_rate_id, tax_rate_name, tax_rate, account_id, net, tax)
     select $1::uuid, w.position, w.po_line, w.description, w.quantity, w.unit_price, w.rate_id, w.rate_name, w.rate,
            w.account, w.net, w.tax
       from jsonb_to_recordset($2::jsonb) as w(position int, po_line uuid, description text, quantity int,
            unit_price numeric, rate_id uuid, rate_name text, rate numeric, account uuid, net numeric, tax numeric)`,
    [
      billId,
      JSON.stringify(
        checked.map(({ line, rate, accountId }, at) => ({
          position: at + 1,
          po_line: line.purchaseOrderLine ?? null,
          description: line.description?.trim() ?? '',
          quantity: line.quantity,
          unit_price: centsText(toCents(line.unitPrice)),
          rate_id: rate?.id ?? null,
          rate_name: rate?.name ?? null,
          rate: rate?.rate ?? null,
          account: accountId,
          net: centsText(priced.lines[at]?.net ?? 0n),
          tax: centsText(priced.lines[at]?.tax ?? 0n),
        })),
      ),
    ],
  );
  return billId;
}

async function supplierName(run: Runner, id: string): Promise<string> {
  const [row] = isId(id)
    ? await run.query<{ name: string }>('select name from suppliers where id = $1::uuid', [id])
    : [];
  if (!row) throw notFound('Supplier');
  return row.name;
}

const billEntity = (id: string, number: string | number) => ({
  type: 'bill' as const,
  id,
  name: billNumberLabel(Number(number)),
});

/** A new draft (DESIGN §20). */
export async function createBill(tx: Tx, input: BillInput, actor: Actor): Promise<Bill> {
  const run = runnerOf(tx);
  const supplier = await supplierName(run, input.supplier);
  const id = await writeDraft(run, null, input);
  const bill = (await findBill(run, id)) as Bill;
  await recordAudit(tx, {
    actor,
    action: 'created',
    entity: { type: 'bill', id, name: bill.number },
    changes: createdFields({ supplier, reference: bill.reference, date: bill.date, total: bill.total }),
  });
  return bill;
}

/** Rewrites a draft whole (409 BILL_STATE once posted or void). */
export async function updateBill(tx: Tx, id: string, input: BillInput, actor: Actor): Promise<Bill> {
  const run = runnerOf(tx);
  const bill = await lockBill(run, id);
  if (bill.status !== 'draft')
    throw refuse('BILL_STATE', { bill: bill.label, status: STATUS_WORDS[bill.status], needs: 'draft' });
  await supplierName(run, input.supplier);
  await writeDraft(run, id, input);
  const after = (await findBill(run, id)) as Bill;
  await recordAudit(tx, {
    actor,
    action: 'updated',
    entity: billEntity(id, bill.number),
    changes: [
      { field: 'total', old: money(bill.total), new: after.total },
      { field: 'lines', new: after.lines.length },
    ],
  });
  return after;
}

/** Deletes a draft (409 BILL_STATE once posted: a posted bill is voided, never deleted). */
export async function deleteBill(tx: Tx, id: string, actor: Actor): Promise<string> {
  const run = runnerOf(tx);
  const bill = await lockBill(run, id);
  if (bill.status !== 'draft')
    throw refuse('BILL_STATE', { bill: bill.label, status: STATUS_WORDS[bill.status], needs: 'draft' });
  await run.query('delete from bills where id = $1::uuid', [id]);
  await recordAudit(tx, {
    actor,
    action: 'deleted',
    entity: billEntity(id, bill.number),
    changes: deletedFields({
      supplier: bill.supplier_name,
      reference: bill.reference,
      total: money(bill.total),
    }),
  });
  return bill.label;
}

/** The units a bill bills of each purchase order line, in the lines' id order (their rows' lock order). */
function unitsBilled(run: Runner, id: string) {
  return run.query<{ po_line: string; quantity: number }>(
    `select purchase_order_line_id as po_line, sum(quantity)::int as quantity from bill_lines
      where bill_id = $1::uuid and purchase_order_line_id is not null group by purchase_order_line_id
      order by purchase_order_line_id`,
    [id],
  );
}

/**
 * Posts a draft (DESIGN §20): dated on or before today (409 DATE_IN_FUTURE) and after the lock
 * date (409 BOOKS_LOCKED, the journal's own check). Its purchase order lines' billed units grow in
 * one conditional statement that never passes their received units: the lines' rows are locked
 * by it, so of two posts racing the second sees the first's units and is refused (409
 * BILL_OVER_RECEIVED, naming the first line short). The entry: 2100 debited each line's units at
 * the purchase order's unit cost, the difference to the bill's price to 5200 (either side), other
 * lines to their account, 1400 each line's tax, 2000 credited the total; all naming the supplier.
 */
export async function postBill(tx: Tx, id: string, actor: Actor): Promise<Bill> {
  const run = runnerOf(tx);
  const bill = await lockBill(run, id);
  if (bill.status !== 'draft')
    throw refuse('BILL_STATE', { bill: bill.label, status: STATUS_WORDS[bill.status], needs: 'draft' });
  const [today] = await run.query<{ day: string }>('select store_today()::text as day');
  if (bill.date > (today?.day as string))
    throw refuse('DATE_IN_FUTURE', { what: bill.label, date: bill.date });
  const wanted = await unitsBilled(run, id);
  if (wanted.length > 0) {
    const billed = await run.query<{ id: string }>(
      `update purchase_order_lines l set billed = l.billed + w.quantity
         from jsonb_to_recordset($1::jsonb) as w(po_line uuid, quantity int)
        where l.id = w.po_line and l.billed + w.quantity <= l.received
        returning l.id`,
      [JSON.stringify(wanted)],
    );
    if (billed.length !== wanted.length) {
      const done = new Set(billed.map((row) => row.id));
      const short = wanted.find((row) => !done.has(row.po_line)) as { po_line: string; quantity: number };
      const [line] = await run.query<{ name: string; number: number; left: number }>(
        `select p.name, o.number, (l.received - l.billed)::int as left from purchase_order_lines l
           join products p on p.id = l.product_id join purchase_orders o on o.id = l.purchase_order_id
          where l.id = $1::uuid`,
        [short.po_line],
      );
      throw refuse('BILL_OVER_RECEIVED', {
        product: line?.name ?? 'A product',
        purchaseOrder: purchaseOrderNumber(Number(line?.number)),
        left: line?.left ?? 0,
        asked: short.quantity,
      });
    }
  }
  const lines = await run.query<{
    account_id: string;
    net: string;
    tax: string;
    quantity: number;
    unit_cost: string | null;
    tax_rate_name: string | null;
    location_id: string | null;
  }>(
    `select l.account_id, l.net::text, l.tax::text, l.quantity, pl.unit_cost::text, l.tax_rate_name, o.location_id
       from bill_lines l left join purchase_order_lines pl on pl.id = l.purchase_order_line_id
       left join purchase_orders o on o.id = pl.purchase_order_id
      where l.bill_id = $1::uuid order by l.position`,
    [id],
  );
  const [payable, inputTax, variance] = await systemAccounts(run, ['payable', 'inputTax', 'priceVariance']);
  const supplier = bill.supplier_id;
  const posting: PostLine[] = [];
  for (const line of lines) {
    const net = toCents(line.net);
    if (line.unit_cost !== null) {
      const atCost = toCents(line.unit_cost) * BigInt(line.quantity);
      posting.push({ account: line.account_id, amount: atCost, supplier, location: line.location_id });
      posting.push({ account: variance as string, amount: net - atCost, supplier });
    } else posting.push({ account: line.account_id, amount: net, supplier });
    posting.push({
      account: inputTax as string,
      amount: toCents(line.tax),
      supplier,
      tax_rate: line.tax_rate_name,
    });
  }
  posting.push({ account: payable as string, amount: -toCents(bill.total), supplier });
  await postEntry(run, {
    kind: 'bill',
    sourceId: id,
    date: bill.date,
    memo: `${bill.label} · ${bill.supplier_name} ${bill.reference}`,
    lines: posting,
    actor,
  });
  await run.query(
    `update bills set status = case when total = 0 then 'paid' else 'posted' end, posted_at = now()
      where id = $1::uuid`,
    [id],
  );
  await recordAudit(tx, {
    actor,
    action: 'posted',
    entity: billEntity(id, bill.number),
    changes: [{ field: 'status', old: 'draft', new: 'posted' }],
  });
  return (await findBill(run, id)) as Bill;
}

/**
 * Voids a posted bill with nothing paid (409 BILL_STATE otherwise): its purchase order lines'
 * billed units go back and its entry is reversed, dated today (DESIGN §20).
 */
export async function voidBill(tx: Tx, id: string, actor: Actor): Promise<Bill> {
  const run = runnerOf(tx);
  const bill = await lockBill(run, id);
  if (bill.status !== 'posted' || toCents(bill.paid) !== 0n)
    throw refuse('BILL_STATE', { bill: bill.label, status: STATUS_WORDS[bill.status], needs: 'posted' });
  await run.query(
    `update purchase_order_lines l set billed = l.billed - w.quantity
       from jsonb_to_recordset($1::jsonb) as w(po_line uuid, quantity int) where l.id = w.po_line`,
    [JSON.stringify(await unitsBilled(run, id))],
  );
  const [entry] = await run.query<{ id: string; today: string }>(
    "select id, store_today()::text as today from journal_entries where source_kind = 'bill' and source_id = $1::uuid",
    [id],
  );
  if (entry) await reverseEntry(tx, entry.id, entry.today, actor);
  await run.query(
    "update bills set status = 'void', voided_at = now(), voided_on = store_today() where id = $1::uuid",
    [id],
  );
  await recordAudit(tx, {
    actor,
    action: 'voided',
    entity: billEntity(id, bill.number),
    changes: [{ field: 'status', old: 'posted', new: 'void' }],
  });
  return (await findBill(run, id)) as Bill;
}

/**
 * The one writer of allocations (DESIGN §20): sets parts of a payment against bills of its
 * supplier. The bills are locked in id order (two payments to the same bills cannot deadlock),
 * each must be owed (409 BILL_STATE), of the supplier (409 ALLOCATION_SUPPLIER) and take at most
 * its open amount (409 ALLOCATION_TOO_MUCH); the payment's row is locked by the caller and the sum
 * must fit what it has left (409 ALLOCATION_TOO_MUCH). Each bill's paid and status, and the
 * payment's allocated, change in the statement that adds the allocations.
 */
export async function allocate(
  run: Runner,
  payment: { id: string; label: string; supplierId: string; supplierName: string; left: bigint },
  allocations: readonly { bill: string; amount: number }[],
): Promise<void> {
  if (allocations.length === 0) return;
  const currency = await storeCurrency(run);
  if (!allocations.every((a) => isId(a.bill))) throw notFound('Bill');
  const ids = [...allocations.map((a) => a.bill)].sort();
  const bills = await run.query<LockedBill>(
    `select b.id, b.number, b.supplier_id, b.status, b.total::text, b.paid::text from bills b
      where b.id = any($1::uuid[]) order by b.id for update`,
    [ids],
  );
  let sum = 0n;
  for (const allocation of allocations) {
    const bill = bills.find((b) => b.id === allocation.bill);
    if (!bill) throw notFound('Bill');
    const label = billNumberLabel(Number(bill.number));
    if (bill.supplier_id !== payment.supplierId)
      throw refuse('ALLOCATION_SUPPLIER', { bill: label, supplier: payment.supplierName });
    if (!(PAYABLE_STATUSES as readonly string[]).includes(bill.status))
      throw refuse('BILL_STATE', { bill: label, status: STATUS_WORDS[bill.status], needs: 'payable' });
    const amount = toCents(allocation.amount);
    const open = toCents(bill.total) - toCents(bill.paid);
    if (amount > open)
      throw refuse('ALLOCATION_TOO_MUCH', {
        what: 'bill',
        name: label,
        left: formatCents(open, currency),
        asked: formatCents(amount, currency),
      });
    sum += amount;
  }
  if (sum > payment.left)
    throw refuse('ALLOCATION_TOO_MUCH', {
      what: 'payment',
      name: payment.label,
      left: formatCents(payment.left, currency),
      asked: formatCents(sum, currency),
    });
  const given = JSON.stringify(
    allocations.map((a) => ({ bill: a.bill, amount: centsText(toCents(a.amount)) })),
  );
  await run.query(
    `with given as (select * from jsonb_to_recordset($2::jsonb) as w(bill uuid, amount numeric)),
     added as (
       insert into payment_allocations (payment_id, bill_id, amount, "on")
       select $1::uuid, bill, amount, store_today() from given returning bill_id, amount
     ), bills_paid as (
       update bills b set paid = b.paid + g.amount,
              status = case when b.paid + g.amount = b.total then 'paid' else 'partiallyPaid' end
         from given g where b.id = g.bill
       returning b.id
     )
     update supplier_payments set allocated = allocated + (select sum(amount) from given) where id = $1::uuid`,
    [payment.id, given],
  );
}
