import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { sale } from '../../test/fixtures';
import { renderSales } from './sales-test-data';

const answer = (body: ReturnType<typeof sale>) => () => ({ body: { success: true, sale: body } });

/** The receipt's totals as shown: each term and its amount, in order. */
function totals(): [string, string][] {
  const list = screen.getByLabelText('Totals of receipt S-000123');
  return Array.from(list.querySelectorAll('dt')).map((term) => [
    term.textContent ?? '',
    term.nextElementSibling?.textContent ?? '',
  ]);
}

describe('a receipt paid in several payments', () => {
  it('lists each payment, cash with what was tendered, the change once, the till session and the refunds', async () => {
    const split = sale({
      total: 7.49,
      payment: { method: 'split', tendered: null },
      payments: [
        { method: 'card', amount: 5, tendered: null },
        { method: 'storeCredit', amount: 0.5, tendered: null },
        { method: 'cash', amount: 1.99, tendered: 10 },
      ],
      change: 8.01,
      session: { _id: 'rs1', number: 12 },
      refunds: [
        { _id: 'r1', number: 45, total: 2.5, method: 'cash', createdAt: '2025-05-02T09:15:00.000Z' },
        { _id: 'r2', number: 47, total: 0.1, method: 'storeCredit', createdAt: '2025-05-03T11:00:00.000Z' },
      ],
    });
    renderSales('/salesRep-dashboard/sales/sale1', { 'GET /api/sales/sale1': answer(split) });
    await screen.findByRole('heading', { name: 'Receipt S-000123', level: 1 });
    expect(totals()).toEqual([
      ['Total', '$7.49'],
      ['Payment', 'Split'],
      ['Card', '$5.00'],
      ['Store credit', '$0.50'],
      ['Cash', '$1.99'],
      ['Tendered', '$10.00'],
      ['Change', '$8.01'],
    ]);
    expect(screen.getByText('Till session', { selector: 'dt' }).nextElementSibling?.textContent).toBe('#12');
    const refunds = screen.getByRole('region', { name: 'Refunds' });
    expect(
      within(refunds)
        .getAllByRole('listitem')
        .map((item) => Array.from(item.children, (cell) => cell.textContent)),
    ).toEqual([
      ['R-000045', '−$2.50', formatDateTime('2025-05-02T09:15:00.000Z'), 'Cash'],
      ['R-000047', '−$0.10', formatDateTime('2025-05-03T11:00:00.000Z'), 'Store credit'],
    ]);
    // The refunds are part of the receipt, so a reprint shows them; the page's buttons are not.
    expect(screen.getByRole('article').contains(refunds)).toBe(true);
  });

  it('a single cash payment reads as before, with its own tendered; no session or refunds when there are none', async () => {
    renderSales('/salesRep-dashboard/sales/sale1', {
      'GET /api/sales/sale1': answer(
        sale({ payments: [{ method: 'cash', amount: 2.7, tendered: 20 }], change: 17.3 }),
      ),
    });
    await screen.findByRole('heading', { name: 'Receipt S-000123', level: 1 });
    expect(totals()).toEqual([
      ['Total', '$2.70'],
      ['Payment', 'Cash'],
      ['Tendered', '$20.00'],
      ['Change', '$17.30'],
    ]);
    expect(screen.queryByText('Till session')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Refunds' })).toBeNull();
  });
});
