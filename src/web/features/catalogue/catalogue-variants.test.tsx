import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../shared/products';
import { product, variant } from '../../test/fixtures';
import { mockFetch, pageAnswer, renderWithClient, signIn, userOf } from '../../test/helpers';
import { atViewport } from '../../test/viewport';
import { CataloguePage } from './catalogue-page';

/** DESIGN §22: an item's variants shown together in the catalogue, its values picked. */

const tee = { _id: 'i1', name: 'Tee' };
const catalogue: Product[] = [
  product('p1', 'Blue Pen', { price: 2 }),
  variant('v1', tee, { Size: 'S', Colour: 'Red' }, { price: 10, stock: 4 }),
  variant('v2', tee, { Size: 'S', Colour: 'Blue' }, { price: 10, stock: 0 }),
  variant('v3', tee, { Size: 'M', Colour: 'Red' }, { price: 12, stock: 6 }),
];

function renderCatalogue() {
  signIn(userOf('salesRep'));
  const mock = mockFetch({
    'GET /api/products': ({ query }) => {
      const { rows, ...info } = pageAnswer(catalogue, query);
      return { body: { success: true, products: rows, ...info } };
    },
    'GET /api/products/choices': () => ({ body: { success: true, categories: [], suppliers: [] } }),
  });
  renderWithClient(
    <MemoryRouter>
      <CataloguePage />
    </MemoryRouter>,
  );
  return mock;
}

describe('the catalogue with variants', () => {
  it('shows one row per item with its price range; choosing a size and colour offers that variant', async () => {
    renderCatalogue();
    const table = await screen.findByRole('table', { name: 'Products you can order' });
    await within(table).findByText('Tee');
    const rows = within(table).getAllByRole('row').slice(1) as HTMLTableRowElement[];
    expect(rows).toHaveLength(2);
    const row = rows[1] as HTMLTableRowElement;
    expect(row.cells[3]?.textContent).toBe('$10.00–$12.00');
    const order = within(row).getByRole('button', { name: 'Order Tee' });
    expect(order).toHaveProperty('disabled', true);
    expect(row.textContent).toContain('Choose the size and colour');
    await userEvent.click(within(row).getByRole('button', { name: 'Size M' }));
    // M comes only in red: Blue is greyed (still pressable), and pressing Red names the variant.
    expect(
      within(row).getByRole('button', { name: 'Colour Blue (not sold with the values chosen)' }),
    ).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Colour Red' }));
    expect(within(row).getByRole('button', { name: 'Size M' }).getAttribute('aria-pressed')).toBe('true');
    expect(row.cells[3]?.textContent).toBe('$12.00');
    expect(row.cells[4]?.textContent).toContain('6');
    const orderM = within(row).getByRole('button', { name: 'Order Tee — M / Red' });
    expect(orderM).toHaveProperty('disabled', false);
    await userEvent.click(orderM);
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(within(screen.getByRole('dialog')).getByText(/Tee — M \/ Red/)).toBeTruthy();
  });

  it('says a chosen variant is out of stock', async () => {
    renderCatalogue();
    const table = await screen.findByRole('table', { name: 'Products you can order' });
    await within(table).findByText('Tee');
    await userEvent.click(within(table).getByRole('button', { name: 'Size S' }));
    await userEvent.click(within(table).getByRole('button', { name: 'Colour Blue' }));
    await waitFor(() =>
      expect(within(table).getByRole('button', { name: 'Order Tee — S / Blue' })).toHaveProperty(
        'disabled',
        true,
      ),
    );
    expect(within(table).getByText('Out of stock')).toBeTruthy();
  });

  it('shows the item as one card on a phone', async () => {
    atViewport(375);
    renderCatalogue();
    const list = await screen.findByRole('list', { name: 'Products you can order' });
    await within(list).findByRole('heading', { name: 'Tee' });
    expect(
      within(list)
        .getAllByRole('heading')
        .map((heading) => heading.textContent),
    ).toEqual(['Blue Pen', 'Tee']);
    await userEvent.click(within(list).getByRole('button', { name: 'Size S' }));
    await userEvent.click(within(list).getByRole('button', { name: 'Colour Red' }));
    expect(within(list).getByRole('button', { name: 'Order Tee — S / Red' })).toHaveProperty(
      'disabled',
      false,
    );
  });
});
