import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { product, variant } from '../../test/fixtures';
import { listCalls, mockFetch, pageAnswer, renderWithClient, signIn, userOf } from '../../test/helpers';
import { ProductFormModal } from './product-form-modal';
import { ProductsPage } from './products-page';

/** DESIGN §22 on the products screens: brand, Active, and a variant's item. */

const category = { _id: 'c1', name: 'Snacks', description: '' };
const supplier = { _id: 's1', name: 'Acme' };
const tee = { _id: 'i1', name: 'Tee' };
const medium = variant('v1', tee, { Size: 'M' }, { price: 12 });
const old = product('p2', 'Old Pen', { active: false });
const pen = product('p1', 'Blue Pen', { brand: 'Bic' });

function renderList() {
  signIn(userOf('admin'));
  const all = [pen, old, medium];
  const mock = mockFetch({
    'GET /api/products': ({ query }) => {
      const shown = all.filter((one) =>
        query.active === undefined ? true : String(one.active) === query.active,
      );
      const { rows, ...info } = pageAnswer(shown, query);
      return { body: { success: true, products: rows, ...info } };
    },
    'GET /api/products/choices': () => ({
      body: { success: true, categories: [category], suppliers: [supplier] },
    }),
  });
  renderWithClient(
    <MemoryRouter>
      <ProductsPage />
    </MemoryRouter>,
  );
  return mock;
}

describe('the products list with variants', () => {
  it('badges an inactive product and names a variant’s item, linked to its editor', async () => {
    renderList();
    const table = await screen.findByRole('table', { name: 'Products' });
    await within(table).findByText('Tee — M');
    const rows = within(table).getAllByRole('row').slice(1) as HTMLTableRowElement[];
    expect(rows[1]?.cells[0]?.textContent).toBe('Old Pen Inactive');
    expect(rows[2]?.cells[0]?.textContent).toBe('Tee — M Variant of Tee');
    expect(
      within(rows[2] as HTMLElement)
        .getByRole('link', { name: 'Tee' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/items/i1');
  });

  it('filters by Active, Inactive or All, asking the server', async () => {
    const { calls } = renderList();
    const table = await screen.findByRole('table', { name: 'Products' });
    await within(table).findByText('Old Pen');
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Inactive');
    await waitFor(() => expect(within(table).queryByText('Blue Pen')).toBeNull());
    expect(within(table).getByText('Old Pen')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Active');
    await waitFor(() => expect(within(table).queryByText('Old Pen')).toBeNull());
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'All');
    await within(table).findByText('Old Pen');
    expect(listCalls(calls, '/api/products').map((call) => call.query.active)).toEqual([
      undefined,
      'false',
      'true',
      undefined,
    ]);
  });
});

describe('the product form with brand and Active', () => {
  it('sends the brand and Active; an empty brand is none', async () => {
    signIn(userOf('admin'));
    const { calls } = mockFetch({
      'PUT /api/products/p1': () => ({ body: { success: true, product: pen } }),
    });
    renderWithClient(
      <MemoryRouter>
        <ProductFormModal product={pen} categories={[category]} suppliers={[supplier]} onClose={vi.fn()} />
      </MemoryRouter>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'c1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Supplier'), 's1');
    expect((within(dialog).getByLabelText('Brand') as HTMLInputElement).value).toBe('Bic');
    const active = within(dialog).getByRole('checkbox', { name: /Active/ }) as HTMLInputElement;
    expect(active.checked).toBe(true);
    await userEvent.clear(within(dialog).getByLabelText('Brand'));
    await userEvent.click(active);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({ brand: null, active: false });
  });

  it('shows a variant’s name read-only, with a link to edit its item', async () => {
    signIn(userOf('admin'));
    mockFetch({});
    renderWithClient(
      <MemoryRouter>
        <ProductFormModal product={medium} categories={[category]} suppliers={[supplier]} onClose={vi.fn()} />
      </MemoryRouter>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    const name = within(dialog).getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('Tee — M');
    expect(name.readOnly).toBe(true);
    expect(within(dialog).getByRole('link', { name: 'Edit item' }).getAttribute('href')).toBe(
      '/admin-dashboard/items/i1',
    );
  });
});
