import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { StockCheckPage } from './stock-check-page';

function renderCheck(answer: (call: FetchCall) => { status?: number; body: unknown }) {
  signIn(userOf('admin'));
  const mock = mockFetch({ 'GET /api/stock/check': answer });
  renderWithClient(<StockCheckPage />);
  return mock;
}

describe('the ledger check', () => {
  it('runs only when asked, and says when every product agrees with its history', async () => {
    const { calls } = renderCheck(() => ({ body: { success: true, checked: 1234, mismatches: [] } }));
    // Named for what it checks, not a stocktake's "Stock check".
    expect(screen.getByRole('heading', { name: 'Ledger check', level: 1 })).toBeTruthy();
    expect(document.title).toMatch(/^Ledger check/);
    expect(calls).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Run check' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'All 1,234 products agree with their history.',
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('lists the products whose stock differs from the sum of their movements', async () => {
    renderCheck(() => ({
      body: {
        success: true,
        checked: 300,
        mismatches: [
          { product: { _id: 'p1', name: 'Blue Pen' }, stock: 12, ledger: 10 },
          { product: { _id: 'p2', name: 'Stapler' }, stock: 0, ledger: 3 },
        ],
      },
    }));
    await userEvent.click(screen.getByRole('button', { name: 'Run check' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      '2 of 300 products disagree with their history.',
    );
    const table = screen.getByRole('table', { name: 'Products whose stock differs from their movements' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => Array.from(row.children, (cell) => cell.textContent));
    expect(rows).toEqual([
      ['Product', 'Stock', 'Sum of movements'],
      ['Blue Pen', '12', '10'],
      ['Stapler', '0', '3'],
    ]);
  });

  it("shows the server's sentence when the check fails, and runs again on request", async () => {
    let failures = 1;
    const { calls } = renderCheck(() =>
      failures-- > 0
        ? { status: 403, body: { success: false, error: 'Forbidden' } }
        : { body: { success: true, checked: 2, mismatches: [] } },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Run check' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Forbidden');
    await userEvent.click(screen.getByRole('button', { name: 'Run check' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect((await screen.findByRole('status')).textContent).toBe('All 2 products agree with their history.');
    expect(calls).toHaveLength(2);
  });
});
