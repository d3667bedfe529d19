import { createMemoryRouter, RouterProvider } from 'react-router';
import {
  type Account,
  AccountsResponse,
  BalanceSheetResponse,
  BooksCheckResponse,
  type JournalEntry,
  JournalEntryResponse,
  type JournalLine,
  JournalResponse,
  LedgerResponse,
  ProfitAndLossResponse,
  TrialBalanceResponse,
} from '../../../shared/accounting';
import { PayablesResponse, ReceivedNotBilledResponse, TaxReturnResponse } from '../../../shared/bills';
import type { Role } from '../../../shared/roles';
import { SignedInContext } from '../../lib/signed-in';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { AccountsPage } from './accounts-page';
import { BalanceSheetPage } from './balance-sheet-page';
import { BooksCheckPage } from './books-check-page';
import { EntryPage } from './entry-page';
import { ExportPage } from './export-page';
import { JournalPage } from './journal-page';
import { LedgerPage } from './ledger-page';
import { LockDatePage } from './lock-date-page';
import { ManualEntryPage } from './manual-entry-page';
import { PayablesPage } from './payables-page';
import { ProfitAndLossPage } from './profit-and-loss-page';
import { ReceivedNotBilledPage } from './received-not-billed-page';
import { TaxReturnPage } from './tax-return-page';
import { TrialBalancePage } from './trial-balance-page';

/** Test data and a router for the accounting screens' tests (not part of the app). */

export function account(code: string, name: string, overrides: Partial<Account> = {}): Account {
  return {
    _id: `acc-${code}`,
    code,
    name,
    type: 'asset',
    system: null,
    active: true,
    balance: 0,
    ...overrides,
  };
}

/** A few accounts of the default chart and one an admin added. */
export const TILL = account('1000', 'Till cash', { system: 'tillCash', balance: 120.5 });
export const SAFE = account('1050', 'Safe', { system: 'safe', balance: -150 });
export const SALES = account('4000', 'Sales', { type: 'income', system: 'sales', balance: -34.5 });
export const OVER_SHORT = account('6100', 'Cash over and short', {
  type: 'expense',
  system: 'overShort',
  balance: 0.5,
});
export const RENT = account('6200', 'Rent', { type: 'expense', balance: 0 });
export const OLD = account('6300', 'Old fees', { type: 'expense', active: false });
export const CHART = [TILL, SAFE, SALES, OVER_SHORT, RENT, OLD];

const ref = (one: Account) => ({ _id: one._id, code: one.code, name: one.name });
const typed = (one: Account) => ({ ...ref(one), type: one.type });

export function line(
  one: Account,
  debit: number,
  credit: number,
  extra: Partial<JournalLine> = {},
): JournalLine {
  return { account: ref(one), debit, credit, ...extra };
}

export function entry(overrides: Partial<JournalEntry> = {}): JournalEntry {
  return {
    _id: 'e1',
    number: 'JE-000001',
    date: '2025-05-01',
    createdAt: '2025-05-01T10:00:00.000Z',
    memo: 'Sale',
    source: { kind: 'sale', _id: 's1', number: 'S-000001' },
    movements: [],
    lines: [line(TILL, 19.5, 0, { register: { _id: 'r1', name: 'Till 1' } }), line(SALES, 0, 19.5)],
    ...overrides,
  };
}

type Reply = { status?: number; body: unknown };
export type Handler = (call: FetchCall) => Reply | Promise<Reply>;

/** Answers held to the shared schemas, so a test never feeds the screens what the server cannot say. */
export const answerAccounts = (accounts: Account[] = CHART): Reply => ({
  body: AccountsResponse.parse({ success: true, accounts }),
});
export const answerEntry = (one: JournalEntry, status = 200): Reply => ({
  status,
  body: JournalEntryResponse.parse({ success: true, entry: one }),
});
export const answerJournal = (rows: JournalEntry[], query: Record<string, string>): Reply => {
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.pageSize ?? 20);
  return {
    body: JournalResponse.parse({
      success: true,
      entries: rows.slice((page - 1) * pageSize, page * pageSize),
      total: rows.length,
      page,
      pageSize,
    }),
  };
};
export const answerLedger = (body: Omit<LedgerResponse, 'success'>): Reply => ({
  body: LedgerResponse.parse({ success: true, ...body }),
});
export const answerTrialBalance = (body: Omit<TrialBalanceResponse, 'success'>): Reply => ({
  body: TrialBalanceResponse.parse({ success: true, ...body }),
});
export const answerProfitAndLoss = (body: Omit<ProfitAndLossResponse, 'success'>): Reply => ({
  body: ProfitAndLossResponse.parse({ success: true, ...body }),
});
export const answerBalanceSheet = (body: Omit<BalanceSheetResponse, 'success'>): Reply => ({
  body: BalanceSheetResponse.parse({ success: true, ...body }),
});
export const answerCheck = (checks: BooksCheckResponse['checks']): Reply => ({
  body: BooksCheckResponse.parse({ success: true, ok: checks.every((check) => check.ok), checks }),
});
export const answerPayables = (body: Omit<PayablesResponse, 'success'>): Reply => ({
  body: PayablesResponse.parse({ success: true, ...body }),
});
export const answerReceivedNotBilled = (body: Omit<ReceivedNotBilledResponse, 'success'>): Reply => ({
  body: ReceivedNotBilledResponse.parse({ success: true, ...body }),
});
export const answerTaxReturn = (body: Omit<TaxReturnResponse, 'success'>): Reply => ({
  body: TaxReturnResponse.parse({ success: true, ...body }),
});
export const refusal = (status: number, code: string, error: string): Reply => ({
  status,
  body: { success: false, code, error },
});

/** A trial balance of the day at the counter: the till, the safe, sales and 0.50 short. */
export function trialBalance(): Omit<TrialBalanceResponse, 'success'> {
  return {
    from: '2025-05-01',
    to: '2025-05-31',
    accounts: [
      { account: typed(TILL), opening: 0, debit: 184.5, credit: 184.5, closing: 0 },
      { account: typed(SAFE), opening: 0, debit: 154, credit: 150, closing: 4 },
      { account: typed(SALES), opening: 0, debit: 0, credit: 34.5, closing: -34.5 },
      { account: typed(OVER_SHORT), opening: 0, debit: 0.5, credit: 0, closing: 0.5 },
    ],
    totals: { debit: 339, credit: 339 },
  };
}

export function profitAndLoss(): Omit<ProfitAndLossResponse, 'success'> {
  const returns = account('4100', 'Sales returns', { type: 'income' });
  return {
    from: '2025-04-01',
    to: '2025-05-31',
    income: [
      { account: typed(SALES), amount: 34.5 },
      { account: typed(returns), amount: -8 },
    ],
    netSales: 26.5,
    costOfSales: 10,
    grossProfit: 16.5,
    expenses: [{ account: typed(OVER_SHORT), amount: 0.5 }],
    netProfit: 16,
    months: [
      { month: '2025-04', netSales: 0, costOfSales: 0, netProfit: 0 },
      { month: '2025-05', netSales: 26.5, costOfSales: 10, netProfit: 16 },
    ],
  };
}

/** Every accounting screen at its address for `role`, on a fake server made of `handlers`. */
export function renderAccounting(path: string, handlers: Record<string, Handler>, role: Role = 'admin') {
  const user = userOf(role);
  signIn(user);
  const mock = mockFetch(handlers);
  const base = '/admin-dashboard/accounting';
  const router = createMemoryRouter(
    [
      { path: base, element: <AccountsPage /> },
      { path: `${base}/accounts/:id`, element: <LedgerPage /> },
      { path: `${base}/journal`, element: <JournalPage /> },
      { path: `${base}/journal/new`, element: <ManualEntryPage /> },
      { path: `${base}/journal/:id`, element: <EntryPage /> },
      { path: `${base}/trial-balance`, element: <TrialBalancePage /> },
      { path: `${base}/profit-and-loss`, element: <ProfitAndLossPage /> },
      { path: `${base}/balance-sheet`, element: <BalanceSheetPage /> },
      { path: `${base}/check`, element: <BooksCheckPage /> },
      { path: `${base}/lock-date`, element: <LockDatePage /> },
      { path: `${base}/payables`, element: <PayablesPage /> },
      { path: `${base}/received-not-billed`, element: <ReceivedNotBilledPage /> },
      { path: `${base}/tax-return`, element: <TaxReturnPage /> },
      { path: `${base}/export`, element: <ExportPage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const rendered = renderWithClient(
    <SignedInContext.Provider value={user}>
      <RouterProvider router={router} />
    </SignedInContext.Provider>,
  );
  return { ...mock, router, ...rendered };
}

export const callsTo = (calls: readonly FetchCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);
