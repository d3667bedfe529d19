import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, MemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DELAY_MS } from '../../lib/use-paged-list';
import { product } from '../../test/fixtures';
import {
  listCalls,
  mockFetch,
  pageAnswer,
  renderWithClient,
  signIn,
  storeOf,
  userOf,
} from '../../test/helpers';
import { atViewport } from '../../test/viewport';
import { ProductsPage } from './products-page';

const category = { _id: 'c1', name: 'Stationery', description: '' };
const supplier = { _id: 's1', name: 'Acme' };
const item = (id: string, name: string, price: number, stock: number, reorderPoint = 5) =>
  product(id, name, {
    price,
    stock,
    reorderPoint,
    reorderPointFromStore: true,
    category: { _id: 'c1', name: 'Stationery' },
    supplier,
  });
const many = (count: number) =>
  Array.from({ length: count }, (_, i) => item(`p${i}`, `Item ${String(i + 1).padStart(3, '0')}`, 1, 10));

function renderProducts(
  initial = [item('a', 'Blue Pen', 1.5, 0), item('b', 'Red Pen', 2, 5), item('c', 'Stapler', 12.25, 40)],
  hold?: () => Promise<void>,
) {
  signIn(userOf('admin'));
  let products = initial;
  const mock = mockFetch({
    'GET /api/products': async ({ query }) => {
      await hold?.();
      const { rows, ...info } = pageAnswer(products, query);
      return { body: { success: true, products: rows, ...info } };
    },
    'GET /api/products/choices': () => ({
      body: { success: true, categories: [category], suppliers: [supplier] },
    }),
    'DELETE /api/products/b': () => {
      products = products.filter((product) => product._id !== 'b');
      return { body: { success: true } };
    },
  });
  renderWithClient(
    <MemoryRouter>
      <ProductsPage />
    </MemoryRouter>,
  );
  return mock;
}

function bodyRows() {
  const table = screen.getByRole('table', { name: 'Products' });
  return within(table).getAllByRole('row').slice(1) as HTMLTableRowElement[];
}

const names = () => bodyRows().map((row) => row.cells[0]?.textContent);

afterEach(() => {
  vi.useRealTimers();
});

describe('Products screen', () => {
  it('asks the server for the first page and lists it with prices in dollars and stock badges', async () => {
    const { calls } = renderProducts();
    expect(await screen.findByText('Stapler')).toBeTruthy();
    expect(listCalls(calls, '/api/products').map((call) => call.query)).toEqual([
      { page: '1', pageSize: '50' },
    ]);
    const rows = bodyRows();
    expect(rows).toHaveLength(3);
    expect(rows[2]?.textContent).toContain('$12.25');
    expect(within(rows[0] as HTMLElement).getByText('0').dataset.level).toBe('out');
    expect(within(rows[1] as HTMLElement).getByText('5').dataset.level).toBe('low');
    expect(within(rows[2] as HTMLElement).getByText('40').dataset.level).toBe('ok');
  });

  it("colours a stock of 8 low when the product's reorder point is 10 and ok when it is 5", async () => {
    renderProducts([item('a', 'Blue Pen', 1.5, 8, 10), item('b', 'Red Pen', 2, 8, 5)]);
    await screen.findByText('Red Pen');
    const [blue, red] = bodyRows();
    expect(within(blue as HTMLElement).getByText('8').dataset.level).toBe('low');
    expect(within(red as HTMLElement).getByText('8').dataset.level).toBe('ok');
  });

  it('shows a product’s SKU and barcode under its name, and nothing for a product without', async () => {
    renderProducts([
      { ...item('a', 'Blue Pen', 1.5, 8), sku: 'PEN-BLU-01', barcode: '5012345678900' },
      { ...item('b', 'Red Pen', 2, 8), barcode: '4006381333931' },
      item('c', 'Stapler', 12.25, 40),
    ]);
    await screen.findByText('Stapler');
    expect(bodyRows().map((row) => row.cells[0]?.textContent)).toEqual([
      'Blue Pen SKU PEN-BLU-01 Barcode 5012345678900',
      'Red Pen Barcode 4006381333931',
      'Stapler',
    ]);
  });

  it('sends the search once typing pauses, not on every key', async () => {
    const { calls } = renderProducts();
    await screen.findByText('Stapler');
    // From here the clock moves only when the test moves it, however slow the machine is.
    vi.useFakeTimers();
    const search = screen.getByPlaceholderText('Search products by name...') as HTMLInputElement;
    // One change per key, as typing does (user-event waits on real timers, so not used here).
    for (const typed of ['P', 'PE', 'PEN']) {
      fireEvent.change(search, { target: { value: typed } });
      await act(() => vi.advanceTimersByTimeAsync(100));
    }
    // What is typed shows at once, but nothing is asked until typing has paused long enough.
    expect(search.value).toBe('PEN');
    expect(listCalls(calls, '/api/products')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS - 101));
    expect(listCalls(calls, '/api/products')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await vi.waitFor(() => expect(names()).toEqual(['Blue Pen', 'Red Pen']));
    expect(listCalls(calls, '/api/products').map((call) => call.query)).toEqual([
      { page: '1', pageSize: '50' },
      { search: 'PEN', page: '1', pageSize: '50' },
    ]);
  });

  it("shows 'No products found.' when nothing matches the search", async () => {
    renderProducts();
    await screen.findByText('Stapler');
    await userEvent.type(screen.getByPlaceholderText('Search products by name...'), 'pencil');
    await waitFor(() => expect(bodyRows()[0]?.textContent).toBe('No products found.'));
    expect(screen.queryByRole('navigation', { name: 'Products pages' })).toBeNull();
  });

  it('a location picked asks ?location= and shows each product’s stock there beside its total', async () => {
    signIn(userOf('admin'));
    const { calls } = mockFetch({
      'GET /api/products': ({ query }) => {
        const rows = [item('a', 'Blue Pen', 1.5, 9)];
        return {
          body: {
            success: true,
            products: query.location ? rows.map((p) => ({ ...p, stock: 3, stockTotal: 9 })) : rows,
            total: 1,
            page: 1,
            pageSize: 50,
          },
        };
      },
      'GET /api/products/choices': () => ({
        body: { success: true, categories: [category], suppliers: [supplier] },
      }),
    });
    renderWithClient(
      <MemoryRouter>
        <ProductsPage />
        <Address />
      </MemoryRouter>,
    );
    await screen.findByText('Blue Pen');
    expect(screen.getByRole('columnheader', { name: /^Stock/ }).textContent).toBe('Stock');
    const picker = screen.getByLabelText('Location');
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(3));
    await userEvent.selectOptions(picker, 'loc-room');
    await waitFor(() => expect(screen.getByLabelText('address').textContent).toBe('?location=loc-room'));
    await waitFor(() =>
      expect(listCalls(calls, '/api/products').at(-1)?.query).toMatchObject({ location: 'loc-room' }),
    );
    await waitFor(() =>
      expect(screen.getByRole('columnheader', { name: /^Stock/ }).textContent).toBe('Stock here / total'),
    );
    await waitFor(() => expect(bodyRows()[0]?.textContent).toContain('here, of 9 in all'));
    await userEvent.selectOptions(picker, '');
    await waitFor(() => expect(screen.getByLabelText('address').textContent).toBe(''));
  });

  it("shows 'No products found.' for an empty catalogue", async () => {
    renderProducts([]);
    expect(await screen.findByText('No products found.')).toBeTruthy();
  });

  it('says there are more than the total when the server stopped counting a short search', async () => {
    signIn(userOf('admin'));
    mockFetch({
      'GET /api/products': ({ query }) => ({
        body: {
          success: true,
          products: many(50),
          total: 2000,
          ...(query.search ? { totalCapped: true } : {}),
          page: 1,
          pageSize: 50,
        },
      }),
      'GET /api/products/choices': () => ({
        body: { success: true, categories: [category], suppliers: [supplier] },
      }),
    });
    renderWithClient(
      <MemoryRouter>
        <ProductsPage />
      </MemoryRouter>,
    );
    await screen.findByText('Showing 1–50 of 2,000');
    await userEvent.type(screen.getByPlaceholderText('Search products by name...'), 's');
    expect(await screen.findByText('Showing 1–50 of 2,000+')).toBeTruthy();
  });

  it('pages with Previous and Next, showing where the rows sit among the total', async () => {
    const { calls } = renderProducts(many(120));
    await screen.findByText('Item 001');
    expect(bodyRows()).toHaveLength(50);
    expect(screen.getByText('Showing 1–50 of 120')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Item 051');
    expect(names()[0]).toBe('Item 051');
    expect(screen.getByText('Showing 51–100 of 120')).toBeTruthy();
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    expect(listCalls(calls, '/api/products').at(-1)?.query).toEqual({ page: '2', pageSize: '50' });
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Showing 101–120 of 120');
    expect(bodyRows()).toHaveLength(20);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    // Next is disabled on the last page, so the keyboard focus moves to Previous.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Previous' }));
  });

  it('a new search starts again on page 1', async () => {
    const { calls } = renderProducts(many(120));
    await screen.findByText('Item 001');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Item 051');
    await userEvent.type(screen.getByPlaceholderText('Search products by name...'), 'Item 00');
    // Every word must appear: Item 001 to 009, and Item 100.
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
    expect(listCalls(calls, '/api/products').at(-1)?.query).toEqual({
      search: 'Item 00',
      page: '1',
      pageSize: '50',
    });
    expect(names()[0]).toBe('Item 001');
    expect(screen.queryByRole('navigation', { name: 'Products pages' })).toBeNull();
  });

  it('keeps the page on screen while the next one loads', async () => {
    let release = () => {};
    let holding = false;
    renderProducts(many(120), () =>
      holding ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve(),
    );
    await screen.findByText('Item 001');
    holding = true;
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(screen.getByRole('table', { name: 'Products' }).getAttribute('aria-busy')).toBe('true'),
    );
    expect(names()[0]).toBe('Item 001');
    expect(screen.queryByText('Loading...')).toBeNull();
    holding = false;
    release();
    await screen.findByText('Item 051');
    expect(screen.getByRole('table', { name: 'Products' }).getAttribute('aria-busy')).toBeNull();
  });

  it('asks before deleting, removes the row once the server agrees and refreshes the page', async () => {
    const { calls } = renderProducts();
    await screen.findByText('Stapler');
    await userEvent.click(screen.getByRole('button', { name: 'Delete Red Pen' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete product?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('status')).textContent).toBe('Product deleted.');
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/products/b')).toBe(true);
    await waitFor(() => expect(screen.queryByText('Red Pen')).toBeNull());
    expect(bodyRows()).toHaveLength(2);
    await waitFor(() => expect(listCalls(calls, '/api/products')).toHaveLength(2));
  });

  it('moves back to the last page when a delete empties the page shown', async () => {
    const products = many(51);
    signIn(userOf('admin'));
    const { calls } = mockFetch({
      'GET /api/products': ({ query }) => {
        const { rows, ...info } = pageAnswer(products, query);
        return { body: { success: true, products: rows, ...info } };
      },
      'GET /api/products/choices': () => ({ body: { success: true, categories: [], suppliers: [] } }),
      'DELETE /api/products/p50': () => {
        products.pop();
        return { body: { success: true } };
      },
    });
    renderWithClient(
      <MemoryRouter>
        <ProductsPage />
      </MemoryRouter>,
    );
    await screen.findByText('Item 001');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Item 051' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Delete product?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(names()[0]).toBe('Item 001'));
    expect(bodyRows()).toHaveLength(50);
    // Page 1 shows from the cache at once; its refetch follows (under load, a moment later).
    await waitFor(() =>
      expect(listCalls(calls, '/api/products').at(-1)?.query).toEqual({ page: '1', pageSize: '50' }),
    );
  });

  it('fills the Category and Supplier choices from one GET /api/products/choices, not every page', async () => {
    const { calls } = renderProducts(many(120));
    await screen.findByText('Item 001');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Item 051');
    expect(listCalls(calls, '/api/products/choices')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    const options = (label: string) =>
      Array.from((within(dialog).getByLabelText(label) as HTMLSelectElement).options, (o) => o.text);
    expect(options('Category')).toEqual(['Select category', 'Stationery']);
    expect(options('Supplier')).toEqual(['Select supplier', 'Acme']);
  });

  it('validates the add form with the shared rules, next to the fields', async () => {
    const { calls } = renderProducts();
    await screen.findByText('Stapler');
    await userEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    await userEvent.type(within(dialog).getByLabelText('Price'), '1.234');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    expect(await within(dialog).findByText('Product name is required.')).toBeTruthy();
    expect(within(dialog).getByText('Price must have at most 2 decimals.')).toBeTruthy();
    expect(within(dialog).getByText('Choose a category.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it("each row's Stock action opens that product's stock page, next to Edit and Delete", async () => {
    renderProducts();
    await screen.findByText('Stapler');
    const row = bodyRows()[2] as HTMLElement;
    const actions = Array.from(row.querySelectorAll('a, button'), (element) => element.textContent);
    expect(actions).toEqual(['Stock', 'Edit', 'Delete']);
    expect(within(row).getByRole('link', { name: 'Stock of Stapler' }).getAttribute('href')).toBe(
      '/admin-dashboard/products/c/stock',
    );
  });

  it('opens the add dialog with focus in Name, closes it on Escape and gives focus back', async () => {
    renderProducts();
    await screen.findByText('Stapler');
    const addButton = screen.getByRole('button', { name: 'Add Product' });
    await userEvent.click(addButton);
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Name'));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(addButton);
  });
});

/** The query string of the current address, for tests of state kept there. */
function Address() {
  return <output aria-label="address">{useLocation().search}</output>;
}

describe('the optional Reorder at column', () => {
  function renderAt(entry: string) {
    signIn(userOf('admin'));
    const own = { ...item('o', 'Own point', 1, 3, 12), reorderPointFromStore: false };
    mockFetch({
      'GET /api/products': ({ query }) => {
        const { rows, ...info } = pageAnswer([item('a', 'Blue Pen', 1.5, 0), own], query);
        return { body: { success: true, products: rows, ...info } };
      },
      'GET /api/products/choices': () => ({
        body: { success: true, categories: [category], suppliers: [supplier] },
      }),
    });
    renderWithClient(
      <MemoryRouter initialEntries={[entry]}>
        <ProductsPage />
        <Address />
      </MemoryRouter>,
    );
  }
  const headers = () =>
    within(screen.getByRole('table', { name: 'Products' }))
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);

  it('is hidden at first; the checkbox shows it, with the store default marked, and keeps it in the address', async () => {
    renderAt('/admin-dashboard/products');
    await screen.findByText('Own point');
    expect(headers()).not.toContain('Reorder at');
    await userEvent.click(screen.getByLabelText('Show reorder points'));
    expect(headers()).toContain('Reorder at');
    expect(screen.getByLabelText('address').textContent).toBe('?cols=reorder');
    const rows = bodyRows();
    expect(rows[0]?.cells[5]?.textContent).toBe('5 (store default)');
    expect(rows[1]?.cells[5]?.textContent).toBe('12');
    await userEvent.click(screen.getByLabelText('Show reorder points'));
    expect(headers()).not.toContain('Reorder at');
    expect(screen.getByLabelText('address').textContent).toBe('');
  });

  it('an address with cols=reorder shows it at once', async () => {
    renderAt('/admin-dashboard/products?cols=reorder');
    await screen.findByText('Own point');
    expect(headers()).toContain('Reorder at');
    expect((screen.getByLabelText('Show reorder points') as HTMLInputElement).checked).toBe(true);
  });
});

describe('the products list keeps its view in the address', () => {
  function renderAt(entry: string) {
    signIn(userOf('admin'));
    const mock = mockFetch({
      'GET /api/products': ({ query }) => {
        const { rows, ...info } = pageAnswer(many(120), query);
        return { body: { success: true, products: rows, ...info } };
      },
      'GET /api/products/choices': () => ({
        body: { success: true, categories: [category], suppliers: [supplier] },
      }),
    });
    renderWithClient(
      <MemoryRouter initialEntries={[entry]}>
        <ProductsPage />
        <Address />
      </MemoryRouter>,
    );
    return mock;
  }
  const address = () => screen.getByLabelText('address').textContent;

  it('a shared address with a search and a page asks for them and shows them', async () => {
    const { calls } = renderAt('/admin-dashboard/products?q=item&page=2');
    await screen.findByText('Item 051');
    expect(listCalls(calls, '/api/products')[0]?.query).toMatchObject({ search: 'item', page: '2' });
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('item');
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    expect(address()).toBe('?q=item&page=2');
  });

  it('typing writes the search to the address once it pauses, back on page 1; a page is written too', async () => {
    renderAt('/admin-dashboard/products?page=3');
    await screen.findByText('Item 101');
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(address()).toBe('?page=2'));
    await userEvent.type(screen.getByRole('searchbox'), 'Item 04');
    await waitFor(() => expect(address()).toBe('?q=Item+04'));
    await screen.findByText('Item 045');
    expect(screen.queryByText('Item 051')).toBeNull();
  });
});

describe('the products list keeps its sort in the address', () => {
  // Prices fall as the names rise: Item 001 costs $120, Item 120 costs $1.
  const PRICED = Array.from({ length: 120 }, (_, i) =>
    item(`p${i}`, `Item ${String(i + 1).padStart(3, '0')}`, 120 - i, i % 7),
  );

  /** The server's answer: the matches in the order asked for (by name unless told), one page. */
  function sortedAnswer(query: Record<string, string>) {
    const field = (query.sort ?? 'name').replace('-', '') as 'name' | 'price' | 'stock';
    const sign = query.sort?.startsWith('-') ? -1 : 1;
    const sorted = [...PRICED].sort(
      (a, b) => sign * (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : a.name < b.name ? -1 : 1),
    );
    const { rows, ...info } = pageAnswer(sorted, query);
    return { success: true, products: rows, ...info };
  }

  function renderAt(entry: string) {
    signIn(userOf('admin'));
    const mock = mockFetch({
      'GET /api/products': ({ query }) => ({ body: sortedAnswer(query) }),
      'GET /api/products/choices': () => ({
        body: { success: true, categories: [category], suppliers: [supplier] },
      }),
    });
    const router = createMemoryRouter([{ path: '/admin-dashboard/products', element: <ProductsPage /> }], {
      initialEntries: [entry],
    });
    renderWithClient(<RouterProvider router={router} />);
    return { ...mock, router };
  }
  const header = (name: string) =>
    within(screen.getByRole('table', { name: 'Products' })).getByRole('columnheader', { name });

  it('a header sorts by its column, back on page 1, then the other way; the address keeps it', async () => {
    const { calls, router } = renderAt('/admin-dashboard/products?page=2');
    await screen.findByText('Item 051');
    expect(header('Name').getAttribute('aria-sort')).toBe('ascending');
    await userEvent.click(screen.getByRole('button', { name: 'Price' }));
    await waitFor(() => expect(names()[0]).toBe('Item 120'));
    expect(router.state.location.search).toBe('?sort=price');
    expect(header('Price').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Name').getAttribute('aria-sort')).toBeNull();
    expect(listCalls(calls, '/api/products').at(-1)?.query).toEqual({
      sort: 'price',
      page: '1',
      pageSize: '50',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Price' }));
    await waitFor(() => expect(names()[0]).toBe('Item 001'));
    expect(router.state.location.search).toBe('?sort=-price');
    expect(header('Price').getAttribute('aria-sort')).toBe('descending');
    // By name is the default order, so the address leaves it out.
    await userEvent.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(listCalls(calls, '/api/products').at(-1)?.query).toEqual({ page: '1', pageSize: '50' });
  });

  it('an address with a search, a sort, a page and the Reorder at column shows all four', async () => {
    const { calls } = renderAt('/admin-dashboard/products?q=item&sort=-stock&page=2&cols=reorder');
    await waitFor(() => expect(screen.getByText('Page 2 of 3')).toBeTruthy());
    expect(listCalls(calls, '/api/products')[0]?.query).toEqual({
      search: 'item',
      sort: '-stock',
      page: '2',
      pageSize: '50',
    });
    expect(header('Stock').getAttribute('aria-sort')).toBe('descending');
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('item');
    expect((screen.getByLabelText('Show reorder points') as HTMLInputElement).checked).toBe(true);
    // Stock 6 to 0 from the top; the second page starts among the 4s.
    expect(bodyRows()[0]?.cells[4]?.textContent).toBe('4');
  });

  it('showing the Reorder at column stays on the page, and Back undoes the page step', async () => {
    const { router } = renderAt('/admin-dashboard/products?sort=price');
    await screen.findByText('Item 120');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=price&page=2'));
    await userEvent.click(screen.getByLabelText('Show reorder points'));
    expect(router.state.location.search).toBe('?sort=price&page=2&cols=reorder');
    await screen.findByText('Item 070');
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('?sort=price');
    await waitFor(() => expect(names()[0]).toBe('Item 120'));
  });
});

/** Where the stock page would be: it shows the address it was opened at. */
function StockStandIn() {
  return <p>Stock page {useLocation().search}</p>;
}

describe('the Stock link', () => {
  /** Products, and a stock page whose code takes `loadMs` to arrive, as a lazy route's does. */
  function renderWithStock(entry: string, loadMs = 0) {
    signIn(userOf('admin'));
    const products = [
      item('a', 'Blue Pen', 1.5, 0),
      item('b', 'Red Pen', 2, 5),
      item('c', 'Stapler', 12.25, 40),
    ];
    mockFetch({
      'GET /api/products': ({ query }) => {
        const { rows, ...info } = pageAnswer(products, query);
        return { body: { success: true, products: rows, ...info } };
      },
      'GET /api/products/choices': () => ({
        body: { success: true, categories: [category], suppliers: [supplier] },
      }),
    });
    const router = createMemoryRouter(
      [
        { path: '/admin-dashboard/products', element: <ProductsPage /> },
        {
          path: '/admin-dashboard/products/:id/stock',
          lazy: () =>
            new Promise((resolve) => setTimeout(() => resolve({ Component: StockStandIn }), loadMs)),
        },
      ],
      { initialEntries: [entry] },
    );
    renderWithClient(<RouterProvider router={router} />);
    return router;
  }

  it('carries the list’s search, sort and page to the stock page, for its Back to Products', async () => {
    const router = renderWithStock('/admin-dashboard/products?q=pen&sort=-price');
    await screen.findByText('Red Pen');
    await userEvent.click(screen.getByRole('link', { name: 'Stock of Red Pen' }));
    await screen.findByText(/^Stock page/);
    expect(router.state.location.pathname).toBe('/admin-dashboard/products/b/stock');
    expect(new URLSearchParams(router.state.location.search).get('list')).toBe('q=pen&sort=-price');
  });

  it('a click on Stock just after typing a search is followed, not lost when the search is written', async () => {
    const router = renderWithStock('/admin-dashboard/products', 2 * SEARCH_DELAY_MS);
    await screen.findByText('Red Pen');
    await userEvent.type(screen.getByPlaceholderText('Search products by name...'), 'pen');
    // The click lands before the search is sent; the stock page's code is still on its way when it is.
    await userEvent.click(screen.getByRole('link', { name: 'Stock of Red Pen' }));
    expect(await screen.findByText(/^Stock page/, {}, { timeout: 3_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin-dashboard/products/b/stock');
  });
});

describe('on a phone', () => {
  it('shows each product as a card led by its name, price and stock, with the same actions', async () => {
    atViewport(375);
    renderProducts([item('a', 'Blue Pen', 1.5, 0), item('c', 'Stapler', 12.25, 40)]);
    const list = await screen.findByRole('list', { name: 'Products' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const pen = cards[0] as HTMLElement;
    expect(within(pen).getByRole('heading', { name: 'Blue Pen' })).toBeTruthy();
    const fields = Array.from(pen.querySelectorAll('dt'), (term) => [
      term.textContent,
      term.nextElementSibling?.textContent,
    ]);
    expect(fields).toEqual([
      ['Price', '$1.50'],
      ['Stock', '0'],
      ['Category', 'Stationery'],
      ['Supplier', 'Acme'],
    ]);
    expect(within(pen).getByRole('img', { name: 'Out of stock' })).toBeTruthy();
    expect(within(pen).getByRole('link', { name: 'Stock of Blue Pen' })).toBeTruthy();
    expect(within(pen).getByRole('button', { name: 'Delete Blue Pen' })).toBeTruthy();
    await userEvent.click(within(pen).getByRole('button', { name: 'Edit Blue Pen' }));
    expect(await screen.findByRole('dialog', { name: 'Edit Product' })).toBeTruthy();
  });

  it('offers the table’s sorts in a Sort by select, since cards have no headers to press', async () => {
    atViewport(375);
    const { calls } = renderProducts();
    await screen.findByRole('list', { name: 'Products' });
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'Price, highest first');
    await waitFor(() => expect(listCalls(calls, '/api/products').at(-1)?.query.sort).toBe('-price'));
  });

  it('shows the table again wider than a phone', async () => {
    atViewport(641);
    renderProducts();
    expect(await screen.findByRole('table', { name: 'Products' })).toBeTruthy();
    expect(screen.queryByLabelText('Sort by')).toBeNull();
  });
});

describe('Add Product while the categories and suppliers cannot be loaded', () => {
  it('says why it is greyed out and loads them again on Try again', async () => {
    signIn(userOf('admin'));
    let choicesFail = true;
    mockFetch({
      'GET /api/products': ({ query }) => {
        const { rows, ...info } = pageAnswer([item('a', 'Blue Pen', 1.5, 3)], query);
        return { body: { success: true, products: rows, ...info } };
      },
      'GET /api/products/choices': () =>
        choicesFail
          ? { status: 503, body: { success: false, error: 'The database is not answering.' } }
          : { body: { success: true, categories: [category], suppliers: [supplier] } },
    });
    renderWithClient(
      <MemoryRouter>
        <ProductsPage />
      </MemoryRouter>,
    );
    const reason = await screen.findByText(
      'The categories and suppliers a new product needs could not be loaded: The database is not answering.',
      {},
      { timeout: 10_000 },
    );
    const add = screen.getByRole('button', { name: 'Add Product' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    // The reason is tied to the button, so it is read with it.
    const describedBy = add.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toContain(reason.textContent);
    choicesFail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(add.disabled).toBe(false));
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
    expect(add.getAttribute('aria-describedby')).toBeNull();
  }, 20_000);
});

describe('prices as the store sets them', () => {
  it("writes each price in the store's currency with the tax rate in force, in the table and on a phone's card", async () => {
    const reduced = { _id: 't5', name: 'Reduced', rate: 5 };
    const standard = { _id: 't8', name: 'Standard', rate: 8.875 };
    const products = [
      { ...item('a', 'Blue Pen', 1234.5, 10), taxRate: reduced, taxRateDefault: false },
      { ...item('b', 'Red Pen', 2, 10), taxRate: standard },
    ];
    signIn(userOf('admin'));
    mockFetch({
      'GET /api/products': ({ query }) => {
        const { rows, ...info } = pageAnswer(products, query);
        return { body: { success: true, products: rows, ...info } };
      },
      'GET /api/products/choices': () => ({
        body: { success: true, categories: [category], suppliers: [supplier] },
      }),
    });
    const store = { ...storeOf({ currency: 'EUR', pricesIncludeTax: true }), defaultTaxRate: standard };
    const page = () => (
      <MemoryRouter>
        <ProductsPage />
      </MemoryRouter>
    );
    const { unmount } = renderWithClient(page(), { store });
    await screen.findByText('Red Pen');
    expect(bodyRows().map((row) => row.cells[3]?.textContent)).toEqual([
      '€1,234.50 incl. Reduced 5%',
      '€2.00 incl. Standard 8.875%',
    ]);
    unmount();

    atViewport(375);
    renderWithClient(page(), { store: { ...store, pricesIncludeTax: false, currency: 'GBP' } });
    const list = await screen.findByRole('list', { name: 'Products' });
    const [pen] = within(list).getAllByRole('listitem') as HTMLElement[];
    const price = (pen as HTMLElement).querySelector('dt')?.nextElementSibling?.textContent;
    expect(price).toBe('£1,234.50 + Reduced 5%');
  });
});
