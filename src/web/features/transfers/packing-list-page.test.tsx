import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { answerTransfer, line, renderTransfers, transfer } from './transfers-test-data';

describe('the packing list', () => {
  it('shows the store, number, from, to, date, lines with lots and blank check columns, and prints', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderTransfers('/admin-dashboard/transfers/t1/packing-list', {
      'GET /api/transfers/t1': () =>
        answerTransfer(
          transfer({
            status: 'inTransit',
            sentAt: '2025-05-02T09:00:00.000Z',
            note: 'Fragile',
            lines: [
              line('p1', 'Blue Pen', { quantity: 4, sent: 4 }),
              line('p2', 'Serum', {
                quantity: 3,
                sent: 3,
                lots: [
                  {
                    _id: 'a',
                    number: 'A1',
                    expiresOn: '2027-03-03',
                    sent: 2,
                    received: 0,
                    lost: 0,
                    returned: 0,
                  },
                  { _id: 'b', number: 'B2', expiresOn: null, sent: 1, received: 0, lost: 0, returned: 0 },
                ],
              }),
            ],
          }),
        ),
    });
    expect(await screen.findByRole('heading', { name: 'Packing list TR-000001' })).toBeTruthy();
    expect(screen.getByText('Inventory MS')).toBeTruthy();
    expect(screen.getByText(/Sent/).textContent).toContain('May 2, 2025');
    expect(screen.getByText('Main store')).toBeTruthy();
    expect(screen.getByText('Stockroom')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Lines of TR-000001' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Product', 'Quantity', 'Lots / expiry', 'Packed', 'Checked in']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]?.textContent).toBe('Blue Pen4');
    expect(rows[1]?.textContent).toBe('Serum3A1 (2) · Mar 3, 2027B2 (1) · Does not expire');
    expect(screen.getByText('Fragile')).toBeTruthy();
    expect(screen.getByText('Packed at Main store by (name, signature, date)')).toBeTruthy();
    expect(screen.getByText('Received at Stockroom by (name, signature, date)')).toBeTruthy();
    // The buttons stay off the paper.
    const printButton = screen.getByRole('button', { name: 'Print' });
    expect(printButton.parentElement?.className).toContain('print:hidden');
    await userEvent.click(printButton);
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('says why it could not be loaded, and offers no print of nothing', async () => {
    renderTransfers('/admin-dashboard/transfers/t1/packing-list', {
      'GET /api/transfers/t1': () => ({
        status: 500,
        body: { success: false, error: 'An internal error occurred.' },
      }),
    });
    expect(
      await screen.findByText('The transfer could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Print' })).toHaveProperty('disabled', true);
  });
});
