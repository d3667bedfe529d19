import { describe, expect, it } from 'vitest';
import { csvRow } from '../../../../shared/csv';
import {
  LOTION_12OZ_BARCODE,
  LOTION_12OZ_SKU,
  LOTION_NAME,
  SHOPIFY_HEADERS,
  SQUARE_HEADERS,
  SQUARE_ROWS,
  squareCatalogueCsv,
  squareCatalogueXlsx,
} from '../../../test/preset-files';
import { readSpreadsheet } from '../spreadsheet';
import { guessPreset } from './index';
import type { PresetRow, StoreLocation } from './preset';
import { squarePreset } from './square';

async function* bytes(data: string | Uint8Array): AsyncGenerator<Uint8Array> {
  const all = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  for (let at = 0; at < all.length; at += 4096) yield all.subarray(at, at + 4096);
}

type ReadRow = PresetRow & { line: number };

/** A file read as the upload reads it, then each row through the Square reader in line order. */
async function readSquare(data: string | Uint8Array): Promise<{ columns: string[]; rows: ReadRow[] }> {
  const sheet = await readSpreadsheet(typeof data === 'string' ? 'csv' : 'xlsx', bytes(data), 500);
  const reader = squarePreset.reader(sheet.columns);
  const rows: ReadRow[] = [];
  for await (const batch of sheet.batches)
    for (const row of batch) rows.push({ line: row.line, ...reader.row(row.line, row.cells) });
  return { columns: sheet.columns, rows };
}

function byHeader(columns: readonly string[], row: PresetRow | undefined): Record<string, string> {
  if (!row || row.cells === null) throw new Error('No cells.');
  const cells = row.cells;
  return Object.fromEntries(columns.map((column, index) => [column, cells[index] as string]));
}

function file(rows: Record<string, string>[], headers: readonly string[] = SQUARE_HEADERS): string {
  return [headers, ...rows.map((row) => headers.map((header) => row[header] ?? ''))]
    .map((row) => csvRow(row))
    .join('');
}

const LOCATIONS: StoreLocation[] = [
  { id: 'main', name: 'MAIN STREET' },
  { id: 'harbour', name: 'Harbour Road' },
  { id: 'store', name: 'Main store' },
];

const BALM = {
  'Item Name': 'Lip Balm',
  'Variation Name': 'Regular',
  SKU: 'LB-1',
  Description: 'Soft lips.',
  Categories: 'Skin care',
  GTIN: '5012345678900',
  Price: '3.50',
  Archived: 'N',
  'Default Unit Cost': '1.20',
  'Default Vendor Name': 'Bay Wholesale',
  'Current Quantity Main Street': '4',
  'Current Quantity Harbour Road': '2',
  'Stock Alert Count Main Street': '3',
  'Tax - Sales Tax (8.875%)': 'Y',
  'Tax - Reduced Rate (4%)': 'N',
};

describe('the Square preset', () => {
  it('the fixture is a Square export: 41 columns, 300 rows, as CSV and as a workbook', async () => {
    for (const data of [squareCatalogueCsv(), squareCatalogueXlsx()]) {
      const { columns, rows } = await readSquare(data);
      expect(columns).toEqual([...SQUARE_HEADERS]);
      expect(columns).toHaveLength(41);
      expect(rows).toHaveLength(SQUARE_ROWS);
    }
  });

  it('matches Item Name, Variation Name and Token or SKU, in any case, and nothing else', () => {
    expect(squarePreset.matches(SQUARE_HEADERS)).toBe(true);
    expect(guessPreset(SQUARE_HEADERS)).toBe('square');
    expect(squarePreset.matches(SQUARE_HEADERS.map((header) => header.toUpperCase()))).toBe(true);
    expect(squarePreset.matches(['item name', 'variation name', 'token'])).toBe(true);
    expect(squarePreset.matches(['Item Name', 'Variation Name', 'SKU'])).toBe(true);
    expect(squarePreset.matches(['Item Name', 'Variation Name', 'Price'])).toBe(false);
    expect(squarePreset.matches(['Item Name', 'SKU', 'Token'])).toBe(false);
    expect(squarePreset.matches(SHOPIFY_HEADERS)).toBe(false);
    expect(guessPreset(['Name', 'SKU', 'Price'])).toBe('generic');
  });

  it('suggests the mapping of §22: quantities by location name (any case), the first alert count, the first tax column', () => {
    expect(squarePreset.mapping(SQUARE_HEADERS, LOCATIONS)).toEqual({
      item: 'Item Name',
      sku: 'SKU',
      barcode: 'GTIN',
      description: 'Description',
      category: 'Categories',
      supplier: 'Default Vendor Name',
      price: 'Price',
      cost: 'Default Unit Cost',
      active: 'Archived',
      option1: 'Option Name 1',
      value1: 'Option Value 1',
      'stock@main': 'Current Quantity Main Street',
      'stock@harbour': 'Current Quantity Harbour Road',
      reorderPoint: 'Stock Alert Count Main Street',
      taxRate: 'Tax - Sales Tax (8.875%)',
    });
    // A location the store lacks is left unmapped; so is every quantity when it has none of them.
    const one = squarePreset.mapping(SQUARE_HEADERS, [{ id: 'h', name: ' harbour road ' }]);
    expect(one['stock@h']).toBe('Current Quantity Harbour Road');
    expect(Object.keys(one).filter((key) => key.startsWith('stock@'))).toEqual(['stock@h']);
    expect(Object.keys(squarePreset.mapping(SQUARE_HEADERS, [])).some((key) => key.startsWith('stock'))).toBe(
      false,
    );
  });

  it('reads the CSV and the workbook alike, every row kept, no cell left to a Y/N', async () => {
    const csv = await readSquare(squareCatalogueCsv());
    const xlsx = await readSquare(squareCatalogueXlsx());
    expect(xlsx.rows.map((row) => row.cells)).toEqual(csv.rows.map((row) => row.cells));
    expect(csv.rows.every((row) => row.cells?.length === 41)).toBe(true);
    const cells = csv.rows.map((row) => byHeader(csv.columns, row));
    for (const row of cells) {
      expect(['true', 'false']).toContain(row.Archived);
      expect(['Sales Tax (8.875%)', 'Reduced Rate (4%)', 'No tax']).toContain(
        row['Tax - Sales Tax (8.875%)'],
      );
      expect(row.Categories).not.toContain(',');
      expect(row.Description).not.toBe('');
    }
    expect(cells.filter((row) => row.Archived === 'false').length).toBeGreaterThan(0);
    expect(cells.filter((row) => row['Default Vendor Name'] === '').length).toBeGreaterThan(0);
    expect(new Set(cells.map((row) => row['Tax - Sales Tax (8.875%)'])).size).toBe(3);
    // One row oversold: its quantity 0, with the warning; no other row warns.
    const warned = csv.rows.filter((row) => row.warnings.length > 0);
    expect(warned).toHaveLength(1);
    expect(warned[0]?.warnings).toEqual([
      { column: 'Current Quantity Harbour Road', message: expect.stringContaining('-2') },
    ]);
    expect(byHeader(csv.columns, warned[0])['Current Quantity Harbour Road']).toBe('0');
  });

  it('the lotion is one item in three bottles, its option Size; the 12 oz bottle has the scanned barcode', async () => {
    const { columns, rows } = await readSquare(squareCatalogueCsv());
    const lotion = rows
      .map((row) => byHeader(columns, row))
      .filter((row) => row['Item Name'] === LOTION_NAME);
    expect(lotion.map((row) => [row['Option Name 1'], row['Option Value 1']])).toEqual([
      ['Size', '8 oz'],
      ['Size', '12 oz'],
      ['Size', '16 oz'],
    ]);
    expect(lotion[1]).toMatchObject({
      SKU: LOTION_12OZ_SKU,
      GTIN: LOTION_12OZ_BARCODE,
      Categories: 'Skin care',
      Description: 'Fragrance-free daily lotion for dry skin, with ceramides.',
      'Default Vendor Name': 'Healthwise Supply',
      'Tax - Sales Tax (8.875%)': 'Sales Tax (8.875%)',
      Archived: 'true',
    });
  });

  it('a variation is the value of the option Variation, unless Option Name says; Regular alone is a product', async () => {
    const { columns, rows } = await readSquare(
      file([
        {
          ...BALM,
          'Item Name': 'Zinc',
          'Variation Name': '30 tablets',
          SKU: 'Z-30',
          Description: 'Zinc daily.',
        },
        { ...BALM, 'Item Name': 'zinc', 'Variation Name': '90 tablets', SKU: 'Z-90', Description: '' },
        {
          ...BALM,
          'Item Name': 'Gel',
          'Variation Name': 'Big',
          'Option Name 1': 'Size',
          'Option Value 1': 'XL',
        },
        BALM,
        { ...BALM, 'Variation Name': 'REGULAR', SKU: 'LB-2', Description: '' },
      ]),
    );
    const cells = rows.map((row) => byHeader(columns, row));
    expect(cells.map((row) => [row['Option Name 1'], row['Option Value 1']])).toEqual([
      ['Variation', '30 tablets'],
      ['Variation', '90 tablets'],
      ['Size', 'XL'],
      ['', ''],
      ['', ''],
    ]);
    // A variation's blank description is its item's (by name, any case).
    expect(cells.map((row) => row.Description)).toEqual([
      'Zinc daily.',
      'Zinc daily.',
      'Soft lips.',
      'Soft lips.',
      'Soft lips.',
    ]);
  });

  it('the first tax column reads the first Y column’s rate, No tax when every one is N, blank when unsaid', async () => {
    const { columns, rows } = await readSquare(
      file(
        [
          ['Y', 'N'],
          ['N', 'Y'],
          ['Y', 'Y'],
          ['N', 'N'],
          ['n', 'no'],
          ['', ''],
          ['N', ''],
        ].map(([sales, reduced], i) => ({
          ...BALM,
          SKU: `T${i}`,
          'Tax - Sales Tax (8.875%)': sales as string,
          'Tax - Reduced Rate (4%)': reduced as string,
        })),
      ),
    );
    expect(rows.map((row) => byHeader(columns, row)['Tax - Sales Tax (8.875%)'])).toEqual([
      'Sales Tax (8.875%)',
      'Reduced Rate (4%)',
      'Sales Tax (8.875%)',
      'No tax',
      'No tax',
      '',
      '',
    ]);
  });

  it('Archived Y is inactive, N active; the first of several categories; quantities per location', async () => {
    const { columns, rows } = await readSquare(
      file([
        { ...BALM, Archived: 'Y', Categories: 'Skin care, Sale,Featured' },
        { ...BALM, SKU: 'b', Archived: 'N', Categories: ' Baby ' },
        { ...BALM, SKU: 'c', Archived: '', Categories: '' },
      ]),
    );
    const cells = rows.map((row) => byHeader(columns, row));
    expect(cells.map((row) => row.Archived)).toEqual(['false', 'true', '']);
    expect(cells.map((row) => row.Categories)).toEqual(['Skin care', 'Baby', '']);
    expect(cells[0]).toMatchObject({
      SKU: 'LB-1',
      GTIN: '5012345678900',
      Price: '3.50',
      'Default Unit Cost': '1.20',
      'Default Vendor Name': 'Bay Wholesale',
      'Current Quantity Main Street': '4',
      'Current Quantity Harbour Road': '2',
      'Stock Alert Count Main Street': '3',
    });
  });

  it('negative quantities import as 0, each with its warning; a decimal one is left for the error', async () => {
    const { columns, rows } = await readSquare(
      file([
        { ...BALM, 'Current Quantity Main Street': '-5', 'Current Quantity Harbour Road': '-1' },
        { ...BALM, SKU: 'b', 'Current Quantity Main Street': '1.5', 'Current Quantity Harbour Road': '' },
      ]),
    );
    expect(byHeader(columns, rows[0])).toMatchObject({
      'Current Quantity Main Street': '0',
      'Current Quantity Harbour Road': '0',
    });
    expect(rows[0]?.warnings.map((warning) => warning.column)).toEqual([
      'Current Quantity Main Street',
      'Current Quantity Harbour Road',
    ]);
    expect(byHeader(columns, rows[1])['Current Quantity Main Street']).toBe('1.5');
    expect(rows[1]?.warnings).toEqual([]);
  });

  it('reads headers in another case and a file with an extra column', async () => {
    const headers = [...SQUARE_HEADERS.map((header) => header.toLowerCase()), 'Loyalty points'];
    const row = Object.fromEntries(
      Object.entries(BALM).map(([header, value]) => [header.toLowerCase(), value]),
    );
    const { columns, rows } = await readSquare(
      file([{ ...row, 'variation name': 'Tube', 'Loyalty points': '7' }], headers),
    );
    expect(squarePreset.matches(columns)).toBe(true);
    expect(squarePreset.mapping(columns, LOCATIONS)).toMatchObject({
      item: 'item name',
      'stock@main': 'current quantity main street',
      taxRate: 'tax - sales tax (8.875%)',
    });
    expect(byHeader(columns, rows[0])).toMatchObject({
      'option name 1': 'Variation',
      'option value 1': 'Tube',
      // The rate's name as the header writes it.
      'tax - sales tax (8.875%)': 'sales tax (8.875%)',
      archived: 'true',
      'Loyalty points': '7',
    });
  });

  it('a file without option columns names each variation’s product as its variant would be named', async () => {
    const headers = ['Token', 'Item Name', 'Variation Name', 'SKU', 'Price'];
    const { columns, rows } = await readSquare(
      file(
        [
          { 'Item Name': 'Zinc', 'Variation Name': '30 tablets', SKU: 'a', Price: '1' },
          { 'Item Name': 'Balm', 'Variation Name': 'Regular', SKU: 'b', Price: '1' },
        ],
        headers,
      ),
    );
    expect(rows.map((row) => byHeader(columns, row)['Item Name'])).toEqual(['Zinc — 30 tablets', 'Balm']);
  });

  it('a short or long row, NUL, 10,000 characters, unknown flags: as many cells as headers, nothing thrown', () => {
    const reader = squarePreset.reader(SQUARE_HEADERS);
    expect(reader.row(2, ['t', 'Balm']).cells).toHaveLength(41);
    expect(reader.row(3, [...SQUARE_HEADERS.map(() => '\u0000'), 'extra']).cells).toHaveLength(41);
    const cells = SQUARE_HEADERS.map(() => '');
    const at = (header: (typeof SQUARE_HEADERS)[number]) => SQUARE_HEADERS.indexOf(header);
    cells[at('Item Name')] = 'z'.repeat(10_000);
    cells[at('Variation Name')] = 'v'.repeat(10_000);
    cells[at('Archived')] = 'maybe';
    cells[at('Tax - Sales Tax (8.875%)')] = 'perhaps';
    cells[at('Current Quantity Main Street')] = '-1e9';
    const read = reader.row(4, cells);
    expect(read.cells?.[at('Archived')]).toBe('maybe');
    expect(read.cells?.[at('Tax - Sales Tax (8.875%)')]).toBe('');
    expect(read.cells?.[at('Current Quantity Main Street')]).toBe('-1e9');
    expect(read.cells?.[at('Option Value 1')]).toHaveLength(10_000);
    expect(read.warnings).toEqual([]);
    expect(squarePreset.reader([]).row(2, ['a']).cells).toEqual([]);
    expect(squarePreset.mapping([], LOCATIONS)).toEqual({});
  });
});
