import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { csvRow } from '../../../shared/csv';
import {
  CSV_MIME,
  guessMapping,
  type Import,
  ImportMappingResponse,
  XLSX_MIME,
} from '../../../shared/imports';
import { variantName } from '../../../shared/items';
import { LocationResponse } from '../../../shared/locations';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { importCalls } from '../../test/import-calls';
import {
  LOTION_12OZ_BARCODE,
  LOTION_12OZ_SKU,
  LOTION_NAME,
  SHOPIFY_COUNTS,
  SHOPIFY_HEADERS,
  SQUARE_HEADERS,
  SQUARE_ROWS,
  shopifyCatalogue,
  shopifyRows,
  squareCatalogueCsv,
  squareCatalogueXlsx,
  squareRows,
} from '../../test/preset-files';
import { shopifyPreset } from './presets/shopify';

/**
 * Catalogues brought from Shopify and Square (DESIGN §22) through the API: the upload guesses the
 * layout and its mapping, the check reads every row with the preset (image rows skipped, nothing
 * an error), the apply makes items and their variants, stock at each named location and the
 * files' tax rates; the same file again changes nothing, and the products export imports back
 * unchanged.
 */
describe.each(targets)('importing Shopify and Square exports on $name', (target) => {
  let t: TestApp;
  const places: Record<string, string> = {};
  beforeAll(async () => {
    t = await startApp(target);
    for (const name of ['Main Street', 'Harbour Road']) {
      const res = await t.call('POST', '/api/locations', { token: admin(), body: { name, kind: 'store' } });
      places[name] = parsed(res, LocationResponse).location._id;
    }
  });
  afterAll(() => t?.close());

  const admin = () => t.as.admin.token;
  const { upload, check, applied } = importCalls(() => t);
  /** Upload, check with the suggested mapping (creating categories and suppliers) and apply. */
  const importFile = async (body: string | Buffer, type: string, fileName: string, options: object = {}) => {
    const uploaded = await upload(body, type, fileName);
    const checked = await check(uploaded._id, {
      mapping: uploaded.mapping,
      matchBy: 'sku',
      createMissing: { categories: true, suppliers: true },
      stock: 'set',
      ...options,
    });
    const done = await applied(uploaded._id);
    expect(done.status, done.failure ?? '').toBe('applied');
    return { uploaded, checked, done };
  };
  /** Each file imported once per database, whichever test asks first. */
  const once = <T>(make: () => Promise<T>) => {
    let made: Promise<T> | undefined;
    return () => {
      made ??= make();
      return made;
    };
  };
  const shopifyImported = once(() => importFile(shopifyCatalogue(), CSV_MIME, 'products_export_1.csv'));
  const squareImported = once(() => importFile(squareCatalogueCsv(), CSV_MIME, 'square-items.csv'));

  type Stored = {
    sku: string;
    name: string;
    item: string | null;
    option_values: Record<string, string> | null;
    brand: string | null;
    active: boolean;
    description: string;
    category: string;
    supplier: string;
    tax: string | null;
    tax_rate: string | null;
    barcode: string | null;
    price: string;
    cost: string | null;
  };
  const stored = async (skuPrefix: string) =>
    new Map(
      (
        await t.sql<Stored>(
          `select p.sku, p.name, i.name as item, p.option_values, p.brand, p.active, p.description,
                  c.name as category, s.name as supplier, r.name as tax, r.rate::text as tax_rate,
                  p.barcode, p.price::text as price, p.cost::text as cost
             from products p join categories c on c.id = p.category_id join suppliers s on s.id = p.supplier_id
             left join items i on i.id = p.item_id left join tax_rates r on r.id = p.tax_rate_id
            where p.sku like $1`,
          [`${skuPrefix}%`],
        )
      ).map((row) => [row.sku, row]),
    );

  it('a Shopify export: guessed with its mapping, 126 image rows skipped, every variant under its item', async () => {
    const { uploaded, checked } = await shopifyImported();
    expect(uploaded.format).toBe('shopify');
    expect(uploaded.columns).toEqual([...SHOPIFY_HEADERS]);
    expect(uploaded.mapping).toEqual(shopifyPreset.mapping(SHOPIFY_HEADERS, []));
    expect(checked.summary).toMatchObject({
      create: SHOPIFY_COUNTS.variants,
      update: 0,
      unchanged: 0,
      errors: 0,
      skipped: SHOPIFY_COUNTS.images,
    });
    const products = await stored('HP-');
    expect(products.size).toBe(SHOPIFY_COUNTS.variants);
    // Each variant row as the file has it, its product's cells from its handle's first row.
    const column = (name: string) => SHOPIFY_HEADERS.indexOf(name as (typeof SHOPIFY_HEADERS)[number]);
    let first: string[] = [];
    for (const row of shopifyRows()) {
      const sku = row[column('Variant SKU')] as string;
      if (sku === '') continue;
      if (row[column('Title')] !== '') first = row;
      const title = first[column('Title')] as string;
      const names = [1, 2, 3].map((n) => first[column(`Option${n} Name`)] as string);
      const values = [1, 2, 3].map((n) => row[column(`Option${n} Value`)] as string);
      const single = values[0] === 'Default Title';
      const product = products.get(sku);
      expect(product, sku).toBeDefined();
      const options = names.flatMap((name, i) =>
        name === '' || single ? [] : [{ name, value: values[i] as string }],
      );
      expect(product).toMatchObject({
        name: variantName(
          title,
          options,
          Object.fromEntries(options.map((option) => [option.name, option.value])),
        ),
        item: single ? null : title,
        option_values: single
          ? null
          : Object.fromEntries(options.map((option) => [option.name, option.value])),
        brand: first[column('Vendor')],
        category: first[column('Type')],
        supplier: 'No supplier',
        active: first[column('Status')] === 'active',
        tax: row[column('Variant Taxable')] === 'FALSE' ? 'No tax' : null,
        barcode: row[column('Variant Barcode')] || null,
      });
      expect(Number(product?.price)).toBe(Number(row[column('Variant Price')]));
      expect(product?.description).toMatch(/^Our .+ & nothing else: .+ It's "built to last" <10 yr>$/);
    }
    // The twelve tees: "Title — S / Blue", one item of four sizes and three colours.
    const tees = [...products.values()].filter((product) => product.sku.startsWith('HP-005-'));
    expect(tees).toHaveLength(12);
    expect(tees.map((product) => product.name)).toContain(`${tees[0]?.item} — S / Blue`);
    const [item] = await t.sql<{ options: { name: string; values: string[] }[] }>(
      'select options from items where name = $1',
      [tees[0]?.item],
    );
    expect(item?.options.map((option) => option.name)).toEqual(['Size', 'Color']);
    expect(item?.options.map((option) => option.values.length)).toEqual([4, 3]);
    expect(
      (await t.sql<{ rate: string }>(`select rate::text as rate from tax_rates where name = 'No tax'`)).map(
        (r) => Number(r.rate),
      ),
    ).toEqual([0]);
  });

  it('the same Shopify file imported again changes nothing', async () => {
    await shopifyImported();
    const again = await upload(shopifyCatalogue(), CSV_MIME, 'products_export_1.csv');
    expect(again.format).toBe('shopify');
    const checked = await check(again._id, {
      mapping: again.mapping,
      matchBy: 'sku',
      createMissing: { categories: true, suppliers: true },
      stock: 'set',
    });
    expect(checked.summary).toMatchObject({
      create: 0,
      update: 0,
      unchanged: SHOPIFY_COUNTS.variants,
      errors: 0,
      skipped: SHOPIFY_COUNTS.images,
    });
  });

  it('GET /api/imports/:id/mapping answers the mapping each layout suggests; the check then reads as asked', async () => {
    const uploaded = await upload(squareCatalogueCsv({ tag: 'map' }), CSV_MIME, 'square-map.csv');
    expect(uploaded.format).toBe('square');
    const suggest = (format: string, id = uploaded._id) =>
      t.call('GET', `/api/imports/${id}/mapping?format=${encodeURIComponent(format)}`, { token: admin() });
    const square = parsed(await suggest('square'), ImportMappingResponse);
    expect(square).toEqual({ success: true, format: 'square', mapping: uploaded.mapping });
    expect(square.mapping[`stock@${places['Harbour Road']}`]).toBe('Current Quantity Harbour Road');
    const generic = parsed(await suggest('generic'), ImportMappingResponse);
    expect(generic.mapping).toEqual(guessMapping(SQUARE_HEADERS));
    expect(Object.keys(generic.mapping).some((key) => key.startsWith('stock@'))).toBe(false);
    // Read as generic, the Square rows are the file's own: variations are products of their own.
    const checked = await check(uploaded._id, {
      mapping: generic.mapping,
      format: 'generic',
      matchBy: 'sku',
      createMissing: { categories: true, suppliers: true },
    });
    expect(checked.format).toBe('generic');
    for (const bad of ['excel', '', 'x'.repeat(10_000), 'square&format=shopify']) {
      const res = await suggest(bad);
      expect(res.status, bad.slice(0, 20)).toBe(400);
      expect(parsed(res, ApiError).error).toBe('format: format must be one of generic, shopify, square.');
    }
    const other = await t.call('GET', `/api/imports/${uploaded._id}/mapping?format=square&format=generic`, {
      token: admin(),
    });
    expect(other.status).toBe(400);
    expect((await suggest('square', '00000000-0000-0000-0000-000000000000')).status).toBe(404);
    expect((await suggest('square', 'nope')).status).toBe(404);
    const clerk = await t.call('GET', `/api/imports/${uploaded._id}/mapping?format=square`, {
      token: t.as.salesRep.token,
    });
    expect(clerk.status).toBe(403);
  });

  it('a Square export as CSV: stock at both locations, the tax rates made, the lotion in three bottles', async () => {
    const { uploaded, checked } = await squareImported();
    expect(uploaded.format).toBe('square');
    expect(uploaded.mapping).toMatchObject({
      item: 'Item Name',
      [`stock@${places['Main Street']}`]: 'Current Quantity Main Street',
      [`stock@${places['Harbour Road']}`]: 'Current Quantity Harbour Road',
      taxRate: 'Tax - Sales Tax (8.875%)',
    });
    expect(checked.summary).toMatchObject({ create: SQUARE_ROWS, update: 0, errors: 0, skipped: 0 });
    // The one oversold row carries its warning.
    const warned = await t.sql<{ warnings: unknown }>(
      `select warnings from import_rows where import_id = $1 and jsonb_array_length(coalesce(warnings, '[]'::jsonb)) > 0`,
      [uploaded._id],
    );
    expect(warned).toHaveLength(1);
    const page = await t.call('GET', `/api/imports/${uploaded._id}/rows?page=1&pageSize=20`, {
      token: admin(),
    });
    expect(page.status, page.text).toBe(200);
    const oversold = (page.body as { rows: { row: number; result: string; warnings?: unknown }[] }).rows.find(
      (row) => row.row === 12,
    );
    expect(oversold).toMatchObject({
      result: 'create',
      warnings: [
        { column: 'Current Quantity Harbour Road', message: expect.stringContaining('imported as 0') },
      ],
    });
    const products = await stored('SQ-');
    expect(products.size).toBe(SQUARE_ROWS);
    const lotion = products.get(LOTION_12OZ_SKU);
    expect(lotion).toMatchObject({
      name: `${LOTION_NAME} — 12 oz`,
      item: LOTION_NAME,
      option_values: { Size: '12 oz' },
      barcode: LOTION_12OZ_BARCODE,
      category: 'Skin care',
      supplier: 'Healthwise Supply',
      active: true,
    });
    expect(Number(lotion?.tax_rate)).toBe(8.875);
    const rates = await t.sql<{ rate: string }>('select rate::text as rate from tax_rates');
    expect(rates.map((rate) => Number(rate.rate))).toEqual(expect.arrayContaining([8.875, 4, 0]));
    // Every row's stock at Main Street and Harbour Road as the file says (the oversold one 0).
    const column = (name: string) => SQUARE_HEADERS.indexOf(name as (typeof SQUARE_HEADERS)[number]);
    const stockAt = new Map(
      (
        await t.sql<{ sku: string; location_id: string; stock: number }>(
          `select p.sku, s.location_id, s.stock from location_stock s join products p on p.id = s.product_id
            where p.sku like 'SQ-%'`,
        )
      ).map((row) => [`${row.sku}@${row.location_id}`, row.stock]),
    );
    for (const row of squareRows()) {
      const sku = row[column('SKU')] as string;
      const product = products.get(sku);
      for (const place of ['Main Street', 'Harbour Road'])
        expect(stockAt.get(`${sku}@${places[place]}`) ?? 0, `${sku} at ${place}`).toBe(
          Math.max(0, Number(row[column(`Current Quantity ${place}`)])),
        );
      const [sales, reduced] = [
        row[column('Tax - Sales Tax (8.875%)')],
        row[column('Tax - Reduced Rate (4%)')],
      ];
      expect(Number(product?.tax_rate), sku).toBe(sales === 'Y' ? 8.875 : reduced === 'Y' ? 4 : 0);
      expect(product?.active, sku).toBe(row[column('Archived')] === 'N');
      expect(product?.supplier, sku).toBe(row[column('Default Vendor Name')] || 'No supplier');
    }
  });

  it('the same Square catalogue as a workbook reads as the CSV did: every row unchanged', async () => {
    await squareImported();
    const workbook = await upload(squareCatalogueXlsx(), XLSX_MIME, 'square-items.xlsx');
    expect(workbook.format).toBe('square');
    const checked = await check(workbook._id, {
      mapping: workbook.mapping,
      matchBy: 'sku',
      createMissing: { categories: true, suppliers: true },
      stock: 'set',
    });
    expect(checked.summary).toMatchObject({ create: 0, update: 0, unchanged: SQUARE_ROWS, errors: 0 });
  });

  it('the products export of both imports back unchanged, the whole stock and one location’s', async () => {
    await shopifyImported();
    await squareImported();
    const count = Number((await t.sql<{ n: string }>('select count(*)::text as n from products'))[0]?.n);
    const roundTrip = async (query: string, options: object) => {
      const res = await t.call('GET', `/api/products?format=csv${query}`, { token: admin() });
      expect(res.status, res.text.slice(0, 500)).toBe(200);
      const back: Import = await upload(res.text, CSV_MIME, 'products.csv');
      expect(back.format).toBe('generic');
      return (await check(back._id, { mapping: back.mapping, matchBy: 'sku', ...options })).summary;
    };
    expect(await roundTrip('', { stock: 'ignore' })).toMatchObject({
      create: 0,
      update: 0,
      errors: 0,
      unchanged: count,
    });
    const harbour = places['Harbour Road'] as string;
    expect(await roundTrip(`&location=${harbour}`, { stock: 'set', location: harbour })).toMatchObject({
      create: 0,
      update: 0,
      errors: 0,
      unchanged: count,
    });
  });

  it('goods sold by weight stay an error that says so; an oversold Shopify variant imports as 0 with its warning', async () => {
    const row = (values: Record<string, string>) => SHOPIFY_HEADERS.map((header) => values[header] ?? '');
    const first = {
      Handle: 'loose-tea',
      Title: 'Loose Tea by Weight',
      Vendor: 'Pine & Tide',
      Type: 'Tea',
      Status: 'active',
      'Option1 Name': 'Blend',
      'Option1 Value': 'Green',
      'Variant SKU': 'LT-GREEN',
      'Variant Price': '4.00',
      'Variant Inventory Qty': '2.5',
    };
    const text = [
      SHOPIFY_HEADERS,
      row(first),
      row({
        Handle: 'loose-tea',
        'Option1 Value': 'Black',
        'Variant SKU': 'LT-BLACK',
        'Variant Price': '4.00',
        'Variant Inventory Qty': '-4',
      }),
    ]
      .map((cells) => csvRow(cells))
      .join('');
    const uploaded = await upload(text, CSV_MIME, 'loose-tea.csv');
    const checked = await check(uploaded._id, {
      mapping: uploaded.mapping,
      matchBy: 'sku',
      createMissing: { categories: true, suppliers: true },
    });
    expect(checked.summary).toMatchObject({ create: 1, errors: 1 });
    const rows = (
      (await t.call('GET', `/api/imports/${uploaded._id}/rows`, { token: admin() })).body as {
        rows: {
          row: number;
          result: string;
          errors: { column: string; message: string }[];
          warnings?: unknown;
        }[];
      }
    ).rows;
    expect(rows.find((r) => r.row === 2)).toMatchObject({
      result: 'error',
      errors: [{ column: 'Variant Inventory Qty', message: expect.stringMatching(/whole number/) }],
    });
    expect(rows.find((r) => r.row === 3)).toMatchObject({
      result: 'create',
      warnings: [{ column: 'Variant Inventory Qty', message: expect.stringContaining('-4') }],
    });
  });
});
