import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { ProductsPage } from './products-page';

const category = { _id: 'c1', name: 'Stationery', description: '' };
const supplier = { _id: 's1', name: 'Acme' };
const item = (id: string, name: string, price: number, stock: number) => ({
  _id: id,
  name,
  description: '',
  price,
  stock,
  category: { _id: 'c1', name: 'Stationery' },
  supplier,
});

function renderProducts(
  initial = [item('a', 'Blue Pen', 1.5, 0), item('b', 'Red Pen', 2, 5), item('c', 'Stapler', 12.25, 40)],
) {
  signIn(userOf('admin'));
  let products = initial;
  const mock = mockFetch({
    'GET /api/products': () => ({
      body: {
        success: true,
        products,
        categories: [category],
        suppliers: [supplier],
        total: products.length,
      },
    }),
    'DELETE /api/products/b': () => {
      products = products.filter((product) => product._id !== 'b');
      return { body: { success: true } };
    },
  });
  renderWithClient(<ProductsPage />);
  return mock;
}

function bodyRows() {
  const table = screen.getByRole('table', { name: 'Products' });
  return within(table).getAllByRole('row').slice(1) as HTMLTableRowElement[];
}

describe('Products screen', () => {
  it('lists products with price in dollars and stock badges', async () => {
    renderProducts();
    expect(await screen.findByText('Stapler')).toBeTruthy();
    const rows = bodyRows();
    expect(rows).toHaveLength(3);
    expect(rows[2]?.textContent).toContain('$12.25');
    expect(within(rows[0] as HTMLElement).getByText('0').dataset.level).toBe('out');
    expect(within(rows[1] as HTMLElement).getByText('5').dataset.level).toBe('low');
  });

  it('filters by name as the user types, case-insensitively', async () => {
    renderProducts();
    await screen.findByText('Stapler');
    const search = screen.getByPlaceholderText('Search products by name...');
    await userEvent.type(search, 'PEN');
    expect(bodyRows().map((row) => row.cells[0]?.textContent)).toEqual(['Blue Pen', 'Red Pen']);
    await userEvent.type(search, 'cil');
    expect(bodyRows()[0]?.textContent).toBe('No products found.');
  });

  it("shows 'No products found.' for an empty list", async () => {
    renderProducts([]);
    expect(await screen.findByText('No products found.')).toBeTruthy();
  });

  it('asks before deleting and removes the row once the server agrees', async () => {
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

  it('shows long lists 50 rows at a time, and a search starts again on page 1', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      item(`p${i}`, `Item ${String(i + 1).padStart(3, '0')}`, 1, 10),
    );
    renderProducts(many);
    await screen.findByText('Item 001');
    expect(bodyRows()).toHaveLength(50);
    expect(screen.getByText('Showing 1–50 of 120')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(bodyRows()[0]?.cells[0]?.textContent).toBe('Item 051');
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    await userEvent.type(screen.getByPlaceholderText('Search products by name...'), 'Item 00');
    expect(bodyRows()).toHaveLength(9);
    expect(screen.queryByRole('navigation', { name: 'Products pages' })).toBeNull();
  });
});
