import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Sale } from '../../../shared/sales';
import { formatDateTime } from '../../lib/format';
import { STORE, sale, saleLine } from '../../test/fixtures';
import { userOf } from '../../test/helpers';
import { callsOf, renderSales } from './sales-test-data';

/** The order of the receipt's first line (Crisps, 3 sold) as a return answers it. */
function returnedOrder(returnedQuantity: number) {
  return {
    _id: 'o1',
    user: { _id: 'salesRep-id', name: 'Test salesRep', address: '' },
    product: { _id: 'p1', name: 'Crisps', category: { name: 'Snacks' } },
    quantity: 3,
    unitPrice: 0.1,
    unitCost: null,
    totalPrice: 0.3,
    discount: 0,
    tax: 0,
    taxRate: null,
    netTotal: 0.3,
    returnedTotal: 0,
    orderDate: '2025-05-01T10:30:00.000Z',
    status: returnedQuantity === 3 ? 'returned' : 'placed',
    returnedQuantity,
    sale: { _id: 'sale1', number: 123 },
    customer: null,
    lots: [],
  };
}

const answer =
  (body = sale()) =>
  () => ({ body: { success: true, sale: body } });

function rows() {
  const table = screen.getByRole('table', { name: 'Lines of receipt S-000123' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
}

function value(term: string) {
  return screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
}

describe('the receipt', () => {
  it('keeps the number the device printed beside the S- number for a sale made offline (DESIGN §21)', async () => {
    const offline = sale({
      offline: { deviceNumber: 'T1-K7Q2-000123', recordedAt: '2025-05-01T12:00:00.000Z', review: [] },
    });
    renderSales('/salesRep-dashboard/sales/sale1', { 'GET /api/sales/sale1': answer(offline) });
    expect(await screen.findByRole('heading', { name: 'Receipt S-000123', level: 1 })).toBeTruthy();
    expect(value('Sold offline')).toBe('T1-K7Q2-000123');
    expect(value('Sent')).toBe(formatDateTime('2025-05-01T12:00:00.000Z'));
  });

  it('says nothing of a device for a sale made online', async () => {
    renderSales('/salesRep-dashboard/sales/sale1', { 'GET /api/sales/sale1': answer() });
    expect(await screen.findByRole('heading', { name: 'Receipt S-000123', level: 1 })).toBeTruthy();
    expect(screen.queryByText('Sold offline', { selector: 'dt' })).toBeNull();
  });

  it('names the lots each line took (DESIGN §15): one with its expiry, several with their units', async () => {
    const lot = (id: string, number: string, expiresOn: string | null) => ({ _id: id, number, expiresOn });
    renderSales('/salesRep-dashboard/sales/sale1', {
      'GET /api/sales/sale1': answer(
        sale({
          lines: [
            saleLine('p1', 'Aspirin', 1, 2, {
              order: { _id: 'o1' },
              lots: [{ lot: lot('l1', 'A12', '2026-12-20'), quantity: 1 }],
            }),
            saleLine('p2', 'Syrup', 5, 1, {
              order: { _id: 'o2' },
              lots: [
                { lot: lot('l2', 'S1', '2026-12-01'), quantity: 3 },
                { lot: lot('l3', 'S2', null), quantity: 2 },
              ],
            }),
            saleLine('p3', 'Plasters', 1, 1, {
              order: { _id: 'o3' },
              lots: [{ lot: lot('l4', 'P9', null), quantity: 1 }],
            }),
            // No lots: a product without them ([]), and a receipt from before lots (absent).
            saleLine('p4', 'Crisps', 1, 0.5, { order: { _id: 'o4' }, lots: [] }),
            saleLine('p5', 'Cola', 1, 0.5, { order: { _id: 'o5' } }),
          ],
        }),
      ),
    });
    await screen.findByRole('heading', { name: 'Receipt S-000123', level: 1 });
    expect(rows().map((cells) => cells[0])).toEqual([
      'AspirinLot A12 · expires Dec 20, 2026',
      'SyrupLots S1 (3), S2 (2)',
      'PlastersLot P9 · no expiry',
      'Crisps',
      'Cola',
    ]);
  });

  it('shows the store, the number, the date, seller and customer, the lines, total, payment, tendered and change', async () => {
    const { calls } = renderSales('/salesRep-dashboard/sales/sale1', { 'GET /api/sales/sale1': answer() });
    expect(await screen.findByRole('heading', { name: 'Receipt S-000123', level: 1 })).toBeTruthy();
    expect(document.title).toBe('Receipt S-000123 · Inventory MS');
    expect(screen.getByText('Corner Shop')).toBeTruthy();
    // The app's one date-and-time style, "May 1, 2025, 10:30 AM" in the reader's zone.
    expect(screen.getByText(formatDateTime('2025-05-01T10:30:00.000Z'))).toBeTruthy();
    expect(formatDateTime('2025-05-01T10:30:00.000Z')).toMatch(/^May [12], 2025, \d{1,2}:\d{2} [AP]M$/);
    expect(value('Seller')).toBe('Test salesRep');
    expect(value('Customer')).toBe('Carla Customer');
    expect(rows()).toEqual([
      ['Crisps', '3 × $0.10', '$0.30'],
      ['Cola', '1 × $2.40', '$2.40'],
    ]);
    expect(value('Total')).toBe('$2.70');
    expect(value('Payment')).toBe('Cash');
    expect(value('Tendered')).toBe('$5.00');
    expect(value('Change')).toBe('$2.30');
    expect(callsOf(calls, 'GET', '/api/sales/sale1')).toHaveLength(1);
  });

  it("shows the store's details, each line's discount, the subtotal, discounts, tax per rate, total and footer, in the store's currency", async () => {
    const detailed = sale({
      store: {
        ...STORE,
        name: 'Harbour Deli',
        address: '12 Quay Street\nPortsmouth',
        phone: '555-0142',
        taxNumber: 'GB 123 4567 89',
        receiptFooter: 'Returns within 30 days with this receipt.',
        currency: 'EUR',
      },
      lines: [
        saleLine('p1', 'Green Tea', 3, 2.99, {
          discount: 1.66,
          tax: 0.65,
          taxRate: { name: 'Standard', rate: 8.875 },
          total: 7.96,
          net: 7.31,
        }),
        saleLine('p2', 'Rye Bread', 2, 1.25, {
          discount: 0.24,
          tax: 0.11,
          taxRate: { name: 'Reduced', rate: 5 },
          total: 2.37,
          net: 2.26,
        }),
      ],
      subtotal: 11.47,
      discount: 1.9,
      tax: 0.76,
      taxes: [
        { name: 'Standard', rate: 8.875, base: 7.31, tax: 0.65 },
        { name: 'Reduced', rate: 5, base: 2.26, tax: 0.11 },
      ],
      total: 10.33,
      payment: { method: 'cash', tendered: 20 },
      change: 9.67,
    });
    renderSales('/salesRep-dashboard/sales/sale1', { 'GET /api/sales/sale1': answer(detailed) });
    await screen.findByRole('heading', { name: 'Receipt S-000123', level: 1 });
    const header = screen.getByRole('article').querySelector('header') as HTMLElement;
    expect(within(header).getByText('Harbour Deli')).toBeTruthy();
    expect(within(header).getByText(/12 Quay Street/).textContent).toBe('12 Quay Street\nPortsmouth');
    expect(within(header).getByText('Tel. 555-0142')).toBeTruthy();
    expect(within(header).getByText('Tax no. GB 123 4567 89')).toBeTruthy();
    expect(rows()).toEqual([
      ['Green TeaDiscount −€1.66', '3 × €2.99', '€7.96'],
      ['Rye BreadDiscount −€0.24', '2 × €1.25', '€2.37'],
    ]);
    const list = screen.getByLabelText('Totals of receipt S-000123');
    expect(
      Array.from(list.querySelectorAll('dt')).map((term) => [
        term.textContent,
        term.nextElementSibling?.textContent,
      ]),
    ).toEqual([
      ['Subtotal', '€11.47'],
      ['Discounts', '−€1.90'],
      ['Standard 8.875% on €7.31', '€0.65'],
      ['Reduced 5% on €2.26', '€0.11'],
      ['Total', '€10.33'],
      ['Payment', 'Cash'],
      ['Tendered', '€20.00'],
      ['Change', '€9.67'],
    ]);
    expect(screen.getByText('Returns within 30 days with this receipt.')).toBeTruthy();
    expect(screen.queryByText('Thank you for your purchase!')).toBeNull();
  });

  it('says the tax is included when the prices include it, and what returns gave back', async () => {
    const inclusive = sale({
      store: { ...STORE, pricesIncludeTax: true },
      lines: [
        saleLine('p1', 'Green Tea', 1, 2.99, {
          tax: 0.24,
          taxRate: { name: 'Standard', rate: 8.875 },
          net: 2.75,
          returnedQuantity: 1,
          returnedTotal: 2.99,
        }),
      ],
      subtotal: 2.99,
      tax: 0.24,
      taxes: [{ name: 'Standard', rate: 8.875, base: 2.75, tax: 0.24 }],
      total: 2.99,
      payment: { method: 'card', tendered: null },
      change: null,
    });
    renderSales('/salesRep-dashboard/sales/sale1', { 'GET /api/sales/sale1': answer(inclusive) });
    await screen.findByRole('heading', { name: 'Receipt S-000123', level: 1 });
    expect(value('Incl. Standard 8.875% on $2.75')).toBe('$0.24');
    expect(value('Subtotal')).toBe('$2.99');
    expect(screen.queryByText('Discounts', { selector: 'dt' })).toBeNull();
    expect(value('Given back')).toBe('$2.99');
  });

  it('shows a receipt from before taxes and discounts as before, with the store details: no subtotal, no tax lines', async () => {
    renderSales('/salesRep-dashboard/sales/sale1', {
      'GET /api/sales/sale1': answer(sale({ store: { ...STORE, address: '1 Main Street' } })),
    });
    await screen.findByRole('heading', { name: 'Receipt S-000123', level: 1 });
    expect(screen.getByText('1 Main Street')).toBeTruthy();
    const list = screen.getByLabelText('Totals of receipt S-000123');
    expect(Array.from(list.querySelectorAll('dt')).map((term) => term.textContent)).toEqual([
      'Total',
      'Payment',
      'Tendered',
      'Change',
    ]);
    expect(screen.getByText('Thank you for your purchase!')).toBeTruthy();
    // On paper: the receipt alone (the buttons and returns are hidden), at most a till roll wide.
    expect(screen.getByRole('button', { name: 'Print' }).parentElement?.className).toContain('print:hidden');
    expect(screen.getByRole('article').className).toContain('print:max-w-[80mm]');
  });

  it('prints with the browser and leads to a new sale', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const { router } = renderSales('/salesRep-dashboard/sales/sale1', { 'GET /api/sales/sale1': answer() });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Receipt S-000123' });
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('link', { name: 'New sale' }));
    expect(router.state.location.pathname).toBe('/salesRep-dashboard/sales/new');
  });

  it('shows a card payment without tendered or change, a walk-in sale without a customer, and returned units', async () => {
    const card = sale({
      customer: null,
      payment: { method: 'card', tendered: null },
      change: null,
      lines: [
        saleLine('p1', 'Crisps', 3, 0.1, { order: { _id: 'o1' }, returnedQuantity: 1, returnedTotal: 0.1 }),
      ],
      total: 0.3,
    });
    renderSales('/salesRep-dashboard/sales/sale1', { 'GET /api/sales/sale1': answer(card) });
    await screen.findByRole('heading', { name: 'Receipt S-000123' });
    expect(value('Customer')).toBe('—');
    expect(value('Payment')).toBe('Card');
    expect(screen.queryByText('Tendered')).toBeNull();
    expect(screen.queryByText('Change')).toBeNull();
    expect(rows()[0]?.[0]).toBe('Crisps1 returned');
  });

  it('lets an admin read any receipt, make a new sale and return per line', async () => {
    renderSales('/admin-dashboard/sales/sale1', { 'GET /api/sales/sale1': answer() }, userOf('admin'));
    expect(await screen.findByRole('heading', { name: 'Receipt S-000123' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Print' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New sale' }).getAttribute('href')).toBe(
      '/admin-dashboard/sales/new',
    );
    expect(screen.getByRole('table', { name: 'Returns of receipt S-000123' })).toBeTruthy();
  });

  it('an admin returns one line from the sale’s page: it shows what is left, and the page reads the sale again', async () => {
    let returned = 0;
    const current = () =>
      sale({
        lines: [
          { ...(sale().lines[0] as Sale['lines'][number]), returnedQuantity: 1 + returned },
          { ...(sale().lines[1] as Sale['lines'][number]) },
        ],
      });
    const { calls } = renderSales(
      '/admin-dashboard/sales/sale1',
      {
        'GET /api/sales/sale1': () => ({ body: { success: true, sale: current() } }),
        'POST /api/order/o1/return': ({ body }) => {
          returned += (body as { quantity: number }).quantity;
          return { body: { success: true, order: returnedOrder(1 + returned) } };
        },
      },
      userOf('admin'),
    );
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Returns of receipt S-000123' });
    const lines = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent),
        );
    expect(lines()).toEqual([
      ['Crisps', 'Sold 3', 'Returned 1', 'Left to return 2', 'Return'],
      ['Cola', 'Sold 1', 'Returned 0', 'Left to return 1', 'Return'],
    ]);
    await user.click(within(table).getByRole('button', { name: 'Return Crisps' }));
    const dialog = screen.getByRole('dialog', { name: 'Return: Crisps' });
    expect(within(dialog).getByText(/2 can still come back/)).toBeTruthy();
    expect((within(dialog).getByLabelText('Quantity') as HTMLInputElement).value).toBe('2');
    await user.click(within(dialog).getByRole('button', { name: 'Return to stock' }));
    expect(await screen.findByText('2 of Crisps returned to stock.')).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/order/o1/return')[0]?.body).toEqual({ quantity: 2 });
    await waitFor(() =>
      expect(lines()[0]).toEqual(['Crisps', 'Sold 3', 'Returned 3', 'Left to return 0', 'All returned']),
    );
    expect(callsOf(calls, 'GET', '/api/sales/sale1').length).toBeGreaterThan(1);
  });

  it('a seller reads their receipt without returns (only admins take units back)', async () => {
    renderSales('/salesRep-dashboard/sales/sale1', { 'GET /api/sales/sale1': answer() });
    await screen.findByRole('heading', { name: 'Receipt S-000123' });
    expect(screen.queryByRole('table', { name: /Returns of/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Return/ })).toBeNull();
  });

  it('says when the receipt does not exist (or is another seller’s)', async () => {
    renderSales('/salesRep-dashboard/sales/nope', {
      'GET /api/sales/nope': () => ({ status: 404, body: { success: false, error: 'Sale not found' } }),
    });
    expect(
      await screen.findByText('This receipt does not exist, or it is not one of your sales.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Print' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers a retry when the receipt could not be loaded', async () => {
    let attempt = 0;
    renderSales('/salesRep-dashboard/sales/sale1', {
      'GET /api/sales/sale1': () => {
        attempt += 1;
        if (attempt === 1) throw new TypeError('Failed to fetch');
        return answer()();
      },
    });
    const user = userEvent.setup();
    const alert = await screen.findByText(/The receipt could not be loaded/);
    expect(alert.textContent).toContain('The server cannot be reached');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Receipt S-000123' })).toBeTruthy();
  });
});
