import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { callsOf } from '../sales/sales-test-data';
import { refund, renderRefunds, sale } from './refunds-test-data';

const PAGE = '/salesRep-dashboard/refunds/ref1';
const answer =
  (body = refund()) =>
  () => ({ body: { success: true, refund: body } });

function value(term: string) {
  return screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
}

describe("a refund's receipt", () => {
  it('shows the store, the refund number and date, the sale, the lines, total, tax, method, restock and who', async () => {
    const { calls } = renderRefunds(PAGE, {
      'GET /api/refunds/ref1': answer(
        refund({
          session: { _id: 'ses1', number: 7 },
          lines: [
            {
              order: { _id: 'o1' },
              product: { _id: 'p1', name: 'Green Tea' },
              quantity: 1,
              amount: 9.67,
              tax: 0.79,
            },
            { order: { _id: 'o2' }, product: { _id: 'p2', name: 'Cola' }, quantity: 1, amount: 2.4, tax: 0 },
          ],
          total: 12.07,
          tax: 0.79,
          reason: 'Damaged box',
        }),
      ),
    });
    const heading = await screen.findByRole('heading', { name: 'Refund R-000045', level: 1 });
    expect(document.title).toBe('Refund R-000045 · Inventory MS');
    const receipt = screen.getByRole('article', { name: 'Refund R-000045' });
    expect(receipt.contains(heading)).toBe(true);
    expect(within(receipt).getByText('Corner Shop')).toBeTruthy();
    expect(within(receipt).getByText('1 Main Street')).toBeTruthy();
    expect(within(receipt).getByText(formatDateTime('2025-05-02T09:15:00.000Z'))).toBeTruthy();
    expect(value('Sale')).toBe('S-000123');
    expect(value('Served by')).toBe('Test salesRep');
    expect(value('Customer')).toBe('Carla Customer');
    expect(value('Till session')).toBe('#7');
    const rows = within(screen.getByRole('table', { name: 'Lines of refund R-000045' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['Green Tea', '1', '$9.67'],
      ['Cola', '1', '$2.40'],
    ]);
    const totals = screen.getByLabelText('Totals of refund R-000045');
    expect(
      Array.from(totals.querySelectorAll('dt')).map((term) => [
        term.textContent,
        term.nextElementSibling?.textContent,
      ]),
    ).toEqual([
      ['Total refunded', '$12.07'],
      ['Of which tax', '$0.79'],
      ['Refunded by', 'Card'],
      ['Units', 'Back on the shelf'],
      ['Reason', 'Damaged box'],
    ]);
    // Opened directly (not just made): the focus is left where the browser puts it.
    expect(document.activeElement).not.toBe(heading);
    expect(callsOf(calls, 'GET', '/api/refunds/ref1')).toHaveLength(1);
  });

  it('says a written-off refund to store credit, without a session or reason, for a walk-in', async () => {
    renderRefunds(PAGE, {
      'GET /api/refunds/ref1': answer(refund({ method: 'storeCredit', restock: false, customer: null })),
    });
    await screen.findByRole('heading', { name: 'Refund R-000045' });
    expect(value('Refunded by')).toBe('Store credit');
    expect(value('Units')).toBe('Written off (damaged)');
    expect(value('Customer')).toBe('—');
    expect(screen.queryByText('Till session')).toBeNull();
    expect(screen.queryByText('Reason')).toBeNull();
  });

  it('prints only itself, as narrow as a till roll, and leads back to the sale', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const { router } = renderRefunds(PAGE, {
      'GET /api/refunds/ref1': answer(),
      'GET /api/sales/sale1': () => ({ body: { success: true, sale: sale() } }),
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Refund R-000045' });
    const receipt = screen.getByRole('article', { name: 'Refund R-000045' });
    expect(receipt.className).toContain('print:max-w-[80mm]');
    expect(receipt.className).toContain('print:[page:receipt]');
    // Everything on the page but the receipt is hidden on paper.
    const printButton = screen.getByRole('button', { name: 'Print' });
    const bar = printButton.parentElement as HTMLElement;
    expect(bar.className).toContain('print:hidden');
    expect(bar.contains(receipt)).toBe(false);
    for (const sibling of Array.from(receipt.parentElement?.children ?? [])) {
      if (sibling !== receipt) expect(sibling.className).toContain('print:hidden');
    }
    await user.click(printButton);
    expect(print).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('link', { name: 'New refund' }).getAttribute('href')).toBe(
      '/salesRep-dashboard/refunds',
    );
    await user.click(screen.getByRole('link', { name: 'Back to sale S-000123' }));
    expect(router.state.location.pathname).toBe('/salesRep-dashboard/sales/sale1');
    expect(await screen.findByRole('heading', { name: 'Receipt S-000123' })).toBeTruthy();
  });

  it('says when the refund does not exist, with nothing to print', async () => {
    renderRefunds(PAGE, {
      'GET /api/refunds/ref1': () => ({ status: 404, body: { success: false, error: 'Refund not found.' } }),
    });
    expect(await screen.findByText('This refund does not exist, or it is not one you may see.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Print' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('offers a retry when the refund could not be loaded', async () => {
    let attempt = 0;
    renderRefunds(PAGE, {
      'GET /api/refunds/ref1': () => {
        attempt += 1;
        if (attempt === 1) throw new TypeError('Failed to fetch');
        return answer()();
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByText(/The refund could not be loaded/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Refund R-000045' })).toBeTruthy();
  });
});
