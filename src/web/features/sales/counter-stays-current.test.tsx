import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { centsNumber, isCartProblem, priceCart } from '../../../shared/money';
import type { Product } from '../../../shared/products';
import { refusalSentence } from '../../../shared/refusals';
import { getSession } from '../../lib/session';
import { product, sale } from '../../test/fixtures';
import type { FetchCall } from '../../test/helpers';
import { sendNow } from '../offline/outbox';
import { waiting } from '../offline/queue';
import { callsOf, codeAnswer, type Handler, renderSales, storeSettings } from './sales-test-data';

/**
 * The counter keeps up with the store (DESIGN §12): an admin may switch "prices include tax", a
 * rate or a price while a counter is open, and what the counter shows is what it sends and what
 * the customer pays. The fake server prices every sale by the shared computation on what it holds
 * now and refuses another total with TOTAL_CHANGED, as the real one does.
 */

const city = { _id: 't1', name: 'City', rate: 6.75 };
const cheddar = product('p1', 'Cheddar', { price: 7.74, stock: 10, barcode: '111', taxRate: city });
const soup = product('p2', 'Tomato Soup', { price: 4.36, stock: 10, barcode: '222', taxRate: city });

/** What the fake server holds now; `down`: the network is cut, no call reaches it. */
type Shop = { pricesIncludeTax: boolean; products: Map<string, Product>; down?: boolean };

/** The server's own total for a sale's lines, by the one computation. */
function totalOf(shop: Shop, lines: { productId: string; quantity: number }[]): number {
  const priced = priceCart({
    lines: lines.map((line) => {
      const held = shop.products.get(line.productId) as Product;
      return { unitPrice: held.price, quantity: line.quantity, taxRate: held.taxRate };
    }),
    pricesIncludeTax: shop.pricesIncludeTax,
  });
  if (isCartProblem(priced)) throw new Error('the cart prices');
  return centsNumber(priced.total);
}

type SaleBody = {
  lines: { productId: string; quantity: number }[];
  payments: { method: string; amount: number }[];
  total?: number;
};

function openCounter(shop: Shop, extra: Record<string, Handler> = {}) {
  const handlers: Record<string, Handler> = {
    'GET /api/settings/store': () => ({
      body: { success: true, store: storeSettings({ pricesIncludeTax: shop.pricesIncludeTax }) },
    }),
    'GET /api/products/code/*': (call) => codeAnswer([...shop.products.values()])(call),
    'GET /api/products/*': ({ path }) => {
      const held = shop.products.get(path.split('/').at(-1) ?? '');
      return held
        ? { body: { success: true, product: held } }
        : { status: 404, body: { success: false, error: 'Product not found.' } };
    },
    'POST /api/sales': ({ body }) => {
      const input = body as SaleBody;
      const total = totalOf(shop, input.lines);
      if (input.total !== undefined && input.total !== total)
        return {
          status: 409,
          body: {
            success: false,
            error: refusalSentence('TOTAL_CHANGED', { now: total, shown: input.total, currency: 'USD' }),
            code: 'TOTAL_CHANGED',
            total,
          },
        };
      const paid = input.payments.reduce((sum, payment) => sum + payment.amount * 100, 0) / 100;
      return {
        status: 201,
        body: {
          success: true,
          sale: sale({ _id: 's774', number: 774, total, change: Math.round((paid - total) * 100) / 100 }),
        },
      };
    },
    'GET /api/customers': () => ({
      body: { success: true, customers: [], total: 0, page: 1, pageSize: 10 },
    }),
    ...extra,
  };
  const reachable = Object.fromEntries(
    Object.entries(handlers).map(([route, handler]): [string, Handler] => [
      route,
      (call) => {
        if (shop.down) throw new TypeError('Failed to fetch');
        return handler(call);
      },
    ]),
  );
  const view = renderSales('/salesRep-dashboard/sales/new', reachable);
  return { ...view, user: userEvent.setup() };
}

const searchBox = () => screen.getByRole('combobox', { name: 'Scan or search a product' });
const grandTotal = () => screen.getByText('Total', { selector: 'dt' }).nextElementSibling?.textContent;
const change = () => screen.getByRole('status', { name: 'Change' }).textContent;
const completeButton = () => screen.getByRole('button', { name: /Complete sale/ }) as HTMLButtonElement;
const posts = (calls: readonly FetchCall[]) =>
  callsOf(calls, 'POST', '/api/sales').map((call) => call.body as SaleBody);

async function scan(user: ReturnType<typeof userEvent.setup>, code: string, name: string) {
  await user.type(searchBox(), `${code}{Enter}`);
  await waitFor(() => expect(screen.getByLabelText(`Quantity of ${name}`)).toBeTruthy());
}

/** The cashier comes back to the counter's window (another tab or app had it). */
function windowFocused() {
  act(() => {
    window.dispatchEvent(new Event('focus'));
  });
}

afterEach(() => vi.useRealTimers());

describe('the counter re-reads the store while it is open', () => {
  it('picks up "prices include tax" switched by an admin when its window gets the focus again, without a reload, and sends the total it shows', async () => {
    const shop: Shop = { pricesIncludeTax: false, products: new Map([[cheddar._id, cheddar]]) };
    const { user, calls } = openCounter(shop);
    await scan(user, '111', 'Cheddar');
    // 7.74 + 6.75 % tax (0.52).
    await waitFor(() => expect(grandTotal()).toBe('$8.26'));

    shop.pricesIncludeTax = true;
    windowFocused();
    await waitFor(() => expect(grandTotal()).toBe('$7.74'));
    expect(screen.getByText('Incl. City 6.75% on $7.25')).toBeTruthy();

    await user.click(completeButton());
    expect(await screen.findByText('Sale S-000774 completed')).toBeTruthy();
    expect(posts(calls)).toEqual([
      {
        lines: [{ productId: 'p1', quantity: 1 }],
        payments: [{ method: 'cash', amount: 7.74 }],
        session: 'session1',
        total: 7.74,
      },
    ]);
  });

  it('re-reads the settings and its cart’s prices every 30 seconds while it is open', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const shop: Shop = { pricesIncludeTax: false, products: new Map([[soup._id, soup]]) };
    const { user, calls } = openCounter(shop);
    await scan(user, '222', 'Tomato Soup');
    await waitFor(() => expect(grandTotal()).toBe('$4.65'));
    const reads = () => callsOf(calls, 'GET', '/api/products/p2').length;
    const before = reads();

    shop.products.set(soup._id, { ...soup, price: 5 });
    act(() => vi.advanceTimersByTime(29_000));
    expect(reads()).toBe(before);
    act(() => vi.advanceTimersByTime(1_000));
    // 5.00 + 6.75 % (0.34).
    await waitFor(() => expect(grandTotal()).toBe('$5.34'));
    expect(reads()).toBe(before + 1);
    shop.pricesIncludeTax = true;
    act(() => vi.advanceTimersByTime(30_000));
    await waitFor(() => expect(grandTotal()).toBe('$5.00'));
  });

  it('shows the new total of a TOTAL_CHANGED refusal, with the change recomputed from it, and completes the sale again at that total', async () => {
    const shop: Shop = { pricesIncludeTax: false, products: new Map([[soup._id, soup]]) };
    const { user, calls } = openCounter(shop);
    await scan(user, '222', 'Tomato Soup');
    await waitFor(() => expect(grandTotal()).toBe('$4.65'));
    await user.type(screen.getByLabelText('Cash tendered'), '5');
    expect(change()).toBe('$0.35');

    // The admin switches between the counter's last read and the sale.
    shop.pricesIncludeTax = true;
    await user.click(completeButton());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The total is now $4.36, not $4.65 (prices or tax changed): check it with the customer and complete the sale again.',
    );
    // The counter read the store again: it shows the total the server gave, and the change from it.
    await waitFor(() => expect(grandTotal()).toBe('$4.36'));
    expect(change()).toBe('$0.64');
    expect(screen.queryByText('Sale S-000774 completed')).toBeNull();

    await user.click(completeButton());
    expect(await screen.findByText('Sale S-000774 completed')).toBeTruthy();
    expect(
      within(screen.getByText(/Sale S-000774 completed/).closest('p') as HTMLElement).getByText('$0.64'),
    ).toBeTruthy();
    const [refused, made] = callsOf(calls, 'POST', '/api/sales');
    expect(refused?.body).toMatchObject({ total: 4.65, payments: [{ method: 'cash', amount: 5 }] });
    expect(made?.body).toMatchObject({ total: 4.36, payments: [{ method: 'cash', amount: 5 }] });
    // A refused sale is answered: the next submit is another one, with a key of its own.
    expect(made?.headers['Idempotency-Key']).not.toBe(refused?.headers['Idempotency-Key']);
  });

  it('decides by the refusal’s code, not its words: with TOTAL_CHANGED the sale waits until the store is read again', async () => {
    const shop: Shop = { pricesIncludeTax: false, products: new Map([[soup._id, soup]]) };
    let release: () => void = () => {};
    let holding = false;
    const { user } = openCounter(shop, {
      'GET /api/settings/store': async () => {
        if (holding)
          await new Promise<void>((resolve) => {
            release = resolve;
          });
        return {
          body: { success: true, store: storeSettings({ pricesIncludeTax: shop.pricesIncludeTax }) },
        };
      },
      'POST /api/sales': () => {
        shop.pricesIncludeTax = true;
        holding = true;
        return {
          status: 409,
          body: { success: false, error: 'Le total a changé.', code: 'TOTAL_CHANGED', total: 4.36 },
        };
      },
    });
    await scan(user, '222', 'Tomato Soup');
    await waitFor(() => expect(grandTotal()).toBe('$4.65'));
    await user.click(completeButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Le total a changé.');
    // Not at the old total: Complete sale waits for the store's settings.
    expect(completeButton().disabled).toBe(true);
    expect(grandTotal()).toBe('$4.65');
    release();
    await waitFor(() => expect(grandTotal()).toBe('$4.36'));
    expect(completeButton().disabled).toBe(false);
  });

  it('reads the store and the cart again at once after any other refusal too', async () => {
    const shop: Shop = { pricesIncludeTax: false, products: new Map([[soup._id, soup]]) };
    const { user, calls } = openCounter(shop, {
      'POST /api/sales': () => ({
        status: 409,
        body: { success: false, error: 'Not enough stock of Tomato Soup: 0 left.' },
      }),
    });
    await scan(user, '222', 'Tomato Soup');
    await waitFor(() => expect(grandTotal()).toBe('$4.65'));
    const settingsReads = () => callsOf(calls, 'GET', '/api/settings/store').length;
    const before = settingsReads();
    shop.products.set(soup._id, { ...soup, stock: 0 });
    await user.click(completeButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Not enough stock of Tomato Soup: 0 left.');
    await waitFor(() => expect(screen.getByText('Out of stock.')).toBeTruthy());
    expect(settingsReads()).toBe(before + 1);
  });
});

describe("a line short at this counter's location (DESIGN §17)", () => {
  it("shows the server's sentence and where else the product is held", async () => {
    const shop: Shop = { pricesIncludeTax: false, products: new Map([[soup._id, soup]]) };
    const { user } = openCounter(shop, {
      'POST /api/sales': () => ({
        status: 409,
        body: {
          success: false,
          error: 'Tomato Soup is out of stock at Main store.',
          code: 'SHORT_AT_LOCATION',
          elsewhere: [
            { location: { _id: 'l2', name: 'Stockroom' }, stock: 12 },
            { location: { _id: 'l3', name: 'Second shop' }, stock: 3 },
          ],
        },
      }),
    });
    await scan(user, '222', 'Tomato Soup');
    await waitFor(() => expect(grandTotal()).toBe('$4.65'));
    await user.click(completeButton());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Tomato Soup is out of stock at Main store. Elsewhere: 12 at Stockroom, 3 at Second shop.',
    );
  });

  it('says the sentence alone when no other location holds any', async () => {
    const shop: Shop = { pricesIncludeTax: false, products: new Map([[soup._id, soup]]) };
    const { user } = openCounter(shop, {
      'POST /api/sales': () => ({
        status: 409,
        body: {
          success: false,
          error: 'Tomato Soup is out of stock at Main store.',
          code: 'SHORT_AT_LOCATION',
          elsewhere: [],
        },
      }),
    });
    await scan(user, '222', 'Tomato Soup');
    await waitFor(() => expect(grandTotal()).toBe('$4.65'));
    await user.click(completeButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Tomato Soup is out of stock at Main store.');
  });
});

describe('a sale completed after the server could not be reached', () => {
  it('is sent again as it was, with its key and its total, though the store changed meanwhile; the server then says the total moved', async () => {
    const shop: Shop = { pricesIncludeTax: false, products: new Map([[soup._id, soup]]) };
    const { user, calls } = openCounter(shop);
    await scan(user, '222', 'Tomato Soup');
    await waitFor(() => expect(grandTotal()).toBe('$4.65'));
    shop.down = true;
    await user.click(completeButton());
    const payment = screen.getByRole('form', { name: 'Payment' });
    expect((await within(payment).findByRole('alert')).textContent).toMatch(/^The server cannot be reached/);

    // Back online, the admin has switched; the counter comes into view again but keeps the sale
    // as it was sent: the server may have made it, and only the same request is answered with it.
    shop.down = false;
    shop.pricesIncludeTax = true;
    windowFocused();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(grandTotal()).toBe('$4.65');
    await user.click(completeButton());
    expect((await within(payment).findByRole('alert')).textContent).toMatch(/^The total is now \$4\.36/);
    const [lost, retry] = callsOf(calls, 'POST', '/api/sales');
    expect(retry?.body).toEqual(lost?.body);
    expect(retry?.headers['Idempotency-Key']).toBe(lost?.headers['Idempotency-Key']);
    // That answer was the server's: now the counter reads the store and completes at the new total.
    await waitFor(() => expect(grandTotal()).toBe('$4.36'));
    await user.click(completeButton());
    expect(await screen.findByText('Sale S-000774 completed')).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/sales').at(-1)?.body).toMatchObject({ total: 4.36 });
  });

  it('offline (DESIGN §21) keeps the sale on this device; once the server answers it is sent, once, and no “cannot be reached” is left', async () => {
    const shop: Shop = {
      pricesIncludeTax: false,
      products: new Map([
        [cheddar._id, cheddar],
        [soup._id, soup],
      ]),
    };
    const { user, calls } = openCounter(shop);
    await scan(user, '111', 'Cheddar');
    await waitFor(() => expect(grandTotal()).toBe('$8.26'));

    // A scan finds the network down: the counter says it is offline and goes on selling.
    shop.down = true;
    await user.type(searchBox(), '222{Enter}');
    expect(
      await screen.findByText(/“222” could not be looked up: The server cannot be reached/),
    ).toBeTruthy();
    expect(await screen.findByText('Offline — 0 sales kept on this device')).toBeTruthy();
    await user.click(completeButton());
    expect(await screen.findByText(/^Sale T1-[A-Z0-9]{4}-000001 kept on this device$/)).toBeTruthy();
    expect(await screen.findByText('Offline — 1 sale kept on this device')).toBeTruthy();
    const seller = getSession()?.user._id ?? '';
    // Tried at once, without an answer: still on the device.
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(await waiting(seller)).toHaveLength(1);

    // The network is back: the kept sale is sent again, the same, with the device's prices and total.
    shop.down = false;
    await act(async () => {
      await sendNow(seller);
    });
    const sent = posts(calls);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[1]).toMatchObject({
      lines: [{ productId: cheddar._id, quantity: 1, unitPrice: 7.74, taxRate: city._id }],
      total: 8.26,
      offline: { deviceNumber: expect.stringMatching(/^T1-[A-Z0-9]{4}-000001$/) },
    });
    expect(await waiting(seller)).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Offline' })).toBeNull());
    expect(document.body.textContent).not.toMatch(/cannot be reached/);
  });
});
