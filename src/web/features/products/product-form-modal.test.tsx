import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Product } from '../../../shared/products';
import { refusalSentence } from '../../../shared/refusals';
import { ApiRequestError } from '../../lib/api';
import { product } from '../../test/fixtures';
import { type FetchCall, mockFetch, renderWithClient, signIn, storeOf, userOf } from '../../test/helpers';
import { changedStock, ProductFormModal, takenCode } from './product-form-modal';

const category = { _id: 'c1', name: 'Stationery', description: '' };
const supplier = { _id: 's1', name: 'Acme' };
const pen = product('p1', 'Blue Pen', {
  price: 2,
  stock: 47,
  reorderPoint: 5,
  reorderPointFromStore: true,
  category: { _id: 'c1', name: 'Stationery' },
  supplier,
});

type Edit = { stock: number; expectedStock?: number; price: number };

/**
 * The edit form against a server whose stock is `now`: it applies the rule of DESIGN §8 (a form's
 * stock equal to its expectedStock leaves the stock alone; a stale one is refused with 409).
 */
async function renderEdit(now: { stock: number }) {
  signIn(userOf('admin'));
  const mock = mockFetch({
    'PUT /api/products/p1': ({ body }) => {
      const edit = body as Edit;
      if (edit.expectedStock !== undefined && edit.stock !== edit.expectedStock) {
        if (now.stock !== edit.expectedStock)
          return {
            status: 409,
            body: {
              success: false,
              error: refusalSentence('STOCK_CHANGED', { from: edit.expectedStock, to: now.stock }),
              code: 'STOCK_CHANGED',
              stock: now.stock,
            },
          };
        now.stock = edit.stock;
      }
      return { body: { success: true, product: { ...pen, price: edit.price, stock: now.stock } } };
    },
  });
  const onClose = vi.fn();
  renderWithClient(
    <ProductFormModal product={pen} categories={[category]} suppliers={[supplier]} onClose={onClose} />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
  // This DOM leaves a select the form library fills on opening empty (a browser shows the choice,
  // as the end-to-end stories prove); choose them as the admin would see them.
  await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'c1');
  await userEvent.selectOptions(within(dialog).getByLabelText('Supplier'), 's1');
  return { ...mock, onClose, dialog };
}

const puts = (calls: FetchCall[]) => calls.filter((call) => call.method === 'PUT').map((call) => call.body);
const stockBox = (dialog: HTMLElement) => within(dialog).getByLabelText('Stock') as HTMLInputElement;

async function typeStock(dialog: HTMLElement, value: string) {
  await userEvent.clear(stockBox(dialog));
  await userEvent.type(stockBox(dialog), value);
}

describe('the product form and a stock that changed while it was open', () => {
  it('reads the current stock from a STOCK_CHANGED refusal whatever its words, and nothing from other failures', () => {
    const stale = new ApiRequestError('Le stock a changé.', 409, { code: 'STOCK_CHANGED', stock: 46 });
    expect(changedStock(stale)).toBe(46);
    expect(
      changedStock(new ApiRequestError('Another product already has this SKU.', 409, { code: 'SKU_TAKEN' })),
    ).toBeNull();
    // The sentence alone decides nothing: a screen tells refusals apart by their code.
    expect(
      changedStock(new ApiRequestError('Stock changed from 47 to 46 while you were editing', 409)),
    ).toBeNull();
    expect(changedStock(new Error('Stock changed from 47 to 46 while you were editing'))).toBeNull();
  });

  it('tells a taken SKU from a taken barcode by the code, not the words', () => {
    expect(takenCode(new ApiRequestError('SKU vergeben.', 409, { code: 'SKU_TAKEN' }))).toBe('sku');
    expect(takenCode(new ApiRequestError('Code-barres pris.', 409, { code: 'BARCODE_TAKEN' }))).toBe(
      'barcode',
    );
    expect(takenCode(new ApiRequestError('Another product already has this SKU.', 409))).toBeNull();
    expect(takenCode(new ApiRequestError('That already exists.', 409, { code: 'DUPLICATE' }))).toBeNull();
  });

  it('an edit sends the stock it was opened with as expectedStock, so sales made meanwhile stay', async () => {
    const now = { stock: 44 };
    const { calls, onClose, dialog } = await renderEdit(now);
    const price = within(dialog).getByLabelText('Price');
    await userEvent.clear(price);
    await userEvent.type(price, '5.25');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(puts(calls)).toEqual([expect.objectContaining({ price: 5.25, stock: 47, expectedStock: 47 })]);
    expect(now.stock).toBe(44);
  });

  it('a stale stock shows both numbers and saves nothing until the admin chooses; Keep takes the current stock', async () => {
    const now = { stock: 46 };
    const { calls, onClose, dialog } = await renderEdit(now);
    await typeStock(dialog, '60');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Stock changed from 47 to 46 while you were editing');
    expect(alert.textContent).toContain('The stock is now 46; you entered 60.');
    expect(onClose).not.toHaveBeenCalled();
    expect(now.stock).toBe(46);

    await userEvent.click(within(alert).getByRole('button', { name: 'Keep 46' }));
    expect(stockBox(dialog).value).toBe('46');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(puts(calls)).toHaveLength(1);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(puts(calls)[1]).toEqual(expect.objectContaining({ stock: 46, expectedStock: 46 }));
    expect(now.stock).toBe(46);
  });

  it("Use my value sends the admin's number against the stock as it is now, so it is saved as a count", async () => {
    const now = { stock: 46 };
    const { calls, onClose, dialog } = await renderEdit(now);
    await typeStock(dialog, '60');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    const alert = await within(dialog).findByRole('alert');
    await userEvent.click(within(alert).getByRole('button', { name: 'Use my value' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(puts(calls)).toEqual([
      expect.objectContaining({ stock: 60, expectedStock: 47 }),
      expect.objectContaining({ stock: 60, expectedStock: 46 }),
    ]);
    expect(now.stock).toBe(60);
  });

  it('a save that ignores the choice is refused again: the number is never overwritten silently', async () => {
    const now = { stock: 46 };
    const { calls, onClose, dialog } = await renderEdit(now);
    await typeStock(dialog, '60');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    await within(dialog).findByRole('alert');
    await typeStock(dialog, '61');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(2));
    expect(puts(calls)[1]).toEqual(expect.objectContaining({ stock: 61, expectedStock: 47 }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('you entered 61.');
    expect(onClose).not.toHaveBeenCalled();
    expect(now.stock).toBe(46);
  });

  it('when the stock moves again before Use my value, the new numbers are shown instead of saving', async () => {
    const now = { stock: 46 };
    const { calls, onClose, dialog } = await renderEdit(now);
    await typeStock(dialog, '60');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    const alert = await within(dialog).findByRole('alert');
    now.stock = 45;
    await userEvent.click(within(alert).getByRole('button', { name: 'Use my value' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toContain(
        'Stock changed from 46 to 45 while you were editing',
      ),
    );
    expect(within(dialog).getByRole('button', { name: 'Keep 45' })).toBeTruthy();
    expect(puts(calls)).toHaveLength(2);
    expect(onClose).not.toHaveBeenCalled();
    expect(now.stock).toBe(45);
  });

  it('adding a product sends no expectedStock', async () => {
    signIn(userOf('admin'));
    const { calls } = mockFetch({
      'POST /api/products/add': () => ({ status: 201, body: { success: true, product: pen } }),
    });
    const onClose = vi.fn();
    renderWithClient(
      <ProductFormModal product={null} categories={[category]} suppliers={[supplier]} onClose={onClose} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Blue Pen');
    await userEvent.type(within(dialog).getByLabelText('Price'), '2');
    await userEvent.type(within(dialog).getByLabelText('Stock'), '47');
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'c1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Supplier'), 's1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(calls[0]?.body).not.toHaveProperty('expectedStock');
  });
});

describe('the product form’s required numbers', () => {
  it('an empty Price or Stock asks for one instead of saying it is not a number, and nothing is sent', async () => {
    signIn(userOf('admin'));
    const { calls } = mockFetch({});
    renderWithClient(
      <ProductFormModal product={null} categories={[category]} suppliers={[supplier]} onClose={() => {}} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Blue Pen');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    expect(await within(dialog).findByText('Enter a price.')).toBeTruthy();
    expect(within(dialog).getByText('Enter the stock.')).toBeTruthy();
    expect(within(dialog).queryByText(/must be a number/)).toBeNull();
    expect(within(dialog).getByLabelText('Price').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toEqual([]);
  });
});

describe('the product form’s restocking fields', () => {
  /** The add form against a server that answers every POST; the bodies it was sent. */
  async function renderAdd() {
    signIn(userOf('admin'));
    const mock = mockFetch({
      'POST /api/products/add': () => ({ status: 201, body: { success: true, product: pen } }),
    });
    const onClose = vi.fn();
    renderWithClient(
      <ProductFormModal product={null} categories={[category]} suppliers={[supplier]} onClose={onClose} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Red Pen');
    await userEvent.type(within(dialog).getByLabelText('Price'), '3');
    await userEvent.type(within(dialog).getByLabelText('Stock'), '10');
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'c1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Supplier'), 's1');
    const posts = () => mock.calls.filter((call) => call.method === 'POST').map((call) => call.body);
    return { dialog, onClose, posts };
  }

  it('a new product sends cost, reorder point and quantity, or null for each left empty', async () => {
    const first = await renderAdd();
    await userEvent.type(within(first.dialog).getByLabelText('Cost'), '1.25');
    await userEvent.type(within(first.dialog).getByLabelText('Reorder point'), '12');
    await userEvent.type(within(first.dialog).getByLabelText('Reorder quantity'), '30');
    await userEvent.click(within(first.dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(first.onClose).toHaveBeenCalled());
    expect(first.posts()).toEqual([
      expect.objectContaining({ cost: 1.25, reorderPoint: 12, reorderQuantity: 30 }),
    ]);
  });

  it('empty restocking fields are sent as null (none: the store’s reorder point)', async () => {
    const { dialog, onClose, posts } = await renderAdd();
    expect(within(dialog).getByLabelText('Reorder point').getAttribute('aria-describedby')).toBeTruthy();
    expect(within(dialog).getByText("Empty: the store's default.")).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts()).toEqual([
      expect.objectContaining({ cost: null, reorderPoint: null, reorderQuantity: null }),
    ]);
  });

  it.each([
    ['Reorder point', '-1', 'Reorder point must be 0 or more.'],
    ['Reorder quantity', '0', 'Reorder quantity must be at least 1.'],
    ['Cost', '1.234', 'Unit cost must have at most 2 decimals.'],
  ])('%s %s is refused with “%s” and nothing is sent', async (label, value, message) => {
    const { dialog, posts } = await renderAdd();
    await userEvent.type(within(dialog).getByLabelText(label), value);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await within(dialog).findByText(message);
    expect(posts()).toEqual([]);
  });

  it('an edit shows the product’s own values and sends null for one cleared', async () => {
    signIn(userOf('admin'));
    const own: Product = {
      ...pen,
      cost: 0.8,
      reorderPoint: 9,
      reorderPointFromStore: false,
      reorderQuantity: 24,
    };
    const { calls } = mockFetch({
      'PUT /api/products/p1': () => ({ body: { success: true, product: own } }),
    });
    const onClose = vi.fn();
    renderWithClient(
      <ProductFormModal product={own} categories={[category]} suppliers={[supplier]} onClose={onClose} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'c1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Supplier'), 's1');
    expect((within(dialog).getByLabelText('Cost') as HTMLInputElement).value).toBe('0.8');
    expect((within(dialog).getByLabelText('Reorder point') as HTMLInputElement).value).toBe('9');
    await userEvent.clear(within(dialog).getByLabelText('Reorder quantity'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(puts(calls)).toEqual([
      expect.objectContaining({ cost: 0.8, reorderPoint: 9, reorderQuantity: null }),
    ]);
  });

  it('a product on the store’s reorder point shows it as the empty field’s default', () => {
    signIn(userOf('admin'));
    mockFetch({});
    renderWithClient(
      <ProductFormModal product={pen} categories={[category]} suppliers={[supplier]} onClose={() => {}} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    const field = within(dialog).getByLabelText('Reorder point') as HTMLInputElement;
    expect(field.value).toBe('');
    expect(field.placeholder).toBe('5');
    expect(within(dialog).getByText("Empty: the store's default (5).")).toBeTruthy();
  });
});

describe('the product form’s SKU and barcode', () => {
  /** The add form, filled but for the codes, against a server that answers `reply` to each POST. */
  async function renderAdd(
    reply: () => { status?: number; body: unknown } = () => ({
      status: 201,
      body: { success: true, product: pen },
    }),
  ) {
    signIn(userOf('admin'));
    const mock = mockFetch({ 'POST /api/products/add': reply });
    const onClose = vi.fn();
    renderWithClient(
      <ProductFormModal product={null} categories={[category]} suppliers={[supplier]} onClose={onClose} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Green Pen');
    await userEvent.type(within(dialog).getByLabelText('Price'), '2');
    await userEvent.type(within(dialog).getByLabelText('Stock'), '10');
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'c1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Supplier'), 's1');
    const posts = () => mock.calls.filter((call) => call.method === 'POST').map((call) => call.body);
    return { dialog, onClose, posts };
  }

  it('sends the codes as typed, and none (null) for a code left empty', async () => {
    const { dialog, onClose, posts } = await renderAdd();
    await userEvent.type(within(dialog).getByLabelText('SKU'), 'PEN-GRN-01');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts()).toEqual([expect.objectContaining({ sku: 'PEN-GRN-01', barcode: null })]);
  });

  it('a scanner’s Enter after the barcode does not save the form half filled', async () => {
    const { dialog, posts } = await renderAdd();
    await userEvent.type(within(dialog).getByLabelText('Barcode'), '4006381333931{Enter}');
    expect(posts()).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(posts()).toEqual([expect.objectContaining({ barcode: '4006381333931' })]));
  });

  it('a code with a space is refused beside its field and nothing is sent', async () => {
    const { dialog, posts } = await renderAdd();
    await userEvent.type(within(dialog).getByLabelText('Barcode'), '400 638');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await within(dialog).findByText('Barcode may hold only letters, digits and symbols, no spaces.');
    expect(within(dialog).getByLabelText('Barcode').getAttribute('aria-invalid')).toBe('true');
    expect(posts()).toEqual([]);
  });

  it.each([
    ['SKU', 'Another product already has this SKU.', 'SKU_TAKEN'],
    ['Barcode', 'Another product already has this barcode.', 'BARCODE_TAKEN'],
  ])(
    'a %s another product has (409) is said beside that field, which takes the focus',
    async (label, error, code) => {
      const { dialog, onClose } = await renderAdd(() => ({
        status: 409,
        body: { success: false, error, code },
      }));
      const field = within(dialog).getByLabelText(label);
      await userEvent.type(field, 'TAKEN-1');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
      await within(dialog).findByText(error);
      expect(field.getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(field);
      // Said once, beside the field, not again as the form's alert.
      expect(within(dialog).queryByRole('alert')).toBeNull();
      expect(onClose).not.toHaveBeenCalled();
    },
  );

  it('an edit shows the product’s codes and sends none for one cleared', async () => {
    signIn(userOf('admin'));
    const coded: Product = { ...pen, sku: 'PEN-BLU-01', barcode: '5012345678900' };
    const { calls } = mockFetch({
      'PUT /api/products/p1': () => ({ body: { success: true, product: coded } }),
    });
    const onClose = vi.fn();
    renderWithClient(
      <ProductFormModal product={coded} categories={[category]} suppliers={[supplier]} onClose={onClose} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'c1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Supplier'), 's1');
    expect((within(dialog).getByLabelText('SKU') as HTMLInputElement).value).toBe('PEN-BLU-01');
    expect((within(dialog).getByLabelText('Barcode') as HTMLInputElement).value).toBe('5012345678900');
    await userEvent.clear(within(dialog).getByLabelText('Barcode'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(puts(calls)).toEqual([expect.objectContaining({ sku: 'PEN-BLU-01', barcode: null })]);
  });
});

describe('the product form’s tax rate', () => {
  const standard = { _id: 't8', name: 'Standard', rate: 8.875 };
  const reduced = { _id: 't5', name: 'Reduced', rate: 5 };
  const zero = { _id: 't0', name: 'Zero', rate: 0 };
  const store = { ...storeOf(), defaultTaxRate: standard };

  async function fillNew(dialog: HTMLElement) {
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Blue Pen');
    await userEvent.type(within(dialog).getByLabelText('Price'), '2');
    await userEvent.type(within(dialog).getByLabelText('Stock'), '47');
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'c1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Supplier'), 's1');
  }

  it("offers the store's default, named, then every rate; the default sends null and a rate its id", async () => {
    signIn(userOf('admin'));
    const { calls } = mockFetch({
      'POST /api/products/add': () => ({ status: 201, body: { success: true, product: pen } }),
    });
    renderWithClient(
      <ProductFormModal product={null} categories={[category]} suppliers={[supplier]} onClose={() => {}} />,
      { store, taxRates: [reduced, standard, zero] },
    );
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    const select = within(dialog).getByLabelText('Tax rate') as HTMLSelectElement;
    expect(Array.from(select.options, (option) => option.textContent)).toEqual([
      'Store default (Standard 8.875%)',
      'Reduced 5%',
      'Standard 8.875%',
      'Zero 0%',
    ]);
    await fillNew(dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(calls[0]?.body).toMatchObject({ taxRate: null });

    await userEvent.selectOptions(select, 'Zero 0%');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(2));
    expect(calls[1]?.body).toMatchObject({ taxRate: 't0' });
  });

  it('an edit offers the product’s own rate even before the rates have loaded, and says the default is no tax without one', async () => {
    signIn(userOf('admin'));
    const { calls } = mockFetch({
      // The rates never arrive in this test.
      'GET /api/tax-rates': () => new Promise(() => {}),
      'PUT /api/products/p1': () => ({ body: { success: true, product: pen } }),
    });
    const own = { ...pen, taxRate: reduced, taxRateDefault: false };
    renderWithClient(
      <ProductFormModal product={own} categories={[category]} suppliers={[supplier]} onClose={() => {}} />,
      { taxRates: null },
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    const select = within(dialog).getByLabelText('Tax rate') as HTMLSelectElement;
    expect(Array.from(select.options, (option) => option.textContent)).toEqual([
      'Store default (no tax)',
      'Reduced 5%',
    ]);
    // As with Category and Supplier (renderEdit), this DOM leaves the filled select empty on opening.
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'c1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Supplier'), 's1');
    await userEvent.selectOptions(select, 'Reduced 5%');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]).toMatchObject({ taxRate: 't5' });
  });

  it("shows the server's refusal of a rate that no longer exists", async () => {
    signIn(userOf('admin'));
    mockFetch({
      'POST /api/products/add': () => ({
        status: 400,
        body: { success: false, error: 'Choose an existing tax rate.' },
      }),
    });
    renderWithClient(
      <ProductFormModal product={null} categories={[category]} suppliers={[supplier]} onClose={() => {}} />,
      { store, taxRates: [reduced] },
    );
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    await fillNew(dialog);
    await userEvent.selectOptions(within(dialog).getByLabelText('Tax rate'), 'Reduced 5%');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    expect(await within(dialog).findByText('Choose an existing tax rate.')).toBeTruthy();
  });
});

describe('the product form’s stock tracking (DESIGN §15)', () => {
  const pills: Product = { ...pen, _id: 'p1', name: 'Aspirin', stock: 30, tracking: 'lot' };

  async function renderAdd(
    reply: () => { status?: number; body: unknown } = () => ({
      status: 201,
      body: { success: true, product: pen },
    }),
  ) {
    signIn(userOf('admin'));
    const mock = mockFetch({ 'POST /api/products/add': reply });
    const onClose = vi.fn();
    renderWithClient(
      <ProductFormModal product={null} categories={[category]} suppliers={[supplier]} onClose={onClose} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Aspirin');
    await userEvent.type(within(dialog).getByLabelText('Price'), '4');
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'c1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Supplier'), 's1');
    const posts = () => mock.calls.filter((call) => call.method === 'POST').map((call) => call.body);
    return { dialog, onClose, posts };
  }

  async function renderEditOf(
    item: Product,
    reply: () => { status?: number; body: unknown } = () => ({ body: { success: true, product: item } }),
  ) {
    signIn(userOf('admin'));
    const mock = mockFetch({ 'PUT /api/products/p1': reply });
    const onClose = vi.fn();
    renderWithClient(
      <ProductFormModal product={item} categories={[category]} suppliers={[supplier]} onClose={onClose} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Category'), 'c1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Supplier'), 's1');
    return { dialog, onClose, puts: () => puts(mock.calls) };
  }

  const tracking = (dialog: HTMLElement) => within(dialog).getByRole('group', { name: 'Stock tracking' });
  const byLot = (dialog: HTMLElement) =>
    within(tracking(dialog)).getByLabelText('By lot — number and expiry');

  it('offers None (chosen) and By lot; an untracked product is sent as none and asks no lot', async () => {
    const { dialog, onClose, posts } = await renderAdd();
    expect((within(tracking(dialog)).getByLabelText('None') as HTMLInputElement).checked).toBe(true);
    await userEvent.type(within(dialog).getByLabelText('Stock'), '10');
    expect(within(dialog).queryByLabelText('Lot number')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts()[0]).toMatchObject({ tracking: 'none', stock: 10 });
    expect(posts()[0]).not.toHaveProperty('lot');
  });

  it('a lot-tracked product with stock asks its opening lot, checks it with the other fields, and sends it', async () => {
    const { dialog, onClose, posts } = await renderAdd();
    await userEvent.type(within(dialog).getByLabelText('Stock'), '10');
    await userEvent.click(byLot(dialog));
    const lot = within(dialog).getByRole('group', { name: 'Opening lot' });
    expect(within(lot).getByText('The 10 units in stock go into this lot.')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText('Price'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    expect(await within(dialog).findByText('Enter a price.')).toBeTruthy();
    expect(within(lot).getByText('Lot number is required.')).toBeTruthy();
    expect(within(lot).getByText('Enter the expiry date, or tick Does not expire.')).toBeTruthy();
    expect(within(lot).getByLabelText('Lot number').getAttribute('aria-invalid')).toBe('true');
    expect(posts()).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText('Price'), '4');
    await userEvent.type(within(lot).getByLabelText('Lot number'), 'ASP-2027-01');
    expect(within(lot).queryByText('Lot number is required.')).toBeNull();
    await userEvent.type(within(lot).getByLabelText('Expires on'), '2027-06-30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts()).toEqual([
      expect.objectContaining({
        tracking: 'lot',
        stock: 10,
        lot: { number: 'ASP-2027-01', expiresOn: '2027-06-30' },
      }),
    ]);
  });

  it('by keyboard: By lot is chosen with Space, and a lot that does not expire is sent with no expiry', async () => {
    const { dialog, onClose, posts } = await renderAdd();
    await userEvent.type(within(dialog).getByLabelText('Stock'), '1');
    byLot(dialog).focus();
    await userEvent.keyboard(' ');
    expect((byLot(dialog) as HTMLInputElement).checked).toBe(true);
    const lot = within(dialog).getByRole('group', { name: 'Opening lot' });
    expect(within(lot).getByText('The 1 unit in stock go into this lot.')).toBeTruthy();
    await userEvent.tab();
    expect(document.activeElement).toBe(within(lot).getByLabelText('Lot number'));
    await userEvent.keyboard('BATCH 9');
    await userEvent.tab();
    await userEvent.tab();
    expect(document.activeElement).toBe(within(lot).getByLabelText('Does not expire'));
    await userEvent.keyboard(' ');
    expect((within(lot).getByLabelText('Expires on') as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts()[0]).toMatchObject({ tracking: 'lot', lot: { number: 'BATCH 9', expiresOn: null } });
  });

  it('a lot-tracked product without stock asks no lot', async () => {
    const { dialog, onClose, posts } = await renderAdd();
    await userEvent.type(within(dialog).getByLabelText('Stock'), '0');
    await userEvent.click(byLot(dialog));
    expect(within(dialog).queryByRole('group', { name: 'Opening lot' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts()[0]).toMatchObject({ tracking: 'lot', stock: 0 });
    expect(posts()[0]).not.toHaveProperty('lot');
  });

  it('the server’s refusal of the lot is said beside its field, and a 409 sentence on the form', async () => {
    let answer: { status: number; body: unknown } = {
      status: 400,
      body: {
        success: false,
        error: 'Dates look like 2025-01-31.',
        details: [{ path: 'body.lot.expiresOn', message: 'Dates look like 2025-01-31.' }],
      },
    };
    const { dialog, onClose } = await renderAdd(() => answer);
    await userEvent.type(within(dialog).getByLabelText('Stock'), '5');
    await userEvent.click(byLot(dialog));
    const lot = within(dialog).getByRole('group', { name: 'Opening lot' });
    await userEvent.type(within(lot).getByLabelText('Lot number'), 'L1');
    await userEvent.type(within(lot).getByLabelText('Expires on'), '2027-01-31');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() =>
      expect(within(lot).getByLabelText('Expires on').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(within(lot).getByText('Dates look like 2025-01-31.')).toBeTruthy();

    answer = {
      status: 409,
      body: { success: false, error: 'Lot L1 expires on 2027-02-28, not 2027-01-31.' },
    };
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Lot L1 expires on 2027-02-28, not 2027-01-31.',
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('editing a lot-tracked product keeps its stock read-only, pointing to the Stock page, and sends no lot', async () => {
    const { dialog, onClose, puts: sent } = await renderEditOf(pills);
    const stock = within(dialog).getByLabelText('Stock') as HTMLInputElement;
    expect(stock.readOnly).toBe(true);
    expect(stock.value).toBe('30');
    expect(within(dialog).getByText('Stock changes on the Stock page, by lot.')).toBeTruthy();
    expect((byLot(dialog) as HTMLInputElement).checked).toBe(true);
    await userEvent.type(stock, '5');
    expect(stock.value).toBe('30');
    expect(within(dialog).queryByLabelText('Lot number')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent()[0]).toMatchObject({ tracking: 'lot', stock: 30, expectedStock: 30 });
    expect(sent()[0]).not.toHaveProperty('lot');
  });

  it('turning tracking off says every lot must be at 0, and shows the server’s 409', async () => {
    const { dialog, onClose } = await renderEditOf(pills, () => ({
      status: 409,
      body: {
        success: false,
        error: 'Tracking can be turned off only when every lot is at 0; 30 units are in lots.',
      },
    }));
    await userEvent.click(within(tracking(dialog)).getByLabelText('None'));
    expect(within(dialog).getByText('Tracking can be turned off once every lot is at 0.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Tracking can be turned off only when every lot is at 0; 30 units are in lots.',
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('turning tracking on over the stock there is asks the lot those units go into', async () => {
    const { dialog, onClose, puts: sent } = await renderEditOf(pen);
    expect((within(dialog).getByLabelText('Stock') as HTMLInputElement).readOnly).toBe(false);
    await userEvent.click(byLot(dialog));
    const lot = within(dialog).getByRole('group', { name: 'Lot for the stock there is' });
    expect(within(lot).getByText('The 47 units in stock go into this lot.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    expect(await within(lot).findByText('Lot number is required.')).toBeTruthy();
    expect(sent()).toEqual([]);
    await userEvent.type(within(lot).getByLabelText('Lot number'), 'OLD-STOCK');
    await userEvent.click(within(lot).getByLabelText('Does not expire'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent()[0]).toMatchObject({
      tracking: 'lot',
      stock: 47,
      expectedStock: 47,
      lot: { number: 'OLD-STOCK', expiresOn: null },
    });
  });
});
