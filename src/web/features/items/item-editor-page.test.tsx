import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../../shared/items';
import { item, variant } from '../../test/fixtures';
import { answerItem, answerItems, type Handler, refused, renderItems, tee, writes } from './items-test-data';

const matrix = () => screen.getByRole('table', { name: 'Variants' });
const rowNames = () =>
  within(matrix())
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent);

/** Types a value into an option's "New value" box and presses Enter. */
async function addValues(option: string, values: string[]) {
  const box = screen.getByLabelText(`New value for ${option}`);
  for (const value of values) await userEvent.type(box, `${value}{Enter}`);
}

async function fillNewItem() {
  await userEvent.type(await screen.findByLabelText('Name'), 'Tee');
  await userEvent.type(screen.getByLabelText('Brand'), 'Acme Wear');
  await userEvent.selectOptions(screen.getByLabelText('Category'), 'Clothes');
  await userEvent.selectOptions(screen.getByLabelText('Supplier'), 'Acme');
  await userEvent.click(screen.getByRole('button', { name: 'Add option' }));
  await userEvent.type(screen.getByLabelText('Option 1 name'), 'Size');
  await addValues('Size', ['S', 'M', 'L']);
  await userEvent.click(screen.getByRole('button', { name: 'Add option' }));
  await userEvent.type(screen.getByLabelText('Option 2 name'), 'Colour');
  await addValues('Colour', ['Red', 'Blue']);
}

const created: Handler = ({ body }) => answerItem(item('i9', (body as { name: string }).name));

describe('a new item (admin)', () => {
  it('makes a row per combination (3 sizes × 2 colours = 6), one left out, and saves it all in one POST', async () => {
    const { calls, router } = renderItems('/admin-dashboard/items/new', {
      'POST /api/items': created,
      'GET /api/items': ({ query }) => answerItems([], query),
    });
    await fillNewItem();
    expect(rowNames()).toEqual(['S / Red', 'S / Blue', 'M / Red', 'M / Blue', 'L / Red', 'L / Blue']);
    for (const name of ['S / Red', 'S / Blue', 'M / Red', 'M / Blue', 'L / Red'])
      await userEvent.type(screen.getByLabelText(`Price of ${name}`), '10');
    await userEvent.type(screen.getByLabelText('SKU of S / Red'), 'TEE-S-R');
    await userEvent.type(screen.getByLabelText('Stock of S / Red'), '4');
    await userEvent.type(screen.getByLabelText('Cost of M / Blue'), '3.5');
    await userEvent.click(screen.getByLabelText('Leave out L / Blue'));
    expect(screen.getByLabelText('Price of L / Blue')).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Create item' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/items'));
    expect(await screen.findByText('Item created.')).toBeTruthy();
    const sent = writes(calls);
    expect(sent.map((one) => one.call)).toEqual(['POST /api/items']);
    const body = sent[0]?.body as { variants: { optionValues: object }[] };
    expect(body).toMatchObject({
      name: 'Tee',
      brand: 'Acme Wear',
      category: 'c1',
      supplier: 's1',
      options: [
        { name: 'Size', values: ['S', 'M', 'L'] },
        { name: 'Colour', values: ['Red', 'Blue'] },
      ],
    });
    expect(body.variants).toHaveLength(5);
    expect(body.variants[0]).toEqual({
      optionValues: { Size: 'S', Colour: 'Red' },
      sku: 'TEE-S-R',
      price: 10,
      stock: 4,
    });
    expect(body.variants[3]).toEqual({ optionValues: { Size: 'M', Colour: 'Blue' }, price: 10, cost: 3.5 });
    expect(body.variants.map((one) => one.optionValues)).not.toContainEqual({ Size: 'L', Colour: 'Blue' });
  });

  it('adds a value with Enter (never saving the form), refuses one twice, and tabs in order', async () => {
    const { calls } = renderItems('/admin-dashboard/items/new', {});
    await screen.findByLabelText('Name');
    await userEvent.click(screen.getByRole('button', { name: 'Add option' }));
    const name = screen.getByLabelText('Option 1 name');
    await userEvent.type(name, 'Size{Enter}');
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove option Size' }));
    await userEvent.tab();
    const box = screen.getByLabelText('New value for Size');
    expect(document.activeElement).toBe(box);
    await userEvent.keyboard('S{Enter}M{Enter}s{Enter}');
    expect(screen.getByText('Size has s already.')).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Values of Size' }))
        .getAllByRole('textbox')
        .map((chip) => (chip as HTMLInputElement).value),
    ).toEqual(['S', 'M']);
    expect(document.activeElement).toBe(box);
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add value' }));
    expect(writes(calls)).toEqual([]);
    expect(rowNames()).toEqual(['S', 'M']);
  });

  it('renames a value in place and removes values and options; the matrix follows', async () => {
    renderItems('/admin-dashboard/items/new', {});
    await fillNewItem();
    await userEvent.type(screen.getByLabelText('Price of M / Red'), '9');
    const chip = screen.getByLabelText('Size value 2');
    await userEvent.clear(chip);
    await userEvent.type(chip, 'Medium');
    expect(rowNames()).toEqual([
      'S / Red',
      'S / Blue',
      'Medium / Red',
      'Medium / Blue',
      'L / Red',
      'L / Blue',
    ]);
    // The renamed value keeps its row's boxes.
    expect((screen.getByLabelText('Price of Medium / Red') as HTMLInputElement).value).toBe('9');
    await userEvent.click(screen.getByRole('button', { name: 'Remove L from Size' }));
    expect(rowNames()).toHaveLength(4);
    await userEvent.click(screen.getByRole('button', { name: 'Remove option Colour' }));
    expect(rowNames()).toEqual(['S', 'Medium']);
    expect(screen.getByRole('button', { name: 'Add option' })).toHaveProperty('disabled', false);
  });

  it('allows at most 3 options', async () => {
    renderItems('/admin-dashboard/items/new', {});
    await screen.findByLabelText('Name');
    const add = screen.getByRole('button', { name: 'Add option' });
    for (let i = 0; i < 3; i++) await userEvent.click(add);
    expect(add).toHaveProperty('disabled', true);
  });

  it('says what is missing next to its field and row, sending nothing', async () => {
    const { calls } = renderItems('/admin-dashboard/items/new', {});
    await screen.findByLabelText('Name');
    await userEvent.click(screen.getByRole('button', { name: 'Add option' }));
    await userEvent.type(screen.getByLabelText('Option 1 name'), 'Size');
    await addValues('Size', ['S']);
    await userEvent.type(screen.getByLabelText('Price of S'), '-1');
    await userEvent.click(screen.getByRole('button', { name: 'Create item' }));
    expect(await screen.findByText('Choose a category.')).toBeTruthy();
    expect(screen.getByText('Choose a supplier.')).toBeTruthy();
    expect(screen.getByLabelText('Price of S').getAttribute('aria-invalid')).toBe('true');
    await userEvent.clear(screen.getByLabelText('Price of S'));
    await userEvent.click(screen.getByRole('button', { name: 'Create item' }));
    expect(await screen.findByText('Enter a price.')).toBeTruthy();
    await userEvent.click(screen.getByLabelText('Leave out S'));
    await userEvent.click(screen.getByRole('button', { name: 'Create item' }));
    expect(
      await screen.findByText('Keep at least one combination: an item is sold as its variants.'),
    ).toBeTruthy();
    expect(writes(calls)).toEqual([]);
  });

  it("shows the server's sentence when the save is refused (VARIANT_EXISTS), keeping what was typed", async () => {
    renderItems('/admin-dashboard/items/new', {
      'POST /api/items': () => refused('VARIANT_EXISTS', { variant: 'Tee — S / Red' }),
    });
    await fillNewItem();
    for (const name of rowNames()) await userEvent.type(screen.getByLabelText(`Price of ${name}`), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Create item' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Tee — S / Red already exists.');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Tee');
  });
});

describe("an item's editor (admin)", () => {
  const editing = (one: Item, handlers: Record<string, Handler> = {}) =>
    renderItems('/admin-dashboard/items/i1', {
      'GET /api/items/i1': () => answerItem(one),
      'GET /api/items': ({ query }) => answerItems([one], query),
      ...handlers,
    });

  it('says it is loading, then shows the made variants with their stock and offers Add variant for the rest', async () => {
    editing(tee());
    expect(await screen.findByText('Loading...')).toBeTruthy();
    expect(await screen.findByDisplayValue('Tee')).toBeTruthy();
    expect((screen.getByLabelText('Brand') as HTMLInputElement).value).toBe('Acme Wear');
    const rows = within(matrix()).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'S / RedTEE-S-R—$10.00—3Store defaultMade',
      'S / BlueNot made.Add variant',
      'M / RedNot made.Add variant',
      'M / Blue——$12.00—7Store defaultMade',
      'L / RedNot made.Add variant',
      'L / BlueNot made.Add variant',
    ]);
    // Its options stay (it has variants); a value a variant has cannot be removed here.
    expect(screen.getByRole('button', { name: 'Add option' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Remove option Size' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Remove S from Size' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Remove L from Size' })).toHaveProperty('disabled', false);
  });

  it('saves with PUT, then one POST per added variant; a renamed value keeps its variant', async () => {
    const { calls, router } = editing(tee(), {
      'PUT /api/items/i1': () => answerItem(tee()),
      'POST /api/items/i1/variants': () => answerItem(tee(), 201),
    });
    await screen.findByDisplayValue('Tee');
    await addValues('Size', ['XL']);
    expect(rowNames()).toHaveLength(8);
    const chip = screen.getByLabelText('Size value 2');
    await userEvent.clear(chip);
    await userEvent.type(chip, 'Medium');
    expect(within(matrix()).getAllByRole('row')[4]?.textContent).toContain('Medium / Blue——$12.00');
    await userEvent.click(screen.getByRole('button', { name: 'Add variant L / Red' }));
    await userEvent.type(screen.getByLabelText('Price of L / Red'), '11');
    await userEvent.type(screen.getByLabelText('Stock of L / Red'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Add variant XL / Blue' }));
    await userEvent.type(screen.getByLabelText('Price of XL / Blue'), '13');
    await userEvent.type(screen.getByLabelText('Barcode of XL / Blue'), '4006{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Save item' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/items'));
    expect(writes(calls)).toEqual([
      {
        call: 'PUT /api/items/i1',
        body: {
          name: 'Tee',
          description: '',
          category: 'c1',
          supplier: 's1',
          brand: 'Acme Wear',
          options: [
            { name: 'Size', values: ['S', 'Medium', 'L', 'XL'] },
            { name: 'Colour', values: ['Red', 'Blue'] },
          ],
        },
      },
      {
        call: 'POST /api/items/i1/variants',
        body: { optionValues: { Size: 'L', Colour: 'Red' }, price: 11, stock: 2 },
      },
      {
        call: 'POST /api/items/i1/variants',
        body: { optionValues: { Size: 'XL', Colour: 'Blue' }, barcode: '4006', price: 13 },
      },
    ]);
  });

  it.each([
    [
      'OPTION_VALUE_IN_USE',
      'PUT',
      { option: 'Size', value: 'S' },
      'Size S is in use by a variant: remove that variant first.',
    ],
    [
      'ITEM_OPTIONS_FIXED',
      'PUT',
      {},
      'This item has variants, so its options stay: change their values instead.',
    ],
    ['VARIANT_EXISTS', 'POST', { variant: 'Tee — L / Red' }, 'Tee — L / Red already exists.'],
  ] as const)(
    'a save refused with %s shows the sentence (from the %s)',
    async (code, method, facts, sentence) => {
      const { calls } = editing(tee(), {
        'PUT /api/items/i1': () => (method === 'PUT' ? refused(code, facts) : answerItem(tee())),
        'POST /api/items/i1/variants': () => refused(code, facts),
      });
      await screen.findByDisplayValue('Tee');
      await userEvent.click(screen.getByRole('button', { name: 'Add variant L / Red' }));
      await userEvent.type(screen.getByLabelText('Price of L / Red'), '11');
      await userEvent.click(screen.getByRole('button', { name: 'Save item' }));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe(sentence);
      // Said where it belongs: beside the options, or beside the variants.
      const place =
        method === 'PUT'
          ? screen.getByRole('group', { name: 'Options' })
          : matrix().parentElement?.parentElement;
      expect(place?.contains(alert)).toBe(true);
      expect(writes(calls).map((one) => one.call)).toEqual(
        method === 'PUT' ? ['PUT /api/items/i1'] : ['PUT /api/items/i1', 'POST /api/items/i1/variants'],
      );
      expect(screen.getByRole('button', { name: 'Save item' })).toHaveProperty('disabled', false);
    },
  );

  it('says the item does not exist (no Try again) on a 404', async () => {
    renderItems('/admin-dashboard/items/i1', {
      'GET /api/items/i1': () => ({ status: 404, body: { success: false, error: 'Item not found' } }),
    });
    expect(await screen.findByText('This item does not exist.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('shows why the item could not be loaded, and tries again on request', async () => {
    let failures = 1;
    renderItems('/admin-dashboard/items/i1', {
      'GET /api/items/i1': () =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : answerItem(item('i1', 'Mug', { variants: [variant('v9', { _id: 'i1', name: 'Mug' }, {})] })),
    });
    expect(await screen.findByText('The item could not be loaded: An internal error occurred.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByDisplayValue('Mug')).toBeTruthy();
    expect(rowNames()).toEqual(['The item itself']);
  });
});
