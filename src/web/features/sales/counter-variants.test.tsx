import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { refusalSentence } from '../../../shared/refusals';
import { product, variant } from '../../test/fixtures';
import { callsOf, codeAnswer, type Handler, productsAnswer, renderSales } from './sales-test-data';

/** DESIGN §22 at the counter: an item's variants as one match, its values picked; a code adds at once. */

const tee = { _id: 'i1', name: 'Tee' };
const small = variant('v1', tee, { Size: 'S' }, { price: 10, stock: 4, barcode: '4001' });
const medium = variant('v2', tee, { Size: 'M' }, { price: 12, stock: 6, sku: 'TEE-M' });
const large = variant('v3', tee, { Size: 'L' }, { price: 12, stock: 2 });
const old = product('p9', 'Old Tee', { active: false, barcode: '4009' });
const catalogue = [small, medium, large, old];

function openCounter(handlers: Record<string, Handler> = {}) {
  const view = renderSales('/salesRep-dashboard/sales/new', {
    // As the server: `active=true` leaves the inactive ones out.
    'GET /api/products': (call) =>
      productsAnswer(catalogue.filter((one) => call.query.active !== 'true' || one.active))(call),
    'GET /api/products/code/*': codeAnswer(catalogue),
    ...handlers,
  });
  return { ...view, user: userEvent.setup() };
}

const searchBox = () =>
  screen.getByRole('combobox', { name: 'Scan or search a product' }) as HTMLInputElement;
const cart = () => screen.getByRole('list', { name: 'Cart' });
const quantityOf = (name: string) => (screen.getByLabelText(`Quantity of ${name}`) as HTMLInputElement).value;

describe('the counter with variants', () => {
  it('lists an item once; Enter opens its values, a size is chosen with the keyboard and added', async () => {
    const { user, calls } = openCounter();
    await screen.findByRole('combobox', { name: 'Scan or search a product' });
    await user.type(searchBox(), 'tee');
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Tee3 variants · Size']);
    await user.keyboard('{Enter}');
    const choice = await screen.findByRole('region', { name: 'Choose Tee' });
    // The scan box keeps the focus (a scan still adds at once); Tab reaches the values.
    expect(document.activeElement).toBe(searchBox());
    await user.tab();
    expect(document.activeElement).toBe(within(choice).getByRole('button', { name: 'Size S' }));
    expect(within(choice).getByRole('button', { name: 'Add' })).toHaveProperty('disabled', true);
    await user.click(within(choice).getByRole('button', { name: 'Size M' }));
    expect(within(choice).getByText('$12.00 · stock 6')).toBeTruthy();
    await user.click(within(choice).getByRole('button', { name: 'Add Tee — M' }));
    await waitFor(() => expect(quantityOf('Tee — M')).toBe('1'));
    expect(screen.queryByRole('region', { name: 'Choose Tee' })).toBeNull();
    expect(document.activeElement).toBe(searchBox());
    // Only active products are asked for, an admin's counter too.
    expect(callsOf(calls, 'GET', '/api/products').every((call) => call.query.active === 'true')).toBe(true);
  });

  it('adds a variant at once by its barcode or SKU, scanned or typed', async () => {
    const { user } = openCounter();
    await screen.findByRole('combobox', { name: 'Scan or search a product' });
    await user.type(searchBox(), '4001{Enter}');
    await waitFor(() => expect(quantityOf('Tee — S')).toBe('1'));
    await user.type(searchBox(), 'TEE-M{Enter}');
    await waitFor(() => expect(quantityOf('Tee — M')).toBe('1'));
    expect(within(cart()).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('region', { name: 'Choose Tee' })).toBeNull();
  });

  it('does not add an inactive product a scan names, saying why', async () => {
    const { user } = openCounter();
    await screen.findByRole('combobox', { name: 'Scan or search a product' });
    await user.type(searchBox(), '4009{Enter}');
    expect(await screen.findByText('Old Tee is inactive: it is not sold.')).toBeTruthy();
    expect(screen.queryByLabelText('Quantity of Old Tee')).toBeNull();
  });

  it("shows the server's sentence when the sale is refused with PRODUCT_INACTIVE", async () => {
    const sentence = refusalSentence('PRODUCT_INACTIVE', { product: 'Tee — S' });
    const { user } = openCounter({
      'POST /api/sales': () => ({
        status: 409,
        body: { success: false, code: 'PRODUCT_INACTIVE', error: sentence },
      }),
      'GET /api/products/v1': () => ({ body: { success: true, product: { ...small, active: false } } }),
    });
    await screen.findByRole('combobox', { name: 'Scan or search a product' });
    await user.type(searchBox(), '4001{Enter}');
    await waitFor(() => expect(quantityOf('Tee — S')).toBe('1'));
    await user.click(screen.getByLabelText('Card'));
    await user.click(screen.getByRole('button', { name: /Complete sale/ }));
    await waitFor(() =>
      expect(screen.getAllByRole('alert').some((alert) => alert.textContent === sentence)).toBe(true),
    );
  });
});
