import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../shared/products';
import { product as productOf } from '../../test/fixtures';
import { listCalls, mockFetch, pageAnswer, renderWithClient, signIn, userOf } from '../../test/helpers';
import { atViewport } from '../../test/viewport';
import { CataloguePage } from './catalogue-page';

const categories = [
  { _id: 'c1', name: 'Stationery', description: '' },
  { _id: 'c2', name: 'Drinks', description: '' },
];

function product(id: string, name: string, stock: number, categoryId = 'c1', reorderPoint = 5) {
  const category = categories.find((c) => c._id === categoryId) ?? categories[0];
  return productOf(id, name, {
    price: 2.5,
    stock,
    reorderPoint,
    reorderPointFromStore: true,
    category: { _id: categoryId, name: category?.name ?? '' },
  });
}

const many = (count: number) =>
  Array.from({ length: count }, (_, i) => product(`p${i}`, `Item ${String(i + 1).padStart(3, '0')}`, 10));

/** A small stand-in for GET /api/products, with the category filter, and POST /api/order/add. */
function renderCatalogue(initial: Product[]) {
  signIn(userOf('salesRep'));
  const products = initial.map((p) => ({ ...p }));
  const mock = mockFetch({
    'GET /api/products': ({ query }) => {
      const inCategory = query.category
        ? products.filter((p) => p.category._id === query.category)
        : products;
      const { rows, ...info } = pageAnswer(inCategory, query);
      return { body: { success: true, products: rows, ...info } };
    },
    'GET /api/products/choices': () => ({ body: { success: true, categories, suppliers: [] } }),
    'POST /api/order/add': ({ body }) => {
      const { productId, quantity } = body as { productId: string; quantity: number };
      const ordered = products.find((p) => p._id === productId);
      if (ordered) ordered.stock -= quantity;
      return {
        status: 201,
        body: {
          success: true,
          order: {
            _id: 'o1',
            user: { _id: 'salesRep-id', name: 'Test salesRep', address: '' },
            product: { _id: productId, name: ordered?.name ?? '', category: { name: 'Stationery' } },
            quantity,
            unitPrice: 2.5,
            unitCost: null,
            totalPrice: 2.5 * quantity,
            discount: 0,
            tax: 0,
            taxRate: null,
            netTotal: 2.5 * quantity,
            returnedTotal: 0,
            orderDate: '2025-05-01T10:00:00.000Z',
            status: 'placed',
            returnedQuantity: 0,
            sale: null,
            customer: null,
            lots: [],
          },
        },
      };
    },
  });
  renderWithClient(
    <MemoryRouter>
      <CataloguePage />
    </MemoryRouter>,
  );
  return mock;
}

function bodyRows() {
  const table = screen.getByRole('table', { name: 'Products you can order' });
  return within(table).getAllByRole('row').slice(1) as HTMLTableRowElement[];
}

const column = (index: number) => bodyRows().map((row) => row.cells[index]?.textContent);

describe('Product catalogue', () => {
  it('fills the category select from the list answer and sends the category chosen', async () => {
    const { calls } = renderCatalogue([
      product('a', 'Blue Pen', 3),
      product('b', 'Cola', 9, 'c2'),
      product('c', 'Lemonade', 0, 'c2'),
    ]);
    await screen.findByText('Blue Pen');
    const select = screen.getByLabelText('Category') as HTMLSelectElement;
    expect(Array.from(select.options, (option) => option.text)).toEqual([
      'Select Category',
      'Stationery',
      'Drinks',
    ]);
    await userEvent.selectOptions(select, 'Drinks');
    await waitFor(() => expect(column(1)).toEqual(['Cola', 'Lemonade']));
    expect(listCalls(calls, '/api/products').at(-1)?.query).toEqual({
      category: 'c2',
      page: '1',
      pageSize: '50',
    });
    expect((screen.getByRole('button', { name: 'Order Lemonade' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("colours each stock by the product's own reorder point from the server", async () => {
    renderCatalogue([
      product('a', 'Blue Pen', 8, 'c1', 10),
      product('b', 'Red Pen', 8, 'c1', 5),
      product('c', 'Stapler', 0, 'c1', 10),
    ]);
    await screen.findByText('Blue Pen');
    const levels = bodyRows().map((row) => row.querySelector<HTMLElement>('[data-level]')?.dataset.level);
    expect(levels).toEqual(['low', 'ok', 'out']);
  });

  it('sends the search with the category, once typing pauses', async () => {
    const { calls } = renderCatalogue([product('a', 'Blue Pen', 3), product('b', 'Cola', 9, 'c2')]);
    await screen.findByText('Blue Pen');
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'Stationery');
    await userEvent.type(screen.getByPlaceholderText('Search products...'), 'pen');
    await waitFor(() =>
      expect(listCalls(calls, '/api/products').at(-1)?.query).toEqual({
        search: 'pen',
        category: 'c1',
        page: '1',
        pageSize: '50',
      }),
    );
    const searches = listCalls(calls, '/api/products').map((call) => call.query.search);
    expect(searches.filter(Boolean)).toEqual(['pen']);
  });

  it('shows each product’s own ID on every page and in every category, and goes back to page 1 for another category', async () => {
    const { calls } = renderCatalogue([...many(60), product('x', 'Zest Cola', 4, 'c2')]);
    await screen.findByText('Item 001');
    expect(screen.getByText('Showing 1–50 of 61')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Item 051');
    expect(column(0).slice(0, 2)).toEqual(['p50', 'p51']);
    expect(column(0).at(-1)).toBe('x');
    expect(screen.getByText('Showing 51–61 of 61')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'Drinks');
    await waitFor(() => expect(column(1)).toEqual(['Zest Cola']));
    expect(column(0)).toEqual(['x']);
    expect(listCalls(calls, '/api/products').at(-1)?.query).toEqual({
      category: 'c2',
      page: '1',
      pageSize: '50',
    });
  });

  it("shows 'No products found' when the server counts no match", async () => {
    renderCatalogue([product('a', 'Blue Pen', 3)]);
    await screen.findByText('Blue Pen');
    await userEvent.type(screen.getByPlaceholderText('Search products...'), 'stapler');
    await waitFor(() => expect(bodyRows()[0]?.textContent).toBe('No products found'));
  });

  it("after 'order placed' the page shown is fetched again with the lower stock", async () => {
    const { calls } = renderCatalogue([...many(55)]);
    await screen.findByText('Item 001');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Item 052');
    await userEvent.click(screen.getByRole('button', { name: 'Order Item 052' }));
    const dialog = screen.getByRole('dialog', { name: 'Place Order' });
    await userEvent.clear(within(dialog).getByLabelText('Quantity'));
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '4');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Place Order' }));
    expect((await screen.findByRole('status')).textContent).toBe('order placed');
    const row = () => bodyRows().find((r) => r.cells[1]?.textContent === 'Item 052');
    await waitFor(() => expect(row()?.cells[4]?.textContent).toBe('6'));
    expect(listCalls(calls, '/api/products').at(-1)?.query).toEqual({ page: '2', pageSize: '50' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Order Item 052' }));
  });
});

describe('a product that cannot be ordered', () => {
  it('says "Out of stock" beside its greyed Order button, tied to the button', async () => {
    renderCatalogue([product('a', 'Blue Pen', 3), product('c', 'Lemonade', 0)]);
    await screen.findByText('Lemonade');
    const order = screen.getByRole('button', { name: 'Order Lemonade' }) as HTMLButtonElement;
    expect(order.disabled).toBe(true);
    const reason = document.getElementById(order.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('Out of stock');
    expect(order.closest('td')?.textContent).toBe('OrderOut of stock');
    const pen = screen.getByRole('button', { name: 'Order Blue Pen' }) as HTMLButtonElement;
    expect(pen.disabled).toBe(false);
    expect(pen.getAttribute('aria-describedby')).toBeNull();
  });
});

describe('the catalogue on a phone', () => {
  it('shows each product as a card led by its name, price and stock, with its Order button', async () => {
    atViewport(375);
    renderCatalogue([product('a', 'Blue Pen', 3), product('c', 'Lemonade', 0)]);
    const list = await screen.findByRole('list', { name: 'Products you can order' });
    expect(screen.queryByRole('table')).toBeNull();
    const [pen, lemonade] = within(list).getAllByRole('listitem') as HTMLElement[];
    expect(within(pen as HTMLElement).getByRole('heading', { name: 'Blue Pen' })).toBeTruthy();
    const fields = Array.from((pen as HTMLElement).querySelectorAll('dt'), (term) => [
      term.textContent,
      term.nextElementSibling?.textContent,
    ]);
    expect(fields.slice(0, 3)).toEqual([
      ['Price', '$2.50'],
      ['Stock', '3'],
      ['Category', 'Stationery'],
    ]);
    expect(within(lemonade as HTMLElement).getByText('Out of stock')).toBeTruthy();
    expect(
      (within(lemonade as HTMLElement).getByRole('button', { name: 'Order Lemonade' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    await userEvent.click(within(pen as HTMLElement).getByRole('button', { name: 'Order Blue Pen' }));
    expect(await screen.findByRole('dialog', { name: 'Place Order' })).toBeTruthy();
  });
});
