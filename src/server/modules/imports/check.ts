import {
  cellText,
  IMPORT_FIELD_HEADER,
  IMPORT_FIELDS,
  type ImportChange,
  type ImportError,
  type ImportField,
  type ImportMapping,
  type ImportOptions,
  type ImportResult,
  type ImportRow,
  type ImportSummary,
  type ImportValues,
  otherExpiry,
  readImportRow,
  requiredMessage,
} from '../../../shared/imports';
import type { Tracking } from '../../../shared/lots';
import { Stock } from '../../../shared/products';
import { type Database, type Runner, runnerOf } from '../../db/connection';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { previewCells, previewCellsSql } from './imports.repository';

/**
 * The catalogue import's dry run (DESIGN §14): every row read with the product schemas, matched
 * to an existing product, checked against the catalogue and the rest of the file, and its result
 * (create, update with its changes, unchanged, error) kept on the row for the screen and the
 * apply. It writes nothing but the import's own two tables (see imports.repository.ts for what
 * it leaves there).
 */

/** Rows read, checked and written per round trip. */
export const CHECK_BATCH = 2000;

type CheckOptions = { mapping: ImportMapping } & ImportOptions;

/** A product as the check compares it: its own values, not the store defaults in force. */
type Existing = {
  id: string;
  name: string;
  sku: string | null;
  barcode: string | null;
  description: string;
  price: string;
  cost: string | null;
  stock: number;
  reorderPoint: number | null;
  reorderQuantity: number | null;
  categoryName: string;
  supplierName: string;
  /** The product's own rate; null when it follows the store's default. */
  taxRateName: string | null;
  /** 'lot': its stock lives in lots (DESIGN §15). */
  tracking: Tracking;
};

/** A lot of a matched lot-tracked product that a row names. */
type KnownLot = { number: string; expiresOn: string | null; quantity: number };

type Checked = {
  line: number;
  result: ImportResult;
  errors: ImportError[];
  productId: string | null;
  changes: ImportChange[] | null;
};

const lower = (text: string) => text.toLowerCase();
const cents = (value: number | string) => Math.round(Number(value) * 100);
const quoted = (text: string) => `“${text}”`;

/** The header a field is mapped to, by its index in the file's columns. */
function columnIndexes(mapping: ImportMapping, columns: readonly string[]) {
  const columnOf: Partial<Record<ImportField, number>> = {};
  for (const field of IMPORT_FIELDS) {
    const header = mapping[field];
    if (header !== undefined) columnOf[field] = columns.indexOf(header);
  }
  return columnOf;
}

/**
 * Refuses (400) a mapping the file cannot serve: a header it does not have, two fields on one
 * column, or the field to match by left unmapped.
 */
export function checkMapping(mapping: ImportMapping, columns: readonly string[], matchBy: ImportField): void {
  const fieldOf = new Map<string, ImportField>();
  for (const field of IMPORT_FIELDS) {
    const header = mapping[field];
    if (header === undefined) continue;
    if (!columns.includes(header)) throw badRequest(`The file has no column named ${quoted(header)}.`);
    const other = fieldOf.get(header);
    if (other)
      throw badRequest(
        `${IMPORT_FIELD_HEADER[other]} and ${IMPORT_FIELD_HEADER[field]} are both mapped to the column ${quoted(header)}: a column serves one field.`,
      );
    fieldOf.set(header, field);
  }
  if (mapping[matchBy] === undefined)
    throw badRequest(`Map a column to ${IMPORT_FIELD_HEADER[matchBy]} to match products by it.`);
}

/** "line 7", "lines 7, 9", "lines 7, 9, 12, 15, 20 and 3 more". */
function linesText(lines: readonly number[]): string {
  const shown = lines.slice(0, 5).join(', ');
  const more = lines.length > 5 ? ` and ${lines.length - 5} more` : '';
  return lines.length === 1 ? `line ${shown}` : `lines ${shown}${more}`;
}

/** The lines on which each key (lower case) appears, for keys on more than one line. */
type Duplicates = Map<string, number[]>;

/**
 * One pass over the file's key cells (SKU, barcode, and the name when matching by it): the keys
 * on two or more lines. Done first so the first of two rows is marked too, whichever batch holds it.
 */
async function fileDuplicates(
  runner: Runner,
  importId: string,
  columnOf: Partial<Record<ImportField, number>>,
  fields: readonly ImportField[],
): Promise<Map<ImportField, Duplicates>> {
  const found = new Map<ImportField, Duplicates>();
  const mapped = fields.filter((field) => columnOf[field] !== undefined);
  if (mapped.length === 0) return found;
  // Only the key cells travel: SQL arrays count from 1.
  const select = mapped.map((field, i) => `cells[${(columnOf[field] as number) + 1}] as k${i}`).join(', ');
  const rows = await runner.query<Record<string, string | null> & { line: number }>(
    `select line, ${select} from import_rows where import_id = $1 order by line`,
    [importId],
  );
  mapped.forEach((field, i) => {
    const seen = new Map<string, number[]>();
    for (const row of rows) {
      const key = lower(cellText(row[`k${i}`] ?? ''));
      if (key === '') continue;
      const lines = seen.get(key);
      if (lines) lines.push(row.line);
      else seen.set(key, [row.line]);
    }
    for (const [key, lines] of seen) if (lines.length < 2) seen.delete(key);
    found.set(field, seen);
  });
  return found;
}

/** Categories or suppliers by lower-case name, read as the batches name them. */
class NameBook {
  private readonly known = new Map<string, { name: string; count: number } | null>();
  /** Names missing from the store, lower → first spelling, from rows without errors. */
  readonly created = new Map<string, string>();

  constructor(private readonly table: 'categories' | 'suppliers') {}

  async load(runner: Runner, names: Iterable<string>): Promise<void> {
    const wanted = [...new Set([...names].map(lower))].filter((key) => !this.known.has(key));
    if (wanted.length === 0) return;
    const rows = await runner.query<{ key: string; name: string; count: number }>(
      `select lower(name) as key, min(name) as name, count(*)::int as count
         from ${this.table} where lower(name) = any($1::text[]) group by lower(name)`,
      [wanted],
    );
    for (const key of wanted) this.known.set(key, null);
    for (const row of rows) this.known.set(row.key, { name: row.name, count: row.count });
  }

  get(name: string) {
    return this.known.get(lower(name)) ?? null;
  }
}

const PRODUCT_COLUMNS = `p.id, p.name, p.sku, p.barcode, p.description, p.price::text as price,
  p.cost::text as cost, p.stock, p.reorder_point as "reorderPoint", p.reorder_quantity as "reorderQuantity",
  c.name as "categoryName", s.name as "supplierName", t.name as "taxRateName", p.tracking`;

/** Every product's keys (lower case) → its id: one read of the catalogue per check. */
type ProductKeys = {
  bySku: Map<string, string>;
  byBarcode: Map<string, string>;
  /** Only when matching by name; up to two ids a name (two are enough to know it is several). */
  byName: Map<string, string[]>;
};

/**
 * Reads the catalogue's keys once. Looking each batch's keys up in the indexes instead cost
 * seconds a batch: PostgreSQL prices 2,000 probes of lower(sku) above reading every product and
 * then reads every product, for every batch.
 */
async function productKeys(runner: Runner, withNames: boolean): Promise<ProductKeys> {
  const rows = await runner.query<{
    id: string;
    sku: string | null;
    barcode: string | null;
    name: string | null;
  }>(
    `select id, lower(sku) as sku, lower(barcode) as barcode, ${withNames ? 'lower(name)' : 'null'} as name
       from products`,
  );
  const keys: ProductKeys = { bySku: new Map(), byBarcode: new Map(), byName: new Map() };
  for (const row of rows) {
    if (row.sku !== null) keys.bySku.set(row.sku, row.id);
    if (row.barcode !== null) keys.byBarcode.set(row.barcode, row.id);
    if (row.name === null) continue;
    const ids = keys.byName.get(row.name);
    if (!ids) keys.byName.set(row.name, [row.id]);
    else if (ids.length < 2) ids.push(row.id);
  }
  return keys;
}

/** The products with these ids, as the check compares them. */
async function productsByIds(runner: Runner, ids: string[]): Promise<Existing[]> {
  if (ids.length === 0) return [];
  return runner.query<Existing>(
    `select ${PRODUCT_COLUMNS}
       from products p
       join categories c on c.id = p.category_id
       join suppliers s on s.id = p.supplier_id
       left join tax_rates t on t.id = p.tax_rate_id
      where p.id = any($1::uuid[])`,
    [ids],
  );
}

/** What a check needs across batches. */
type Context = {
  options: CheckOptions;
  headers: readonly string[];
  columnOf: Partial<Record<ImportField, number>>;
  duplicates: Map<ImportField, Duplicates>;
  categories: NameBook;
  suppliers: NameBook;
  /** Tax rates by lower-case name → name as stored. */
  taxRates: Map<string, string>;
  keys: ProductKeys;
};

/** One batch's products, by key. */
type Catalogue = {
  bySku: Map<string, Existing>;
  byBarcode: Map<string, Existing>;
  byName: Map<string, Existing[]>;
  /** The lots the batch's rows name, by product id and lower-case number. */
  lots: Map<string, Map<string, KnownLot>>;
};

function catalogueOf(products: Existing[]): Catalogue {
  const catalogue: Catalogue = { bySku: new Map(), byBarcode: new Map(), byName: new Map(), lots: new Map() };
  for (const product of products) {
    if (product.sku !== null) catalogue.bySku.set(lower(product.sku), product);
    if (product.barcode !== null) catalogue.byBarcode.set(lower(product.barcode), product);
    const key = lower(product.name);
    const named = catalogue.byName.get(key);
    if (named) named.push(product);
    else catalogue.byName.set(key, [product]);
  }
  return catalogue;
}

const DUPLICATE_LABEL: Partial<Record<ImportField, string>> = {
  sku: 'SKU',
  barcode: 'barcode',
  name: 'name',
};

/** Checks one row; `read` is what readImportRow made of its cells. */
function checkRow(
  context: Context,
  catalogue: Catalogue,
  line: number,
  cells: readonly string[],
  read: { values: ImportValues; errors: ImportError[] },
): Checked {
  const { options, headers, columnOf } = context;
  const { values } = read;
  const errors = [...read.errors];
  const columnFor = (field: ImportField) => {
    const index = columnOf[field];
    return index === undefined ? 'Row' : (headers[index] as string);
  };
  const fail = (field: ImportField, message: string) => errors.push({ column: columnFor(field), message });
  const failed = (field: ImportField) =>
    columnOf[field] !== undefined && read.errors.some((error) => error.column === columnFor(field));

  // Duplicates inside the file, named by the other lines.
  for (const field of [
    'sku',
    'barcode',
    ...(options.matchBy === 'name' ? (['name'] as const) : []),
  ] as const) {
    const index = columnOf[field];
    if (index === undefined) continue;
    const lines = context.duplicates.get(field)?.get(lower(cellText(cells[index])));
    if (!lines) continue;
    const others = lines.filter((other) => other !== line);
    fail(field, `The same ${DUPLICATE_LABEL[field]} is also on ${linesText(others)}.`);
  }

  // The product this row updates, if any.
  let product: Existing | undefined;
  let matched = !failed(options.matchBy);
  if (matched) {
    if (options.matchBy === 'name') {
      const named = values.name === undefined ? [] : (catalogue.byName.get(lower(values.name)) ?? []);
      if (named.length > 1) {
        fail(
          'name',
          `Several products are named ${quoted(values.name as string)}: match by SKU or barcode instead.`,
        );
        matched = false;
      } else product = named[0];
    } else {
      const key = values[options.matchBy];
      if (key) product = (options.matchBy === 'sku' ? catalogue.bySku : catalogue.byBarcode).get(lower(key));
    }
  }

  // A code another existing product holds.
  if (matched) {
    for (const field of ['sku', 'barcode'] as const) {
      const code = values[field];
      if (!code) continue;
      const holder = (field === 'sku' ? catalogue.bySku : catalogue.byBarcode).get(lower(code));
      if (holder && holder.id !== product?.id)
        fail(field, `Another product already has this ${field === 'sku' ? 'SKU' : 'barcode'}.`);
    }
  }

  // Category and supplier by name; tax rate by name.
  const newNames: { book: NameBook; name: string }[] = [];
  const refName = (field: 'category' | 'supplier'): string | undefined => {
    const name = values[field];
    if (name === undefined) return undefined;
    const book = field === 'category' ? context.categories : context.suppliers;
    const found = book.get(name);
    if (found && found.count > 1) {
      fail(
        field,
        `${found.count} ${field === 'category' ? 'categories' : 'suppliers'} are named ${quoted(name)}: rename all but one first.`,
      );
      return undefined;
    }
    if (found) return found.name;
    const createMissing =
      field === 'category' ? options.createMissing.categories : options.createMissing.suppliers;
    if (!createMissing) {
      fail(field, `No ${field} named ${quoted(name)}.`);
      return undefined;
    }
    newNames.push({ book, name });
    return book.created.get(lower(name)) ?? name;
  };
  const category = refName('category');
  const supplier = refName('supplier');
  let taxRate: string | null | undefined;
  if (values.taxRate !== undefined) {
    if (values.taxRate === null) taxRate = null;
    else {
      taxRate = context.taxRates.get(lower(values.taxRate));
      if (taxRate === undefined) fail('taxRate', `No tax rate named ${quoted(values.taxRate)}.`);
    }
  }

  // The lot (DESIGN §15): a Lot makes a new product lot-tracked; on an existing product it must
  // be tracked, and a tracked product's stock changes only into or out of a named lot.
  const lot = values.lot ?? null;
  const expiry = values.expiry ?? null;
  if (expiry !== null && lot === null && !failed('lot'))
    fail('expiry', `An Expiry needs the Lot it belongs to on the same row.`);
  const tracked = product?.tracking === 'lot';
  if (product && !tracked && lot !== null) fail('lot', 'This product is not tracked by lot.');
  const known =
    product && tracked && lot !== null ? catalogue.lots.get(product.id)?.get(lower(lot)) : undefined;
  if (known && expiry !== null && expiry !== known.expiresOn)
    fail('expiry', otherExpiry(known.number, known.expiresOn, expiry));

  // Stock: for a new product the file's (empty: 0); for an update by the stock mode. A tracked
  // product's `set` counts the row's lot (a new lot holds 0), its `add` adds into it.
  const stockRead = options.stock !== 'ignore' && values.stock !== undefined;
  let stockTo: number | undefined;
  let lotChange: ImportChange | undefined;
  if (product && stockRead && values.stock !== null && values.stock !== undefined) {
    const add = options.stock === 'add';
    if (tracked && lot !== null) {
      const before = known?.quantity ?? 0;
      const after = add ? before + values.stock : values.stock;
      stockTo = product.stock - before + after;
      if (after !== before)
        lotChange = {
          field: 'lot',
          from: known ? `${known.number}: ${before}` : null,
          to: `${known ? known.number : newLotText(lot, expiry)}: ${after}`,
        };
    } else {
      stockTo = add ? product.stock + values.stock : values.stock;
      if (tracked && stockTo !== product.stock && !failed('lot'))
        fail('lot', `${IMPORT_FIELD_HEADER.lot} is required for a lot-tracked product.`);
    }
    if (!Stock.safeParse(stockTo).success) {
      fail('stock', 'Stock would be too large.');
      stockTo = undefined;
    }
  }

  const changes: ImportChange[] = [];
  if (!product && matched) {
    // A new product needs a name, a price, a category and a supplier.
    for (const field of ['name', 'price', 'category', 'supplier'] as const)
      if (values[field] === undefined && !failed(field)) fail(field, requiredMessage(field));
    // With a Lot it is created lot-tracked, its stock (empty: 0) in that lot.
    if (lot !== null)
      changes.push({ field: 'lot', from: null, to: `${newLotText(lot, expiry)}: ${values.stock ?? 0}` });
  } else if (product) {
    const change = (field: ImportField, from: ImportChange['from'], to: ImportChange['to']) =>
      changes.push({ field, from, to });
    const text = (field: 'name' | 'sku' | 'barcode' | 'description') => {
      const to = values[field];
      if (to !== undefined && to !== product[field]) change(field, product[field], to);
    };
    text('name');
    text('sku');
    text('barcode');
    text('description');
    if (category !== undefined && lower(category) !== lower(product.categoryName))
      change('category', product.categoryName, category);
    if (supplier !== undefined && lower(supplier) !== lower(product.supplierName))
      change('supplier', product.supplierName, supplier);
    if (values.price !== undefined && cents(values.price) !== cents(product.price))
      change('price', Number(product.price), values.price);
    if (values.cost !== undefined) {
      const from = product.cost === null ? null : Number(product.cost);
      const same =
        from === null || values.cost === null ? from === values.cost : cents(from) === cents(values.cost);
      if (!same) change('cost', from, values.cost);
    }
    if (stockTo !== undefined && stockTo !== product.stock) change('stock', product.stock, stockTo);
    if (lotChange) changes.push(lotChange);
    for (const field of ['reorderPoint', 'reorderQuantity'] as const) {
      const to = values[field];
      if (to !== undefined && to !== product[field]) change(field, product[field], to);
    }
    if (
      taxRate !== undefined &&
      (taxRate === null ? null : lower(taxRate)) !==
        (product.taxRateName === null ? null : lower(product.taxRateName))
    )
      change('taxRate', product.taxRateName, taxRate);
  }

  if (errors.length > 0) {
    // Left to right as the file's columns go; the row's own problems last.
    const place = (column: string) => {
      const index = headers.indexOf(column);
      return index < 0 ? headers.length : index;
    };
    errors.sort((a, b) => place(a.column) - place(b.column));
    return { line, result: 'error', errors, productId: null, changes: null };
  }
  for (const { book, name } of newNames)
    if (!book.created.has(lower(name))) book.created.set(lower(name), name);
  if (!product)
    return { line, result: 'create', errors, productId: null, changes: changes.length > 0 ? changes : null };
  return changes.length > 0
    ? { line, result: 'update', errors, productId: product.id, changes }
    : { line, result: 'unchanged', errors, productId: product.id, changes: null };
}

/** A lot the apply will create, as the dry run shows it: "A17 (new, expires 2027-01-31)". */
const newLotText = (number: string, expiry: string | null) =>
  `${number} (new, ${expiry === null ? 'no expiry' : `expires ${expiry}`})`;

/**
 * The lots the batch's rows name on their matched lot-tracked products: one read a batch, and
 * none for a file without a Lot column.
 */
async function namedLots(
  runner: Runner,
  catalogue: Catalogue,
  reads: { values: ImportValues }[],
): Promise<void> {
  const numbers = new Set<string>();
  for (const { values } of reads) if (values.lot) numbers.add(lower(values.lot));
  if (numbers.size === 0) return;
  const ids = new Set<string>();
  for (const products of [catalogue.bySku.values(), catalogue.byBarcode.values()])
    for (const product of products) if (product.tracking === 'lot') ids.add(product.id);
  for (const named of catalogue.byName.values())
    for (const product of named) if (product.tracking === 'lot') ids.add(product.id);
  if (ids.size === 0) return;
  const rows = await runner.query<KnownLot & { productId: string; key: string }>(
    `select product_id as "productId", lower(number) as key, number, expires_on::text as "expiresOn", quantity
       from lots where product_id = any($1::uuid[]) and lower(number) = any($2::text[])`,
    [[...ids], [...numbers]],
  );
  for (const { productId, key, ...lot } of rows) {
    const lots = catalogue.lots.get(productId) ?? new Map<string, KnownLot>();
    lots.set(key, lot);
    catalogue.lots.set(productId, lots);
  }
}

/** Reads every tax rate: a store has a handful. */
async function taxRatesByName(runner: Runner): Promise<Map<string, string>> {
  const rows = await runner.query<{ name: string }>('select name from tax_rates');
  return new Map(rows.map((row) => [lower(row.name), row.name]));
}

/** Checks one batch of rows and writes their results; answers them. */
async function checkBatch(
  runner: Runner,
  importId: string,
  context: Context,
  rows: { line: number; cells: string[] }[],
): Promise<Checked[]> {
  const { columnOf, headers, options } = context;
  const reads = rows.map((row) => readImportRow(row.cells, columnOf, headers, true));
  const ids = new Set<string>();
  const categories: string[] = [];
  const suppliers: string[] = [];
  const { keys } = context;
  const want = (id: string | undefined) => id !== undefined && ids.add(id);
  for (const { values } of reads) {
    if (values.sku) want(keys.bySku.get(lower(values.sku)));
    if (values.barcode) want(keys.byBarcode.get(lower(values.barcode)));
    if (options.matchBy === 'name' && values.name)
      for (const id of keys.byName.get(lower(values.name)) ?? []) want(id);
    if (values.category) categories.push(values.category);
    if (values.supplier) suppliers.push(values.supplier);
  }
  // One connection holds the transaction: its statements go one after another.
  const products = await productsByIds(runner, [...ids]);
  await context.categories.load(runner, categories);
  await context.suppliers.load(runner, suppliers);
  const catalogue = catalogueOf(products);
  if (columnOf.lot !== undefined) await namedLots(runner, catalogue, reads);
  const checked = rows.map((row, i) =>
    checkRow(context, catalogue, row.line, row.cells, reads[i] as (typeof reads)[number]),
  );
  await runner.query(
    `update import_rows r
        set result = v.result, errors = v.errors, product_id = v.product_id, changes = v.changes
       from jsonb_to_recordset($2::jsonb)
         as v(line integer, result text, errors jsonb, product_id uuid, changes jsonb)
      where r.import_id = $1 and r.line = v.line`,
    [
      importId,
      JSON.stringify(
        checked.map((row) => ({
          line: row.line,
          result: row.result,
          errors: row.errors,
          product_id: row.productId,
          changes: row.changes,
        })),
      ),
    ],
  );
  return checked;
}

const byName = (a: string, b: string) => a.localeCompare(b);

/**
 * Checks import `importId` with these options: every row's result replaces the last check's, and
 * the import becomes `checked` with its mapping, options and summary. 404 for an unknown import,
 * 409 while it is applied or once it has been, 400 for a mapping the file cannot serve.
 *
 * A check after a failed apply is allowed: the store fixes what made it fail and checks again.
 * Rows the failed apply wrote keep their `applied_at`, so the next apply does not write them twice.
 *
 * It runs in one transaction holding the import's row, so an apply starting meanwhile waits for
 * it and then sees a whole check, never half of one.
 */
export async function checkImport(
  database: Database,
  importId: string,
  input: CheckOptions,
): Promise<ImportSummary> {
  return database.db.transaction(async (tx) => {
    const runner = runnerOf(tx);
    const [record] = await runner.query<{ status: string; columns: string[] }>(
      'select status, columns from imports where id = $1 for update',
      [importId],
    );
    if (!record) throw notFound('Import');
    if (record.status === 'applying')
      throw conflict('This import is being applied: it can no longer be checked.');
    if (record.status === 'applied')
      throw conflict('This import has been applied: upload the file again to check it anew.');
    const headers = record.columns;
    checkMapping(input.mapping, headers, input.matchBy);
    const columnOf = columnIndexes(input.mapping, headers);
    // The stock column is not read at all when the stock is left alone.
    if (input.stock === 'ignore') delete columnOf.stock;

    const context: Context = {
      options: input,
      headers,
      columnOf,
      duplicates: await fileDuplicates(
        runner,
        importId,
        columnOf,
        ['sku', 'barcode', 'name'].filter(
          (field) => field !== 'name' || input.matchBy === 'name',
        ) as ImportField[],
      ),
      categories: new NameBook('categories'),
      suppliers: new NameBook('suppliers'),
      taxRates: await taxRatesByName(runner),
      keys: await productKeys(runner, input.matchBy === 'name'),
    };
    const counts: Record<ImportResult, number> = { create: 0, update: 0, unchanged: 0, error: 0 };
    let after = 0;
    for (;;) {
      const rows = await runner.query<{ line: number; cells: string[] }>(
        'select line, cells from import_rows where import_id = $1 and line > $2 order by line limit $3',
        [importId, after, CHECK_BATCH],
      );
      if (rows.length === 0) break;
      for (const row of await checkBatch(runner, importId, context, rows)) counts[row.result]++;
      after = (rows.at(-1) as { line: number }).line;
      if (rows.length < CHECK_BATCH) break;
    }
    const summary: ImportSummary = {
      create: counts.create,
      update: counts.update,
      unchanged: counts.unchanged,
      errors: counts.error,
      newCategories: [...context.categories.created.values()].sort(byName),
      newSuppliers: [...context.suppliers.created.values()].sort(byName),
    };
    const { mapping, ...options } = input;
    await runner.query(
      `update imports set mapping = $2::jsonb, options = $3::jsonb, summary = $4::jsonb,
              checked_at = now(), status = 'checked', failure = null
        where id = $1`,
      [importId, JSON.stringify(mapping), JSON.stringify(options), JSON.stringify(summary)],
    );
    return summary;
  });
}

/** The rows of a checked import, in line order, with the products they matched (cells cut short). */
export async function checkedRows(
  database: Database,
  importId: string,
  query: { result?: ImportResult; page: number; pageSize: number },
): Promise<{ rows: ImportRow[]; total: number }> {
  const filter = query.result ? 'and r.result = $2' : 'and $2::text is null';
  const params = [importId, query.result ?? null];
  const [rows, [count]] = await Promise.all([
    database.query<{
      line: number;
      result: ImportResult;
      cells: string[];
      errors: ImportError[] | null;
      changes: ImportChange[] | null;
      productId: string | null;
      productName: string | null;
    }>(
      `select r.line, r.result, ${previewCellsSql('r.cells')} as cells, r.errors, r.changes, p.id as "productId", p.name as "productName"
         from import_rows r left join products p on p.id = r.product_id
        where r.import_id = $1 ${filter}
        order by r.line limit $3 offset $4`,
      [...params, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    database.query<{ total: number }>(
      `select count(*)::int as total from import_rows r where r.import_id = $1 ${filter}`,
      params,
    ),
  ]);
  return {
    rows: rows.map((row) => ({
      row: row.line,
      result: row.result,
      ...(row.productId !== null && { product: { _id: row.productId, name: row.productName as string } }),
      ...(row.changes !== null && { changes: row.changes }),
      errors: row.errors ?? [],
      cells: previewCells(row.cells),
    })),
    total: count?.total ?? 0,
  };
}
