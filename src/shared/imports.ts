import { z } from 'zod';
import { DateOnly, Money, Ok } from './common';
import { MAX } from './limits';
import { LocationId } from './locations';
import { LotNumber } from './lots';
import { PageInfo, PageQuery } from './paging';
import { PRODUCT_CSV_HEADER, ProductInput, ReorderPoint, ReorderQuantity, Stock } from './products';
import { UnitCost } from './purchasing';

/**
 * The catalogue import (DESIGN §14): a store's spreadsheet of products, uploaded, checked row by
 * row without writing anything, then applied in the background. This file is the one place for
 * its contract (every input and answer), the header guess and the reading of one row's cells,
 * shared by the server's check and apply and by the screen's preview.
 */

/**
 * The product fields a column may be mapped to: the products CSV's columns, in its order (the
 * twelve of §14, then the item, its options and values and the brand and active of §22), then the lot the row's stock goes into and that lot's expiry (DESIGN §15; not exported).
 */
export const IMPORT_FIELDS = [
  'name',
  'sku',
  'barcode',
  'description',
  'category',
  'supplier',
  'price',
  'cost',
  'stock',
  'reorderPoint',
  'reorderQuantity',
  'taxRate',
  'item',
  'option1',
  'value1',
  'option2',
  'value2',
  'option3',
  'value3',
  'brand',
  'active',
  'lot',
  'expiry',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Each field's header in the products CSV (and in the sample file): `Reorder point`, …, `Lot`, `Expiry`. */
export const IMPORT_FIELD_HEADER = {
  ...(Object.fromEntries(PRODUCT_CSV_HEADER.map((header, index) => [IMPORT_FIELDS[index], header])) as Record<
    Exclude<ImportField, 'lot' | 'expiry'>,
    (typeof PRODUCT_CSV_HEADER)[number]
  >),
  lot: 'Lot',
  expiry: 'Expiry',
} as const satisfies Record<ImportField, string>;

/** The largest file (bytes) and the most data rows an import takes (413 above). */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 200_000;
/** The most columns a file's header may have. */
export const MAX_IMPORT_COLUMNS = 200;
/**
 * The longest header: a column is named by its header (in the mapping and in every answer), so it
 * is never cut, and one longer is refused (400). 200 columns of it stay a small answer.
 */
export const MAX_IMPORT_HEADER_CHARS = 200;
/**
 * The most characters a cell may hold and the most cells a row may have, refused (400) while the
 * file is read, before the cell or the row is made: no product field takes more than 2,000
 * characters, and a row past its header's 200 columns is only trailing empty cells.
 */
export const MAX_IMPORT_CELL_CHARS = 10_000;
export const MAX_IMPORT_ROW_CELLS = 500;
/** How many of the first rows the upload answers, for the mapping's preview. */
export const IMPORT_PREVIEW_ROWS = 5;
/** The most characters of a cell an answer echoes (previewText). */
export const IMPORT_PREVIEW_CHARS = 200;

/**
 * A cell as an answer (the preview, a checked row) echoes it: its first IMPORT_PREVIEW_CHARS
 * characters then "…" when longer, never half a character. The stored cell and the errors file
 * keep it whole.
 */
export function previewText(text: string): string {
  if (text.length <= IMPORT_PREVIEW_CHARS) return text;
  const last = text.charCodeAt(IMPORT_PREVIEW_CHARS - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? IMPORT_PREVIEW_CHARS - 1 : IMPORT_PREVIEW_CHARS;
  return `${text.slice(0, end)}…`;
}

export const CSV_MIME = 'text/csv';
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The kind of file uploaded (its content type): answered as the import's `fileType`. */
export const IMPORT_FILE_TYPES = ['csv', 'xlsx'] as const;
export type ImportFileType = (typeof IMPORT_FILE_TYPES)[number];
/**
 * DESIGN §22: the layout a file's rows are in, answered as the import's `format`: 'generic' (a
 * column per field, the products CSV's) or another system's export, read by its preset.
 */
export const IMPORT_FORMATS = ['generic', 'shopify', 'square'] as const;
export const ImportFormat = z.enum(IMPORT_FORMATS, {
  error: `format must be one of ${IMPORT_FORMATS.join(', ')}.`,
});
export type ImportFormat = z.infer<typeof ImportFormat>;

/** A header as the guess compares it: any case, without spaces, underscores, hyphens or dots. */
export function headerKey(text: string): string {
  return text.toLowerCase().replace(/[\s_\-.]+/g, '');
}

/**
 * Other headers stores' spreadsheets use for a field (compared by `headerKey`); the field's own
 * name and its export header come first.
 */
const HEADER_SYNONYMS: Record<ImportField, readonly string[]> = {
  name: ['product', 'product name', 'item', 'item name', 'title'],
  sku: ['item code', 'product code', 'article number', 'ref', 'reference'],
  barcode: ['ean', 'upc', 'gtin', 'ean13', 'bar code'],
  description: ['details', 'long description'],
  category: ['group', 'department', 'product category'],
  supplier: ['vendor', 'manufacturer'],
  price: ['unit price', 'retail price', 'selling price', 'sale price', 'rrp'],
  cost: ['unit cost', 'cost price', 'purchase price', 'buy price'],
  stock: ['quantity', 'qty', 'on hand', 'in stock', 'stock level', 'inventory'],
  reorderPoint: ['reorder level', 'min stock', 'minimum stock', 'low stock'],
  reorderQuantity: ['reorder qty', 'order quantity', 'reorder amount'],
  taxRate: ['tax', 'vat', 'vat rate', 'tax class', 'tax name'],
  item: ['parent', 'parent name', 'product group', 'item group'],
  option1: ['option 1 name', 'option name 1', 'option1 name'],
  value1: ['option 1 value', 'option value 1', 'option1 value'],
  option2: ['option 2 name', 'option name 2', 'option2 name'],
  value2: ['option 2 value', 'option value 2', 'option2 value'],
  option3: ['option 3 name', 'option name 3', 'option3 name'],
  value3: ['option 3 value', 'option value 3', 'option3 value'],
  brand: ['make', 'label'],
  active: ['enabled', 'status', 'is active'],
  lot: ['lot number', 'lot no', 'batch', 'batch number', 'batch no'],
  expiry: ['expires', 'expiry date', 'exp', 'best before', 'use by', 'expiration date'],
};

/**
 * DESIGN §17, §22: a mapping key `stock@<location id>` maps the column of that location's stock
 * (the same stock mode as `stock`, which is the stock at the check's `location`).
 */
export const STOCK_AT = 'stock@';
export type StockAtKey = `${typeof STOCK_AT}${string}`;
const STOCK_AT_KEY = /^stock@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The location id of a `stock@<location id>` mapping key; undefined for any other key. */
export function stockAtLocation(key: string): string | undefined {
  return STOCK_AT_KEY.exec(key)?.[1]?.toLowerCase();
}

/** field → header text, for the fields the file has a column for; `stock@<location id>` → a location's stock column. */
export type ImportMapping = Partial<Record<ImportField, string>> & { [key: StockAtKey]: string };

/**
 * The suggested mapping: for each field the first column whose header is the field's name, its
 * export header or a common synonym (any case, spaces or underscores). A column serves one field.
 */
export function guessMapping(columns: readonly string[]): ImportMapping {
  const mapping: ImportMapping = {};
  const taken = new Set<string>();
  const keys = columns.map(headerKey);
  for (const round of [0, 1] as const) {
    for (const field of IMPORT_FIELDS) {
      if (mapping[field] !== undefined) continue;
      const names = round === 0 ? [field, IMPORT_FIELD_HEADER[field]] : HEADER_SYNONYMS[field];
      const wanted = new Set(names.map(headerKey));
      const index = keys.findIndex((key, i) => wanted.has(key) && !taken.has(columns[i] as string));
      if (index < 0) continue;
      const column = columns[index] as string;
      mapping[field] = column;
      taken.add(column);
    }
  }
  // A file whose only naming column is "Item" names its products by it, as before variants.
  if (mapping.name === undefined && mapping.item !== undefined) {
    mapping.name = mapping.item;
    delete mapping.item;
  }
  return mapping;
}

export const MatchBy = z.enum(['sku', 'barcode', 'name'], {
  error: 'matchBy must be one of sku, barcode, name.',
});
export type MatchBy = z.infer<typeof MatchBy>;
export const StockMode = z.enum(['set', 'add', 'ignore'], {
  error: 'stock must be one of set, add, ignore.',
});
export type StockMode = z.infer<typeof StockMode>;

const HeaderText = z
  .string({ error: 'A mapping names a column by its header text.' })
  .min(1, { error: 'A mapping names a column by its header text.' })
  .max(MAX_IMPORT_HEADER_CHARS, { error: `A header has at most ${MAX_IMPORT_HEADER_CHARS} characters.` });

const FIELD_SET: ReadonlySet<string> = new Set(IMPORT_FIELDS);

// The fields by name (so the body's limit counts them, src/server/lib/body-limit.ts), and the
// `stock@<location id>` keys beside them, each checked by the refinement.
export const ImportMappingInput = z
  .object(
    Object.fromEntries(IMPORT_FIELDS.map((field) => [field, HeaderText.optional()])) as Record<
      ImportField,
      z.ZodOptional<typeof HeaderText>
    >,
    { error: 'mapping must be an object.' },
  )
  .catchall(HeaderText)
  .superRefine((mapping, context) => {
    for (const key of Object.keys(mapping)) {
      if (FIELD_SET.has(key) || stockAtLocation(key) !== undefined) continue;
      context.addIssue({
        code: 'custom',
        path: [key],
        message: key.startsWith(STOCK_AT)
          ? `${previewText(key)} must be stock@ followed by a location's id.`
          : `mapping may name only ${IMPORT_FIELDS.join(', ')} and stock@<location id>.`,
      });
      return;
    }
  });

/**
 * The dry run's options. The server also refuses (400) a mapping naming a header the file does
 * not have, two fields on one column, or a `matchBy` field left unmapped.
 */
export const ImportCheckInput = z.object(
  {
    mapping: ImportMappingInput,
    matchBy: MatchBy.default('sku'),
    createMissing: z
      .object(
        {
          categories: z.boolean({ error: 'createMissing.categories must be true or false.' }).default(false),
          suppliers: z.boolean({ error: 'createMissing.suppliers must be true or false.' }).default(false),
        },
        { error: 'createMissing must be an object: {categories, suppliers}.' },
      )
      .default({ categories: false, suppliers: false }),
    stock: StockMode.default('set'),
    /** DESIGN §22: the layout the rows are read in; omitted, the one guessed at upload (or last checked). */
    format: ImportFormat.optional(),
    /**
     * DESIGN §17: where the stock goes (a location's id; omitted, the default location): created
     * products open there, and an update's stock is set (or added) there. The check keeps the id.
     */
    location: LocationId.optional(),
  },
  { error: 'The body must be an object with a mapping.' },
);
export type ImportCheckInput = z.input<typeof ImportCheckInput>;
export type ImportOptions = Omit<z.output<typeof ImportCheckInput>, 'mapping'>;

/** DESIGN §22: `GET /api/imports/:id/mapping?format=`: the mapping a layout suggests for the file's columns. */
export const ImportMappingQuery = z.object({ format: ImportFormat });
export const ImportMappingResponse = Ok.extend({
  format: ImportFormat,
  mapping: z.record(z.string(), z.string()),
});
export type ImportMappingResponse = z.infer<typeof ImportMappingResponse>;

export const ImportFileQuery = z.object({
  fileName: z
    .string({ error: 'fileName must be text.' })
    .trim()
    .min(1, { error: 'fileName must not be blank.' })
    .max(255, { error: 'fileName must be at most 255 characters.' })
    .refine((name) => ![...name].some((c) => c < ' ' || c === '/' || c === '\\'), {
      error: 'fileName may not hold control characters or slashes.',
    })
    .default('products.csv'),
});

export const IMPORT_STATUSES = ['uploaded', 'checked', 'applying', 'applied', 'failed'] as const;
export const ImportStatus = z.enum(IMPORT_STATUSES);
export type ImportStatus = z.infer<typeof ImportStatus>;
/** 'skipped': a row a preset reads as no product (DESIGN §22: a Shopify row holding only an image). */
export const IMPORT_RESULTS = ['create', 'update', 'unchanged', 'error', 'skipped'] as const;
export const ImportResult = z.enum(IMPORT_RESULTS, {
  error: `result must be one of ${IMPORT_RESULTS.join(', ')}.`,
});
export type ImportResult = z.infer<typeof ImportResult>;

export const ImportSummary = z.object({
  create: z.number().int(),
  update: z.number().int(),
  unchanged: z.number().int(),
  errors: z.number().int(),
  /** DESIGN §22: rows a preset skips, counted apart from errors. */
  skipped: z.number().int().default(0),
  /** Names the check found missing and the apply creates (createMissing), sorted. */
  newCategories: z.array(z.string()).default([]),
  newSuppliers: z.array(z.string()).default([]),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

export const Import = z.object({
  _id: z.string(),
  fileName: z.string(),
  /** The kind of file uploaded. */
  fileType: z.enum(IMPORT_FILE_TYPES),
  /** DESIGN §22: the layout its rows are read in: guessed at upload, then the one last checked. */
  format: ImportFormat,
  status: ImportStatus,
  /** Data rows in the file (blank rows skipped). */
  rows: z.number().int(),
  columns: z.array(z.string()),
  mapping: z.record(z.string(), z.string()),
  options: z
    .object({
      matchBy: MatchBy,
      createMissing: z.object({ categories: z.boolean(), suppliers: z.boolean() }),
      stock: StockMode,
      /** The location's id the stock goes to (DESIGN §17); absent on imports checked before locations. */
      location: z.string().optional(),
      format: ImportFormat.optional(),
    })
    .nullable(),
  summary: ImportSummary.nullable(),
  /** Rows the apply has gone through (written or skipped as errors), of `total`. */
  processed: z.number().int(),
  total: z.number().int(),
  /** Why an apply failed as a whole; null otherwise. */
  failure: z.string().nullable(),
  /** The first rows' cells as uploaded (IMPORT_PREVIEW_ROWS), each cut short (previewText). */
  preview: z.array(z.array(z.string())),
  createdAt: z.string(),
  createdBy: z.object({ _id: z.string().nullable(), name: z.string() }),
  checkedAt: z.string().nullable(),
  appliedAt: z.string().nullable(),
});
export type Import = z.infer<typeof Import>;
export const ImportResponse = Ok.extend({ import: Import });
export type ImportResponse = z.infer<typeof ImportResponse>;

/** A problem with one cell: `column` is the header text (the row's own problems name `Row`). */
export const ImportError = z.object({ column: z.string(), message: z.string() });
export type ImportError = z.infer<typeof ImportError>;
export const ImportChange = z.object({
  field: z.enum(IMPORT_FIELDS),
  from: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  to: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  /** DESIGN §17: a stock change's location, by name, when the row sets stock at several. */
  location: z.string().optional(),
});
export type ImportChange = z.infer<typeof ImportChange>;

export const ImportRow = z.object({
  /** The row's line in the file, the header being 1. */
  row: z.number().int(),
  result: ImportResult,
  product: z.object({ _id: z.string(), name: z.string() }).optional(),
  changes: z.array(ImportChange).optional(),
  errors: z.array(ImportError),
  /** DESIGN §22: what the row imports other than the file says (a preset's; never an error). */
  warnings: z.array(ImportError).optional(),
  /** The cells as uploaded, in `columns` order, each cut short (previewText). */
  cells: z.array(z.string()),
});
export type ImportRow = z.infer<typeof ImportRow>;

export const ImportRowsQuery = PageQuery.pick({ page: true, pageSize: true }).extend({
  result: ImportResult.optional(),
});
export type ImportRowsQuery = z.input<typeof ImportRowsQuery>;
export const ImportRowsResponse = Ok.extend({ rows: z.array(ImportRow) }).extend(PageInfo.shape);
export type ImportRowsResponse = z.infer<typeof ImportRowsResponse>;

/** `GET /api/imports`: one page of the imports, newest first (20 a page unless pageSize says). */
export const ImportListQuery = PageQuery.pick({ page: true, pageSize: true });
export type ImportListQuery = z.input<typeof ImportListQuery>;
/**
 * The imports, newest first, without the uploads cut off halfway (no rows). Each is an `Import`
 * whose `preview` is [] here (the list stays small; `GET /api/imports/:id` has the first rows).
 */
export const ImportListResponse = Ok.extend({ imports: z.array(Import) })
  .extend(PageInfo.shape)
  .extend({ page: z.number().int(), pageSize: z.number().int(), pageCount: z.number().int() });
export type ImportListResponse = z.infer<typeof ImportListResponse>;

export const ImportErrorsQuery = z.object({
  format: z.literal('csv', { error: 'format must be csv.' }).default('csv'),
});

/** The errors file's extra column, after the file's own. */
export const ERROR_COLUMN = 'Error';

// ---------------------------------------------------------------------------------------------
// One row's cells, read

/**
 * A cell as the import reads it: trimmed, and without the apostrophe an export puts before a
 * text starting with =, +, -, @, tab or CR (src/shared/csv.ts), so an exported file round-trips.
 */
export function cellText(raw: string | undefined): string {
  const text = (raw ?? '').trim();
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

/**
 * A number as a spreadsheet writes it: `12.5`, `1234`, `-3`; with `decimalComma` also `12,5` and
 * `12,50`. A comma followed by three digits (`1,000`) is a thousands separator in one country and
 * a decimal comma in another, so it is refused rather than guessed, as are other thousands
 * separators and currency signs. NaN when it is not a number; never -0.
 */
export function cellNumber(text: string, decimalComma: boolean): number {
  const plain = decimalComma && /^-?\d+,\d{1,2}$/.test(text) ? text.replace(',', '.') : text;
  if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(plain)) return Number.NaN;
  return Number(plain) + 0;
}

/**
 * The generic format's clearing cell (DESIGN §22): a cell holding exactly `-` clears its field,
 * since a blank cell keeps what is stored. Read before the export's apostrophe is dropped, so the
 * text "-" (which an export writes as `'-`) stays a text.
 */
export const CLEAR_CELL = '-';

/** Whether a cell as uploaded is the clearing cell. */
export function isClearCell(raw: string | undefined): boolean {
  return (raw ?? '').trim() === CLEAR_CELL;
}

/**
 * What one row says about its product, each mapped field read and checked. A field left out
 * (its cell blank or its column unmapped) keeps what is stored, or takes its default on a new
 * product; a cleared field (the cell `-`) is null, or '' for the description.
 */
export type ImportValues = {
  name?: string;
  /** null: cleared (no SKU). */
  sku?: string | null;
  barcode?: string | null;
  /** '': cleared. */
  description?: string;
  category?: string;
  supplier?: string;
  price?: number;
  /** null: cleared (the cost is not known). */
  cost?: number | null;
  /** Left out: an existing product keeps its stock, a new one starts at 0. */
  stock?: number;
  /** null: cleared (the store's default). */
  reorderPoint?: number | null;
  /** null: cleared (the quantity is computed). */
  reorderQuantity?: number | null;
  /** A tax rate's name; null: cleared (the store's default). */
  taxRate?: string | null;
  /**
   * DESIGN §22: the item the row's product is a variant of (with at least one option value), or
   * the name of a product on its own (without values and without a Name).
   */
  item?: string;
  /** Option N's name and this row's value of it. */
  option1?: string;
  value1?: string;
  option2?: string;
  value2?: string;
  option3?: string;
  value3?: string;
  /** null: cleared (no brand). */
  brand?: string | null;
  active?: boolean;
  /** DESIGN §17: the stock at other locations (`stock@<location id>` columns), by location id. */
  stockAt?: Record<string, number>;
  /** The lot (number) the row's stock goes into (DESIGN §15); left out: none. */
  lot?: string;
  /** The lot's expiry, YYYY-MM-DD; left out: a new lot does not expire. */
  expiry?: string;
};

/** The fields every product has (a stock too): the clearing cell is an error on them. */
const NOT_CLEARABLE: ReadonlySet<ImportField> = new Set([
  'name',
  'category',
  'supplier',
  'price',
  'stock',
  'item',
  'option1',
  'value1',
  'option2',
  'value2',
  'option3',
  'value3',
  'active',
]);

/**
 * What a cleared field reads as: null, or '' for the description. Lot and Expiry describe the
 * row's stock, not a stored field, so `-` there is as blank.
 */
const CLEARED: Partial<Record<ImportField, null | ''>> = {
  sku: null,
  barcode: null,
  description: '',
  cost: null,
  reorderPoint: null,
  reorderQuantity: null,
  taxRate: null,
  brand: null,
};

/** DESIGN §22: the words an Active cell may hold (any case): the first six and the statuses. */
export const ACTIVE_WORDS: Readonly<Record<string, boolean>> = {
  true: true,
  yes: true,
  y: true,
  '1': true,
  active: true,
  false: false,
  no: false,
  n: false,
  '0': false,
  archived: false,
  draft: false,
};
const ACTIVE_MESSAGE = `Active must be one of ${Object.keys(ACTIVE_WORDS).join(', ')}.`;

/** An option's name or value (DESIGN §22): at most 100 characters, no NUL. */
const optionText = (label: string) =>
  z
    .string()
    .max(100, { error: `${label} must be at most 100 characters.` })
    .refine((value) => !value.includes('\0'), { error: `${label} must not hold a NUL character.` });
const OPTION_CELL = {
  option1: optionText('Option 1'),
  value1: optionText('Value 1'),
  option2: optionText('Option 2'),
  value2: optionText('Value 2'),
  option3: optionText('Option 3'),
  value3: optionText('Value 3'),
};

// Built once: a zod schema costs far more to build than to run, and an import reads 100,000 rows.
const NAME = ProductInput.shape.name;
const DESCRIPTION = z
  .string()
  .trim()
  .max(MAX.description, { error: `Must be at most ${MAX.description} characters.` })
  .refine((value) => !value.includes('\0'), { error: 'Must not hold a NUL character.' });
const refName = (label: string) =>
  z
    .string()
    .max(MAX.name, { error: `${label} must be at most ${MAX.name} characters.` })
    .refine((value) => !value.includes('\0'), { error: `${label} must not hold a NUL character.` });
const ITEM = z
  .string()
  .max(MAX.name, { error: `Item must be at most ${MAX.name} characters.` })
  .refine((value) => !value.includes('\0'), { error: 'Item must not hold a NUL character.' });
const REF_NAME = {
  brand: refName('Brand'),
  category: refName('Category'),
  supplier: refName('Supplier'),
  taxRate: refName('Tax rate'),
};
const CODE = { sku: ProductInput.shape.sku, barcode: ProductInput.shape.barcode };

/** An Expiry cell: a day as YYYY-MM-DD (the XLSX reader gives dates so); empty is read apart. */
const EXPIRY = DateOnly;

const NUMBER_CELL = {
  price: Money,
  cost: UnitCost,
  stock: Stock,
  reorderPoint: ReorderPoint,
  reorderQuantity: ReorderQuantity,
};

/** A number past what a double holds (1e400, ten thousand nines) is "too large", not "not a number". */
function boundedNumber(number: number): number {
  return Number.isFinite(number) || Number.isNaN(number) ? number : Math.sign(number) * Number.MAX_VALUE;
}

function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'This value is not valid.';
}

/**
 * Reads one row: each mapped field's cell checked by the same schemas as the product form, so a
 * cell gets the message the API gives. `columnOf` maps a field to its column's index. A blank
 * cell is left out of `values` (it keeps what is stored); the clearing cell `-` clears an
 * optional field and is an error on the fields every product has. Required fields left blank are
 * not errors here: whether they are needed depends on the row creating a product, which the
 * check decides.
 */
export function readImportRow(
  cells: readonly string[],
  columnOf: Partial<Record<ImportField, number>>,
  headers: readonly string[],
  decimalComma: boolean,
  /** DESIGN §17: the `stock@<location id>` columns: each location's id and its column's index. */
  stockAt: readonly { location: string; index: number }[] = [],
): { values: ImportValues; errors: ImportError[] } {
  const values: ImportValues = {};
  const errors: ImportError[] = [];
  for (const { location, index } of stockAt) {
    const column = headers[index] as string;
    const raw = cells[index];
    if (isClearCell(raw)) {
      errors.push({ column, message: clearMessage('stock') });
      continue;
    }
    const text = cellText(raw);
    if (text === '') continue;
    const parsed = Stock.safeParse(boundedNumber(cellNumber(text, decimalComma)));
    if (parsed.success) values.stockAt = { ...values.stockAt, [location]: parsed.data };
    else errors.push({ column, message: firstMessage(parsed.error) });
  }
  for (const field of IMPORT_FIELDS) {
    const index = columnOf[field];
    if (index === undefined) continue;
    const column = headers[index] as string;
    const raw = cells[index];
    if (isClearCell(raw)) {
      if (NOT_CLEARABLE.has(field)) errors.push({ column, message: clearMessage(field) });
      else if (field in CLEARED) (values as Record<string, null | ''>)[field] = CLEARED[field] as null | '';
      continue;
    }
    const text = cellText(raw);
    if (text === '') continue;
    switch (field) {
      case 'name': {
        const parsed = NAME.safeParse(text);
        if (parsed.success) values.name = parsed.data;
        else errors.push({ column, message: firstMessage(parsed.error) });
        break;
      }
      case 'description': {
        const parsed = DESCRIPTION.safeParse(text);
        if (parsed.success) values.description = parsed.data;
        else errors.push({ column, message: firstMessage(parsed.error) });
        break;
      }
      case 'sku':
      case 'barcode': {
        const parsed = CODE[field].safeParse(text);
        if (parsed.success) values[field] = parsed.data ?? null;
        else errors.push({ column, message: firstMessage(parsed.error) });
        break;
      }
      case 'item': {
        const parsed = ITEM.safeParse(text);
        if (parsed.success) values.item = parsed.data;
        else errors.push({ column, message: firstMessage(parsed.error) });
        break;
      }
      case 'option1':
      case 'value1':
      case 'option2':
      case 'value2':
      case 'option3':
      case 'value3': {
        const parsed = OPTION_CELL[field].safeParse(text);
        if (parsed.success) values[field] = parsed.data;
        else errors.push({ column, message: firstMessage(parsed.error) });
        break;
      }
      case 'active': {
        const active = ACTIVE_WORDS[text.toLowerCase()];
        if (active === undefined || !Object.hasOwn(ACTIVE_WORDS, text.toLowerCase()))
          errors.push({ column, message: ACTIVE_MESSAGE });
        else values.active = active;
        break;
      }
      case 'brand':
      case 'category':
      case 'supplier':
      case 'taxRate': {
        const parsed = REF_NAME[field].safeParse(text);
        if (parsed.success) values[field] = parsed.data;
        else errors.push({ column, message: firstMessage(parsed.error) });
        break;
      }
      case 'lot':
      case 'expiry': {
        const parsed = (field === 'lot' ? LotNumber : EXPIRY).safeParse(text);
        if (parsed.success) values[field] = parsed.data;
        else errors.push({ column, message: firstMessage(parsed.error) });
        break;
      }
      case 'price':
      case 'cost':
      case 'stock':
      case 'reorderPoint':
      case 'reorderQuantity': {
        const parsed = NUMBER_CELL[field].safeParse(boundedNumber(cellNumber(text, decimalComma)));
        if (parsed.success) values[field] = parsed.data;
        else errors.push({ column, message: firstMessage(parsed.error) });
        break;
      }
    }
  }
  // DESIGN §22: an Item without option values or a Name is the name of a product on its own.
  const valued = (['value1', 'value2', 'value3'] as const).some(
    (field) => columnOf[field] !== undefined && cellText(cells[columnOf[field] as number]) !== '',
  );
  const named = columnOf.name !== undefined && cellText(cells[columnOf.name]) !== '';
  if (values.item !== undefined && !valued && !named) {
    values.name = values.item;
    delete values.item;
  }
  return { values, errors };
}

/** The message of the clearing cell on a field every product has. */
export function clearMessage(field: ImportField): string {
  return `${IMPORT_FIELD_HEADER[field]} cannot be cleared: leave the cell empty to keep it.`;
}

/** The message of a required field left empty on a row that creates a product. */
export function requiredMessage(field: 'name' | 'price' | 'category' | 'supplier'): string {
  return `${IMPORT_FIELD_HEADER[field]} is required for a new product.`;
}

/** The message of a row whose Expiry disagrees with the known lot it names: both days. */
export function otherExpiry(number: string, known: string | null, expiry: string): string {
  return known === null
    ? `Lot ${number} does not expire: its Expiry must be empty, not ${expiry}.`
    : `Lot ${number} expires on ${known}, not ${expiry}.`;
}
