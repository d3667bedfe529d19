import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, movement, renderLots, trace } from './lots-test-data';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Received on a purchase order, sold twice (one to a named customer), one returned, one written off. */
const movements = [
  movement('m1', {
    at: '2026-09-01T08:00:00.000Z',
    kind: 'receipt',
    quantity: 10,
    purchaseOrder: { _id: 'po7', number: 'PO-000007' },
    user: { _id: 'u2', name: 'Ann Admin' },
  }),
  movement('m2', {
    at: '2026-09-03T10:00:00.000Z',
    quantity: -2,
    order: { _id: 'order-2-abcdef' },
    sale: { _id: 'sale9', number: 9 },
    customer: { _id: 'c1', name: 'Carla Customer' },
  }),
  movement('m3', {
    at: '2026-09-04T10:00:00.000Z',
    quantity: -1,
    order: { _id: 'order-3-abcdef' },
    sale: { _id: 'sale10', number: 10 },
    customer: { _id: null, name: 'Walk-in Wanda' },
  }),
  movement('m4', {
    at: '2026-09-05T10:00:00.000Z',
    kind: 'return',
    quantity: 1,
    order: { _id: 'order-3-abcdef' },
    customer: { _id: null, name: 'Walk-in Wanda' },
  }),
  movement('m5', {
    at: '2026-09-06T10:00:00.000Z',
    kind: 'adjustment',
    quantity: -1,
    reason: 'damaged',
    note: 'Box crushed',
    user: { _id: 'u2', name: 'Ann Admin' },
  }),
];

const traceTable = () =>
  screen.findByRole('table', { name: 'Movements of lot A12 of Aspirin 500, oldest first' });
const bodyRows = (element: HTMLElement) => within(element).getAllByRole('row').slice(1);

describe("a lot's recall trace", () => {
  it('asks for the lot and shows it: product, number, expiry in words (judged on the store’s today, which the answer names), units now', async () => {
    // This device is already past midnight; the store's day is still the lot's last.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 11, 21, 0, 30));
    const { calls } = renderLots('/admin-dashboard/lots/lot1', {
      'GET /api/lots/lot1/trace': () => ({ body: trace({ movements, today: '2026-12-20' }) }),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Recall trace: Aspirin 500, lot A12' }),
    ).toBeTruthy();
    expect(callsTo(calls, 'GET', '/api/lots/lot1/trace')).toHaveLength(1);
    expect(document.title).toMatch(/^Recall trace: Aspirin 500, lot A12/);
    const term = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(term('Product')?.textContent).toBe('Aspirin 500');
    expect(
      within(term('Product') as HTMLElement)
        .getByRole('link')
        .getAttribute('href'),
    ).toBe('/admin-dashboard/products/p1/stock');
    expect(term('Lot')?.textContent).toBe('A12');
    // The last day of a lot is still in date.
    expect(term('Expires')?.textContent).toBe('Dec 20, 2026Expires soon');
    expect(term('Units now')?.textContent).toBe('7');
  });

  it('says a lot past the store’s day is expired, in red, while this device’s clock is still on its last day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 11, 20, 23, 30));
    renderLots('/admin-dashboard/lots/lot1', {
      'GET /api/lots/lot1/trace': () => ({ body: trace({ today: '2026-12-21' }) }),
    });
    const expires = await screen.findByText('Expires', { selector: 'dt' });
    expect(expires.nextElementSibling?.textContent).toBe('Dec 20, 2026Expired');
    expect(within(expires.nextElementSibling as HTMLElement).getByText('Expired').className).toContain(
      'bg-red-100',
    );
  });

  it('says a lot without expiry has none, and is in date', async () => {
    const lot = { ...trace().lot, expiresOn: null };
    renderLots('/admin-dashboard/lots/lot1', {
      'GET /api/lots/lot1/trace': () => ({ body: trace({ lot }) }),
    });
    const expires = await screen.findByText('Expires', { selector: 'dt' });
    expect(expires.nextElementSibling?.textContent).toBe('Does not expireIn date');
  });

  it('lists every movement oldest first with its receipt, customer, purchase order and who', async () => {
    renderLots('/admin-dashboard/lots/lot1', {
      'GET /api/lots/lot1/trace': () => ({ body: trace({ movements }) }),
    });
    const table = await traceTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['When', 'Kind', 'Quantity', 'Receipt or order', 'Customer', 'Purchase order', 'Who']);
    const [received, sold, soldAgain, returned, written] = bodyRows(table) as HTMLElement[];
    expect(received?.textContent).toMatch(/Receipt\+10.*PO-000007Ann Admin$/);
    expect(
      within(received as HTMLElement)
        .getByRole('link', { name: 'PO-000007' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/purchase-orders/po7');
    expect(sold?.textContent).toMatch(/Sale−2Receipt S-000009.*Carla CustomerSam Seller$/);
    expect(
      within(sold as HTMLElement)
        .getByRole('link', { name: 'Receipt S-000009' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/sales/sale9');
    expect(
      within(sold as HTMLElement)
        .getByRole('link', { name: 'Carla Customer' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/customers/c1');
    // A customer named at the counter only (no record) is said, not linked.
    expect(soldAgain?.textContent).toContain('Walk-in Wanda');
    expect(within(soldAgain as HTMLElement).queryByRole('link', { name: 'Walk-in Wanda' })).toBeNull();
    // A return names its order.
    expect(returned?.textContent).toMatch(/Return\+1Order order-3.*Walk-in Wanda/);
    expect(written?.textContent).toMatch(/AdjustmentDamagedBox crushed−1.*Ann Admin$/);
    expect(screen.getByText(/5 movements, oldest first; 2 customers named on its sales\./)).toBeTruthy();
  });

  it('prints the trace alone: Print calls the browser’s print, and the buttons are hidden on paper', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderLots('/admin-dashboard/lots/lot1', {
      'GET /api/lots/lot1/trace': () => ({ body: trace({ movements }) }),
    });
    await traceTable();
    const button = screen.getByRole('button', { name: 'Print' });
    expect(button.closest('.print\\:hidden')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Expiring lots' }).closest('.print\\:hidden')).toBeTruthy();
    // The page prints on its own page type (landscape, styles.css).
    expect(button.closest('.print\\:\\[page\\:trace\\]')).toBeTruthy();
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('says “Lot not found.” for a lot that does not exist, with no Try again, and Print stays off', async () => {
    renderLots('/admin-dashboard/lots/nope', {
      'GET /api/lots/nope/trace': () => ({ status: 404, body: { success: false, error: 'Lot not found.' } }),
    });
    expect((await screen.findByRole('alert', {}, { timeout: 3_000 })).textContent).toBe('Lot not found.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Print' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows why the trace could not be loaded, and Try again loads it', async () => {
    let failures = 1;
    renderLots('/admin-dashboard/lots/lot1', {
      'GET /api/lots/lot1/trace': () =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'The database is resting.' } }
          : { body: trace({ movements }) },
    });
    const alerts = await screen.findAllByText(
      "The lot's trace could not be loaded: The database is resting.",
    );
    expect(alerts.length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(async () => expect(bodyRows(await traceTable())).toHaveLength(5));
  });

  it('says when a lot has no movements', async () => {
    renderLots('/admin-dashboard/lots/lot1', { 'GET /api/lots/lot1/trace': () => ({ body: trace() }) });
    expect(await screen.findByText('This lot has no movements.')).toBeTruthy();
  });
});
