import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  account,
  answerBalanceSheet,
  answerProfitAndLoss,
  answerTrialBalance,
  callsTo,
  profitAndLoss,
  renderAccounting,
  trialBalance,
} from './accounting-test-data';
import { everyMonth } from './profit-and-loss-page';

const BASE = '/admin-dashboard/accounting';

afterEach(() => vi.restoreAllMocks());
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => row.textContent);

describe('the trial balance', () => {
  it('lists each account’s opening, debits, credits and closing, the equal totals, and says it balances', async () => {
    renderAccounting(`${BASE}/trial-balance`, {
      'GET /api/accounting/trial-balance': () => answerTrialBalance(trialBalance()),
    });
    expect(screen.getByText('Loading the trial balance...')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Trial balance, May 1, 2025 – May 31, 2025' });
    expect(rowsOf(table)).toEqual([
      'AccountTypeOpeningDebitCreditClosing',
      // Each figure carries its column's name for phones, where the head is not shown.
      '1000 Till cashAssetOpening$0.00Debit$184.50Credit$184.50Closing$0.00',
      '1050 SafeAssetOpening$0.00Debit$154.00Credit$150.00Closing$4.00',
      '4000 SalesIncomeOpening$0.00Debit$0.00Credit$34.50Closing-$34.50',
      '6100 Cash over and shortExpenseOpening$0.00Debit$0.50Credit$0.00Closing$0.50',
      'TotalDebit$339.00Credit$339.00',
    ]);
    expect(screen.getByRole('status').textContent).toBe('BalancedDebits $339.00, credits $339.00.');
    expect(within(table).getByRole('link', { name: '6100 Cash over and short' }).getAttribute('href')).toBe(
      `${BASE}/accounts/acc-6100`,
    );
    // The server's days fill the boxes left empty (the month to date).
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2025-05-01');
    expect(screen.getByText('(the month to date)', { exact: false })).toBeTruthy();
  });

  it('asks for the days chosen, keeps them in the address, and downloads the same as CSV', async () => {
    const { calls, router } = renderAccounting(`${BASE}/trial-balance`, {
      'GET /api/accounting/trial-balance': ({ query }) =>
        query.format === 'csv'
          ? { body: 'code,account\r\n' }
          : answerTrialBalance({
              ...trialBalance(),
              from: query.from ?? '2025-05-01',
              to: query.to ?? '2025-05-31',
            }),
    });
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }),
    );
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await screen.findByRole('table', { name: /^Trial balance/ });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-04-01' } });
    await waitFor(() => expect(router.state.location.search).toBe('?from=2025-04-01'));
    await screen.findByRole('table', { name: 'Trial balance, Apr 1, 2025 – May 31, 2025' });
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toEqual(['trial-balance-2025-04-01-to-2025-05-31.csv']));
    await userEvent.click(screen.getByRole('button', { name: 'Month to date' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(callsTo(calls, 'GET', '/api/accounting/trial-balance').map((call) => call.query)).toEqual([
      {},
      { from: '2025-04-01' },
      { from: '2025-04-01', format: 'csv' },
      {},
    ]);
  });

  it('says when the books are out of balance, and a failure is never an empty trial balance', async () => {
    let failures = 1;
    renderAccounting(`${BASE}/trial-balance`, {
      'GET /api/accounting/trial-balance': () =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : answerTrialBalance({ ...trialBalance(), totals: { debit: 339, credit: 338.5 } }),
    });
    expect(
      await screen.findByText('The trial balance could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(screen.queryByText('No account has a balance or a movement in these days.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Out of balanceDebits $339.00, credits $338.50.',
    );
  });
});

describe('profit and loss', () => {
  it('shows the statement: income, net sales, cost of sales, gross profit, expenses and net profit', async () => {
    renderAccounting(`${BASE}/profit-and-loss`, {
      'GET /api/accounting/profit-and-loss': () => answerProfitAndLoss(profitAndLoss()),
    });
    const statement = await screen.findByRole('table', {
      name: 'Profit and loss, Apr 1, 2025 – May 31, 2025',
    });
    expect(rowsOf(statement)).toEqual([
      'LineAmount',
      'Income',
      '4000 Sales$34.50',
      '4100 Sales returns-$8.00',
      'Net sales$26.50',
      'Cost of sales$10.00',
      'Gross profit$16.50',
      'Expenses',
      '6100 Cash over and short$0.50',
      'Net profit$16.00',
    ]);
  });

  it('charts one figure by month (net profit unless chosen), with every month’s figures in a table', async () => {
    const { router } = renderAccounting(`${BASE}/profit-and-loss`, {
      'GET /api/accounting/profit-and-loss': () => answerProfitAndLoss(profitAndLoss()),
    });
    const months = await screen.findByRole('table', {
      name: 'Profit and loss by month, Apr 1, 2025 – May 31, 2025',
    });
    expect(rowsOf(months)).toEqual([
      'MonthNet salesCost of salesNet profit',
      // The month written short too, for phones.
      'April 2025Apr 2025$0.00$0.00$0.00',
      'May 2025May 2025$26.50$10.00$16.00',
    ]);
    expect(screen.getByText('Net profit by month')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Chart'), 'Net sales');
    await waitFor(() => expect(router.state.location.search).toBe('?chart=netSales'));
    expect(screen.getByText('Net sales by month')).toBeTruthy();
  });

  it('fills the months nothing was posted in, so the chart by month skips none', () => {
    const may = { month: '2025-05', netSales: 1, costOfSales: 0, netProfit: 1 };
    expect(everyMonth({ from: '2024-11-15', to: '2025-05-31', months: [may] }).map((m) => m.month)).toEqual([
      '2024-11',
      '2024-12',
      '2025-01',
      '2025-02',
      '2025-03',
      '2025-04',
      '2025-05',
    ]);
    expect(everyMonth({ from: '2025-05-01', to: '2025-05-31', months: [may] })).toEqual([may]);
    expect(everyMonth({ from: '2025-04-01', to: '2025-05-31', months: [may] })[0]).toEqual({
      month: '2025-04',
      netSales: 0,
      costOfSales: 0,
      netProfit: 0,
    });
  });

  it('says when nothing was sold or spent', async () => {
    renderAccounting(`${BASE}/profit-and-loss`, {
      'GET /api/accounting/profit-and-loss': () =>
        answerProfitAndLoss({
          ...profitAndLoss(),
          income: [],
          expenses: [],
          netSales: 0,
          costOfSales: 0,
          grossProfit: 0,
          netProfit: 0,
          months: [],
        }),
    });
    expect(await screen.findByText('Nothing was sold or spent in these days.')).toBeTruthy();
  });
});

describe('the balance sheet', () => {
  const asset = account('1300', 'Inventory');
  const credit = account('2300', 'Store credit', { type: 'liability' });
  const equity = account('3000', 'Opening balance equity', { type: 'equity' });
  const typed = (one: typeof asset) => ({ _id: one._id, code: one.code, name: one.name, type: one.type });
  const sheet = (at: string) => ({
    at,
    assets: [{ account: typed(asset), balance: 500 }],
    liabilities: [{ account: typed(credit), balance: 40 }],
    equity: [{ account: typed(equity), balance: 440 }],
    earnings: 20,
    totals: { assets: 500, liabilities: 40, equity: 440 },
  });

  it('shows assets, liabilities, equity with the earnings, their totals and the equation they keep', async () => {
    const { calls, router } = renderAccounting(`${BASE}/balance-sheet`, {
      'GET /api/accounting/balance-sheet': ({ query }) => answerBalanceSheet(sheet(query.at ?? '2025-05-31')),
    });
    await screen.findByRole('table', { name: 'Assets' });
    expect(screen.getByRole('status').textContent).toBe(
      'BalancesAssets $500.00 = liabilities $40.00 + equity $440.00 + earnings $20.00',
    );
    expect(rowsOf(screen.getByRole('table', { name: 'Assets' }))).toEqual([
      'AssetsBalance',
      '1300 Inventory$500.00',
      'Total assets$500.00',
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'Equity' }))).toEqual([
      'EquityBalance',
      '3000 Opening balance equity$440.00',
      'Earnings not yet closed$20.00',
      'Total equity and earnings$460.00',
    ]);
    expect((screen.getByLabelText('At the end of') as HTMLInputElement).value).toBe('2025-05-31');
    fireEvent.change(screen.getByLabelText('At the end of'), { target: { value: '2025-04-30' } });
    await waitFor(() => expect(router.state.location.search).toBe('?at=2025-04-30'));
    expect(await screen.findByText('At the end of Apr 30, 2025')).toBeTruthy();
    expect(callsTo(calls, 'GET', '/api/accounting/balance-sheet').at(-1)?.query).toEqual({
      at: '2025-04-30',
    });
  });

  it('says when the sheet does not balance', async () => {
    renderAccounting(`${BASE}/balance-sheet`, {
      'GET /api/accounting/balance-sheet': () => answerBalanceSheet({ ...sheet('2025-05-31'), earnings: 10 }),
    });
    await screen.findByRole('table', { name: 'Assets' });
    expect(screen.getByRole('status').textContent).toBe(
      'Does not balanceAssets $500.00 ≠ liabilities $40.00 + equity $440.00 + earnings $10.00 ($490.00)',
    );
  });
});
