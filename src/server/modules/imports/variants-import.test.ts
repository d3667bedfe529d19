import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { csvRow } from '../../../shared/csv';
import type { Import, ImportRow } from '../../../shared/imports';
import { ItemListResponse, variantName } from '../../../shared/items';
import { LocationResponse } from '../../../shared/locations';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { importCalls } from '../../test/import-calls';

/**
 * Variants in the generic layout (DESIGN §22, §17): a store's own spreadsheet with an Item column
 * and options beside its products' fields, stock at several locations, tax rates written as
 * `Name (r%)` or `No tax`, brand and active; each row judged once for the check and the apply.
 */
describe.each(targets)('importing variants in the generic layout on $name', (target) => {
  let t: TestApp;
  const calls = importCalls(() => t);
  let harbour: string;
  let depot: string;
  let counter = 0;
  const tag = () => `${Date.now().toString(36)}${++counter}`;
  beforeAll(async () => {
    t = await startApp(target);
    const place = async (name: string) =>
      parsed(
        await t.call('POST', '/api/locations', {
          token: t.as.admin.token,
          body: { name, kind: name === 'Depot' ? 'stockroom' : 'store' },
        }),
        LocationResponse,
      ).location._id;
    harbour = await place('Harbour');
    depot = await place('Depot');
  });
  afterAll(() => t?.close());

  const HEADER = [
    'Name',
    'SKU',
    'Category',
    'Supplier',
    'Price',
    'Stock',
    'Stock Harbour',
    'Stock Depot',
    'Tax rate',
    'Item',
    'Option 1',
    'Value 1',
    'Option 2',
    'Value 2',
    'Option 3',
    'Value 3',
    'Brand',
    'Active',
  ] as const;
  type Line = Partial<Record<(typeof HEADER)[number], string>>;
  const csv = (lines: Line[]) =>
    [HEADER, ...lines.map((line) => HEADER.map((header) => line[header] ?? ''))]
      .map((row) => csvRow(row))
      .join('');

  /** Upload and check with the guessed mapping, the two locations' columns mapped beside it. */
  const checked = async (lines: Line[]): Promise<Import> => {
    const uploaded = await calls.upload(csv(lines));
    return calls.check(uploaded._id, {
      mapping: {
        ...uploaded.mapping,
        [`stock@${harbour}`]: 'Stock Harbour',
        [`stock@${depot}`]: 'Stock Depot',
      },
      matchBy: 'sku',
      createMissing: { categories: true, suppliers: true },
      stock: 'set',
    });
  };
  const applied = async (lines: Line[]) => {
    const check = await checked(lines);
    const done = await calls.applied(check._id);
    expect(done.status, done.failure ?? '').toBe('applied');
    return { check, done, rows: await calls.rows(check._id) };
  };
  const itemNamed = async (name: string) => {
    const { items } = parsed(
      await t.call('GET', `/api/items?search=${encodeURIComponent(name)}`, { token: t.as.admin.token }),
      ItemListResponse,
    );
    const item = items.find((one) => one.name === name);
    if (!item) throw new Error(`No item is named ${name}.`);
    return item;
  };
  /** Each product's stock by location name, and whether each location's stock is the sum of its movements. */
  const stockOf = async (skus: string[]) => {
    const rows = await t.sql<{ sku: string; location: string; stock: number; moved: number }>(
      `select p.sku, l.name as location, ls.stock,
              (select coalesce(sum(m.quantity), 0)::int from stock_movements m
                where m.product_id = p.id and m.location_id = l.id) as moved
         from products p join location_stock ls on ls.product_id = p.id join locations l on l.id = ls.location_id
        where p.sku = any($1::text[])`,
      [skus],
    );
    for (const row of rows) expect(row.stock, `${row.sku} at ${row.location}`).toBe(row.moved);
    const bySku = new Map<string, Record<string, number>>();
    for (const row of rows) bySku.set(row.sku, { ...bySku.get(row.sku), [row.location]: row.stock });
    return bySku;
  };
  const errorsOf = (row: ImportRow | undefined) =>
    row?.errors.map((error) => `${error.column}: ${error.message}`);

  /** A T-shirt in three sizes and two colours (white L not made) and a shoe in three sizes. */
  const catalogue = (k: string, changes: { brand?: string; shoe42?: string } = {}): Line[] => {
    const tee = (size: string, colour: string, n: number): Line => ({
      SKU: `TEE-${k}-${n}`,
      Category: `Clothing ${k}`,
      Supplier: `Threadline ${k}`,
      Price: '14.00',
      Stock: String(n),
      'Stock Harbour': String(n * 2),
      'Stock Depot': '10',
      'Tax rate': `Standard ${k} (20%)`,
      Item: `Crew Tee ${k}`,
      'Option 1': 'Size',
      'Value 1': size,
      'Option 2': 'Colour',
      'Value 2': colour,
      Brand: changes.brand ?? 'Threadline',
    });
    const shoe = (size: string, n: number): Line => ({
      SKU: `SHOE-${k}-${size}`,
      Category: `Footwear ${k}`,
      Supplier: `Stride ${k}`,
      Price: '79.00',
      Stock: String(n),
      'Stock Harbour': '0',
      'Stock Depot': String(n + 1),
      'Tax rate': 'No tax',
      Item: `Trail Shoe ${k}`,
      'Option 1': 'Size',
      'Value 1': size,
      Active: size === '42' ? (changes.shoe42 ?? 'no') : 'yes',
    });
    return [
      tee('S', 'Black', 1),
      tee('S', 'White', 2),
      tee('M', 'Black', 3),
      tee('M', 'White', 4),
      tee('L', 'Black', 5),
      shoe('40', 3),
      shoe('41', 4),
      shoe('42', 5),
    ];
  };

  it('makes two items and their variants, with stock at three locations, the rates once, brand and active', async () => {
    const k = tag();
    const lines = catalogue(k);
    const { check, done, rows } = await applied(lines);
    expect(check.summary).toMatchObject({ create: 8, update: 0, unchanged: 0, errors: 0, skipped: 0 });
    expect(done.summary?.create).toBe(8);
    expect(rows.every((row) => row.result === 'create' && row.errors.length === 0)).toBe(true);

    const tee = await itemNamed(`Crew Tee ${k}`);
    expect(tee.options).toEqual([
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Colour', values: ['Black', 'White'] },
    ]);
    expect(tee.brand).toBe('Threadline');
    expect(tee.variants.map((variant) => [variant.sku, variant.name, variant.optionValues])).toEqual(
      [1, 2, 3, 4, 5].map((n) => {
        const values = {
          Size: ['S', 'S', 'M', 'M', 'L'][n - 1],
          Colour: n % 2 ? 'Black' : 'White',
        } as Record<string, string>;
        return [`TEE-${k}-${n}`, variantName(`Crew Tee ${k}`, tee.options, values), values];
      }),
    );
    expect(tee.variants.every((variant) => variant.brand === 'Threadline' && variant.active)).toBe(true);
    const shoe = await itemNamed(`Trail Shoe ${k}`);
    expect(shoe.options).toEqual([{ name: 'Size', values: ['40', '41', '42'] }]);
    expect(shoe.variants.map((variant) => [variant.name, variant.active, variant.brand])).toEqual([
      [`Trail Shoe ${k} — 40`, true, null],
      [`Trail Shoe ${k} — 41`, true, null],
      [`Trail Shoe ${k} — 42`, false, null],
    ]);

    // Each variant's stock at the main store, Harbour and the Depot, as the file says.
    const stock = await stockOf(lines.map((line) => line.SKU as string));
    for (const line of lines)
      expect(stock.get(line.SKU as string), line.SKU).toEqual({
        'Main store': Number(line.Stock),
        // A location's stock appears with its first movement: none at Harbour for the shoes.
        ...(Number(line['Stock Harbour']) > 0 ? { Harbour: Number(line['Stock Harbour']) } : {}),
        Depot: Number(line['Stock Depot']),
      });

    // `Standard (20%)` made once for the five tees, `No tax` the 0 % rate.
    const rates = await t.sql<{ name: string; rate: string; products: number }>(
      `select r.name, r.rate::text as rate, count(p.id)::int as products
         from tax_rates r left join products p on p.tax_rate_id = r.id and (p.sku like $1 or p.sku like $2)
        where r.name in ($3, 'No tax') group by r.id order by r.name`,
      [`TEE-${k}-%`, `SHOE-${k}-%`, `Standard ${k}`],
    );
    expect(rates.map((rate) => [rate.name, Number(rate.rate), rate.products])).toEqual([
      ['No tax', 0, 3],
      [`Standard ${k}`, 20, 5],
    ]);
  });

  it('a second file changing brand and active updates just those; the same file again changes nothing', async () => {
    const k = tag();
    await applied(catalogue(k));
    const { check, rows } = await applied(catalogue(k, { brand: 'Threadline Basics', shoe42: 'yes' }));
    expect(check.summary).toMatchObject({ create: 0, update: 6, unchanged: 2, errors: 0 });
    const changed = rows
      .filter((row) => row.result === 'update')
      .map((row) => (row.changes ?? []).map((change) => `${change.field}: ${change.from} → ${change.to}`));
    expect(changed).toEqual([
      ...Array.from({ length: 5 }, () => ['brand: Threadline → Threadline Basics']),
      ['active: false → true'],
    ]);
    const shoe = await itemNamed(`Trail Shoe ${k}`);
    expect(shoe.variants.every((variant) => variant.active)).toBe(true);
    const tee = await itemNamed(`Crew Tee ${k}`);
    expect(tee.variants.every((variant) => variant.brand === 'Threadline Basics')).toBe(true);

    const again = await checked(catalogue(k, { brand: 'Threadline Basics', shoe42: 'yes' }));
    expect(again.summary).toMatchObject({ create: 0, update: 0, unchanged: 8, errors: 0 });
  });

  it('a Name must be the variant’s own; the same variant twice in a file is refused on both lines', async () => {
    const k = tag();
    const base = catalogue(k)[0] as Line;
    const { check, rows } = await applied([
      { ...base, SKU: `TEE-${k}-a`, Name: `Crew Tee ${k} — S / Black` },
      { ...base, SKU: `TEE-${k}-b`, 'Value 1': 'M', Name: 'Big comfy tee' },
      { ...base, SKU: `TEE-${k}-c`, 'Value 1': 's' },
      { ...base, SKU: `TEE-${k}-d`, 'Value 1': 'L', Name: `Crew Tee ${k} — L / Black` },
    ]);
    // Which of two rows is the variant cannot be told: both are refused, each naming the other.
    expect(rows.map((row) => [row.result, errorsOf(row)])).toEqual([
      ['error', ['Item: The same variant is also on line 4.']],
      [
        'error',
        [
          `Name: This variant is named “Crew Tee ${k} — M / Black” by its item and values: leave Name empty or write that.`,
        ],
      ],
      ['error', ['Item: The same variant is also on line 2.']],
      ['create', []],
    ]);
    expect(check.summary).toMatchObject({ create: 1, errors: 3 });
    const tee = await itemNamed(`Crew Tee ${k}`);
    expect(tee.variants.map((variant) => [variant.sku, variant.name])).toEqual([
      [`TEE-${k}-d`, `Crew Tee ${k} — L / Black`],
    ]);
    expect(tee.options).toEqual([
      { name: 'Size', values: ['L'] },
      { name: 'Colour', values: ['Black'] },
    ]);
  });

  it('values that are not values are row errors that say why, and none of those rows is written', async () => {
    const k = tag();
    const base = catalogue(k)[0] as Line;
    // An item of three options first; then rows that cannot be its variants.
    await applied([{ ...base, SKU: `TEE-${k}-0`, 'Option 3': 'Fit', 'Value 3': 'Regular' }]);
    const bad: Line[] = [
      { ...base, SKU: `TEE-${k}-1`, 'Value 1': 'M', Active: 'maybe' },
      { ...base, SKU: `TEE-${k}-2`, 'Value 1': 'L', Brand: 'x'.repeat(10_000) },
      { ...base, SKU: `TEE-${k}-3`, 'Value 1': 'XL', 'Option 3': 'Material', 'Value 3': 'Wool' },
      { ...base, SKU: `TEE-${k}-4`, 'Value 1': 'XXL', 'Option 2': '' },
      { ...base, SKU: `TEE-${k}-6`, 'Value 1': 'XS', Item: '' },
      { ...base, SKU: `TEE-${k}-7`, 'Value 1': '3XL', Price: 'NaN' },
    ];
    const check = await checked(bad);
    const rows = await calls.rows(check._id);
    expect(check.summary).toMatchObject({ create: 0, errors: bad.length });
    const messages = rows.map((row) => errorsOf(row)?.join(' | '));
    expect(messages[0]).toBe(
      'Active: Active must be one of 0, 1, true, yes, y, active, false, no, n, archived, draft.',
    );
    expect(messages[1]).toMatch(/^Brand: .*at most/i);
    expect(messages[2]).toBe(
      `Option 3: An item has at most 3 options: “Material” would be a fourth of “Crew Tee ${k}”.`,
    );
    expect(messages[3]).toBe('Option 2: Value 2 needs the name of its option in Option 2.');
    expect(messages[4]).toBe(
      'Name: Name is required for a new product. | Item: Option values need the Item they are values of.',
    );
    expect(messages[5]).toMatch(/^Price: /);
    const done = await calls.applied(check._id);
    expect(done.summary?.create ?? 0).toBe(0);
    const written = await t.sql('select id from products where sku = any($1::text[])', [
      bad.map((line) => line.SKU),
    ]);
    expect(written).toEqual([]);
    // A NUL in any cell refuses the whole file, saying on which line.
    const nul = await t.call('POST', '/api/imports/products?fileName=nul.csv', {
      token: t.as.admin.token,
      body: csv([...bad.slice(0, 2), { ...base, SKU: `TEE-${k}-9`, 'Value 2': 'Bl\u0000ack' }]),
      headers: { 'content-type': 'text/csv' },
    });
    expect([nul.status, parsed(nul, ApiError).error]).toEqual([
      400,
      'Line 4 holds a NUL character, which a text file cannot hold.',
    ]);
    const tee = await itemNamed(`Crew Tee ${k}`);
    expect(tee.options.map((option) => [option.name, option.values])).toEqual([
      ['Size', ['S']],
      ['Colour', ['Black']],
      ['Fit', ['Regular']],
    ]);
  });
});
