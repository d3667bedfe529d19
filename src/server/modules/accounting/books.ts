import type {
  AccountType,
  BalanceSheetResponse,
  BooksCheckResponse,
  LedgerResponse,
  ProfitAndLossResponse,
  TrialBalanceResponse,
} from '../../../shared/accounting';
import { entryNumberLabel } from '../../../shared/accounting';
import { toCents } from '../../../shared/money';
import type { Runner } from '../../db/connection';
import { drawerHolds } from '../till/till.repository';

/**
 * The books' reports (DESIGN §19), read from the kept per-day totals of each account
 * (account_days, journal_lines_counted.sql): a few rows per account and day, whatever the number
 * of sales. Balances are debit − credit; the P&L and the balance sheet turn income, liabilities
 * and equity to read positive. Money is summed in cents (bigint) and answered as numbers.
 */

type AccountRef = { _id: string; code: string; name: string; type: AccountType };
type Totals = { account: AccountRef; system: string | null; before: bigint; debit: bigint; credit: bigint };

const cents = (text: string | null | undefined) => toCents(text ?? '0');
const money = (value: bigint) => Number(value) / 100;

/** Each account's balance before `from` and its debits and credits from `from` to `to` (days). */
async function accountTotals(run: Runner, from: string | null, to: string): Promise<Totals[]> {
  const rows = await run.query<{
    id: string;
    code: string;
    name: string;
    type: AccountType;
    system: string | null;
    before: string;
    debit: string;
    credit: string;
  }>(
    `select a.id, a.code, a.name, a.type, a.system,
            coalesce(sum(d.debit - d.credit) filter (where d.day < $1::date), 0)::text as before,
            coalesce(sum(d.debit) filter (where $1::date is null or d.day >= $1::date), 0)::text as debit,
            coalesce(sum(d.credit) filter (where $1::date is null or d.day >= $1::date), 0)::text as credit
       from accounts a join account_days d on d.account_id = a.id and d.day <= $2::date
      group by a.id order by a.code`,
    [from, to],
  );
  return rows.map((row) => ({
    account: { _id: row.id, code: row.code, name: row.name, type: row.type },
    system: row.system,
    before: cents(row.before),
    debit: cents(row.debit),
    credit: cents(row.credit),
  }));
}

export async function trialBalance(
  run: Runner,
  from: string,
  to: string,
): Promise<Omit<TrialBalanceResponse, 'success'>> {
  const totals = (await accountTotals(run, from, to)).filter(
    (row) => row.before !== 0n || row.debit !== 0n || row.credit !== 0n,
  );
  return {
    from,
    to,
    accounts: totals.map((row) => ({
      account: row.account,
      opening: money(row.before),
      debit: money(row.debit),
      credit: money(row.credit),
      closing: money(row.before + row.debit - row.credit),
    })),
    totals: {
      debit: money(totals.reduce((sum, row) => sum + row.debit, 0n)),
      credit: money(totals.reduce((sum, row) => sum + row.credit, 0n)),
    },
  };
}

export async function profitAndLoss(
  run: Runner,
  from: string,
  to: string,
): Promise<Omit<ProfitAndLossResponse, 'success'>> {
  const totals = await accountTotals(run, from, to);
  const moved = (row: Totals) => row.debit - row.credit;
  const income = totals.filter((row) => row.account.type === 'income');
  const cogs = totals.filter((row) => row.account.type === 'expense' && isCogs(row));
  const expenses = totals.filter(
    (row) => row.account.type === 'expense' && !isCogs(row) && moved(row) !== 0n,
  );
  const netSales = -income.reduce((sum, row) => sum + moved(row), 0n);
  const costOfSales = cogs.reduce((sum, row) => sum + moved(row), 0n);
  const spent = expenses.reduce((sum, row) => sum + moved(row), 0n);
  const months = await run.query<{ month: string; net_sales: string; cost: string; profit: string }>(
    // Every month of the range, those with nothing posted too (0).
    `with t as (
       select date_trunc('month', d.day) as month,
              -coalesce(sum(d.debit - d.credit) filter (where a.type = 'income'), 0) as net_sales,
              coalesce(sum(d.debit - d.credit) filter (where a.system = 'cogs'), 0) as cost,
              -coalesce(sum(d.debit - d.credit), 0) as profit
         from account_days d join accounts a on a.id = d.account_id
        where d.day between $1::date and $2::date and a.type in ('income', 'expense')
        group by 1
     )
     select to_char(m.month, 'YYYY-MM') as month, coalesce(t.net_sales, 0)::text as net_sales,
            coalesce(t.cost, 0)::text as cost, coalesce(t.profit, 0)::text as profit
       from generate_series(date_trunc('month', $1::date), date_trunc('month', $2::date), interval '1 month') as m(month)
       left join t on t.month = m.month
      order by m.month`,
    [from, to],
  );
  return {
    from,
    to,
    income: income
      .filter((row) => moved(row) !== 0n)
      .map((row) => ({ account: row.account, amount: money(-moved(row)) })),
    netSales: money(netSales),
    costOfSales: money(costOfSales),
    grossProfit: money(netSales - costOfSales),
    expenses: expenses.map((row) => ({ account: row.account, amount: money(moved(row)) })),
    netProfit: money(netSales - costOfSales - spent),
    months: months.map((row) => ({
      month: row.month,
      netSales: money(cents(row.net_sales)),
      costOfSales: money(cents(row.cost)),
      netProfit: money(cents(row.profit)),
    })),
  };
}

/** 5000 Cost of goods sold (by its key, as the months read it) is the P&L's cost of sales; every other expense account is an expense. */
const isCogs = (row: Totals) => row.system === 'cogs';

export async function balanceSheet(run: Runner, at: string): Promise<Omit<BalanceSheetResponse, 'success'>> {
  const totals = (await accountTotals(run, null, at)).map((row) => ({
    account: row.account,
    balance: row.debit - row.credit,
  }));
  const of = (type: AccountType, sign: bigint) =>
    totals
      .filter((row) => row.account.type === type && row.balance !== 0n)
      .map((row) => ({ account: row.account, balance: money(sign * row.balance) }));
  const sum = (type: AccountType) =>
    totals.filter((row) => row.account.type === type).reduce((total, row) => total + row.balance, 0n);
  const assets = sum('asset');
  const liabilities = -sum('liability');
  const equity = -sum('equity');
  return {
    at,
    assets: of('asset', 1n),
    liabilities: of('liability', -1n),
    equity: of('equity', -1n),
    earnings: money(-(sum('income') + sum('expense'))),
    totals: { assets: money(assets), liabilities: money(liabilities), equity: money(equity) },
  };
}

export async function accountLedger(
  run: Runner,
  account: AccountRef,
  from: string,
  to: string,
  window: { offset: number; limit: number },
): Promise<Omit<LedgerResponse, 'success'>> {
  const [opening] = await run.query<{ before: string; total: number }>(
    `select coalesce((select sum(debit - credit) from account_days where account_id = $1::uuid and day < $2::date), 0)::text as before,
            (select count(*)::int from journal_lines l join journal_entries e on e.id = l.entry_id
              where l.account_id = $1::uuid and e.date between $2::date and $3::date) as total`,
    [account._id, from, to],
  );
  const rows = await run.query<{
    id: string;
    number: string | number;
    date: string;
    memo: string;
    source_kind: LedgerResponse['lines'][number]['entry']['source']['kind'];
    source_id: string | null;
    debit: string;
    credit: string;
    running: string;
  }>(
    `select e.id, e.number, e.date::text as date, e.memo, e.source_kind, e.source_id, l.debit::text, l.credit::text,
            sum(l.debit - l.credit) over (order by e.date, e.number, l.n rows between unbounded preceding and current row)::text as running
       from journal_lines l join journal_entries e on e.id = l.entry_id
      where l.account_id = $1::uuid and e.date between $2::date and $3::date
      order by e.date, e.number, l.n limit $4 offset $5`,
    [account._id, from, to, window.limit, window.offset],
  );
  const before = cents(opening?.before);
  return {
    account,
    opening: money(before),
    lines: rows.map((row) => ({
      entry: {
        _id: row.id,
        number: entryNumberLabel(Number(row.number)),
        date: row.date,
        memo: row.memo,
        source: { kind: row.source_kind, _id: row.source_id },
      },
      debit: money(cents(row.debit)),
      credit: money(cents(row.credit)),
      balance: money(before + cents(row.running)),
    })),
    total: opening?.total ?? 0,
  };
}

/**
 * The books check themselves (DESIGN §19): each check the expected figure (the shop's: the stock
 * ledger, the customers, the drawers, the documents) beside the books' (the accounts' kept totals,
 * the journal). Since the books began (books_began_at), every event posts its one entry (at most
 * one: the unique source keys). Each check is one pass over its tables (hash joins, no lookup per
 * row), run without the request time limit: at a million sales it reads every line (the bench
 * times it).
 */
export async function booksCheck(run: Runner): Promise<Omit<BooksCheckResponse, 'success'>> {
  const [row] = await run.query<Record<string, string>>(
    `with bal as (
       select a.system, coalesce(sum(d.debit - d.credit), 0) as balance
         from accounts a left join account_days d on d.account_id = a.id group by a.system
     ), began as (select coalesce(books_began_at, now()) as at from accounting_settings)
     select
       (select count(*) from (select entry_id from journal_lines group by entry_id
                               having sum(debit) <> sum(credit)) u)::text as unbalanced,
       (select coalesce(sum(debit - credit), 0) from account_days)::text as trial,
       (select coalesce(sum(debit - credit), 0) from journal_lines)::text as lines_trial,
       (select balance from bal where system = 'inventory')::text as inventory,
       (select coalesce(sum(stock_value), 0) from location_stock)::text as stock_value,
       (select count(*) from
          (select location_id, sum(stock_value) as value from location_stock group by location_id) s
          full join (select location_id, sum(debit - credit) as value from journal_lines
                      where account_id = account_of('inventory') group by location_id) l using (location_id)
         where coalesce(s.value, 0) <> coalesce(l.value, 0))::text as locations_off,
       (select balance from bal where system = 'inTransit')::text as in_transit,
       (select coalesce(-sum(value), 0) from stock_movements where kind in ('transferOut', 'transferIn'))::text as transit_value,
       (select -balance from bal where system = 'receivedNotBilled')::text as received,
       (select coalesce(sum(m.value), 0) from stock_movements m
          where m.kind = 'receipt' and exists (select 1 from journal_movements j where j.movement_id = m.id))::text as received_value,
       (select coalesce(sum(l.quantity * pl.unit_cost), 0) from bill_lines l
          join bills b on b.id = l.bill_id and b.status in ('posted','partiallyPaid','paid')
          join purchase_order_lines pl on pl.id = l.purchase_order_line_id)::text as billed_value,
       (select -balance from bal where system = 'payable')::text as payable,
       (select coalesce(sum(total - paid), 0) from bills where status in ('posted','partiallyPaid'))::text as open_bills,
       (select coalesce(sum(amount - allocated), 0) from supplier_payments)::text as unallocated,
       (select coalesce(sum(tax), 0) from bills where status in ('posted','partiallyPaid','paid'))::text as input_tax,
       (select -(select balance from bal where system = 'taxPayable') - (select balance from bal where system = 'inputTax'))::text as net_tax,
       (select coalesce(sum(o.tax - o.returned_tax), 0)
          from orders o join journal_entries e on e.source_kind = 'sale' and e.source_id = coalesce(o.sale_id, o.id))::text
         as output_tax,
       (select -balance from bal where system = 'storeCredit')::text as store_credit,
       (select coalesce(sum(credit_balance), 0) from customers)::text as credit_held,
       (select balance from bal where system = 'tillCash')::text as till_cash,
       (select count(*) from sales s where s.created_at >= (select at from began)
          and not exists (select 1 from journal_entries e where e.source_kind = 'sale' and e.source_id = s.id))::text as sales_off,
       (select count(*) from refunds f where f.created_at >= (select at from began)
          and not exists (select 1 from journal_entries e where e.source_kind = 'refund' and e.source_id = f.id))::text
         as refunds_off,
       (select count(*) from stock_movements m where m.value <> 0 and m.at >= (select at from began)
          and not exists (select 1 from journal_movements j where j.movement_id = m.id))::text as movements_off,
       (select count(*) from register_sessions r where r.status = 'closed' and r.closed_at >= (select at from began)
          and not exists (select 1 from journal_entries e where e.source_kind = 'sessionClose' and e.source_id = r.id))::text
         as closes_off`,
  );
  const open = await run.query<{ id: string }>("select id from register_sessions where status = 'open'");
  let drawers = 0n;
  for (const session of open) drawers += await drawerHolds(run, session.id);
  const v = (key: string) => cents(row?.[key]);
  const check = (name: string, expected: bigint, actual: bigint) => ({
    name,
    ok: expected === actual,
    expected: money(expected),
    actual: money(actual),
  });
  const count = (name: string, key: string) => {
    const n = Number(row?.[key] ?? 0);
    return { name, ok: n === 0, expected: 0, actual: n };
  };
  const checks = [
    count('Every entry balances', 'unbalanced'),
    check('The trial balance is zero', 0n, v('trial')),
    check('The kept totals match the journal', v('lines_trial'), v('trial')),
    check('1300 Inventory = the stock’s value', v('stock_value'), v('inventory')),
    count('Locations whose stock value ≠ their 1300 lines', 'locations_off'),
    check('1310 Goods in transit = the value in transit', v('transit_value'), v('in_transit')),
    check(
      '2100 Goods received not billed = receipts not billed',
      v('received_value') - v('billed_value'),
      v('received'),
    ),
    check(
      '2000 Accounts payable = open bills − unallocated payments',
      v('open_bills') - v('unallocated'),
      v('payable'),
    ),
    check('2200 − 1400 = output tax − input tax', v('output_tax') - v('input_tax'), v('net_tax')),
    check('2300 Store credit = what customers hold', v('credit_held'), v('store_credit')),
    check('1000 Till cash = the open drawers’ expected cash', drawers, v('till_cash')),
    count('Sales without their one entry', 'sales_off'),
    count('Refunds without their one entry', 'refunds_off'),
    count('Movements with a value and no entry', 'movements_off'),
    count('Closed sessions without their one entry', 'closes_off'),
  ];
  return { ok: checks.every((c) => c.ok), checks };
}
