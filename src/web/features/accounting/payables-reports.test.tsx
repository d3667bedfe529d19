import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  answerPayables,
  answerReceivedNotBilled,
  answerTaxReturn,
  callsTo,
  renderAccounting,
} from './accounting-test-data';

const BASE = '/admin-dashboard/accounting';
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => row.textContent);
const failing = { status: 500, body: { success: false, error: 'An internal error occurred.' } };

/** Files the page saves, by name, and the blobs it saved. */
function catchDownloads() {
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }),
  );
  const saved: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
}

afterEach(() => vi.restoreAllMocks());

const aged = (over: Partial<Record<string, number>> = {}) => ({
  notDue: 0,
  days1to30: 0,
  days31to60: 0,
  days61to90: 0,
  over90: 0,
  unallocated: 0,
  total: 0,
  ...over,
});

describe('payables', () => {
  it('ages what each supplier is owed by days past due, with their credit, the total and a totals row', async () => {
    renderAccounting(`${BASE}/payables`, {
      'GET /api/accounting/payables': () =>
        answerPayables({
          at: '2025-05-31',
          suppliers: [
            {
              supplier: { _id: 's1', name: 'Acme' },
              ...aged({ notDue: 12.5, days31to60: 100, total: 112.5 }),
            },
            { supplier: { _id: 's2', name: 'Globex' }, ...aged({ over90: 40, unallocated: 50, total: -10 }) },
          ],
          totals: aged({ notDue: 12.5, days31to60: 100, over90: 40, unallocated: 50, total: 102.5 }),
        }),
    });
    const table = await screen.findByRole('table', {
      name: 'What is owed to each supplier at the end of May 31, 2025, by days past due',
    });
    expect(rowsOf(table)).toEqual([
      'SupplierNot due1–30 days31–60 days61–90 daysOver 90 daysCredit heldTotal',
      'Acme$12.50$0.00$100.00$0.00$0.00$0.00$112.50',
      'Globex$0.00$0.00$0.00$0.00$40.00$50.00-$10.00',
      'Total$12.50$0.00$100.00$0.00$40.00$50.00$102.50',
    ]);
    expect(within(table).getByRole('link', { name: 'Acme' }).getAttribute('href')).toBe(
      '/admin-dashboard/bills?supplier=s1',
    );
    expect((screen.getByLabelText('At the end of') as HTMLInputElement).value).toBe('2025-05-31');
  });

  it('asks for the day chosen, kept in the address, and downloads it as CSV', async () => {
    const saved = catchDownloads();
    const { calls, router } = renderAccounting(`${BASE}/payables`, {
      'GET /api/accounting/payables': ({ query }) =>
        query.format === 'csv'
          ? { body: 'supplier\r\n' }
          : answerPayables({ at: query.at ?? '2025-05-31', suppliers: [], totals: aged() }),
    });
    expect(await screen.findByText('Nothing is owed to any supplier at that day.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('At the end of'), { target: { value: '2025-04-30' } });
    await waitFor(() => expect(router.state.location.search).toBe('?at=2025-04-30'));
    await screen.findByText('At the end of Apr 30, 2025');
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toEqual(['payables-2025-04-30.csv']));
    expect(callsTo(calls, 'GET', '/api/accounting/payables').map((call) => call.query)).toEqual([
      {},
      { at: '2025-04-30' },
      { at: '2025-04-30', format: 'csv' },
    ]);
  });

  it('a failure is never an empty aging', async () => {
    let failures = 1;
    renderAccounting(`${BASE}/payables`, {
      'GET /api/accounting/payables': () =>
        failures-- > 0 ? failing : answerPayables({ at: '2025-05-31', suppliers: [], totals: aged() }),
    });
    expect(
      await screen.findByText('The payables could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(screen.queryByText('Nothing is owed to any supplier at that day.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Nothing is owed to any supplier at that day.')).toBeTruthy();
  });
});

describe('received not billed', () => {
  const answer = () =>
    answerReceivedNotBilled({
      lines: [
        {
          purchaseOrder: { _id: 'po1', number: 'PO-000007' },
          supplier: { _id: 's1', name: 'Acme' },
          line: 'pol-1',
          product: { _id: 'p1', name: 'Blue Pen' },
          unitCost: 0.4,
          received: 8,
          billed: 3,
          value: 2,
        },
        {
          purchaseOrder: { _id: 'po1', number: 'PO-000007' },
          supplier: { _id: 's1', name: 'Acme' },
          line: 'pol-2',
          product: { _id: 'p2', name: 'Stapler' },
          unitCost: 4.5,
          received: 2,
          billed: 0,
          value: 9,
        },
        {
          purchaseOrder: { _id: 'po2', number: 'PO-000008' },
          supplier: { _id: 's2', name: 'Globex' },
          line: 'pol-3',
          product: { _id: 'p3', name: 'Paper' },
          unitCost: 3,
          received: 1,
          billed: 0,
          value: 3,
        },
      ],
      total: 14,
    });

  it('lists each line by purchase order, with Bill this for each order, and the total', async () => {
    renderAccounting(`${BASE}/received-not-billed`, {
      'GET /api/accounting/received-not-billed': () => answer(),
      'GET /api/supplier': () => ({ body: { success: true, suppliers: [] } }),
    });
    const table = await screen.findByRole('table', {
      name: 'Goods received and not billed, by purchase order',
    });
    expect(rowsOf(table)).toEqual([
      'ProductReceivedBilledNot billedUnit costValue',
      'PO-000007 · AcmeBill this',
      'Blue Pen835$0.40$2.00',
      'Stapler202$4.50$9.00',
      'PO-000008 · GlobexBill this',
      'Paper101$3.00$3.00',
      'Total$14.00',
    ]);
    expect(within(table).getByRole('link', { name: 'PO-000007' }).getAttribute('href')).toBe(
      '/admin-dashboard/purchase-orders/po1',
    );
    expect(within(table).getByRole('link', { name: 'Bill PO-000008' }).getAttribute('href')).toBe(
      '/admin-dashboard/bills/new?purchaseOrder=po2',
    );
  });

  it('filters by supplier, and says so when everything received is billed; a failure is not that', async () => {
    let failures = 1;
    const { calls, router } = renderAccounting(`${BASE}/received-not-billed`, {
      'GET /api/accounting/received-not-billed': () =>
        failures-- > 0 ? failing : answerReceivedNotBilled({ lines: [], total: 0 }),
      'GET /api/supplier': () => ({
        body: {
          success: true,
          suppliers: [{ _id: 's2', name: 'Globex', email: '', phone: '', address: '' }],
        },
      }),
    });
    expect(
      await screen.findByText(
        'The goods received and not billed could not be loaded: An internal error occurred.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Every unit received is billed.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Every unit received is billed.')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Supplier'), 'Globex');
    await waitFor(() => expect(router.state.location.search).toBe('?supplier=s2'));
    await screen.findByText('From Globex');
    expect(callsTo(calls, 'GET', '/api/accounting/received-not-billed').at(-1)?.query).toEqual({
      supplier: 's2',
    });
  });
});

describe('the tax return', () => {
  it('shows output and input tax by rate with their bases, and the net to pay', async () => {
    const { calls } = renderAccounting(`${BASE}/tax-return`, {
      'GET /api/accounting/tax-return': ({ query }) =>
        answerTaxReturn({
          from: query.from ?? '2025-05-01',
          to: query.to ?? '2025-05-31',
          output: [
            { name: 'VAT', rate: 20, base: 100, tax: 20 },
            { name: '', rate: 0, base: 10, tax: 0 },
          ],
          input: [{ name: 'VAT', rate: 20, base: 40, tax: 8 }],
          outputTax: 20,
          inputTax: 8,
          net: 12,
        }),
    });
    const output = await screen.findByRole('table', {
      name: 'Output tax by rate, May 1, 2025 – May 31, 2025',
    });
    expect(rowsOf(output)).toEqual([
      'RateBaseTax',
      'VAT 20%$100.00$20.00',
      'No tax rate$10.00$0.00',
      'Total$110.00$20.00',
    ]);
    expect(rowsOf(screen.getByRole('table', { name: /^Input tax by rate/ }))).toEqual([
      'RateBaseTax',
      'VAT 20%$40.00$8.00',
      'Total$40.00$8.00',
    ]);
    expect(screen.getByText('Net: to pay').nextSibling?.textContent).toBe('$12.00');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-04-01' } });
    await screen.findByRole('table', { name: 'Output tax by rate, Apr 1, 2025 – May 31, 2025' });
    expect(callsTo(calls, 'GET', '/api/accounting/tax-return').at(-1)?.query).toEqual({ from: '2025-04-01' });
  });

  it('a failure is never an empty return', async () => {
    renderAccounting(`${BASE}/tax-return`, { 'GET /api/accounting/tax-return': () => failing });
    expect(
      await screen.findByText('The tax return could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(screen.queryByText(/No tax was charged/)).toBeNull();
  });
});

describe('the accountant’s files', () => {
  it('downloads the journal in the format and date format chosen, asking the path as it is', async () => {
    const saved = catchDownloads();
    const { calls, router } = renderAccounting(`${BASE}/export`, {
      'GET /api/accounting/export': () => ({ body: 'Narration,Date\r\n' }),
    });
    await screen.findByRole('heading', { name: 'Export', level: 1 });
    expect(calls).toEqual([]);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-04-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-04-30' } });
    await userEvent.selectOptions(screen.getByLabelText('Format'), 'Xero manual journal');
    await userEvent.selectOptions(screen.getByLabelText('Date format'), 'DD/MM/YYYY');
    await waitFor(() =>
      expect(router.state.location.search).toBe('?from=2025-04-01&to=2025-04-30&format=xero&dateFormat=eu'),
    );
    expect(screen.getByText('Narration, Date, Description, AccountCode, TaxRate, Amount')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual(['xero-2025-04-01-to-2025-04-30.csv']));
    expect(callsTo(calls, 'GET', '/api/accounting/export').map((call) => call.query)).toEqual([
      { from: '2025-04-01', to: '2025-04-30', format: 'xero', dateFormat: 'eu' },
    ]);
    expect(callsTo(calls, 'GET', '/api/accounting/export')[0]?.headers.Authorization).toBe(
      'Bearer test-token',
    );
  });

  it('says why a file could not be downloaded', async () => {
    catchDownloads();
    renderAccounting(`${BASE}/export`, {
      'GET /api/accounting/export': () => ({
        status: 409,
        body: { success: false, code: 'RANGE', error: 'Choose a From date on or before the To date.' },
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Download' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The file could not be downloaded: Choose a From date on or before the To date.',
    );
  });
});
