import {
  cellText,
  IMPORT_FIELD_HEADER,
  IMPORT_FIELDS,
  type ImportChange,
  type ImportError,
  type ImportField,
  type ImportFormat,
  type ImportMapping,
  type ImportOptions,
  type ImportResult,
  type ImportRow,
  type ImportSummary,
  type ImportValues,
  isClearCell,
  readImportRow,
  STOCK_AT,
  stockAtLocation,
} from '../../../shared/imports';
import { refusalSentence } from '../../../shared/refusals';
import { type Database, type Runner, runnerOf } from '../../db/connection';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { locationFor } from '../locations/location-for';
import { previewCells, previewCellsSql } from './imports.repository';
import {
  type ColumnOf,
  columnIndexes,
  comboKey,
  type Existing,
  ItemBook,
  type Judge,
  type Judged,
  judgeRow,
  type LotBook,
  lotsNamed,
  lower,
  type Match,
  NameBook,
  NO_SUPPLIER,
  productsByIds,
  quoted,
  type StockAtColumn,
  stockAtColumns,
  taxRatesByName,
} from './judge';
import { PRESETS } from './presets';

/**
 * The catalogue import's dry run (DESIGN §14): every row read with the product schemas, matched
 * to an existing product, checked against the catalogue and the rest of the file, and its result
 * (create, update with its changes, unchanged, error) kept on the row for the screen and the
 * apply. Matching is the check's; judging the matched row is judgeRow's, which the apply runs
 * again (judge.ts). It writes nothing but the import's own two tables (see imports.repository.ts
 * for what it leaves there).
 */

/** Rows read, checked and written per round trip. */
export const CHECK_BATCH = 2000;

type CheckOptions = { mapping: ImportMapping } & ImportOptions;

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
  for (const [key, header] of Object.entries(mapping)) {
    if (stockAtLocation(key) === undefined || typeof header !== 'string') continue;
    if (!columns.includes(header)) throw badRequest(`The file has no column named ${quoted(header)}.`);
    const other = fieldOf.get(header);
    if (other)
      throw badRequest(
        `${IMPORT_FIELD_HEADER[other]} and a location's stock are both mapped to the column ${quoted(header)}: a column serves one field.`,
      );
    if (
      Object.entries(mapping).some(([k, h]) => k !== key && h === header && stockAtLocation(k) !== undefined)
    )
      throw badRequest(
        `Two locations' stock are mapped to the column ${quoted(header)}: a column serves one field.`,
      );
  }
  if (mapping[matchBy] === undefined)
    throw badRequest(`Map a column to ${IMPORT_FIELD_HEADER[matchBy]} to match products by it.`);
}

/**
 * DESIGN §17: the locations the `stock@<location id>` keys name, with their columns' headers: 400
 * for an unknown or inactive one, or for the check's own location when Stock is mapped too.
 */
async function stockAtLocations(
  runner: Runner,
  mapping: ImportMapping,
  location: { id: string; name: string },
): Promise<Map<string, { name: string; column: string }>> {
  const wanted = new Map<string, string>();
  for (const [key, header] of Object.entries(mapping)) {
    const id = stockAtLocation(key);
    if (id !== undefined && typeof header === 'string') wanted.set(id, header);
  }
  const found = new Map<string, { name: string; column: string }>();
  if (wanted.size === 0) return found;
  const rows = await runner.query<{ id: string; name: string; active: boolean }>(
    'select id::text as id, name, active from locations where id = any($1::uuid[])',
    [[...wanted.keys()]],
  );
  for (const [id, column] of wanted) {
    const row = rows.find((one) => one.id === id);
    if (!row) throw badRequest(`The mapping's ${STOCK_AT}${id} names no location.`);
    if (!row.active) throw badRequest(`${row.name} is inactive: its stock cannot be imported.`);
    if (id === location.id && mapping.stock !== undefined)
      throw badRequest(`Stock and ${quoted(column)} both set the stock at ${row.name}: map one of them.`);
    found.set(id, { name: row.name, column });
  }
  return found;
}

/** "line 7", "lines 7, 9", "lines 7, 9, 12, 15, 20 and 3 more". */
function linesText(lines: readonly number[]): string {
  const shown = lines.slice(0, 5).join(', ');
  const more = lines.length > 5 ? ` and ${lines.length - 5} more` : '';
  return lines.length === 1 ? `line ${shown}` : `lines ${shown}${more}`;
}

/** A key cell as rows are matched by it: trimmed, lower case; '' when blank or the clearing cell. */
const keyOf = (raw: string | null | undefined) => (isClearCell(raw ?? '') ? '' : lower(cellText(raw ?? '')));

type KeyField = 'sku' | 'barcode' | 'name';

/** The lines on which each key (lower case) appears, for keys on more than one line. */
type Duplicates = Map<string, number[]>;

/** Every product's keys (lower case) → its id: one read of the catalogue per check. */
type ProductKeys = {
  bySku: Map<string, string>;
  byBarcode: Map<string, string>;
  /** Only when some row is matched by its name: a product of that name, and how many there are. */
  byName: Map<string, { id: string; count: number }>;
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
    const named = keys.byName.get(row.name);
    if (named) named.count++;
    else keys.byName.set(row.name, { id: row.id, count: 1 });
  }
  return keys;
}

/**
 * One pass over the file's key cells (SKU, barcode, name) before any batch, so the first of two
 * rows is marked too, whichever batch holds it: the keys on two or more lines (the name only
 * among the rows matched by it), then the catalogue's keys, then the products two rows match (a
 * row without SKU matched by its name, another by that product's SKU).
 */
async function fileKeys(
  runner: Runner,
  importId: string,
  columnOf: ColumnOf,
  matchBy: ImportOptions['matchBy'],
): Promise<{
  duplicates: Map<KeyField, Duplicates>;
  sameProduct: Map<number, number[]>;
  sameVariant: Map<number, number[]>;
  keys: ProductKeys;
}> {
  const fields = (['sku', 'barcode', 'name'] as const).filter((field) => columnOf[field] !== undefined);
  const variantFields = VARIANT_FIELDS.filter((field) => columnOf[field] !== undefined);
  // Only the key cells travel: SQL arrays count from 1. A preset's rows are read as it made them.
  const select = [...fields, ...variantFields]
    .map((field) => `(coalesce(translated, cells))[${(columnOf[field] as number) + 1}] as ${field}`)
    .join(', ');
  const read =
    fields.length + variantFields.length === 0
      ? []
      : await runner.query<
          Partial<Record<KeyField | (typeof VARIANT_FIELDS)[number], string | null>> & { line: number }
        >(
          `select line, ${select} from import_rows
            where import_id = $1 and result is distinct from 'skipped' order by line`,
          [importId],
        );
  const sameVariant = variantDuplicates(read);
  const rows =
    fields.length === 0
      ? []
      : read.map((row) => ({
          line: row.line,
          sku: keyOf(row.sku),
          barcode: keyOf(row.barcode),
          name: keyOf(row.name),
          // Matched by its name: matching by name, or the row lacks the key it is matched by.
          byName: matchBy === 'name' || keyOf(row[matchBy]) === '',
        }));

  const duplicates = new Map<KeyField, Duplicates>();
  for (const field of fields) {
    const seen: Duplicates = new Map();
    for (const row of rows) {
      const key = row[field];
      if (key === '' || (field === 'name' && !row.byName)) continue;
      const lines = seen.get(key);
      if (lines) lines.push(row.line);
      else seen.set(key, [row.line]);
    }
    for (const [key, lines] of seen) if (lines.length < 2) seen.delete(key);
    duplicates.set(field, seen);
  }

  const keys = await productKeys(
    runner,
    rows.some((row) => row.byName),
  );
  const sameProduct = new Map<number, number[]>();
  if (matchBy !== 'name') {
    const linesOf = new Map<string, number[]>();
    const byKey = matchBy === 'sku' ? keys.bySku : keys.byBarcode;
    for (const row of rows) {
      const field = row.byName ? 'name' : matchBy;
      // A row already refused as a duplicate is not counted again.
      if (duplicates.get(field)?.has(row[field])) continue;
      const named = row.byName ? keys.byName.get(row.name) : undefined;
      const id = row.byName ? (named?.count === 1 ? named.id : undefined) : byKey.get(row[field]);
      if (id === undefined) continue;
      const lines = linesOf.get(id);
      if (lines) lines.push(row.line);
      else linesOf.set(id, [row.line]);
    }
    for (const lines of linesOf.values())
      if (lines.length > 1)
        for (const line of lines)
          sameProduct.set(
            line,
            lines.filter((other) => other !== line),
          );
  }
  return { duplicates, sameProduct, sameVariant, keys };
}

const VARIANT_FIELDS = ['item', 'option1', 'value1', 'option2', 'value2', 'option3', 'value3'] as const;

/** DESIGN §22: the rows naming the same item and values as another row, with those rows' lines. */
function variantDuplicates(
  rows: readonly (Partial<Record<(typeof VARIANT_FIELDS)[number], string | null>> & { line: number })[],
): Map<number, number[]> {
  const linesOf = new Map<string, number[]>();
  for (const row of rows) {
    const item = keyOf(row.item);
    if (item === '') continue;
    const values: Record<string, string> = {};
    for (const n of [1, 2, 3] as const) {
      const value = keyOf(row[`value${n}`]);
      if (value !== '') values[keyOf(row[`option${n}`]) || `#${n}`] = value;
    }
    if (Object.keys(values).length === 0) continue;
    const key = `${item}\u0001${comboKey(values)}`;
    const lines = linesOf.get(key);
    if (lines) lines.push(row.line);
    else linesOf.set(key, [row.line]);
  }
  const same = new Map<number, number[]>();
  for (const lines of linesOf.values())
    if (lines.length > 1)
      for (const line of lines)
        same.set(
          line,
          lines.filter((other) => other !== line),
        );
  return same;
}

/** What a check needs across batches. */
type Context = Judge & {
  duplicates: Map<KeyField, Duplicates>;
  sameProduct: Map<number, number[]>;
  sameVariant: Map<number, number[]>;
  keys: ProductKeys;
  stockAt: StockAtColumn[];
};

/** One batch's products, by id and by key, and the lots its rows name. */
type Catalogue = {
  byId: Map<string, Existing>;
  bySku: Map<string, Existing>;
  byBarcode: Map<string, Existing>;
  lots: LotBook;
};

function catalogueOf(products: Existing[]): Catalogue {
  const catalogue: Catalogue = { byId: new Map(), bySku: new Map(), byBarcode: new Map(), lots: new Map() };
  for (const product of products) {
    catalogue.byId.set(product.id, product);
    if (product.sku !== null) catalogue.bySku.set(lower(product.sku), product);
    if (product.barcode !== null) catalogue.byBarcode.set(lower(product.barcode), product);
  }
  return catalogue;
}

/** A variant row's values by option name (as the row spells them), or undefined for any other row. */
function variantValues(values: ImportValues): Record<string, string> | undefined {
  if (values.item === undefined) return undefined;
  const combination: Record<string, string> = {};
  for (const n of [1, 2, 3] as const) {
    const value = values[`value${n}`];
    if (value !== undefined) combination[values[`option${n}`] ?? `#${n}`] = value;
  }
  return Object.keys(combination).length > 0 ? combination : undefined;
}

const KEY_LABEL: Record<KeyField, string> = { sku: 'SKU', barcode: 'barcode', name: 'name' };

/**
 * The product a row updates: by its SKU or barcode (`matchBy`), or by its name when matching by
 * name or when the row has no SKU (barcode) at all, if exactly one product has that name.
 */
function matchRow(
  context: Context,
  catalogue: Catalogue,
  line: number,
  cells: readonly string[],
  read: { values: ImportValues; errors: ImportError[] },
): Match {
  const { options, headers, columnOf, keys } = context;
  const { matchBy } = options;
  const { values } = read;
  const errors: ImportError[] = [];
  const columnFor = (field: ImportField) => {
    const index = columnOf[field];
    return index === undefined ? 'Row' : (headers[index] as string);
  };
  const failed = (field: ImportField) =>
    columnOf[field] !== undefined && read.errors.some((error) => error.column === columnFor(field));
  const byName =
    matchBy === 'name' || (!failed(matchBy) && (values[matchBy] === undefined || values[matchBy] === null));
  const label = KEY_LABEL[matchBy];

  // Duplicates inside the file, named by the other lines.
  for (const field of ['sku', 'barcode', 'name'] as const) {
    const index = columnOf[field];
    if (index === undefined) continue;
    const lines = context.duplicates.get(field)?.get(keyOf(cells[index]));
    // Names count only among the rows matched by them.
    if (!lines || (field === 'name' && !byName)) continue;
    const what = field === 'name' && matchBy !== 'name' ? `name without a ${label}` : KEY_LABEL[field];
    const others = lines.filter((other) => other !== line);
    errors.push({ column: columnFor(field), message: `The same ${what} is also on ${linesText(others)}.` });
  }
  const sameVariant = context.sameVariant.get(line);
  if (sameVariant)
    errors.push({
      column: columnFor('item'),
      message: `The same variant is also on ${linesText(sameVariant)}.`,
    });
  const same = context.sameProduct.get(line);
  if (same)
    errors.push({
      column: columnFor(byName ? 'name' : matchBy),
      message: `The same product is also on ${linesText(same)}.`,
    });

  let product: Existing | undefined;
  let known = !failed(byName ? 'name' : matchBy);
  const combination = variantValues(values);
  if (known && byName && combination) {
    // DESIGN §22: a variant row without its code is its item's variant of these values.
    const id = context.items.get(values.item as string)?.variants.get(comboKey(combination));
    product = id ? catalogue.byId.get(id) : undefined;
  } else if (known && byName) {
    const named = values.name === undefined ? undefined : keys.byName.get(lower(values.name));
    if (named && named.count > 1) {
      const name = quoted(values.name as string);
      errors.push({
        column: columnFor('name'),
        message:
          matchBy === 'name'
            ? `Several products are named ${name}: match by SKU or barcode instead.`
            : `${named.count} products are named ${name}: give this row a ${label}.`,
      });
      known = false;
    } else if (named) product = catalogue.byId.get(named.id);
  } else if (known) {
    const key = values[matchBy] as string;
    product = (matchBy === 'sku' ? catalogue.bySku : catalogue.byBarcode).get(lower(key));
  }

  // A code another existing product holds.
  if (known) {
    for (const field of ['sku', 'barcode'] as const) {
      const code = values[field];
      if (!code) continue;
      const holder = (field === 'sku' ? catalogue.bySku : catalogue.byBarcode).get(lower(code));
      if (holder && holder.id !== product?.id)
        errors.push({
          column: columnFor(field),
          message: refusalSentence(field === 'sku' ? 'SKU_TAKEN' : 'BARCODE_TAKEN'),
        });
    }
  }
  return { product, known, errors };
}

/** Checks one batch of rows and writes their results; answers them. */
async function checkBatch(
  runner: Runner,
  importId: string,
  context: Context,
  rows: { line: number; cells: string[] }[],
): Promise<Judged[]> {
  const { columnOf, headers, options, keys } = context;
  const reads = rows.map((row) => readImportRow(row.cells, columnOf, headers, true, context.stockAt));
  await context.items.load(
    runner,
    reads.flatMap(({ values }) => (values.item ? [values.item] : [])),
  );
  const ids = new Set<string>();
  const categories: string[] = [];
  const suppliers: string[] = [];
  const want = (id: string | undefined) => id !== undefined && ids.add(id);
  for (const { values } of reads) {
    if (values.sku) want(keys.bySku.get(lower(values.sku)));
    if (values.barcode) want(keys.byBarcode.get(lower(values.barcode)));
    if (values.name && (options.matchBy === 'name' || !values[options.matchBy])) {
      const named = keys.byName.get(lower(values.name));
      if (named?.count === 1) want(named.id);
    }
    const combination = variantValues(values);
    if (combination) {
      const id = context.items.get(values.item as string)?.variants.get(comboKey(combination));
      if (id) want(id);
    }
    if (values.category) categories.push(values.category);
    if (values.supplier) suppliers.push(values.supplier);
  }
  if (options.format !== 'generic') suppliers.push(NO_SUPPLIER);
  // One connection holds the transaction: its statements go one after another.
  const catalogue = catalogueOf(
    await productsByIds(
      runner,
      ids,
      false,
      options.location,
      context.stockAt.map((column) => column.location),
    ),
  );
  await context.categories.load(runner, categories);
  await context.suppliers.load(runner, suppliers);
  if (columnOf.lot !== undefined) {
    const tracked = [...catalogue.byId.values()].filter((p) => p.tracking === 'lot').map((p) => p.id);
    catalogue.lots = await lotsNamed(
      runner,
      tracked,
      reads.flatMap(({ values }) => (values.lot ? [values.lot] : [])),
      options.location,
    );
  }
  const checked = rows.map((row, i) => {
    const read = reads[i] as (typeof reads)[number];
    const match = matchRow(context, catalogue, row.line, row.cells, read);
    const lots = match.product ? catalogue.lots.get(match.product.id) : undefined;
    return judgeRow(context, { line: row.line, ...read }, match, lots);
  });
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

const alphabetical = (a: string, b: string) => a.localeCompare(b);

/**
 * DESIGN §22: a preset's pass over every row in line order before the check reads them: the cells
 * it makes go to `translated` and its warnings to `warnings`, a row it skips is `skipped` (its
 * cells null). A generic check clears what an earlier preset's left. Answers how many it skipped.
 */
async function translateRows(
  runner: Runner,
  importId: string,
  headers: readonly string[],
  format: ImportFormat,
): Promise<number> {
  if (format === 'generic') {
    await runner.query(
      `update import_rows set translated = null, warnings = null,
              result = case when result = 'skipped' then null else result end
        where import_id = $1 and (translated is not null or warnings is not null or result = 'skipped')`,
      [importId],
    );
    return 0;
  }
  const reader = PRESETS[format].reader(headers);
  let skipped = 0;
  let after = 0;
  for (;;) {
    const rows = await runner.query<{ line: number; cells: string[] }>(
      'select line, cells from import_rows where import_id = $1 and line > $2 order by line limit $3',
      [importId, after, CHECK_BATCH],
    );
    if (rows.length === 0) break;
    const made = rows.map((row) => {
      const { cells, warnings } = reader.row(row.line, row.cells);
      if (cells === null) skipped++;
      return {
        line: row.line,
        // As many cells as the file's columns: the check reads them by the same indexes.
        translated: cells === null ? null : headers.map((_, i) => cells[i] ?? ''),
        warnings: warnings.length > 0 ? warnings : null,
        result: cells === null ? 'skipped' : null,
      };
    });
    await runner.query(
      `update import_rows r
          set translated = case when v.translated is null then null
                                else array(select jsonb_array_elements_text(v.translated)) end,
              warnings = v.warnings, result = v.result, errors = case when v.result is null then r.errors else '[]'::jsonb end,
              changes = null, product_id = null
         from jsonb_to_recordset($2::jsonb) as v(line integer, translated jsonb, warnings jsonb, result text)
        where r.import_id = $1 and r.line = v.line`,
      [importId, JSON.stringify(made)],
    );
    after = (rows.at(-1) as { line: number }).line;
    if (rows.length < CHECK_BATCH) break;
  }
  return skipped;
}

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
    const [record] = await runner.query<{ status: string; columns: string[]; preset: ImportFormat }>(
      'select status, columns, preset from imports where id = $1 for update',
      [importId],
    );
    if (!record) throw notFound('Import');
    if (record.status === 'applying')
      throw conflict('This import is being applied: it can no longer be checked.');
    if (record.status === 'applied')
      throw conflict('This import has been applied: upload the file again to check it anew.');
    const headers = record.columns;
    checkMapping(input.mapping, headers, input.matchBy);
    const columnOf = columnIndexes(input.mapping, headers, input.stock);
    const { mapping, ...given } = input;
    // DESIGN §17: the location the stock goes to, resolved now (unknown 404, inactive 409) and kept.
    const location = await locationFor(runner, given.location);
    const locations = await stockAtLocations(runner, mapping, location);
    // DESIGN §22: the layout asked, else the one guessed at upload (or checked last).
    const format = given.format ?? record.preset;
    const options = { ...given, location: location.id, format };
    const counts: Record<ImportResult, number> = { create: 0, update: 0, unchanged: 0, error: 0, skipped: 0 };
    counts.skipped = await translateRows(runner, importId, headers, format);
    const context: Context = {
      options,
      headers,
      columnOf,
      ...(await fileKeys(runner, importId, columnOf, input.matchBy)),
      categories: new NameBook('categories'),
      suppliers: new NameBook('suppliers'),
      taxRates: await taxRatesByName(runner),
      newTaxRates: new Map(),
      items: new ItemBook(),
      locations,
      stockAt: stockAtColumns(mapping, headers, input.stock),
    };
    let after = 0;
    for (;;) {
      const rows = await runner.query<{ line: number; cells: string[] }>(
        `select line, coalesce(translated, cells) as cells from import_rows
          where import_id = $1 and line > $2 and result is distinct from 'skipped' order by line limit $3`,
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
      skipped: counts.skipped,
      newCategories: [...context.categories.created.values()].sort(alphabetical),
      newSuppliers: [...context.suppliers.created.values()].sort(alphabetical),
    };
    await runner.query(
      `update imports set mapping = $2::jsonb, options = $3::jsonb, summary = $4::jsonb,
              checked_at = now(), status = 'checked', failure = null, preset = $5
        where id = $1`,
      [importId, JSON.stringify(mapping), JSON.stringify(options), JSON.stringify(summary), format],
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
      warnings: ImportError[] | null;
      productId: string | null;
      productName: string | null;
    }>(
      `select r.line, r.result, ${previewCellsSql('r.cells')} as cells, r.errors, r.changes, r.warnings, p.id as "productId", p.name as "productName"
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
      warnings: row.warnings ?? [],
      cells: previewCells(row.cells),
    })),
    total: count?.total ?? 0,
  };
}
