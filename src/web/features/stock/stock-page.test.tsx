import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { addDays, type Lot } from '../../../shared/lots';
import type { Product } from '../../../shared/products';
import type { AdjustInput, CountInput, Movement } from '../../../shared/stock';
import { ExpiryBadge } from '../../components/lot-expiry';
import { formatDate } from '../../lib/format';
import { product as productOf } from '../../test/fixtures';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { countDifference, reasonLabel, signed, stockAfterAdjusting } from './stock-dialogs';
import { StockPage } from './stock-page';

const product = productOf('p1', 'Blue Pen', {
  price: 2,
  stock: 50,
  reorderPoint: 5,
  reorderPointFromStore: true,
  category: { _id: 'c1', name: 'Stationery' },
});

function movement(index: number, overrides: Partial<Movement> = {}): Movement {
  return {
    _id: `m${index}`,
    at: '2025-05-01T10:00:00.000Z',
    kind: 'sale',
    quantity: -1,
    stockAfter: 50,
    value: -1.2,
    reason: null,
    note: '',
    user: { _id: 'u1', name: 'Rita Rep' },
    order: { _id: `order-${index}-0000` },
    location: { _id: 'loc-main', name: 'Main store' },
    ...overrides,
  };
}

type Reply = { status?: number; body: unknown };
type Handler = (call: FetchCall) => Reply | Promise<Reply>;

/**
 * The stock page on a fake server holding `state`: a count or an adjustment changes its stock and
 * adds a movement on top, as the real one does. `overrides` replace any of its calls.
 */
function renderStock(
  movements: Movement[],
  options: { path?: string; overrides?: Record<string, Handler> } = {},
) {
  signIn(userOf('admin'));
  const state = { stock: 50, movements: [...movements] };
  const record = (quantity: number, fields: Partial<Movement>) => {
    state.stock += quantity;
    const added = movement(100 + state.movements.length, {
      quantity,
      stockAfter: state.stock,
      order: undefined,
      user: { _id: 'admin-id', name: 'Test admin' },
      ...fields,
    });
    state.movements.unshift(added);
    return { body: { success: true, product: { ...product, stock: state.stock }, movement: added } };
  };
  const mock = mockFetch({
    'GET /api/products/p1': () => ({ body: { success: true, product: { ...product, stock: state.stock } } }),
    'GET /api/products/p1/stock': () => ({
      body: {
        success: true,
        product: { _id: 'p1', name: 'Blue Pen' },
        inTransit: 0,
        locations: [
          {
            location: { _id: 'loc-main', name: 'Main store' },
            stock: state.stock,
            reorderPoint: null,
            reorderQuantity: null,
          },
          {
            location: { _id: 'loc-room', name: 'Stockroom' },
            stock: 0,
            reorderPoint: null,
            reorderQuantity: null,
          },
        ],
      },
    }),
    'GET /api/products/p1/movements': ({ query }) => {
      const page = Number(query.page ?? 1);
      const size = Number(query.pageSize ?? 20);
      return {
        body: {
          success: true,
          movements: state.movements.slice((page - 1) * size, page * size),
          total: state.movements.length,
          page,
          pageSize: size,
        },
      };
    },
    'POST /api/products/p1/count': ({ body }) => {
      const { counted, note } = body as { counted: number; note: string };
      return record(counted - state.stock, { kind: 'count', note });
    },
    'POST /api/products/p1/adjust': ({ body }) => {
      const { quantity, reason, note } = body as { quantity: number; reason: string; note: string };
      if (state.stock + quantity < 0)
        return { status: 409, body: { success: false, error: 'Not enough stock' } };
      return record(quantity, { kind: 'adjustment', reason, note });
    },
    ...options.overrides,
  });
  const router = createMemoryRouter(
    [{ path: '/admin-dashboard/products/:id/stock', element: <StockPage /> }],
    {
      initialEntries: [options.path ?? '/admin-dashboard/products/p1/stock'],
    },
  );
  renderWithClient(<RouterProvider router={router} />);
  return { ...mock, router, state };
}

const movementsTable = () =>
  screen.findByRole('table', { name: 'Stock movements of Blue Pen, newest first' });
const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const posts = (calls: FetchCall[]) => calls.filter((call) => call.method === 'POST');
const keysOf = (calls: FetchCall[]) => posts(calls).map((call) => call.headers['Idempotency-Key']);
const stockShown = () =>
  within(screen.getByRole('region', { name: 'Current stock' })).getByTitle(/stock/i).textContent;

describe('stock numbers', () => {
  it('signs changes, and says what a count or an adjustment would leave', () => {
    expect(signed(3)).toBe('+3');
    expect(signed(-3)).toBe('−3');
    expect(signed(0)).toBe('0');
    expect(countDifference('47', 50)).toBe(-3);
    expect(countDifference('50', 50)).toBe(0);
    expect(countDifference('', 50)).toBeNull();
    expect(countDifference('4.5', 50)).toBeNull();
    expect(countDifference('-1', 50)).toBeNull();
    expect(stockAfterAdjusting('-2', 50)).toBe(48);
    expect(stockAfterAdjusting('12', 50)).toBe(62);
    expect(stockAfterAdjusting('0', 50)).toBeNull();
    expect(stockAfterAdjusting('-', 50)).toBeNull();
    expect(reasonLabel('damaged')).toBe('Damaged');
    expect(reasonLabel('Wrong colour')).toBe('Wrong colour');
  });
});

describe('the stock page', () => {
  it('shows the product, its stock and one row per movement with everything that explains it', async () => {
    renderStock([
      movement(3, {
        kind: 'adjustment',
        quantity: -2,
        stockAfter: 48,
        reason: 'damaged',
        note: 'Dropped',
        user: { _id: 'a1', name: 'Alex Admin' },
        order: undefined,
      }),
      movement(2, { quantity: -3, stockAfter: 50, order: { _id: 'a50b06c9-1111' } }),
      movement(1, {
        kind: 'receipt',
        quantity: 40,
        stockAfter: 53,
        order: undefined,
        purchaseOrder: { _id: 'po1', number: 'PO-000123' },
      }),
      movement(0, { kind: 'initial', quantity: 13, stockAfter: 13, user: null, order: undefined }),
    ]);
    expect(await screen.findByRole('heading', { name: 'Stock: Blue Pen', level: 1 })).toBeTruthy();
    expect(stockShown()).toBe('50');
    const table = await movementsTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
      // Who and Order come before the free text, so a laptop's width shows them (finding 12).
    ).toEqual(['Date', 'Kind', 'Change', 'Stock after', 'Location', 'Who', 'Order', 'Reason', 'Note']);
    const cells = bodyRows(table).map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(1)
        .map((cell) => cell.textContent),
    );
    expect(cells).toEqual([
      ['Adjustment', '−2', 'Stock after 48', 'At Main store', 'Alex Admin', '', 'Damaged', 'Dropped'],
      ['Sale', '−3', 'Stock after 50', 'At Main store', 'Rita Rep', 'Order a50b06c9', '', ''],
      ['Receipt', '+40', 'Stock after 53', 'At Main store', 'Rita Rep', 'PO-000123', '', ''],
      ['Opening stock', '+13', 'Stock after 13', 'At Main store', 'System', '', '', ''],
    ]);
    expect(within(bodyRows(table)[0] as HTMLElement).getByRole('cell', { name: /2025/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Products' }).getAttribute('href')).toBe(
      '/admin-dashboard/products',
    );
  });

  it('shows the stock by location with units in transit, each movement’s location and a transfer’s number', async () => {
    renderStock([
      movement(1, {
        kind: 'transferOut',
        quantity: -2,
        order: undefined,
        transfer: { _id: 't1', number: 'TR-000007' },
      }),
    ]);
    const byPlace = await screen.findByRole('table', { name: 'Stock of Blue Pen by location' });
    await waitFor(() => expect(bodyRows(byPlace)).toHaveLength(2));
    expect(bodyRows(byPlace).map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Main store50 in stock/),
      expect.stringMatching(/^Stockroom0 in stock/),
    ]);
    expect(screen.getByText(/In transit:/).textContent).toBe('In transit: 0');
    const table = await movementsTable();
    await waitFor(() => expect(bodyRows(table)[0]?.textContent).toContain('TR-000007'));
    expect(bodyRows(table)[0]?.textContent).toContain('Transfer out');
    expect(bodyRows(table)[0]?.textContent).toContain('At Main store');
  });

  it('says when the stock by location cannot be loaded, and the rest of the page still works', async () => {
    renderStock([movement(1)], {
      overrides: {
        'GET /api/products/p1/stock': () => ({ status: 500, body: { success: false, error: 'Boom' } }),
      },
    });
    const byPlace = await screen.findByRole('table', { name: 'Stock of Blue Pen by location' });
    expect((await within(byPlace).findByRole('alert')).textContent).toMatch(/stock by location/);
    await movementsTable();
  });

  it('adjusts and counts at the location chosen, the default one unless another is picked', async () => {
    const { calls } = renderStock([movement(1)]);
    await movementsTable();
    await userEvent.click(screen.getByRole('button', { name: 'Count' }));
    let dialog = screen.getByRole('dialog');
    const where = await within(dialog).findByLabelText('Location');
    await waitFor(() => expect(within(where as HTMLElement).getAllByRole('option')).toHaveLength(3));
    await userEvent.selectOptions(where, 'loc-room');
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toBe('In stock now: 0'));
    await userEvent.type(within(dialog).getByLabelText(/Counted quantity/), '4');
    expect(within(dialog).getByRole('status').textContent).toBe('Counted 4, stock 0: +4');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save count' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]?.body).toMatchObject({ counted: 4, location: 'loc-room' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Adjust' }));
    dialog = screen.getByRole('dialog');
    expect((within(dialog).getByLabelText('Location') as HTMLSelectElement).value).toBe('');
    await userEvent.type(within(dialog).getByLabelText(/Quantity/), '2');
    await userEvent.selectOptions(within(dialog).getByLabelText(/Reason/), 'found');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(2));
    expect(posts(calls)[1]?.body).not.toHaveProperty('location');
  });

  it('a sale’s movement links to its receipt by number; an order without a sale keeps its short id', async () => {
    renderStock([
      movement(1, {
        quantity: -2,
        stockAfter: 48,
        order: { _id: 'o2', sale: { _id: 'sale-9', number: 123 } },
      }),
      movement(0, { quantity: -3, stockAfter: 50, order: { _id: 'a50b06c9-1111' } }),
    ]);
    const table = await movementsTable();
    const receipt = within(table).getByRole('link', { name: 'S-000123' });
    expect(receipt.getAttribute('href')).toBe('/admin-dashboard/sales/sale-9');
    expect(within(table).queryByText(/Order o2/)).toBeNull();
    expect(within(bodyRows(table)[1] as HTMLElement).getByText('a50b06c9')).toBeTruthy();
  });

  it('Back to Products returns to the list as it was left (search, sort, page), also after paging here', async () => {
    const movements = Array.from({ length: 25 }, (_, i) => movement(i, { stockAfter: 75 - i }));
    renderStock(movements, {
      path: `/admin-dashboard/products/p1/stock?${new URLSearchParams({ list: 'q=pen&sort=-price&page=2' })}`,
    });
    const back = () => screen.getByRole('link', { name: 'Back to Products' }).getAttribute('href');
    await movementsTable();
    expect(back()).toBe('/admin-dashboard/products?q=pen&sort=-price&page=2');
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    await screen.findByText('Showing 21–25 of 25');
    expect(back()).toBe('/admin-dashboard/products?q=pen&sort=-price&page=2');
  });

  it('pages the movements twenty at a time and keeps the page in the address', async () => {
    const movements = Array.from({ length: 25 }, (_, i) => movement(i, { stockAfter: 75 - i }));
    const { calls, router } = renderStock(movements);
    const table = await movementsTable();
    await waitFor(() => expect(bodyRows(table)).toHaveLength(20));
    expect(screen.getByText('Showing 1–20 of 25')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(bodyRows(table)).toHaveLength(5));
    expect(router.state.location.search).toBe('?page=2');
    expect(bodyRows(table)[0]?.textContent).toContain('55');
    expect(calls.filter((c) => c.path.endsWith('/movements')).map((c) => c.query)).toEqual([
      { page: '1', pageSize: '20' },
      { page: '2', pageSize: '20' },
    ]);
  });

  it('opens on the page the address names', async () => {
    const movements = Array.from({ length: 25 }, (_, i) => movement(i));
    const { calls } = renderStock(movements, { path: '/admin-dashboard/products/p1/stock?page=2' });
    const table = await movementsTable();
    await waitFor(() => expect(bodyRows(table)).toHaveLength(5));
    expect(calls.filter((c) => c.path.endsWith('/movements')).map((c) => c.query.page)).toEqual(['2']);
  });

  it('says so when a product has no movements yet', async () => {
    renderStock([]);
    expect(await screen.findByText('No movements yet.')).toBeTruthy();
  });

  it('shows why the movements could not be loaded, and tries again on request', async () => {
    let failures = 1;
    renderStock([movement(1)], {
      overrides: {
        'GET /api/products/p1/movements': () => {
          if (failures-- > 0) return { status: 403, body: { success: false, error: 'Forbidden' } };
          return { body: { success: true, movements: [movement(1)], total: 1, page: 1, pageSize: 20 } };
        },
      },
    });
    const table = await movementsTable();
    expect((await within(table).findByRole('alert')).textContent).toBe(
      'The movements could not be loaded: Forbidden',
    );
    await userEvent.click(within(table).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bodyRows(table)[0]?.textContent).toContain('Rita Rep'));
  });

  it('shows why the product could not be loaded', async () => {
    renderStock([], {
      overrides: {
        'GET /api/products/p1': () => ({ status: 404, body: { success: false, error: 'Product not found' } }),
      },
    });
    expect((await screen.findByRole('alert')).textContent).toContain('Product not found');
    expect(screen.queryByRole('button', { name: 'Adjust' })).toBeNull();
  });
});

describe('Count', () => {
  it('shows the difference before saving, saves it with an Idempotency-Key, then the stock and the table refresh', async () => {
    const { calls } = renderStock([movement(1)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Count' }));
    const dialog = screen.getByRole('dialog', { name: 'Count stock: Blue Pen' });
    expect(within(dialog).getByRole('status').textContent).toBe('In stock now: 50');
    await userEvent.type(within(dialog).getByLabelText('Counted quantity'), '47');
    expect(within(dialog).getByRole('status').textContent).toBe('Counted 47, stock 50: −3');
    await userEvent.type(within(dialog).getByLabelText('Note'), 'Monthly');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save count' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)[0]?.body).toEqual({ counted: 47, note: 'Monthly' });
    expect(keysOf(calls)[0]).toMatch(/^[\x21-\x7e]{1,200}$/);
    expect(screen.getByText('Count saved: stock is now 47.')).toBeTruthy();
    await waitFor(() => expect(stockShown()).toBe('47'));
    const table = await movementsTable();
    await waitFor(() => expect(bodyRows(table)[0]?.textContent).toMatch(/Count.*−3.*47.*Monthly/));
  });

  it("drops the server's last sentence once the count is changed", async () => {
    renderStock([movement(1)], {
      overrides: {
        'POST /api/products/p1/count': () => ({
          status: 409,
          body: { success: false, error: 'The stock changed while you counted; count again.' },
        }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Count' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Counted quantity'), '47');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save count' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The stock changed while you counted; count again.',
    );
    await userEvent.type(within(dialog).getByLabelText('Counted quantity'), '{Backspace}6');
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('refuses a count that is not a whole number of at least 0, without calling the server', async () => {
    const { calls } = renderStock([movement(1)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Count' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save count' }));
    expect(within(dialog).getByLabelText('Counted quantity').getAttribute('aria-invalid')).toBe('true');
    await userEvent.type(within(dialog).getByLabelText('Counted quantity'), '-4');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save count' }));
    expect(within(dialog).getByLabelText('Counted quantity').getAttribute('aria-invalid')).toBe('true');
    expect(posts(calls)).toHaveLength(0);
  });

  it('sends a retried count with the same key after the server could not be reached', async () => {
    let attempts = 0;
    const { calls, state } = renderStock([movement(1)], {
      overrides: {
        'POST /api/products/p1/count': () => {
          attempts += 1;
          if (attempts === 1) throw new TypeError('network down');
          state.stock = 47;
          return {
            body: {
              success: true,
              product: { ...product, stock: 47 },
              movement: movement(9, { kind: 'count', quantity: -3, stockAfter: 47 }),
            },
          };
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Count' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Counted quantity'), '47');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save count' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/cannot be reached/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save count' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [first, retry] = keysOf(calls);
    expect(first).toBeTruthy();
    expect(retry).toBe(first);
  });
});

describe('Adjust', () => {
  it('shows the stock it would leave, asks for a reason, and shows a 409 in the dialog', async () => {
    const { calls, state } = renderStock([movement(1)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Adjust' }));
    const dialog = screen.getByRole('dialog', { name: 'Adjust stock: Blue Pen' });
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '-60');
    expect(within(dialog).getByRole('status').textContent).toBe('Stock 50 → -10 (more than there is)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(within(dialog).getByText('Choose a reason.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'damaged');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Not enough stock');
    expect(posts(calls)[0]?.body).toEqual({ quantity: -60, reason: 'damaged', note: '' });
    expect(state.stock).toBe(50);
  });

  it("drops an old 'Not enough stock' once the quantity is corrected, and saves the corrected one", async () => {
    const { calls } = renderStock([movement(1)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Adjust' }));
    const dialog = screen.getByRole('dialog');
    const quantity = within(dialog).getByLabelText('Quantity');
    await userEvent.type(quantity, '-60');
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'damaged');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Not enough stock');

    await userEvent.clear(quantity);
    await userEvent.type(quantity, '-6');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).queryByText('Not enough stock')).toBeNull();
    expect(within(dialog).getByRole('status').textContent).toBe('Stock 50 → 44');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls).map((call) => call.body)).toEqual([
      { quantity: -60, reason: 'damaged', note: '' },
      { quantity: -6, reason: 'damaged', note: '' },
    ]);
  });

  it("drops a field's own message once that field is changed", async () => {
    renderStock([movement(1)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Adjust' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(within(dialog).getByText('Quantity must not be 0.')).toBeTruthy();
    expect(within(dialog).getByText('Choose a reason.')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '{Backspace}3');
    expect(within(dialog).queryByText('Quantity must not be 0.')).toBeNull();
    // The reason was not touched: its message stays until it is.
    expect(within(dialog).getByText('Choose a reason.')).toBeTruthy();
  });

  it('refuses 0 and more than a million units with the shared rules', async () => {
    const { calls } = renderStock([movement(1)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Adjust' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'found');
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(within(dialog).getByText('Quantity must not be 0.')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText('Quantity'));
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '1000001');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(within(dialog).getByText('Quantity must be at most 1,000,000.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
  });

  it('reuses the key when the same adjustment is retried, and makes a new one for another quantity or after an answer', async () => {
    let attempts = 0;
    const { calls } = renderStock([movement(1)], {
      overrides: {
        'POST /api/products/p1/adjust': () => {
          attempts += 1;
          if (attempts <= 2) throw new TypeError('network down');
          return { status: 409, body: { success: false, error: 'Not enough stock' } };
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Adjust' }));
    const dialog = screen.getByRole('dialog');
    const save = within(dialog).getByRole('button', { name: 'Save adjustment' });
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '-2');
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'damaged');
    await userEvent.click(save);
    await within(dialog).findByRole('alert');
    // The same submit again: same key. Then another quantity: a new key, kept for its own retry.
    await userEvent.click(save);
    await waitFor(() => expect(posts(calls)).toHaveLength(2));
    await userEvent.clear(within(dialog).getByLabelText('Quantity'));
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '-3');
    await userEvent.click(save);
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Not enough stock'));
    // That one was answered: sending it once more is a new submit.
    await userEvent.click(save);
    await waitFor(() => expect(posts(calls)).toHaveLength(4));
    const [first, retry, other, afterAnswer] = keysOf(calls);
    expect(retry).toBe(first);
    expect(other).not.toBe(first);
    expect(afterAnswer).not.toBe(other);
    expect(new Set([first, other, afterAnswer]).size).toBe(3);
  });

  it('saves an adjustment, says the new stock and refreshes the page', async () => {
    const { calls } = renderStock([movement(1)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Adjust' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '12');
    expect(within(dialog).getByRole('status').textContent).toBe('Stock 50 → 62');
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'received');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)[0]?.body).toEqual({ quantity: 12, reason: 'received', note: '' });
    expect(screen.getByText('Stock is now 62.')).toBeTruthy();
    await waitFor(() => expect(stockShown()).toBe('62'));
    const table = await movementsTable();
    await waitFor(() => expect(bodyRows(table)[0]?.textContent).toMatch(/Adjustment.*\+12.*62.*Received/));
  });
});

describe('a lot-tracked product (DESIGN §15)', () => {
  // The store's today as the lots answer names it: far from this device's clock, so a screen that
  // judged expiry by its own day would show other states.
  const today = '2031-03-10';
  const tracked: Product = { ...product, tracking: 'lot' };
  const lotOf = (id: string, number: string, expiresOn: string | null, quantity: number): Lot => ({
    _id: id,
    number,
    expiresOn,
    quantity,
  });
  /** Expired yesterday, expiring in 10 days, in 200 days, and one that does not expire. */
  const lots = () => [
    lotOf('lot-old', 'OLD-1', addDays(today, -1), 5),
    lotOf('lot-soon', 'SOON-2', addDays(today, 10), 12),
    lotOf('lot-late', 'LATE-3', addDays(today, 200), 33),
    lotOf('lot-none', 'KEEP-4', null, 0),
  ];

  /**
   * The stock page of a tracked product on a fake server that moves its lots with its stock, as
   * the ledger's trigger does: a named lot by id, or a new number with its expiry.
   */
  function renderTracked(
    movements: Movement[] = [movement(1)],
    overrides: Record<string, Handler> = {},
    start: Lot[] = lots(),
  ) {
    const held = { lots: start };
    const stockOf = () => held.lots.reduce((sum, lot) => sum + lot.quantity, 0);
    const lotFor = (ref: { _id?: string; number?: string; expiresOn?: string | null }) => {
      const found = held.lots.find((lot) => lot._id === ref._id || lot.number === ref.number);
      if (found) return found;
      const made = lotOf(`lot-${held.lots.length + 1}`, ref.number ?? '', ref.expiresOn ?? null, 0);
      held.lots.push(made);
      return made;
    };
    const answer = (lot: Lot, quantity: number, fields: Partial<Movement>) => {
      lot.quantity += quantity;
      const { quantity: _units, ...name } = lot;
      const added = movement(200, {
        quantity,
        stockAfter: stockOf(),
        order: undefined,
        lot: name,
        ...fields,
      });
      return { body: { success: true, product: { ...tracked, stock: stockOf() }, movement: added } };
    };
    const result = renderStock(movements, {
      overrides: {
        'GET /api/products/p1': () => ({
          body: { success: true, product: { ...tracked, stock: stockOf() } },
        }),
        'GET /api/products/p1/lots': () => ({
          body: { success: true, lots: held.lots.map((lot) => ({ ...lot })), today },
        }),
        'POST /api/products/p1/adjust': ({ body }) => {
          const input = body as AdjustInput;
          if (!input.lot) return { status: 400, body: { success: false, error: 'Name the lot.' } };
          const lot = lotFor(input.lot);
          if (lot.quantity + input.quantity < 0)
            return {
              status: 409,
              body: { success: false, error: `Lot ${lot.number} holds only ${lot.quantity}.` },
            };
          return answer(lot, input.quantity, { kind: 'adjustment', reason: input.reason });
        },
        'POST /api/products/p1/count': ({ body }) => {
          const input = body as CountInput;
          if (!input.lot) return { status: 400, body: { success: false, error: 'Name the lot.' } };
          const lot = lotFor(input.lot);
          return answer(lot, input.counted - lot.quantity, { kind: 'count' });
        },
        ...overrides,
      },
    });
    return { ...result, held };
  }

  const lotsTable = () => screen.findByRole('table', { name: 'Lots of Blue Pen' });
  const choices = (select: HTMLElement) =>
    Array.from((select as HTMLSelectElement).options, (option) => option.textContent);

  it('lists its lots with number, expiry, units and state in words and colour; each number opens its trace', async () => {
    renderTracked();
    expect(await screen.findByRole('heading', { name: 'Lots', level: 2 })).toBeTruthy();
    const table = await lotsTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Lot', 'Expires', 'Units', 'State']);
    await waitFor(() => expect(bodyRows(table)).toHaveLength(4));
    const rows = bodyRows(table).map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['OLD-1', formatDate(addDays(today, -1)), '5 units', 'Expired'],
      ['SOON-2', formatDate(addDays(today, 10)), '12 units', 'Expires soon'],
      ['LATE-3', formatDate(addDays(today, 200)), '33 units', 'In date'],
      ['KEEP-4', 'Does not expire', '0 units', 'In date'],
    ]);
    expect(
      bodyRows(table).map((row) => row.querySelector('[data-state]')?.getAttribute('data-state')),
    ).toEqual(['expired', 'soon', 'ok', 'ok']);
    expect(within(table).getByText('Expired').className).toMatch(/red/);
    expect(within(table).getByText('Expires soon').className).toMatch(/amber/);
    expect(within(table).getByRole('link', { name: 'SOON-2' }).getAttribute('href')).toBe(
      '/admin-dashboard/lots/lot-soon',
    );
  });

  it('says “No lots yet.” for a tracked product without lots', async () => {
    renderTracked([], {}, []);
    const table = await lotsTable();
    expect(await within(table).findByText('No lots yet.')).toBeTruthy();
  });

  it('says it is loading the lots, then why they could not be loaded, and tries again on request', async () => {
    let release: () => void = () => {};
    const waiting = new Promise<void>((resolve) => {
      release = resolve;
    });
    let failures = 1;
    renderTracked([movement(1)], {
      'GET /api/products/p1/lots': async () => {
        await waiting;
        if (failures-- > 0)
          return { status: 503, body: { success: false, error: 'The database is resting.' } };
        return { body: { success: true, lots: lots(), today } };
      },
    });
    const table = await lotsTable();
    expect(within(table).getByRole('status').textContent).toBe('Loading lots...');
    release();
    expect((await within(table).findByRole('alert')).textContent).toBe(
      'The lots could not be loaded: The database is resting.',
    );
    expect(within(table).queryByText('No lots yet.')).toBeNull();
    await userEvent.click(within(table).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bodyRows(table)).toHaveLength(4));
  });

  it('shows each movement’s lot, linked to its trace, in a Lot column', async () => {
    renderTracked([
      movement(2, {
        quantity: -2,
        stockAfter: 48,
        lot: { _id: 'lot-soon', number: 'SOON-2', expiresOn: addDays(today, 10) },
      }),
      movement(1, {
        kind: 'receipt',
        quantity: 4,
        order: undefined,
        lot: { _id: 'lot-none', number: 'KEEP-4', expiresOn: null },
      }),
    ]);
    const table = await movementsTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'Kind', 'Change', 'Stock after', 'Location', 'Lot', 'Who', 'Order', 'Reason', 'Note']);
    await waitFor(() => expect(bodyRows(table)).toHaveLength(2));
    const [first, second] = bodyRows(table) as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('link', { name: 'SOON-2' }).getAttribute('href')).toBe(
      '/admin-dashboard/lots/lot-soon',
    );
    expect(first.textContent).toContain(`Expires ${formatDate(addDays(today, 10))}`);
    expect(second.textContent).toContain('KEEP-4');
    expect(second.textContent).toContain('Does not expire');
  });

  it('an untracked product asks for no lots and shows no Lots section or Lot column', async () => {
    const { calls } = renderStock([movement(1)]);
    const table = await movementsTable();
    await waitFor(() => expect(bodyRows(table)[0]?.textContent).toContain('Rita Rep'));
    expect(within(table).queryByRole('columnheader', { name: 'Lot' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Lots' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Adjust' }));
    expect(within(screen.getByRole('dialog')).queryByLabelText('Lot')).toBeNull();
    expect(calls.some((call) => call.path.endsWith('/lots'))).toBe(false);
  });

  it('an expired write-off chooses one of its lots (no new one), shows what it leaves there and sends it by id', async () => {
    const { calls, held } = renderTracked();
    await lotsTable();
    await userEvent.click(screen.getByRole('button', { name: 'Adjust' }));
    const dialog = screen.getByRole('dialog', { name: 'Adjust stock: Blue Pen' });
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '-5');
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'expired');
    const lot = await within(dialog).findByLabelText('Lot');
    expect(choices(lot)).toEqual([
      'Choose a lot',
      `OLD-1 · ${formatDate(addDays(today, -1))} · 5 units · Expired`,
      `SOON-2 · ${formatDate(addDays(today, 10))} · 12 units · Expires soon`,
      `LATE-3 · ${formatDate(addDays(today, 200))} · 33 units · In date`,
      'KEEP-4 · Does not expire · 0 units · In date',
    ]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(within(dialog).getByText('Choose the lot the units come from.')).toBeTruthy();
    expect(lot.getAttribute('aria-invalid')).toBe('true');
    expect(posts(calls)).toHaveLength(0);

    await userEvent.selectOptions(lot, 'lot-old');
    expect(within(dialog).queryByText('Choose the lot the units come from.')).toBeNull();
    expect(within(dialog).getByRole('status').textContent).toBe('Stock 50 → 45; lot OLD-1 5 → 0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)[0]?.body).toEqual({
      quantity: -5,
      reason: 'expired',
      note: '',
      lot: { _id: 'lot-old' },
    });
    expect(held.lots[0]?.quantity).toBe(0);
    expect(screen.getByText('Stock is now 45.')).toBeTruthy();
    // The lots and the stock are asked again: the lot now holds none.
    const table = await lotsTable();
    await waitFor(() =>
      expect(within(bodyRows(table)[0] as HTMLElement).getAllByRole('cell')[2]?.textContent).toBe('0 units'),
    );
  });

  it('taking more than a lot holds says so before saving, and shows the server’s 409 sentence', async () => {
    renderTracked();
    await lotsTable();
    await userEvent.click(screen.getByRole('button', { name: 'Adjust' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '-13');
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'damaged');
    await userEvent.selectOptions(await within(dialog).findByLabelText('Lot'), 'lot-soon');
    expect(within(dialog).getByRole('status').textContent).toBe(
      'Stock 50 → 37; lot SOON-2 12 → -1 (more than it holds)',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Lot SOON-2 holds only 12.');
  });

  it('adding units may open a new lot: number and expiry are asked and sent, and checked first', async () => {
    const { calls, held } = renderTracked();
    await lotsTable();
    await userEvent.click(screen.getByRole('button', { name: 'Adjust' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '20');
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'received');
    const lot = await within(dialog).findByLabelText('Lot');
    expect(choices(lot).at(-1)).toBe('New lot…');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(within(dialog).getByText('Choose a lot, or a new one.')).toBeTruthy();

    await userEvent.selectOptions(lot, 'New lot…');
    const group = within(dialog).getByRole('group', { name: 'New lot' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(within(group).getByText('Lot number is required.')).toBeTruthy();
    expect(within(group).getByText('Enter the expiry date, or tick Does not expire.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);

    await userEvent.type(within(group).getByLabelText('Lot number'), '  NEW-5 ');
    await userEvent.type(within(group).getByLabelText('Expires on'), '2031-02-28');
    expect(within(group).queryByText('Lot number is required.')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)[0]?.body).toEqual({
      quantity: 20,
      reason: 'received',
      note: '',
      lot: { number: 'NEW-5', expiresOn: '2031-02-28' },
    });
    expect(held.lots.at(-1)).toMatchObject({ number: 'NEW-5', expiresOn: '2031-02-28', quantity: 20 });
    const table = await lotsTable();
    await waitFor(() => expect(within(table).getByRole('link', { name: 'NEW-5' })).toBeTruthy());
  });

  it('a negative quantity offers no new lot, and a new lot chosen before counts as none', async () => {
    const { calls } = renderTracked();
    await lotsTable();
    await userEvent.click(screen.getByRole('button', { name: 'Adjust' }));
    const dialog = screen.getByRole('dialog');
    const quantity = within(dialog).getByLabelText('Quantity');
    await userEvent.type(quantity, '3');
    await userEvent.selectOptions(await within(dialog).findByLabelText('Lot'), 'New lot…');
    expect(within(dialog).getByRole('group', { name: 'New lot' })).toBeTruthy();
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '-3');
    expect(choices(within(dialog).getByLabelText('Lot'))).not.toContain('New lot…');
    expect(within(dialog).queryByRole('group', { name: 'New lot' })).toBeNull();
    expect((within(dialog).getByLabelText('Lot') as HTMLSelectElement).value).toBe('');
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'lost');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(within(dialog).getByText('Choose the lot the units come from.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
  });

  it('a count counts one lot: the difference is against that lot, and the lot is sent by id', async () => {
    const { calls, held } = renderTracked();
    await lotsTable();
    await userEvent.click(screen.getByRole('button', { name: 'Count' }));
    const dialog = screen.getByRole('dialog', { name: 'Count stock: Blue Pen' });
    const lot = await within(dialog).findByLabelText('Lot');
    expect(within(dialog).getByRole('status').textContent).toBe(
      'In stock now: 50, across its lots. Choose the lot you counted.',
    );
    await userEvent.type(within(dialog).getByLabelText('Counted quantity'), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save count' }));
    expect(within(dialog).getByText('Choose a lot, or a new one.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);

    await userEvent.selectOptions(lot, 'lot-soon');
    expect(within(dialog).getByRole('status').textContent).toBe('Counted 10, lot SOON-2 holds 12: −2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save count' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)[0]?.body).toEqual({ counted: 10, note: '', lot: { _id: 'lot-soon' } });
    expect(held.lots[1]?.quantity).toBe(10);
    expect(screen.getByText('Count saved: stock is now 48.')).toBeTruthy();
  });

  it('by keyboard alone, a count finds units of a new lot that does not expire', async () => {
    const { calls } = renderTracked();
    await lotsTable();
    screen.getByRole('button', { name: 'Count' }).focus();
    await userEvent.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog');
    const lot = await within(dialog).findByLabelText('Lot');
    // A select answers the keyboard in a browser; this DOM does not, so the choice is set as a key would.
    lot.focus();
    await userEvent.selectOptions(lot, 'New lot…');
    await userEvent.tab();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Lot number'));
    await userEvent.keyboard('BOX 7');
    await userEvent.tab();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Expires on'));
    await userEvent.tab();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Does not expire'));
    await userEvent.keyboard(' ');
    expect((within(dialog).getByLabelText('Expires on') as HTMLInputElement).disabled).toBe(true);
    await userEvent.tab();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Counted quantity'));
    await userEvent.keyboard('6');
    expect(within(dialog).getByRole('status').textContent).toBe('Counted 6, the new lot holds 0: +6');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)[0]?.body).toEqual({
      counted: 6,
      note: '',
      lot: { number: 'BOX 7', expiresOn: null },
    });
  });
});

describe('the expiry badge', () => {
  it('is expired before today, expires soon from today to 30 days on, and OK after or without expiry', () => {
    const today = '2026-03-01';
    renderWithClient(
      <ul>
        {['2026-02-28', '2026-03-01', '2026-03-31', '2026-04-01', null].map((day) => (
          <li key={String(day)}>
            <ExpiryBadge expiresOn={day} today={today} />
          </li>
        ))}
      </ul>,
    );
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Expired',
      'Expires soon',
      'Expires soon',
      'In date',
      'In date',
    ]);
  });
});
