import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsTo, renderReports, taxAnswer } from './reports-test-data';

const TAX = '/admin-dashboard/reports?tab=tax';

// Today is Friday 30 May 2025 in the reader's calendar; the last 30 days start on 1 May.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2025, 4, 30, 12, 0));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The texts of the cells (not the row header) of the row named `name`. */
function rowOf(table: HTMLElement, name: string): string[] {
  const row = within(table).getByRole('rowheader', { name }).closest('tr') as HTMLElement;
  return within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent ?? '');
}

describe('reports: tax', () => {
  it('lists each rate with its net sales and tax, the sales before taxes as "No tax rate", and the totals', async () => {
    const { calls } = renderReports(TAX, {
      'GET /api/reports/tax': ({ query }) => ({ body: taxAnswer(query) }),
    });
    const table = await screen.findByRole('table', { name: 'Tax by rate, May 1, 2025 – May 30, 2025' });
    expect(screen.getByRole('tab', { name: 'Tax' }).getAttribute('aria-selected')).toBe('true');
    expect(callsTo(calls, '/api/reports/tax').map((call) => call.query)).toEqual([
      { from: '2025-05-01', to: '2025-05-30' },
    ]);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Tax rate', 'Rate', 'Net sales', 'Tax']);
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((header) => header.textContent),
    ).toEqual(['No tax rate', 'Reduced', 'NYC sales tax', 'Total']);
    expect(rowOf(table, 'No tax rate')).toEqual(['0%', '$12.50', '$0.00']);
    expect(rowOf(table, 'Reduced')).toEqual(['5%', '$40.00', '$2.00']);
    expect(rowOf(table, 'NYC sales tax')).toEqual(['8.875%', '$200.00', '$17.75']);
    expect(rowOf(table, 'Total')).toEqual(['', '$252.50', '$19.75']);
    // A table, no chart.
    expect(screen.queryByRole('figure')).toBeNull();
  });

  it('asks again for another range, kept in the address', async () => {
    const { calls, router } = renderReports(TAX, {
      'GET /api/reports/tax': ({ query }) => ({ body: taxAnswer(query) }),
    });
    await screen.findByRole('table', { name: /^Tax by rate/ });
    await userEvent.selectOptions(screen.getByLabelText('Date range'), 'last-7-days');
    await screen.findByRole('table', { name: 'Tax by rate, May 24, 2025 – May 30, 2025' });
    expect(callsTo(calls, '/api/reports/tax').at(-1)?.query).toEqual({
      from: '2025-05-24',
      to: '2025-05-30',
    });
    expect(router.state.location.search).toBe('?tab=tax&range=last-7-days');
  });

  it('says so when nothing was sold in the range', async () => {
    renderReports(TAX, {
      'GET /api/reports/tax': ({ query }) => ({
        body: { success: true, ...query, rates: [], totals: { base: 0, tax: 0 } },
      }),
    });
    expect(await screen.findByText('No sales in this range.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says it is loading, then shows a failure with Try again, which asks once more', async () => {
    let failures = 1;
    let answer: (() => void) | undefined;
    const { calls } = renderReports(TAX, {
      'GET /api/reports/tax': async ({ query }) => {
        if (failures-- > 0) {
          await new Promise<void>((resolve) => {
            answer = resolve;
          });
          return { status: 503, body: { success: false, error: 'The reports are busy. Try again.' } };
        }
        return { body: taxAnswer(query) };
      },
    });
    expect(await screen.findByText('Loading the tax report...')).toBeTruthy();
    await waitFor(() => expect(answer).toBeDefined());
    answer?.();
    expect(
      await screen.findByText('The tax report could not be loaded: The reports are busy. Try again.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('table', { name: /^Tax by rate/ });
    expect(callsTo(calls, '/api/reports/tax')).toHaveLength(2);
  });

  it('Download CSV asks for the tax report of the range shown, as CSV', async () => {
    const { calls } = renderReports(`${TAX}&range=this-month`, {
      'GET /api/reports/tax': (call) =>
        call.query.format === 'csv'
          ? { body: 'tax rate,rate,base,tax\r\n' }
          : { body: taxAnswer(call.query) },
    });
    const created = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await screen.findByRole('table', { name: /^Tax by rate/ });
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toEqual(['tax-2025-05-01-to-2025-05-30.csv']));
    expect(callsTo(calls, '/api/reports/tax').at(-1)?.query).toEqual({
      from: '2025-05-01',
      to: '2025-05-30',
      format: 'csv',
    });
  });
});
