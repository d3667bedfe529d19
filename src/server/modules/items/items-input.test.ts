import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Item, ItemResponse } from '../../../shared/items';
import { tag } from '../../test/fixtures';
import { type Answer, parsed, startApp, type TestApp, targets } from '../../test/harness';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/**
 * What is not a value, in every body and query of the items' calls (DESIGN §3, §22): each is a
 * 4xx with one sentence, never a 500, and writes nothing.
 */
describe.each(targets)('items refuse what is not a value on $name', (target) => {
  let t: TestApp;
  let category: string;
  let supplier: string;
  let item: Item;
  beforeAll(async () => {
    t = await startApp(target);
    ({ categoryId: category, supplierId: supplier } = await t.product());
    const made = await t.call('POST', '/api/items', { token: t.as.admin.token, body: good() });
    item = parsed(made, ItemResponse).item;
  });
  afterAll(() => t?.close());

  const options = [
    { name: 'Size', values: ['S', 'M'] },
    { name: 'Colour', values: ['Red', 'Blue'] },
  ];
  const good = (change: Record<string, unknown> = {}) => ({
    name: `Input tee ${tag()}`,
    category,
    supplier,
    options,
    variants: [{ optionValues: { Size: 'S', Colour: 'Red' }, price: 5 }],
    ...change,
  });
  const variant = (change: Record<string, unknown> = {}) => ({
    optionValues: { Size: 'M', Colour: 'Blue' },
    price: 5,
    ...change,
  });

  /** A refusal: the status wanted (400 unless said), one sentence, nothing else said. */
  const oneSentence = (answer: Answer, label: string, status = 400) => {
    expect(answer.status, `${label}: ${answer.text}`).toBe(status);
    const body = answer.body as { success: boolean; error: string };
    expect(body.success, label).toBe(false);
    expect(body.error, `${label}: ${answer.text}`).toMatch(/^[^\n]{3,300}$/);
    expect(body.error, label).not.toMatch(/sql|select|stack|undefined|NaN|\[object/i);
  };
  const call = (method: string, url: string, body?: unknown) =>
    t.call(method, url, { token: t.as.admin.token, body });
  const raw = (method: string, url: string, payload: string) =>
    t.call(method, url, {
      token: t.as.admin.token,
      body: payload,
      headers: { 'content-type': 'application/json' },
    });
  const stored = async () => ({
    items: await t.sql('select id, name, options, description, brand from items order by id'),
    products: await t.sql('select id, name, option_values, price::text, stock from products order by id'),
    movements: await t.sql('select count(*)::int as n from stock_movements'),
  });

  const manyValues = Array.from({ length: 101 }, (_, i) => `V${i}`);
  /** Bodies wrong in what an item and its edit share. */
  const badItemFields = (): [string, Record<string, unknown> | unknown[] | undefined][] => [
    ['no body', undefined],
    ['a list for the body', [good()]],
    ['no name', good({ name: undefined })],
    ['a blank name', good({ name: '  ' })],
    ['a number for the name', good({ name: 5 })],
    ['a list for the name', good({ name: ['Tee'] })],
    ['a NUL in the name', good({ name: 'Te\u0000e' })],
    ['a 10,000-character name', good({ name: 'x'.repeat(10_000) })],
    ['a 10,000-character description', good({ description: 'x'.repeat(10_000) })],
    ['a NUL in the description', good({ description: 'a\u0000b' })],
    ['a number for the brand', good({ brand: 7 })],
    ['no category', good({ category: undefined })],
    ['a number for the category', good({ category: 5 })],
    ['a list for the category', good({ category: [category] })],
    ['an unknown category', good({ category: UNKNOWN_ID })],
    ['a category that is no id', good({ category: 'shoes' })],
    ['an unknown supplier', good({ supplier: UNKNOWN_ID })],
    ['a 10,000-character supplier', good({ supplier: 'x'.repeat(10_000) })],
    ['no options', good({ options: undefined })],
    ['an object for options', good({ options: { Size: ['S'] } })],
    ['a text for an option', good({ options: ['Size'] })],
    [
      '4 options',
      good({
        options: ['A', 'B', 'C', 'D'].map((name) => ({ name, values: ['x'] })),
        variants: undefined,
      }),
    ],
    ['101 values', good({ options: [{ name: 'Size', values: manyValues }], variants: undefined })],
    ['no values', good({ options: [{ name: 'Size', values: [] }], variants: undefined })],
    ['a text for values', good({ options: [{ name: 'Size', values: 'S' }], variants: undefined })],
    ['a number among values', good({ options: [{ name: 'Size', values: [1] }], variants: undefined })],
    ['a blank value', good({ options: [{ name: 'Size', values: [' '] }], variants: undefined })],
    ['a NUL in a value', good({ options: [{ name: 'Size', values: ['S\u0000'] }], variants: undefined })],
    [
      'a 10,000-character value',
      good({ options: [{ name: 'S', values: ['x'.repeat(10_000)] }], variants: undefined }),
    ],
    [
      'values the same ignoring case',
      good({ options: [{ name: 'Size', values: ['s', 'S'] }], variants: undefined }),
    ],
    [
      'options the same ignoring case',
      good({
        options: [
          { name: 'Size', values: ['S'] },
          { name: 'SIZE', values: ['M'] },
        ],
        variants: undefined,
      }),
    ],
  ];
  const badItems = (): [string, unknown][] => [
    ...badItemFields(),
    ['an object for variants', good({ variants: { optionValues: {} } })],
    ['a variant without optionValues', good({ variants: [{ price: 5 }] })],
    ['a list for optionValues', good({ variants: [variant({ optionValues: ['S', 'Red'] })] })],
    ['a number for a value', good({ variants: [variant({ optionValues: { Size: 1, Colour: 'Red' } })] })],
    [
      'an unknown option',
      good({ variants: [variant({ optionValues: { Size: 'S', Colour: 'Red', Fit: 'x' } })] }),
    ],
    ['an unknown value', good({ variants: [variant({ optionValues: { Size: 'XL', Colour: 'Red' } })] })],
    ['an option missing', good({ variants: [variant({ optionValues: { Size: 'S' } })] })],
    [
      'an option twice',
      good({ variants: [variant({ optionValues: { Size: 'S', size: 'M', Colour: 'Red' } })] }),
    ],
    ['NaN for a price', good({ variants: [variant({ price: Number.NaN })] })],
    ['a negative price', good({ variants: [variant({ price: -1 })] })],
    ['a price of 1e12', good({ variants: [variant({ price: 1e12 })] })],
    ['a text for a price', good({ variants: [variant({ price: '5' })] })],
    ['a list for a price', good({ variants: [variant({ price: [5] })] })],
    ['a negative stock', good({ variants: [variant({ stock: -1 })] })],
    ['a fractional stock', good({ variants: [variant({ stock: 1.5 })] })],
    ['a stock of 1e10', good({ variants: [variant({ stock: 1e10 })] })],
    ['a negative cost', good({ variants: [variant({ cost: -1 })] })],
    ['a SKU with a space', good({ variants: [variant({ sku: 'A B' })] })],
    ['a 10,000-character barcode', good({ variants: [variant({ barcode: 'x'.repeat(10_000) })] })],
    ['an unknown tax rate', good({ variants: [variant({ taxRate: UNKNOWN_ID })] })],
    ['a tax rate that is no id', good({ variants: [variant({ taxRate: 'vat' })] })],
    ['1,001 variants', good({ variants: Array(1001).fill(variant()) })],
  ];
  it('POST /api/items refuses every body that is not an item, storing nothing', async () => {
    const before = await stored();
    for (const [label, body] of badItems()) oneSentence(await call('POST', '/api/items', body), label);
    oneSentence(await raw('POST', '/api/items', '{"name": NaN}'), 'NaN in JSON');
    oneSentence(await raw('POST', '/api/items', '{"name": "Tee", "options": ['), 'broken JSON');
    expect(await stored()).toEqual(before);
  });

  const edit = (change: Record<string, unknown> = {}) => {
    const { variants: _variants, ...rest } = good({ name: item.name, ...change });
    return rest;
  };
  const badEdits = (): [string, unknown][] =>
    badItemFields().map(([label, body]) => {
      if (body === undefined || Array.isArray(body)) return [label, body];
      const { variants: _variants, ...rest } = body;
      return [label, rest];
    });
  it('PUT /api/items/:id refuses every body that is not an item, changing nothing', async () => {
    const before = await stored();
    for (const [label, body] of badEdits())
      oneSentence(await call('PUT', `/api/items/${item._id}`, body), label);
    oneSentence(
      await call(
        'PUT',
        `/api/items/${item._id}`,
        edit({ options: [{ name: 'Size', values: manyValues }, options[1]] }),
      ),
      '101 values',
    );
    oneSentence(await raw('PUT', `/api/items/${item._id}`, '{"name": NaN}'), 'NaN in JSON');
    oneSentence(await call('PUT', `/api/items/${UNKNOWN_ID}`, edit()), 'an unknown item', 404);
    oneSentence(await call('PUT', '/api/items/x', edit()), 'an id that is none', 404);
    oneSentence(await call('PUT', `/api/items/${'x'.repeat(10_000)}`, edit()), 'a 10,000-character id', 404);
    expect(await stored()).toEqual(before);
    // The edit itself is fine.
    const fine = await call('PUT', `/api/items/${item._id}`, edit());
    expect(fine.status, fine.text).toBe(200);
  });

  const badVariants = (): [string, unknown][] => [
    ['no body', undefined],
    ['a list for the body', [variant()]],
    ['no optionValues', { price: 5 }],
    ['a text for optionValues', variant({ optionValues: 'M' })],
    ['an unknown option', variant({ optionValues: { Size: 'M', Colour: 'Blue', Fit: 'x' } })],
    ['an unknown value', variant({ optionValues: { Size: 'M', Colour: 'Green' } })],
    ['an option missing', variant({ optionValues: { Colour: 'Blue' } })],
    ['a NUL in a value', variant({ optionValues: { Size: 'M\u0000', Colour: 'Blue' } })],
    ['NaN for the price', variant({ price: Number.NaN })],
    ['-1 for the price', variant({ price: -1 })],
    ['1e12 for the price', variant({ price: 1e12 })],
    ['a list for the price', variant({ price: [5] })],
    ['-1 for the stock', variant({ stock: -1 })],
    ['1e10 for the stock', variant({ stock: 1e10 })],
    ['an unknown tax rate', variant({ taxRate: UNKNOWN_ID })],
    ['a list for the SKU', variant({ sku: ['A'] })],
  ];
  it('POST /api/items/:id/variants refuses every body that is not a variant, adding none', async () => {
    const before = await stored();
    for (const [label, body] of badVariants())
      oneSentence(await call('POST', `/api/items/${item._id}/variants`, body), label);
    // Past what the contract lets a variant weigh, the body is not even read (413, one sentence).
    for (const optionValues of [
      { Size: 'x'.repeat(10_000), Colour: 'Blue' },
      { ['x'.repeat(10_000)]: 'M', Colour: 'Blue' },
    ])
      oneSentence(
        await call('POST', `/api/items/${item._id}/variants`, variant({ optionValues })),
        '10,000 characters',
        413,
      );
    const long = await call(
      'POST',
      `/api/items/${item._id}/variants`,
      variant({ optionValues: { Size: 'x'.repeat(101), Colour: 'Blue' } }),
    );
    oneSentence(long, 'a 101-character value');
    oneSentence(await raw('POST', `/api/items/${item._id}/variants`, '{"price": NaN}'), 'NaN in JSON');
    oneSentence(await call('POST', `/api/items/${UNKNOWN_ID}/variants`, variant()), 'an unknown item', 404);
    oneSentence(await call('POST', '/api/items/-1/variants', variant()), 'an id that is none', 404);
    expect(await stored()).toEqual(before);
  });

  it('GET /api/items and /api/items/:id refuse what is not a query (400) and an unknown id (404)', async () => {
    for (const query of [
      'page=NaN',
      'page=-1',
      'page=0',
      'page=1.5',
      'page=1e9',
      'pageSize=1000',
      'pageSize=-1',
      'page=1&page=2',
      `search=${'x'.repeat(10_000)}`,
      'search=a%00b',
      `category=${'x'.repeat(10_000)}`,
      'category=a&category=b',
    ])
      oneSentence(await call('GET', `/api/items?${query}`), query);
    const unknown = await call('GET', `/api/items?category=${UNKNOWN_ID}`);
    expect(unknown.status).toBe(200);
    expect((unknown.body as { items: unknown[] }).items).toEqual([]);
    const notAnId = await call('GET', '/api/items?category=shoes');
    expect((notAnId.body as { items: unknown[] }).items).toEqual([]);
    oneSentence(await call('GET', `/api/items/${UNKNOWN_ID}`), 'an unknown item', 404);
    oneSentence(await call('GET', '/api/items/NaN'), 'NaN', 404);
    oneSentence(await call('GET', `/api/items/${'x'.repeat(10_000)}`), 'a 10,000-character id', 404);
  });
});
