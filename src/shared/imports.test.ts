import { describe, expect, it } from 'vitest';
import {
  cellNumber,
  cellText,
  clearMessage,
  guessMapping,
  IMPORT_FIELD_HEADER,
  IMPORT_FIELDS,
  IMPORT_PREVIEW_CHARS,
  ImportCheckInput,
  type ImportField,
  previewText,
  readImportRow,
  requiredMessage,
} from './imports';
import { PRODUCT_CSV_HEADER } from './products';

/** columnOf for a header row, each field on the column its export header names. */
function columnsFor(headers: readonly string[]): Partial<Record<ImportField, number>> {
  const columnOf: Partial<Record<ImportField, number>> = {};
  for (const field of IMPORT_FIELDS) {
    const index = headers.indexOf(IMPORT_FIELD_HEADER[field]);
    if (index >= 0) columnOf[field] = index;
  }
  return columnOf;
}

const HEADERS = [...PRODUCT_CSV_HEADER];
const COLUMNS = columnsFor(HEADERS);

/** One row of the twelve export columns, from the cells given by header. */
function row(cells: Partial<Record<(typeof PRODUCT_CSV_HEADER)[number], string>>): string[] {
  return HEADERS.map((header) => cells[header] ?? '');
}

describe('guessMapping', () => {
  it('maps the export header row to its twelve fields, and Lot and Expiry when the file has them', () => {
    const twelve = IMPORT_FIELDS.filter((f) => f !== 'lot' && f !== 'expiry');
    expect(guessMapping(HEADERS)).toEqual(Object.fromEntries(twelve.map((f) => [f, IMPORT_FIELD_HEADER[f]])));
    expect(guessMapping([...HEADERS, 'Lot', 'Expiry'])).toEqual(
      Object.fromEntries(IMPORT_FIELDS.map((f) => [f, IMPORT_FIELD_HEADER[f]])),
    );
  });

  it('knows the lot’s and the expiry’s synonyms, in any case', () => {
    const lots = ['Lot', 'Lot number', 'LOT_NO', 'Lot no.', 'Batch', 'batch number'];
    const expiries = ['Expiry', 'Expires', 'Expiry date', 'EXP', 'Best before', 'use-by'];
    for (const lot of lots) expect(guessMapping(['SKU', lot])).toEqual({ sku: 'SKU', lot });
    for (const expiry of expiries) expect(guessMapping(['SKU', expiry])).toEqual({ sku: 'SKU', expiry });
    expect(guessMapping(['Batch', 'Best before', 'Qty'])).toEqual({
      lot: 'Batch',
      expiry: 'Best before',
      stock: 'Qty',
    });
    // The field's own header wins over a synonym, and a column serves one field.
    expect(guessMapping(['Batch', 'Lot', 'Exp', 'Expiry'])).toEqual({ lot: 'Lot', expiry: 'Expiry' });
  });

  it('reads headers in any case, with spaces, underscores, hyphens or dots', () => {
    expect(guessMapping(['  NAME ', 'reorder_point', 'Reorder-Quantity', 'tax.rate', 'sKu'])).toEqual({
      name: '  NAME ',
      reorderPoint: 'reorder_point',
      reorderQuantity: 'Reorder-Quantity',
      taxRate: 'tax.rate',
      sku: 'sKu',
    });
  });

  it('knows common synonyms, and a field’s own name wins over a synonym', () => {
    expect(guessMapping(['Product', 'EAN', 'Vendor', 'Qty', 'Unit price', 'VAT'])).toEqual({
      name: 'Product',
      barcode: 'EAN',
      supplier: 'Vendor',
      stock: 'Qty',
      price: 'Unit price',
      taxRate: 'VAT',
    });
    expect(guessMapping(['Product', 'Name'])).toEqual({ name: 'Name' });
  });

  it('gives a column to one field only, and leaves unknown headers unmapped', () => {
    expect(guessMapping(['Quantity', 'Stock'])).toEqual({ stock: 'Stock' });
    expect(guessMapping(['Colour', 'Weight', ''])).toEqual({});
    expect(guessMapping([])).toEqual({});
  });

  it('takes the first of two columns with the same header', () => {
    expect(guessMapping(['Price', 'price'])).toEqual({ price: 'Price' });
  });
});

describe('previewText', () => {
  it('keeps a cell of 200 characters, cuts a longer one with an ellipsis, never between the halves of a character', () => {
    const full = 'x'.repeat(IMPORT_PREVIEW_CHARS);
    expect(previewText(full)).toBe(full);
    expect(previewText('')).toBe('');
    expect(previewText(`${full}y`)).toBe(`${full}…`);
    // An emoji (two UTF-16 halves) across the cut is left out whole; one before it is kept.
    const before = 'x'.repeat(IMPORT_PREVIEW_CHARS - 1);
    expect(previewText(`${before}😀zz`)).toBe(`${before}…`);
    expect(previewText(`${before.slice(1)}😀zz`)).toBe(`${before.slice(1)}😀…`);
  });
});

describe('cellText', () => {
  it('trims and treats a missing cell as empty', () => {
    expect(cellText('  Aspirin \t')).toBe('Aspirin');
    expect(cellText(undefined)).toBe('');
    expect(cellText('')).toBe('');
  });

  it('drops the apostrophe an export puts before =, +, -, @, tab and CR, and only then', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(cellText(`'${start}x`)).toBe(`${start}x`);
    expect(cellText("'-5 special")).toBe('-5 special');
    expect(cellText("'quoted'")).toBe("'quoted'");
    expect(cellText("O'Brien")).toBe("O'Brien");
    expect(cellText("'")).toBe("'");
  });
});

describe('cellNumber', () => {
  it('reads plain numbers, decimals and exponents', () => {
    expect(cellNumber('12', false)).toBe(12);
    expect(cellNumber('12.5', false)).toBe(12.5);
    expect(cellNumber('.5', false)).toBe(0.5);
    expect(cellNumber('5.', false)).toBe(5);
    expect(cellNumber('-3', false)).toBe(-3);
    expect(cellNumber('1e3', false)).toBe(1000);
  });

  it('answers NaN for what is not a number, never a guess', () => {
    for (const text of [
      '',
      'abc',
      'NaN',
      'Infinity',
      '$5',
      '5 USD',
      '1 000',
      '1,234.50',
      '+5',
      '0x10',
      '5-',
      '1e',
      '--1',
    ])
      expect(cellNumber(text, false), text).toBeNaN();
    expect(cellNumber('12,5', false)).toBeNaN();
  });

  it('reads a decimal comma with one or two decimals, and refuses the ambiguous 1,000', () => {
    expect(cellNumber('12,5', true)).toBe(12.5);
    expect(cellNumber('12,50', true)).toBe(12.5);
    expect(cellNumber('-0,5', true)).toBe(-0.5);
    expect(cellNumber('1,000', true)).toBeNaN();
    expect(cellNumber('1,2,3', true)).toBeNaN();
    expect(cellNumber('12.5', true)).toBe(12.5);
  });

  it('never answers -0', () => {
    expect(Object.is(cellNumber('-0', false), 0)).toBe(true);
    expect(Object.is(cellNumber('-0,0', true), 0)).toBe(true);
  });

  it('answers Infinity for a number too large to hold, which the schemas refuse', () => {
    expect(cellNumber('1e400', false)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('readImportRow', () => {
  it('reads every field of an exported row', () => {
    const { values, errors } = readImportRow(
      row({
        Name: ' Aspirin ',
        SKU: 'ASP-1',
        Barcode: '0123',
        Description: "'=not a formula",
        Category: 'Pain',
        Supplier: 'Acme',
        Price: '4.5',
        Cost: '2.25',
        Stock: '12',
        'Reorder point': '3',
        'Reorder quantity': '10',
        'Tax rate': 'Standard',
      }),
      COLUMNS,
      HEADERS,
      false,
    );
    expect(errors).toEqual([]);
    expect(values).toEqual({
      name: 'Aspirin',
      sku: 'ASP-1',
      barcode: '0123',
      description: '=not a formula',
      category: 'Pain',
      supplier: 'Acme',
      price: 4.5,
      cost: 2.25,
      stock: 12,
      reorderPoint: 3,
      reorderQuantity: 10,
      taxRate: 'Standard',
    });
  });

  it('leaves blank cells out, so they keep what is stored', () => {
    const { values, errors } = readImportRow(row({}), COLUMNS, HEADERS, false);
    expect(errors).toEqual([]);
    expect(values).toEqual({});
    expect(
      readImportRow(row({ Description: '  ', Cost: ' ', 'Tax rate': '\t' }), COLUMNS, HEADERS, false),
    ).toEqual({
      values: {},
      errors: [],
    });
  });

  it('reads the clearing cell “-” as cleared: null, the description empty', () => {
    // Brand is the one clearable field of §22's; Item, the options and Active are not (tested apart).
    const variantOnly = [
      'Item',
      'Option 1',
      'Value 1',
      'Option 2',
      'Value 2',
      'Option 3',
      'Value 3',
      'Active',
    ];
    const clear = Object.fromEntries(
      HEADERS.filter((header) => !variantOnly.includes(header)).map((header) => [header, ' - ']),
    );
    const optional = readImportRow(
      row({ ...clear, Name: 'Kept', Category: 'Pain', Supplier: 'Acme', Price: '1', Stock: '2' }),
      COLUMNS,
      HEADERS,
      false,
    );
    expect(optional).toEqual({
      values: {
        name: 'Kept',
        sku: null,
        barcode: null,
        brand: null,
        description: '',
        category: 'Pain',
        supplier: 'Acme',
        price: 1,
        cost: null,
        stock: 2,
        reorderPoint: null,
        reorderQuantity: null,
        taxRate: null,
      },
      errors: [],
    });
    // The fields every product has cannot be cleared.
    expect(readImportRow(row(clear), COLUMNS, HEADERS, false).errors).toEqual(
      (['Name', 'Category', 'Supplier', 'Price', 'Stock'] as const).map((column) => ({
        column,
        message: `${column} cannot be cleared: leave the cell empty to keep it.`,
      })),
    );
    expect(clearMessage('price')).toBe('Price cannot be cleared: leave the cell empty to keep it.');
    // The text “-”, as an export writes it ('-), is a text, not the clearing cell.
    expect(readImportRow(row({ Description: "'-", SKU: "'-" }), COLUMNS, HEADERS, false)).toEqual({
      values: { description: '-', sku: '-' },
      errors: [],
    });
    expect(readImportRow(row({ Description: '--' }), COLUMNS, HEADERS, false).values).toEqual({
      description: '--',
    });
  });

  it('reads only the mapped fields, and a short row’s missing cells as empty', () => {
    const { values, errors } = readImportRow(
      ['Tea'],
      { name: 0, price: 3 },
      ['Title', 'a', 'b', 'Cost'],
      false,
    );
    expect(errors).toEqual([]);
    expect(values).toEqual({ name: 'Tea' });
  });

  it('names each bad cell by its column’s header, with the API’s message', () => {
    const headers = [
      'Item',
      'Code',
      'EAN',
      'Notes',
      'Group',
      'Vendor',
      'Retail',
      'Buy',
      'Qty',
      'Min',
      'Order',
      'VAT',
      'Batch',
      'Use by',
    ];
    // The twelve fields of §14, then Lot and Expiry: one header each, in that order.
    const fields = [...IMPORT_FIELDS.slice(0, 12), 'lot', 'expiry'];
    const columnOf = Object.fromEntries(fields.map((field, i) => [field, i]));
    const { values, errors } = readImportRow(
      [
        'x'.repeat(201),
        'has space',
        'b'.repeat(65),
        'd'.repeat(2001),
        'c'.repeat(201),
        'nul\0',
        '1.005',
        '-1',
        '2.5',
        '-3',
        '0',
        'v'.repeat(201),
        'l'.repeat(65),
        '2025-02-30',
      ],
      columnOf,
      headers,
      false,
    );
    expect(values).toEqual({});
    expect(errors).toEqual([
      { column: 'Item', message: 'Must be at most 200 characters.' },
      { column: 'Code', message: 'SKU may hold only letters, digits and symbols, no spaces.' },
      { column: 'EAN', message: 'Barcode must be at most 64 characters.' },
      { column: 'Notes', message: 'Must be at most 2000 characters.' },
      { column: 'Group', message: 'Category must be at most 200 characters.' },
      { column: 'Vendor', message: 'Supplier must not hold a NUL character.' },
      { column: 'Retail', message: 'Price must have at most 2 decimals.' },
      { column: 'Buy', message: 'Unit cost must be 0 or more.' },
      { column: 'Qty', message: 'Stock must be a whole number.' },
      { column: 'Min', message: 'Reorder point must be 0 or more.' },
      { column: 'Order', message: 'Reorder quantity must be at least 1.' },
      { column: 'VAT', message: 'Tax rate must be at most 200 characters.' },
      { column: 'Batch', message: 'Lot number must be at most 64 characters.' },
      { column: 'Use by', message: 'That date does not exist.' },
    ]);
  });

  describe('Lot and Expiry', () => {
    const headers = ['Lot', 'Expiry'];
    const columnOf = { lot: 0, expiry: 1 };
    const read = (lot: string, expiry: string) => readImportRow([lot, expiry], columnOf, headers, true);

    it('reads a lot number trimmed and an expiry day; empty cells are left out', () => {
      expect(read('  A-17 b ', '2027-01-31')).toEqual({
        values: { lot: 'A-17 b', expiry: '2027-01-31' },
        errors: [],
      });
      expect(read('', '')).toEqual({ values: {}, errors: [] });
      // They describe the row's stock, not a stored field: the clearing cell is as blank.
      expect(read('-', '-')).toEqual({ values: {}, errors: [] });
      // A number is a lot number like any other, kept as written.
      expect(read('00123', '')).toEqual({ values: { lot: '00123' }, errors: [] });
      // The apostrophe an export puts before a leading - is dropped, as in every cell.
      expect(read("'-7", '')).toEqual({ values: { lot: '-7' }, errors: [] });
      expect(read('L', '2024-02-29').values.expiry).toBe('2024-02-29');
    });

    it('refuses hostile cells with one clear sentence naming the column', () => {
      const lot = (cell: string) => read(cell, '').errors;
      const expiry = (cell: string) => read('A1', cell).errors;
      expect(lot('x'.repeat(10_000))).toEqual([
        { column: 'Lot', message: 'Lot number must be at most 64 characters.' },
      ]);
      expect(lot('a\0b')).toEqual([
        { column: 'Lot', message: 'Lot number may hold only letters, digits, symbols and spaces.' },
      ]);
      expect(lot('é1')).toEqual([
        { column: 'Lot', message: 'Lot number may hold only letters, digits, symbols and spaces.' },
      ]);
      const cases: [string, string][] = [
        ['2025-02-30', 'That date does not exist.'],
        ['2025-13-01', 'That date does not exist.'],
        ['0000-01-01', 'Dates must be between 1900 and 9999.'],
        ['1899-12-31', 'Dates must be between 1900 and 9999.'],
        ['31/01/2027', 'Dates look like 2025-01-31.'],
        ['45000', 'Dates look like 2025-01-31.'],
        ['NaN', 'Dates look like 2025-01-31.'],
        ['2027-01-31\0', 'Dates look like 2025-01-31.'],
        ['9'.repeat(10_000), 'Dates look like 2025-01-31.'],
        ['2027-01-31T00:00:00Z', 'Dates look like 2025-01-31.'],
      ];
      for (const [cell, message] of cases)
        expect(expiry(cell), cell.slice(0, 20)).toEqual([{ column: 'Expiry', message }]);
    });
  });

  it('refuses NaN, huge numbers, words and NUL in every kind of cell', () => {
    const cases: [string, string, string][] = [
      ['Price', 'NaN', 'Price must be a number.'],
      ['Price', '1e400', 'Price is too large.'],
      ['Price', '1000000000', 'Price is too large.'],
      ['Price', 'ten', 'Price must be a number.'],
      ['Cost', '1.001', 'Unit cost must have at most 2 decimals.'],
      ['Stock', '99999999999', 'Stock is too large.'],
      ['Stock', '-1', 'Stock must be 0 or more.'],
      ['Reorder point', '1e7', 'Reorder point is too large.'],
      ['Reorder quantity', 'lots', 'Reorder quantity must be a number.'],
      ['Name', 'a\0b', 'Must not contain NUL characters.'],
      ['Description', 'a\0b', 'Must not hold a NUL character.'],
      ['SKU', 'a\0b', 'SKU may hold only letters, digits and symbols, no spaces.'],
      ['Category', 'a\0b', 'Category must not hold a NUL character.'],
      ['Tax rate', 'a\0b', 'Tax rate must not hold a NUL character.'],
      ['Name', 'n'.repeat(10_000), 'Must be at most 200 characters.'],
      ['Price', '9'.repeat(10_000), 'Price is too large.'],
    ];
    for (const [header, cell, message] of cases) {
      const { errors } = readImportRow(row({ [header]: cell }), COLUMNS, HEADERS, false);
      expect(errors, `${header}: ${cell.slice(0, 20)}`).toEqual([{ column: header, message }]);
    }
  });

  it('reads a decimal comma when asked to', () => {
    const { values, errors } = readImportRow(row({ Price: '4,50', Stock: '3' }), COLUMNS, HEADERS, true);
    expect(errors).toEqual([]);
    expect(values).toMatchObject({ price: 4.5, stock: 3 });
    expect(readImportRow(row({ Price: '4,50' }), COLUMNS, HEADERS, false).errors).toEqual([
      { column: 'Price', message: 'Price must be a number.' },
    ]);
  });

  it('accepts money at its limits', () => {
    const { values, errors } = readImportRow(
      row({ Price: '999999999.99', Cost: '0' }),
      COLUMNS,
      HEADERS,
      false,
    );
    expect(errors).toEqual([]);
    expect(values).toMatchObject({ price: 999_999_999.99, cost: 0 });
  });
});

describe('requiredMessage', () => {
  it('names the field by its export header', () => {
    expect(requiredMessage('name')).toBe('Name is required for a new product.');
    expect(requiredMessage('supplier')).toBe('Supplier is required for a new product.');
  });
});

describe('ImportCheckInput', () => {
  it('fills the defaults', () => {
    expect(ImportCheckInput.parse({ mapping: { sku: 'SKU' } })).toEqual({
      mapping: { sku: 'SKU' },
      matchBy: 'sku',
      createMissing: { categories: false, suppliers: false },
      stock: 'set',
    });
  });

  it('refuses bad shapes with one sentence each', () => {
    const message = (body: unknown) => ImportCheckInput.safeParse(body).error?.issues[0]?.message;
    expect(message({ mapping: [] })).toBe('mapping must be an object.');
    expect(message({ mapping: { colour: 'Colour' } })).toBe(
      `mapping may name only ${IMPORT_FIELDS.join(', ')} and stock@<location id>.`,
    );
    expect(message({ mapping: { name: 5 } })).toBe('A mapping names a column by its header text.');
    expect(message({ mapping: { name: '' } })).toBe('A mapping names a column by its header text.');
    expect(message({ mapping: { name: 'x'.repeat(201) } })).toBe('A header has at most 200 characters.');
    expect(message({ mapping: {}, matchBy: 'id' })).toBe('matchBy must be one of sku, barcode, name.');
    expect(message({ mapping: {}, stock: 'zap' })).toBe('stock must be one of set, add, ignore.');
    expect(message({ mapping: {}, createMissing: { categories: 'yes' } })).toBe(
      'createMissing.categories must be true or false.',
    );
  });
});
