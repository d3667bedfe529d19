import type {
  Aged,
  PayablesResponse,
  ReceivedNotBilledResponse,
  TaxReturnResponse,
} from '../../../shared/bills';
import { centsNumber, moneyOfText, toCents } from '../../../shared/money';
import { purchaseOrderNumber } from '../../../shared/purchasing';
import type { Runner } from '../../db/connection';
import { isId } from '../../lib/errors';

/** What the books owe and hold (DESIGN §20): the aging of payables, goods not billed, the tax return. */

const money = moneyOfText;

/**
 * What is owed to each supplier at the end of `at`: bills dated on or before it and not void by
 * then, less the allocations of payments dated on or before it (allocated by then), aged by days
 * past the due date; `unallocated` is what those payments hold beyond their allocations to those
 * bills. Both sides count the same allocations, so total = Σ bills − Σ payments = 2000 at `at`.
 */
export async function payables(run: Runner, at: string): Promise<Omit<PayablesResponse, 'success'>> {
  const rows = await run.query<{
    supplier_id: string;
    name: string;
    not_due: string;
    d30: string;
    d60: string;
    d90: string;
    over: string;
    unallocated: string;
  }>(
    `with b as (
       select id, supplier_id, total, $1::date - coalesce(due_date, date) as late from bills
        where status <> 'draft' and date <= $1::date and (voided_on is null or voided_on > $1::date)
     ), p as (
       select id, supplier_id, amount from supplier_payments where date <= $1::date
     ), a as (
       select a.bill_id, a.payment_id, a.amount from payment_allocations a
         join p on p.id = a.payment_id join b on b.id = a.bill_id
        where a."on" <= $1::date
     ), owed as (
       select b.supplier_id, b.late, b.total - coalesce((select sum(a.amount) from a where a.bill_id = b.id), 0) as open
         from b
     ), credit as (
       select p.supplier_id,
              sum(p.amount - coalesce((select sum(a.amount) from a where a.payment_id = p.id), 0)) as unallocated
         from p group by p.supplier_id
     ), aged as (
       select supplier_id,
              coalesce(sum(open) filter (where late <= 0), 0) as not_due,
              coalesce(sum(open) filter (where late between 1 and 30), 0) as d30,
              coalesce(sum(open) filter (where late between 31 and 60), 0) as d60,
              coalesce(sum(open) filter (where late between 61 and 90), 0) as d90,
              coalesce(sum(open) filter (where late > 90), 0) as over
         from owed group by supplier_id
     )
     select s.id as supplier_id, s.name, coalesce(aged.not_due, 0)::text as not_due, coalesce(aged.d30, 0)::text as d30,
            coalesce(aged.d60, 0)::text as d60, coalesce(aged.d90, 0)::text as d90, coalesce(aged.over, 0)::text as over,
            coalesce(credit.unallocated, 0)::text as unallocated
       from aged full join credit using (supplier_id) join suppliers s on s.id = coalesce(aged.supplier_id, credit.supplier_id)
      where coalesce(aged.not_due, 0) <> 0 or coalesce(aged.d30, 0) <> 0 or coalesce(aged.d60, 0) <> 0
         or coalesce(aged.d90, 0) <> 0 or coalesce(aged.over, 0) <> 0 or coalesce(credit.unallocated, 0) <> 0
      order by s.name, s.id`,
    [at],
  );
  const totals = {
    notDue: 0n,
    days1to30: 0n,
    days31to60: 0n,
    days61to90: 0n,
    over90: 0n,
    unallocated: 0n,
    total: 0n,
  };
  const suppliers = rows.map((row) => {
    const cents = {
      notDue: toCents(row.not_due),
      days1to30: toCents(row.d30),
      days31to60: toCents(row.d60),
      days61to90: toCents(row.d90),
      over90: toCents(row.over),
      unallocated: toCents(row.unallocated),
    };
    const total =
      cents.notDue + cents.days1to30 + cents.days31to60 + cents.days61to90 + cents.over90 - cents.unallocated;
    for (const key of Object.keys(cents) as (keyof typeof cents)[]) totals[key] += cents[key];
    totals.total += total;
    return { supplier: { _id: row.supplier_id, name: row.name }, ...asMoney({ ...cents, total }) };
  });
  return { at, suppliers, totals: asMoney(totals) };
}

function asMoney(cents: Record<keyof Aged, bigint>): Aged {
  return {
    notDue: centsNumber(cents.notDue),
    days1to30: centsNumber(cents.days1to30),
    days31to60: centsNumber(cents.days31to60),
    days61to90: centsNumber(cents.days61to90),
    over90: centsNumber(cents.over90),
    unallocated: centsNumber(cents.unallocated),
    total: centsNumber(cents.total),
  };
}

/** Each purchase order line with units received and not billed, at its unit cost (= 2100). */
export async function receivedNotBilled(
  run: Runner,
  supplier: string | undefined,
): Promise<Omit<ReceivedNotBilledResponse, 'success'>> {
  if (supplier !== undefined && !isId(supplier)) return { lines: [], total: 0 };
  const rows = await run.query<{
    po_id: string;
    po_number: number;
    supplier_id: string;
    supplier_name: string;
    line_id: string;
    product_id: string;
    product_name: string;
    unit_cost: string;
    received: number;
    billed: number;
    value: string;
  }>(
    `select o.id as po_id, o.number as po_number, s.id as supplier_id, s.name as supplier_name, l.id as line_id,
            p.id as product_id, p.name as product_name, l.unit_cost::text, l.received, l.billed,
            ((l.received - l.billed) * l.unit_cost)::text as value
       from purchase_order_lines l join purchase_orders o on o.id = l.purchase_order_id
       join suppliers s on s.id = o.supplier_id join products p on p.id = l.product_id
      where l.received > l.billed and ($1::uuid is null or o.supplier_id = $1::uuid)
      order by o.number, l.position`,
    [supplier ?? null],
  );
  let total = 0n;
  const lines = rows.map((row) => {
    total += toCents(row.value);
    return {
      purchaseOrder: { _id: row.po_id, number: purchaseOrderNumber(Number(row.po_number)) },
      supplier: { _id: row.supplier_id, name: row.supplier_name },
      line: row.line_id,
      product: { _id: row.product_id, name: row.product_name },
      unitCost: money(row.unit_cost),
      received: row.received,
      billed: row.billed,
      value: money(row.value),
    };
  });
  return { lines, total: centsNumber(total) };
}

/**
 * The tax return over days (DESIGN §20): output, by rate, is what the sales charged less what
 * refunds and Orders-screen returns gave back, on the days the books date them (so a return in a
 * later month counts in that month, as 2200 moves); input is the tax of posted bills by their date
 * less that of bills voided in the range, by the void's day. net = output − input = the change of
 * 2200 − 1400 over those days.
 */
export async function taxReturn(
  run: Runner,
  from: string,
  to: string,
): Promise<Omit<TaxReturnResponse, 'success' | 'from' | 'to'>> {
  const rows = await run.query<{
    side: 'output' | 'input';
    name: string;
    rate: string;
    base: string;
    tax: string;
  }>(
    `with given as (
       select 'output' as side, o.tax_rate_name as name, o.tax_rate as rate, o.total_price - o.tax as base, o.tax
         from journal_entries e join orders o on o.sale_id = e.source_id
        where e.source_kind = 'sale' and e.date between $1::date and $2::date
       union all
       select 'output', o.tax_rate_name, o.tax_rate, o.total_price - o.tax, o.tax
         from journal_entries e join orders o on o.id = e.source_id and o.sale_id is null
        where e.source_kind = 'sale' and e.date between $1::date and $2::date
       union all
       select 'output', l.tax_rate_name, l.tax_rate, -(l.amount - l.tax), -l.tax
         from journal_entries e join refund_lines l on l.refund_id = e.source_id
        where e.source_kind = 'refund' and e.date between $1::date and $2::date
       union all
       select 'output', o.tax_rate_name, o.tax_rate,
              -(select coalesce(sum(j.debit - j.credit), 0) from journal_lines j
                 where j.entry_id = e.id and j.account_id = account_of('salesReturns')),
              -(select coalesce(sum(j.debit - j.credit), 0) from journal_lines j
                 where j.entry_id = e.id and j.account_id = account_of('taxPayable'))
         from journal_entries e join orders o on o.id = e.source_id
        where e.source_kind = 'return' and e.date between $1::date and $2::date
       union all
       select 'input', l.tax_rate_name, l.tax_rate, l.net, l.tax
         from bills b join bill_lines l on l.bill_id = b.id
        where b.status <> 'draft' and b.date between $1::date and $2::date
       union all
       select 'input', l.tax_rate_name, l.tax_rate, -l.net, -l.tax
         from bills b join bill_lines l on l.bill_id = b.id
        where b.status = 'void' and b.voided_on between $1::date and $2::date
     )
     select side, name, rate::text as rate, sum(base)::text as base, sum(tax)::text as tax from given
      where name is not null and rate is not null
      group by side, name, rate having sum(base) <> 0 or sum(tax) <> 0
      order by side desc, rate, name`,
    [from, to],
  );
  const side = (which: 'output' | 'input') =>
    rows
      .filter((row) => row.side === which)
      .map((row) => ({ name: row.name, rate: Number(row.rate), base: money(row.base), tax: money(row.tax) }));
  const sum = (which: 'output' | 'input') =>
    rows.filter((row) => row.side === which).reduce((a, row) => a + toCents(row.tax), 0n);
  const outputTax = sum('output');
  const inputTax = sum('input');
  return {
    output: side('output'),
    input: side('input'),
    outputTax: centsNumber(outputTax),
    inputTax: centsNumber(inputTax),
    net: centsNumber(outputTax - inputTax),
  };
}
