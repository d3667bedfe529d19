import { describe, expect, it } from 'vitest';
import { csvRow } from '../../../../shared/csv';
import {
  SHOPIFY_COUNTS,
  SHOPIFY_HEADERS,
  SQUARE_HEADERS,
  shopifyCatalogue,
} from '../../../test/preset-files';
import { readSpreadsheet } from '../spreadsheet';
import { guessPreset } from './index';
import type { PresetRow } from './preset';
import { htmlText, shopifyPreset } from './shopify';

async function* bytes(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

/** A CSV read as the upload reads it, then each row through the Shopify reader in line order. */
async function readShopify(
  text: string,
): Promise<{ columns: string[]; rows: (PresetRow & { line: number })[] }> {
  const sheet = await readSpreadsheet('csv', bytes(text), 500);
  const reader = shopifyPreset.reader(sheet.columns);
  const rows: (PresetRow & { line: number })[] = [];
  for await (const batch of sheet.batches)
    for (const row of batch) rows.push({ line: row.line, ...reader.row(row.line, row.cells) });
  return { columns: sheet.columns, rows };
}

/** The cells a row became, by header. */
function byHeader(columns: readonly string[], row: PresetRow): Record<string, string> {
  if (row.cells === null) throw new Error('The row was skipped.');
  const cells = row.cells;
  return Object.fromEntries(columns.map((column, index) => [column, cells[index] as string]));
}

/** A small Shopify file: a header of SHOPIFY_HEADERS and rows given by header. */
function file(rows: Record<string, string>[], headers: readonly string[] = SHOPIFY_HEADERS): string {
  return [headers, ...rows.map((row) => headers.map((header) => row[header] ?? ''))]
    .map((row) => csvRow(row))
    .join('');
}

const TEE = {
  Handle: 'tee',
  Title: 'Harbour Tee',
  'Body (HTML)': '<p>Soft &amp; light</p>',
  Vendor: 'Pine & Tide',
  Type: 'Tees',
  Published: 'TRUE',
  'Option1 Name': 'Size',
  'Option1 Value': 'S',
  'Option2 Name': 'Color',
  'Option2 Value': 'Blue',
  'Variant SKU': 'TEE-S-B',
  'Variant Price': '20.00',
  'Variant Inventory Qty': '4',
  'Variant Taxable': 'TRUE',
  Status: 'active',
};

describe('the Shopify preset', () => {
  it('the fixture is a Shopify export: 48 columns, 313 rows', async () => {
    const { columns, rows } = await readShopify(shopifyCatalogue());
    expect(columns).toHaveLength(48);
    expect(rows).toHaveLength(SHOPIFY_COUNTS.rows);
  });

  it('matches the headers Handle, Title and Variant SKU or Variant Price, in any case, and nothing else', () => {
    expect(shopifyPreset.matches(SHOPIFY_HEADERS)).toBe(true);
    expect(guessPreset(SHOPIFY_HEADERS)).toBe('shopify');
    expect(shopifyPreset.matches(SHOPIFY_HEADERS.map((header) => header.toUpperCase()))).toBe(true);
    expect(shopifyPreset.matches(['handle', 'title', 'variant price'])).toBe(true);
    expect(shopifyPreset.matches(['Handle', 'Title', 'Variant_SKU'])).toBe(true);
    expect(shopifyPreset.matches(['Handle', 'Title'])).toBe(false);
    expect(shopifyPreset.matches(['Title', 'Variant SKU', 'Variant Price'])).toBe(false);
    expect(shopifyPreset.matches(SQUARE_HEADERS)).toBe(false);
    expect(shopifyPreset.matches(['Name', 'SKU', 'Price', 'Stock'])).toBe(false);
    expect(shopifyPreset.matches([])).toBe(false);
  });

  it('suggests the mapping of §22: Title the item, Vendor the brand, Type the category, Status active', () => {
    expect(shopifyPreset.mapping(SHOPIFY_HEADERS, [])).toEqual({
      item: 'Title',
      description: 'Body (HTML)',
      brand: 'Vendor',
      category: 'Type',
      option1: 'Option1 Name',
      value1: 'Option1 Value',
      option2: 'Option2 Name',
      value2: 'Option2 Value',
      option3: 'Option3 Name',
      value3: 'Option3 Value',
      sku: 'Variant SKU',
      barcode: 'Variant Barcode',
      price: 'Variant Price',
      stock: 'Variant Inventory Qty',
      cost: 'Cost per item',
      taxRate: 'Variant Taxable',
      active: 'Status',
    });
    // The headers as the file spells them; an export without Status is active by Published.
    const older = SHOPIFY_HEADERS.filter((header) => header !== 'Status').map((header) =>
      header.toLowerCase(),
    );
    const mapping = shopifyPreset.mapping(older, []);
    expect(mapping).toMatchObject({ item: 'title', sku: 'variant sku', active: 'published' });
    expect(Object.values(mapping).every((header) => older.includes(header))).toBe(true);
    expect(shopifyPreset.mapping(['Handle', 'Title', 'Variant Price'], [])).toEqual({
      item: 'Title',
      price: 'Variant Price',
    });
  });

  it('reads the fixture: 126 image rows skipped, 187 variant rows each standing on its own', async () => {
    const { columns, rows } = await readShopify(shopifyCatalogue());
    const skipped = rows.filter((row) => row.cells === null);
    const kept = rows.filter((row) => row.cells !== null);
    expect(skipped).toHaveLength(SHOPIFY_COUNTS.images);
    expect(kept).toHaveLength(SHOPIFY_COUNTS.variants);
    expect(new Set(kept.map((row) => byHeader(columns, row).Title)).size).toBe(SHOPIFY_COUNTS.products);
    for (const row of kept) {
      const cells = byHeader(columns, row);
      expect(row.cells).toHaveLength(48);
      expect(row.warnings).toEqual([]);
      for (const header of [
        'Title',
        'Body (HTML)',
        'Vendor',
        'Type',
        'Status',
        'Variant SKU',
        'Variant Price',
      ])
        expect(cells[header], `${header} of line ${row.line}`).not.toBe('');
      expect(['true', 'false']).toContain(cells.Status);
      expect(['', 'No tax']).toContain(cells['Variant Taxable']);
      expect(cells['Body (HTML)']).not.toMatch(/<\/?[a-z]+>|&amp;|&nbsp;/);
    }
    // The shop's catalogue has what §22 names: tax-exempt goods, drafts and archived products.
    const all = kept.map((row) => byHeader(columns, row));
    expect(all.filter((cells) => cells['Variant Taxable'] === 'No tax').length).toBeGreaterThan(0);
    expect(all.filter((cells) => cells.Status === 'false').length).toBeGreaterThan(0);
    expect(all.filter((cells) => cells['Option1 Name'] === '').length).toBeGreaterThan(0);
    expect(all.filter((cells) => cells['Option2 Value'] !== '').length).toBeGreaterThan(0);
    expect(all.filter((cells) => cells['Variant Barcode'] === '').length).toBeGreaterThan(0);
  });

  it('fills a variant row from its handle’s first row, keeps its own variant cells', async () => {
    const { columns, rows } = await readShopify(
      file([
        TEE,
        {
          Handle: 'tee',
          'Option1 Value': 'M',
          'Option2 Value': 'Black',
          'Variant SKU': 'TEE-M-K',
          'Variant Price': '22.00',
          'Variant Barcode': '5012345678900',
          'Cost per item': '9.50',
        },
        { Handle: 'tee', 'Image Src': 'https://cdn.example.com/tee-2.jpg', 'Image Position': '2' },
      ]),
    );
    expect(rows.map((row) => row.cells === null)).toEqual([false, false, true]);
    expect(byHeader(columns, rows[1] as PresetRow)).toMatchObject({
      Handle: 'tee',
      Title: 'Harbour Tee',
      'Body (HTML)': 'Soft & light',
      Vendor: 'Pine & Tide',
      Type: 'Tees',
      'Option1 Name': 'Size',
      'Option1 Value': 'M',
      'Option2 Name': 'Color',
      'Option2 Value': 'Black',
      'Variant SKU': 'TEE-M-K',
      'Variant Price': '22.00',
      'Variant Barcode': '5012345678900',
      'Cost per item': '9.50',
      'Variant Inventory Qty': '',
      'Variant Taxable': '',
      Status: 'true',
      Published: 'TRUE',
    });
  });

  it('a product of one variant (Title: Default Title) has no option cells: the item names it', async () => {
    const { columns, rows } = await readShopify(
      file([
        {
          ...TEE,
          'Option1 Name': 'Title',
          'Option1 Value': 'Default Title',
          'Option2 Name': '',
          'Option2 Value': '',
        },
      ]),
    );
    expect(byHeader(columns, rows[0] as PresetRow)).toMatchObject({
      Title: 'Harbour Tee',
      'Option1 Name': '',
      'Option1 Value': '',
    });
    const fixture = await readShopify(shopifyCatalogue());
    const mug = byHeader(fixture.columns, fixture.rows[0] as PresetRow);
    expect(mug).toMatchObject({ Title: 'Classic Stoneware Mug', 'Option1 Name': '', 'Option1 Value': '' });
  });

  it('Variant Taxable FALSE is No tax, TRUE blank (the store’s default or what is stored)', async () => {
    const { columns, rows } = await readShopify(
      file([
        { ...TEE, 'Variant Taxable': 'FALSE' },
        { Handle: 'tee', 'Option1 Value': 'M', 'Variant SKU': 'b', 'Variant Taxable': 'true' },
        { Handle: 'tee', 'Option1 Value': 'L', 'Variant SKU': 'c', 'Variant Taxable': 'false' },
        { Handle: 'tee', 'Option1 Value': 'XL', 'Variant SKU': 'd', 'Variant Taxable': '' },
      ]),
    );
    expect(rows.map((row) => byHeader(columns, row)['Variant Taxable'])).toEqual([
      'No tax',
      '',
      'No tax',
      '',
    ]);
  });

  it('Status active, draft, archived is active true, false, false; without Status, Published is', async () => {
    const statuses = ['active', 'draft', 'archived', 'Active', 'ARCHIVED'].map((status, i) => ({
      ...TEE,
      Handle: `p${i}`,
      Status: status,
    }));
    const read = await readShopify(file(statuses));
    expect(read.rows.map((row) => byHeader(read.columns, row).Status)).toEqual([
      'true',
      'false',
      'false',
      'true',
      'false',
    ]);
    const headers = SHOPIFY_HEADERS.filter((header) => header !== 'Status');
    const older = await readShopify(
      file(
        [
          { ...TEE, Published: 'TRUE' },
          { Handle: 'tee', 'Option1 Value': 'M', 'Variant SKU': 'b' },
          { ...TEE, Handle: 'other', Published: 'FALSE' },
        ],
        headers,
      ),
    );
    expect(older.rows.map((row) => byHeader(older.columns, row).Published)).toEqual([
      'true',
      'true',
      'false',
    ]);
  });

  it('a negative quantity imports as 0 with a warning on its column; a decimal one is left for the error', async () => {
    const { columns, rows } = await readShopify(
      file([
        { ...TEE, 'Variant Inventory Qty': '-3' },
        { Handle: 'tee', 'Option1 Value': 'M', 'Variant SKU': 'b', 'Variant Inventory Qty': '2.5' },
        { Handle: 'tee', 'Option1 Value': 'L', 'Variant SKU': 'c', 'Variant Inventory Qty': '-0' },
        { Handle: 'tee', 'Option1 Value': 'XL', 'Variant SKU': 'd', 'Variant Inventory Qty': '-1.5' },
      ]),
    );
    expect(rows.map((row) => byHeader(columns, row)['Variant Inventory Qty'])).toEqual([
      '0',
      '2.5',
      '-0',
      '-1.5',
    ]);
    expect(rows[0]?.warnings).toEqual([
      { column: 'Variant Inventory Qty', message: expect.stringContaining('-3') },
    ]);
    expect(rows.slice(1).flatMap((row) => row.warnings)).toEqual([]);
  });

  it('reads headers in another case and a file with an extra column, each cell in its own column', async () => {
    const headers = ['Notes', ...SHOPIFY_HEADERS.map((header) => header.toLowerCase())];
    const rows = [
      TEE,
      { Handle: 'tee', 'Option1 Value': 'M', 'Option2 Value': 'Blue', 'Variant SKU': 'b' },
    ].map((row, i) => ({
      Notes: `note ${i}`,
      ...Object.fromEntries(Object.entries(row).map(([header, value]) => [header.toLowerCase(), value])),
    }));
    const read = await readShopify(file(rows, headers));
    expect(shopifyPreset.matches(read.columns)).toBe(true);
    expect(read.rows.map((row) => row.cells?.length)).toEqual([49, 49]);
    expect(byHeader(read.columns, read.rows[1] as PresetRow)).toMatchObject({
      Notes: 'note 1',
      title: 'Harbour Tee',
      vendor: 'Pine & Tide',
      'option1 name': 'Size',
      'option1 value': 'M',
      status: 'true',
    });
  });

  it('a row of a new handle is a product even without variant cells, and a row without handle too', async () => {
    const { rows } = await readShopify(
      file([TEE, { Handle: 'bare', Title: 'Bare' }, { Title: 'No handle', 'Variant Price': '1' }]),
    );
    expect(rows.map((row) => row.cells === null)).toEqual([false, false, false]);
  });
});

describe('the Shopify reader on cells that are not values', () => {
  it('a short or long row, NUL, 10,000 characters and numbers-as-words: as many cells as headers, nothing thrown', () => {
    const reader = shopifyPreset.reader(SHOPIFY_HEADERS);
    const short = reader.row(2, ['tee', 'Tee']);
    expect(short.cells).toHaveLength(48);
    const long = reader.row(3, [...SHOPIFY_HEADERS.map(() => 'x'), 'extra', 'more']);
    expect(long.cells).toHaveLength(48);
    const body = SHOPIFY_HEADERS.indexOf('Body (HTML)');
    const quantity = SHOPIFY_HEADERS.indexOf('Variant Inventory Qty');
    const odd = SHOPIFY_HEADERS.map(() => '\u0000');
    odd[0] = 'odd';
    odd[body] = `<b>${'y'.repeat(10_000)}</b>`;
    odd[quantity] = '-1e9';
    const read = reader.row(4, odd);
    expect(read.cells?.[body]).toHaveLength(2000);
    // Not a whole number below zero: left for the generic reading to refuse.
    expect(read.cells?.[quantity]).toBe('-1e9');
    expect(
      reader.row(5, [
        'odd',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        'NaN',
      ]).cells?.[quantity],
    ).toBe('NaN');
    expect(shopifyPreset.reader([]).row(2, ['a']).cells).toEqual([]);
    expect(shopifyPreset.mapping([], [])).toEqual({});
  });
});

describe('htmlText', () => {
  it('drops tags, scripts and styles, decodes entities, collapses whitespace', () => {
    expect(
      htmlText('<p>A &amp; B</p>\n<ul><li>x&nbsp;y</li><li>&lt;3 &quot;q&quot; it&#39;s &#x41;</li></ul>'),
    ).toBe('A & B x y <3 "q" it\'s A');
    expect(htmlText('<style>p{color:red}</style><script>alert(1)</script><!-- c -->Hi')).toBe('Hi');
    expect(htmlText('&unknown; &#0; &#xD800; &#1114112;')).toBe('&unknown; &#0; &#xD800; &#1114112;');
    expect(htmlText('')).toBe('');
    expect(htmlText('<br/><br>')).toBe('');
  });

  it('keeps at most 2,000 characters, never half of one', () => {
    expect(htmlText(`<p>${'a'.repeat(10_000)}</p>`)).toHaveLength(2000);
    const emoji = htmlText(`${'a'.repeat(1999)}😀`);
    expect(emoji).toBe('a'.repeat(1999));
  });
});
