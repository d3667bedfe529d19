import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Lot } from '../../../shared/lots';
import type { Product } from '../../../shared/products';
import { product } from '../../test/fixtures';
import type { FetchCall } from '../../test/helpers';
import { callsOf, codeAnswer, type Handler, productsAnswer, renderSales } from './sales-test-data';

/** A lot-tracked medicine: one lot expired, A12 soonest, B7 later, one without expiry last. */
const aspirin = product('p9', 'Aspirin 500', { price: 2, stock: 17, barcode: '111', tracking: 'lot' });
const crisps = product('p1', 'Salted Crisps', { price: 0.1, stock: 5, barcode: '222' });
const catalogue = [aspirin, crisps];

const lots: Lot[] = [
  { _id: 'l0', number: 'OLD', expiresOn: '2026-11-27', quantity: 10 },
  { _id: 'l2', number: 'B7', expiresOn: '2027-02-01', quantity: 3 },
  { _id: 'l1', number: 'A12', expiresOn: '2026-12-20', quantity: 3 },
  { _id: 'l3', number: 'N1', expiresOn: null, quantity: 1 },
  { _id: 'l4', number: 'EMPTY', expiresOn: '2026-11-30', quantity: 0 },
];

/** The store's today, as the lots answer names it (the till's clock is set near it below). */
const TODAY = '2026-11-28';

const lotsAnswer =
  (given: Lot[] = lots, today = TODAY): Handler =>
  () => ({ body: { success: true, lots: given, today } });

function openCounter(handlers: Record<string, Handler> = {}, products: readonly Product[] = catalogue) {
  const view = renderSales('/salesRep-dashboard/sales/new', {
    'GET /api/products': productsAnswer(products),
    'GET /api/products/code/*': codeAnswer(products),
    'GET /api/products/p9/lots': lotsAnswer(),
    ...handlers,
  });
  return { ...view, user: userEvent.setup() };
}

const searchBox = () => screen.getByRole('combobox', { name: 'Scan or search a product' });
const line = (name: string) =>
  within(screen.getByRole('list', { name: 'Cart' })).getByRole('listitem', { name: new RegExp(`^${name},`) });
const quantityBox = (name: string) => screen.getByLabelText(`Quantity of ${name}`) as HTMLInputElement;
const lotCalls = (calls: readonly FetchCall[]) => callsOf(calls, 'GET', '/api/products/p9/lots');

async function scan(user: ReturnType<typeof userEvent.setup>, code: string, name: string) {
  await user.type(searchBox(), `${code}{Enter}`);
  await waitFor(() => expect(quantityBox(name)).toBeTruthy());
}

async function setQuantity(user: ReturnType<typeof userEvent.setup>, name: string, quantity: string) {
  await user.clear(quantityBox(name));
  await user.type(quantityBox(name), quantity);
}

beforeEach(() => {
  // Today on this till: 28 November 2026, late in the evening (the local day, whatever UTC says).
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 28, 23, 45));
});
afterEach(() => vi.useRealTimers());

describe('the counter shows which lots a line of a lot-tracked product takes', () => {
  it('names the soonest unexpired lot and its expiry, then several lots with their units, asking once', async () => {
    const { user, calls } = openCounter();
    await scan(user, '111', 'Aspirin 500');
    expect(await within(line('Aspirin 500')).findByText('Lot A12 · expires Dec 20, 2026')).toBeTruthy();
    expect(line('Aspirin 500').getAttribute('aria-label')).toBe(
      'Aspirin 500, quantity 1, Lot A12 · expires Dec 20, 2026',
    );

    await setQuantity(user, 'Aspirin 500', '5');
    expect(await within(line('Aspirin 500')).findByText('Lots A12 (3), B7 (2)')).toBeTruthy();
    // The lot without expiry goes last.
    await setQuantity(user, 'Aspirin 500', '7');
    expect(await within(line('Aspirin 500')).findByText('Lots A12 (3), B7 (3), N1 (1)')).toBeTruthy();
    expect(line('Aspirin 500').getAttribute('data-above-stock')).toBeNull();
    // The lots are read once for the line, whatever the quantity does.
    expect(lotCalls(calls)).toHaveLength(1);
    expect(lotCalls(calls)[0]?.headers.Authorization).toMatch(/^Bearer /);
  });

  it('says when the unexpired units are fewer than the quantity, on the line and to a screen reader', async () => {
    const { user } = openCounter();
    await scan(user, '111', 'Aspirin 500');
    await within(line('Aspirin 500')).findByText('Lot A12 · expires Dec 20, 2026');
    // 17 in stock, but 10 of them expired: 7 can be sold.
    await setQuantity(user, 'Aspirin 500', '8');
    const warning = await within(line('Aspirin 500')).findByText('Only 7 of Aspirin 500 unexpired in stock.');
    expect(warning.className).toContain('text-red-700');
    expect(line('Aspirin 500').getAttribute('aria-label')).toBe(
      'Aspirin 500, quantity 8, Lots A12 (3), B7 (3), N1 (1). Only 7 of Aspirin 500 unexpired in stock.',
    );
    expect(quantityBox('Aspirin 500').getAttribute('aria-invalid')).toBe('true');
    await setQuantity(user, 'Aspirin 500', '7');
    await waitFor(() =>
      expect(within(line('Aspirin 500')).queryByText('Only 7 of Aspirin 500 unexpired in stock.')).toBeNull(),
    );
  });

  it('says “Only 0 of <product> unexpired in stock.” when every lot has expired', async () => {
    const { user } = openCounter({
      'GET /api/products/p9/lots': lotsAnswer([
        { _id: 'l0', number: 'OLD', expiresOn: '2026-11-27', quantity: 20 },
      ]),
    });
    await scan(user, '111', 'Aspirin 500');
    expect(
      await within(line('Aspirin 500')).findByText('Only 0 of Aspirin 500 unexpired in stock.'),
    ).toBeTruthy();
  });

  it('says what can be sold: the unexpired units in stock, the expired ones apart', async () => {
    const { user } = openCounter();
    await scan(user, '111', 'Aspirin 500');
    await within(line('Aspirin 500')).findByText('Lot A12 · expires Dec 20, 2026');
    expect(within(line('Aspirin 500')).getByText(/in stock/).textContent).toBe(
      '$2.00 each · 7 in stock (10 expired)',
    );
  });

  it('says the stock alone when nothing of it has expired', async () => {
    const fresh = [{ _id: 'l1', number: 'A12', expiresOn: '2026-12-20', quantity: 17 }];
    const { user } = openCounter({ 'GET /api/products/p9/lots': lotsAnswer(fresh) });
    await scan(user, '111', 'Aspirin 500');
    await within(line('Aspirin 500')).findByText('Lot A12 · expires Dec 20, 2026');
    expect(within(line('Aspirin 500')).getByText(/in stock/).textContent).toBe('$2.00 each · 17 in stock');
  });

  it('judges expiry by the store’s today that the lots answer names, not by the till’s clock', async () => {
    const lastDay = [{ _id: 'l5', number: 'LAST', expiresOn: '2026-11-28', quantity: 2 }];
    // The till still says 28 November (23:45), the store's day is already the 29th.
    const { user } = openCounter({ 'GET /api/products/p9/lots': lotsAnswer(lastDay, '2026-11-29') });
    await scan(user, '111', 'Aspirin 500');
    expect(
      await within(line('Aspirin 500')).findByText('Only 0 of Aspirin 500 unexpired in stock.'),
    ).toBeTruthy();
    expect(within(line('Aspirin 500')).getByText(/in stock \(/).textContent).toBe(
      '$2.00 each · 0 in stock (2 expired)',
    );
  });

  it('sells a lot on its last day of the store’s today, though the till’s clock is past midnight', async () => {
    vi.setSystemTime(new Date(2026, 10, 29, 0, 15));
    const lastDay = [{ _id: 'l5', number: 'LAST', expiresOn: '2026-11-28', quantity: 2 }];
    const { user } = openCounter({ 'GET /api/products/p9/lots': lotsAnswer(lastDay, '2026-11-28') });
    await scan(user, '111', 'Aspirin 500');
    expect(await within(line('Aspirin 500')).findByText('Lot LAST · expires Nov 28, 2026')).toBeTruthy();
  });

  it('counts a lot expiring today as unexpired', async () => {
    const { user } = openCounter({
      'GET /api/products/p9/lots': lotsAnswer([
        { _id: 'l5', number: 'TODAY', expiresOn: '2026-11-28', quantity: 2 },
      ]),
    });
    await scan(user, '111', 'Aspirin 500');
    expect(await within(line('Aspirin 500')).findByText('Lot TODAY · expires Nov 28, 2026')).toBeTruthy();
  });

  it('asks nothing about lots for a product without them, and says nothing of lots on its line', async () => {
    const { user, calls } = openCounter();
    await scan(user, '222', 'Salted Crisps');
    expect(line('Salted Crisps').getAttribute('aria-label')).toBe('Salted Crisps, quantity 1');
    expect(within(line('Salted Crisps')).queryByText(/^Lots? /)).toBeNull();
    expect(calls.filter((call) => call.path.endsWith('/lots'))).toEqual([]);
  });

  it('says the lots are being found, then, when they cannot be read, why, with Try again (from the keyboard)', async () => {
    let failures = 1;
    let answer: (() => void) | undefined;
    const { user } = openCounter({
      'GET /api/products/p9/lots': async () => {
        if (failures-- > 0)
          return { status: 500, body: { success: false, error: 'The database is resting.' } };
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
        return lotsAnswer()({} as FetchCall);
      },
    });
    await scan(user, '111', 'Aspirin 500');
    const failed = await within(line('Aspirin 500')).findByText(
      'The lots could not be loaded: The database is resting.',
    );
    const retry = within(failed).getByRole('button', { name: 'Try again' });
    retry.focus();
    await user.keyboard('{Enter}');
    expect(await within(line('Aspirin 500')).findByText('Finding its lots...')).toBeTruthy();
    answer?.();
    expect(await within(line('Aspirin 500')).findByText('Lot A12 · expires Dec 20, 2026')).toBeTruthy();
  });

  it('keeps the sale in the browser: after a reload the line shows its lots again', async () => {
    const first = openCounter({
      'GET /api/products/*': () => ({ body: { success: true, product: aspirin } }),
    });
    await scan(first.user, '111', 'Aspirin 500');
    await setQuantity(first.user, 'Aspirin 500', '4');
    await within(line('Aspirin 500')).findByText('Lots A12 (3), B7 (1)');
    first.unmount();

    const again = openCounter({
      'GET /api/products/*': () => ({ body: { success: true, product: aspirin } }),
    });
    expect(quantityBox('Aspirin 500').value).toBe('4');
    expect(await within(line('Aspirin 500')).findByText('Lots A12 (3), B7 (1)')).toBeTruthy();
    expect(lotCalls(again.calls)).toHaveLength(1);
  });
});
