import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { userOf } from '../../test/helpers';
import { openSession, renderTill, report } from './till-test-data';

const PATH = '/salesRep-dashboard/till/sessions/session1';

const closed = openSession({
  status: 'closed',
  closedAt: '2025-05-01T18:00:00.000Z',
  closedBy: { _id: 'admin-id', name: 'Ada Admin' },
  countedCash: 231.25,
  note: 'Counted twice.',
  openedBy: { _id: 'salesRep-id', name: 'Sam Seller' },
});
const zReport = report({
  sales: { count: 14, total: 512.4 },
  refunds: { count: 2, total: 18.5 },
  payments: [
    { method: 'cash', in: 160.75, out: 8.5 },
    { method: 'card', in: 331.65, out: 10 },
    { method: 'other', in: 0, out: 0 },
    { method: 'storeCredit', in: 20, out: 0 },
  ],
  cashIn: 20,
  cashOut: 40,
  expectedCash: 232.25,
  countedCash: 231.25,
  difference: -1,
  discount: 12.3,
  taxes: [
    { name: 'VAT', rate: 20, base: 400.05, tax: 80.01 },
    { name: 'Reduced', rate: 5, base: 19.99, tax: 1 },
  ],
});

/** A table's rows, each as its cells' texts (header cells too). */
function rowsOf(table: HTMLElement) {
  return within(table)
    .getAllByRole('row')
    .map((row) => {
      const cells = Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent ?? '');
      return [...cells, '', ''].slice(0, 3);
    });
}

/** A definition list's terms and descriptions, as pairs. */
function pairs(name: string) {
  const list = screen.getByLabelText(name);
  const terms = Array.from(list.querySelectorAll('dt'), (dt) => dt.textContent);
  const values = Array.from(list.querySelectorAll('dd'), (dd) => dd.textContent);
  return terms.map((term, at) => [term, values[at]]);
}

describe('a till session report', () => {
  it('shows every figure of a Z report, the difference in words, and prints', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderTill(PATH, {
      'GET /api/register-sessions/session1': () => ({
        body: { success: true, session: closed, report: zReport },
      }),
    });
    expect(await screen.findByRole('heading', { name: 'Z report · Till 1 · session #12' })).toBeTruthy();
    expect(pairs('Session')).toEqual([
      ['Register', 'Till 1'],
      ['Session', '#12'],
      ['Opened by', 'Sam Seller'],
      ['Opened at', expect.stringMatching(/2025/)],
      ['Closed by', 'Ada Admin'],
      ['Closed at', expect.stringMatching(/2025/)],
      ['Opening float', '$100.00'],
    ]);
    expect(pairs('Sales and refunds')).toEqual([
      ['Sales (14)', '$512.40'],
      ['Refunds (2)', '$18.50'],
      ['Discounts', '$12.30'],
    ]);
    const payments = screen.getByRole('table', { name: 'Payments by method' });
    expect(
      within(payments)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['Cash$160.75$8.50', 'Card$331.65$10.00', 'Other$0.00$0.00', 'Store credit$20.00$0.00']);
    expect(pairs('Cash drawer')).toEqual([
      ['Opening float', '$100.00'],
      ['Cash in', '$20.00'],
      ['Cash out', '$40.00'],
      ['Expected cash', '$232.25'],
      ['Counted cash', '$231.25'],
      ['Difference', 'Short by $1.00'],
    ]);
    // Tax by rate in a table of its own, its Total row the sums of the rates' figures.
    const taxes = screen.getByRole('table', { name: 'Tax by rate' });
    expect(rowsOf(taxes)).toEqual([
      ['Rate', 'Net', 'Tax'],
      ['VAT 20%', '$400.05', '$80.01'],
      ['Reduced 5%', '$19.99', '$1.00'],
      ['Total', '$420.04', '$81.01'],
    ]);
    expect(within(taxes).getByRole('rowheader', { name: 'Total' }).closest('tfoot')).toBeTruthy();
    expect(screen.getByText('Counted twice.')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('says an X report is not counted yet, and an over count in words', async () => {
    const { unmount } = renderTill(PATH, {
      'GET /api/register-sessions/session1': () => ({
        body: { success: true, session: openSession(), report: report() },
      }),
    });
    expect(await screen.findByRole('heading', { name: 'X report · Till 1 · session #12' })).toBeTruthy();
    expect(pairs('Cash drawer').slice(-2)).toEqual([
      ['Counted cash', 'Not counted yet'],
      ['Difference', '—'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'Tax by rate' }))).toEqual([
      ['Rate', 'Net', 'Tax'],
      ['No tax in this session', '', ''],
    ]);
    unmount();
    renderTill(
      '/admin-dashboard/till/sessions/session1',
      {
        'GET /api/register-sessions/session1': () => ({
          body: {
            success: true,
            session: closed,
            report: { ...zReport, countedCash: 233, difference: 0.75 },
          },
        }),
      },
      userOf('admin'),
    );
    expect(await screen.findByText('Over by $0.75')).toBeTruthy();
  });

  it('says when the session does not exist, and a failure with Try again', async () => {
    const { unmount } = renderTill(PATH, {
      'GET /api/register-sessions/session1': () => ({
        status: 404,
        body: { success: false, error: 'Not found.' },
      }),
    });
    expect(
      await screen.findByText('This till session does not exist, or it is not one of yours.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Print' })).toHaveProperty('disabled', true);
    unmount();
    renderTill(PATH, {
      'GET /api/register-sessions/session1': () => ({
        status: 503,
        body: { success: false, error: 'Down.' },
      }),
    });
    expect(await screen.findByText('The till report could not be loaded: Down.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('says it is loading', () => {
    renderTill(PATH, { 'GET /api/register-sessions/session1': () => new Promise(() => {}) });
    expect(screen.getByText('Loading the till report...')).toBeTruthy();
  });
});
