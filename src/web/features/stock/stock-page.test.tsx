import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../shared/products';
import type { Movement } from '../../../shared/stock';
import { mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { countDifference, signed } from './stock-dialogs';
import { StockPage } from './stock-page';

const product: Product = {
  _id: 'p1',
  name: 'Blue Pen',
  description: '',
  price: 2,
  stock: 50,
  reorderPoint: 5,
  category: { _id: 'c1', name: 'Stationery' },
  supplier: { _id: 's1', name: 'Acme' },
};

function movement(index: number, overrides: Partial<Movement> = {}): Movement {
  return {
    _id: `m${index}`,
    at: '2025-05-01T10:00:00.000Z',
    kind: 'sale',
    quantity: -1,
    stockAfter: 50,
    reason: null,
    note: '',
    user: { _id: 'u1', name: 'Rita Rep' },
    order: { _id: `order-${index}-0000` },
    ...overrides,
  };
}

function renderStock(movements: Movement[], stock = 50) {
  signIn(userOf('admin'));
  const mock = mockFetch({
    'GET /api/products/p1': () => ({ body: { success: true, product: { ...product, stock } } }),
    'GET /api/products/p1/movements': ({ query }) => {
      const page = Number(query.page ?? 1);
      const size = Number(query.pageSize ?? 20);
      return {
        body: {
          success: true,
          movements: movements.slice((page - 1) * size, page * size),
          total: movements.length,
          page,
          pageSize: size,
        },
      };
    },
    'POST /api/products/p1/count': ({ body }) => {
      const counted = (body as { counted: number }).counted;
      return {
        body: {
          success: true,
          product: { ...product, stock: counted },
          movement: movement(99, {
            kind: 'count',
            quantity: counted - stock,
            stockAfter: counted,
            order: undefined,
          }),
        },
      };
    },
    'POST /api/products/p1/adjust': () => ({
      status: 409,
      body: { success: false, error: 'Not enough stock' },
    }),
  });
  const router = createMemoryRouter(
    [{ path: '/admin-dashboard/products/:id/stock', element: <StockPage /> }],
    {
      initialEntries: ['/admin-dashboard/products/p1/stock'],
    },
  );
  renderWithClient(<RouterProvider router={router} />);
  return mock;
}

describe('the stock page', () => {
  it('shows signed changes and what a count would record', () => {
    expect(signed(3)).toBe('+3');
    expect(signed(-3)).toBe('−3');
    expect(countDifference('47', 50)).toBe(-3);
    expect(countDifference('', 50)).toBeNull();
    expect(countDifference('4.5', 50)).toBeNull();
  });

  it('lists the movements newest first, twenty a page', async () => {
    const movements = Array.from({ length: 25 }, (_, i) => movement(i, { stockAfter: 75 - i }));
    const { calls } = renderStock(movements);
    expect(await screen.findByRole('heading', { name: 'Stock: Blue Pen' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: /Stock movements of Blue Pen/ });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(21));
    expect(within(table).getAllByRole('row')[1]?.textContent).toContain('−1');
    expect(within(table).getAllByRole('row')[1]?.textContent).toContain('75');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(6));
    expect(calls.filter((c) => c.path.endsWith('/movements')).map((c) => c.query.page)).toEqual(['1', '2']);
  });

  it('says so when a product has no movements yet', async () => {
    renderStock([]);
    expect(await screen.findByText('No movements yet.')).toBeTruthy();
  });

  it('Count shows the difference before saving, then saves the count with an Idempotency-Key', async () => {
    const { calls } = renderStock([movement(1)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Count' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Counted quantity'), '47');
    expect(within(dialog).getByText('Counted 47, stock 50: −3')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save count' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const count = calls.find((c) => c.method === 'POST');
    expect(count?.body).toEqual({ counted: 47, note: '' });
    expect(count?.headers['Idempotency-Key']).toBeTruthy();
  });

  it('Adjust asks for a reason, and shows a 409 in the dialog', async () => {
    const { calls } = renderStock([movement(1)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Adjust' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Quantity'), '-60');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(within(dialog).getByText('Choose a reason.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'damaged');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Not enough stock');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      quantity: -60,
      reason: 'damaged',
      note: '',
    });
  });
});
