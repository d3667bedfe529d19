import { randomUUID } from 'node:crypto';
import {
  IMPORT_FIELD_HEADER,
  IMPORT_FIELDS,
  type ImportChange,
  type ImportError,
  type ImportField,
  type ImportMapping,
  type ImportOptions,
  type ImportResult,
  type ImportValues,
  otherExpiry,
  requiredMessage,
  stockAtLocation,
} from '../../../shared/imports';
import { MAX_OPTION_VALUES, MAX_OPTIONS, variantName } from '../../../shared/items';
import type { Tracking } from '../../../shared/lots';
import { Stock } from '../../../shared/products';
import type { Runner } from '../../db/connection';

/**
 * One reading of an import row (DESIGN §14, §22). The check and the apply judge every row by
 * judgeRow: its cells as readImportRow reads them, against the product the check matched, as that
 * product is stored when they run. So the apply writes exactly the changes the check listed, and a
 * row the check called create, update or unchanged is never refused at apply for a cell the check
 * accepted (with stock `ignore` neither of them reads the stock column).
 *
 * The apply judges each row again, its product locked. When nothing changed since the check that
 * is the check's own answer. When the product changed meanwhile, the same function decides on what
 * is stored then: a stock `set` counts from the stock of that moment, a field someone already set
 * to the file's value is no longer a change (a row left with none becomes `unchanged`), and a row
 * that can no longer be written (tracking turned on, a lot made with another expiry, a category
 * deleted) fails with the sentence the check would give now. Which product a row updates is the
 * check's choice and is not made again: a row the check called a create stays one.
 */

/** Each mapped field's index in the file's columns. */
export type ColumnOf = Partial<Record<ImportField, number>>;

/**
 * The columns a check or an apply reads. With stock `ignore` the stock column is not read at all:
 * whatever it holds (a negative count, a word) never reaches a row.
 */
export function columnIndexes(
  mapping: ImportMapping,
  columns: readonly string[],
  stock: ImportOptions['stock'],
): ColumnOf {
  const columnOf: ColumnOf = {};
  for (const field of IMPORT_FIELDS) {
    const header = mapping[field];
    if (header === undefined || (field === 'stock' && stock === 'ignore')) continue;
    columnOf[field] = columns.indexOf(header);
  }
  return columnOf;
}

/** DESIGN §17: the `stock@<location id>` columns a check or an apply reads (none with stock `ignore`). */
export type StockAtColumn = { location: string; index: number };

export function stockAtColumns(
  mapping: ImportMapping,
  columns: readonly string[],
  stock: ImportOptions['stock'],
): StockAtColumn[] {
  if (stock === 'ignore') return [];
  const out: StockAtColumn[] = [];
  for (const [key, header] of Object.entries(mapping)) {
    const location = stockAtLocation(key);
    if (location !== undefined && typeof header === 'string')
      out.push({ location, index: columns.indexOf(header) });
  }
  return out;
}

export const lower = (text: string) => text.toLowerCase();
const cents = (value: number | string) => Math.round(Number(value) * 100);
export const quoted = (text: string) => `“${text}”`;

/** A product as a row is judged against: its own values, not the store defaults in force. */
export type Existing = {
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
  brand: string | null;
  active: boolean;
  /** DESIGN §22: the item it is a variant of (its name), and its values; null for a product on its own. */
  itemId: string | null;
  itemName: string | null;
  optionValues: Record<string, string> | null;
  /** DESIGN §17: its stock at each location a `stock@` column names, by location id. */
  stockAt: Record<string, number>;
};

/**
 * The products with these ids, as rows are judged against them. `lock`: locked for the apply's
 * transaction, in id order (the order every writer of stock takes its locks). With `locationId`
 * (DESIGN §17) `stock` is the product's stock at that location, the stock an import sets there.
 */
export async function productsByIds(
  runner: Runner,
  ids: Iterable<string>,
  lock: boolean,
  locationId?: string,
  stockAt: readonly string[] = [],
): Promise<Existing[]> {
  const wanted = [...new Set(ids)].sort();
  if (wanted.length === 0) return [];
  return runner.query<Existing>(
    `select p.id, p.name, p.sku, p.barcode, p.description, p.price::text as price, p.cost::text as cost,
            ${
              locationId === undefined
                ? 'p.stock'
                : `coalesce((select ls.stock from location_stock ls
                             where ls.product_id = p.id and ls.location_id = $2::uuid), 0) as stock`
            }, p.reorder_point as "reorderPoint", p.reorder_quantity as "reorderQuantity",
            c.name as "categoryName", s.name as "supplierName", t.name as "taxRateName", p.tracking,
            p.brand, p.active, p.item_id as "itemId", i.name as "itemName", p.option_values as "optionValues",
            coalesce((select jsonb_object_agg(ls.location_id::text, ls.stock) from location_stock ls
                       where ls.product_id = p.id and ls.location_id::text = any($${locationId === undefined ? 2 : 3}::text[])),
                     '{}'::jsonb) as "stockAt"
       from products p
       join categories c on c.id = p.category_id
       join suppliers s on s.id = p.supplier_id
       left join tax_rates t on t.id = p.tax_rate_id
       left join items i on i.id = p.item_id
      where p.id = any($1::uuid[])
      ${lock ? 'order by p.id for update of p' : ''}`,
    locationId === undefined ? [wanted, [...stockAt]] : [wanted, locationId, [...stockAt]],
  );
}

/** A lot of a matched lot-tracked product that a row names. */
export type KnownLot = { id: string; number: string; expiresOn: string | null; quantity: number };
/** Lots by product id, then lower-case number. */
export type LotBook = Map<string, Map<string, KnownLot>>;

/**
 * The lots with these numbers (any case) of these products: one statement. With `locationId`
 * (DESIGN §17) each lot's `quantity` is its units at that location.
 */
export async function lotsNamed(
  runner: Runner,
  productIds: Iterable<string>,
  numbers: Iterable<string>,
  locationId?: string,
): Promise<LotBook> {
  const book: LotBook = new Map();
  const ids = [...new Set(productIds)];
  const keys = [...new Set([...numbers].map(lower))];
  if (ids.length === 0 || keys.length === 0) return book;
  const rows = await runner.query<KnownLot & { productId: string; key: string }>(
    `select l.product_id as "productId", lower(l.number) as key, l.id, l.number, l.expires_on::text as "expiresOn",
            ${
              locationId === undefined
                ? 'l.quantity'
                : `coalesce((select s.quantity from lot_stock s
                             where s.lot_id = l.id and s.location_id = $3::uuid), 0) as quantity`
            }
       from lots l where l.product_id = any($1::uuid[]) and lower(l.number) = any($2::text[])`,
    locationId === undefined ? [ids, keys] : [ids, keys, locationId],
  );
  for (const { productId, key, ...lot } of rows) {
    const lots = book.get(productId) ?? new Map<string, KnownLot>();
    lots.set(key, lot);
    book.set(productId, lots);
  }
  return book;
}

/** Categories or suppliers by lower-case name, read as the batches name them. */
export class NameBook {
  private readonly known = new Map<string, { id: string; name: string; count: number } | null>();
  /** Names missing from the store, lower → first spelling, from rows without errors. */
  readonly created = new Map<string, string>();

  constructor(private readonly table: 'categories' | 'suppliers') {}

  async load(runner: Runner, names: Iterable<string>): Promise<void> {
    const wanted = [...new Set([...names].map(lower))].filter((key) => !this.known.has(key));
    if (wanted.length === 0) return;
    const rows = await runner.query<{ key: string; id: string; name: string; count: number }>(
      `select lower(name) as key, min(id::text) as id, min(name) as name, count(*)::int as count
         from ${this.table} where lower(name) = any($1::text[]) group by lower(name)`,
      [wanted],
    );
    for (const key of wanted) this.known.set(key, null);
    for (const row of rows) this.known.set(row.key, { id: row.id, name: row.name, count: row.count });
  }

  get(name: string) {
    return this.known.get(lower(name)) ?? null;
  }
}

/** Tax rates by lower-case name (a store has a handful, read whole), and those the rows create. */
export type TaxRates = Map<string, { id: string; name: string; rate: number }>;

export async function taxRatesByName(runner: Runner): Promise<TaxRates> {
  const rows = await runner.query<{ id: string; name: string; rate: string }>(
    'select id, name, rate::text as rate from tax_rates',
  );
  return new Map(rows.map((row) => [lower(row.name), { ...row, rate: Number(row.rate) }]));
}

/** DESIGN §22: the 0 % rate a "No tax" cell (and a preset's untaxed row) names, made once when missing. */
export const NO_TAX = 'No tax';
/** DESIGN §22: the supplier of a preset's row that names none, made once when missing. */
export const NO_SUPPLIER = 'No supplier';

/** A Tax rate cell `<name> (<rate>%)`: the rate of that name, with that rate (8.875). */
export function namedRate(text: string): { name: string; rate: number } | undefined {
  const found = /^(.*\S)\s*\(\s*(\d{1,3}(?:\.\d{1,3})?)\s*%\s*\)$/.exec(text);
  if (!found) return lower(text) === lower(NO_TAX) ? { name: NO_TAX, rate: 0 } : undefined;
  const rate = Number(found[2]);
  return rate <= 100 ? { name: found[1] as string, rate } : undefined;
}

const percent = (rate: number) => `${rate} %`;

/**
 * DESIGN §22: the items the rows name, by lower-case name, as the batches have them: their options
 * as the rows before have appended to them. `isNew`: an item a row creates.
 */
export type ItemEntry = {
  /** A new item's is chosen when a row plans it. */
  id: string;
  /** Whether a row creates it. */
  isNew: boolean;
  name: string;
  options: { name: string; values: string[] }[];
  categoryName: string;
  supplierName: string;
  description: string;
  brand: string | null;
  /** Its variants by combination (comboKey) → product id; the creates planned hold ''. */
  variants: Map<string, string>;
  /** Whether a row appended options or values (the apply writes them). */
  changed: boolean;
};

/** A combination of values as one key: option and value, lower case, in option-name order. */
export function comboKey(values: Readonly<Record<string, string>>): string {
  return Object.entries(values)
    .map(([option, value]) => `${lower(option)}=${lower(value)}`)
    .sort()
    .join('\u0000');
}

export class ItemBook {
  private readonly known = new Map<string, ItemEntry | null>();

  async load(runner: Runner, names: Iterable<string>): Promise<void> {
    const wanted = [...new Set([...names].map(lower))].filter((key) => !this.known.has(key));
    if (wanted.length === 0) return;
    const rows = await runner.query<{
      id: string;
      name: string;
      options: { name: string; values: string[] }[];
      categoryName: string;
      supplierName: string;
      description: string;
      brand: string | null;
      variants: { id: string; values: Record<string, string> }[];
    }>(
      `select i.id, i.name, i.options, c.name as "categoryName", s.name as "supplierName", i.description, i.brand,
              coalesce((select jsonb_agg(jsonb_build_object('id', p.id, 'values', p.option_values))
                          from products p where p.item_id = i.id), '[]'::jsonb) as variants
         from items i join categories c on c.id = i.category_id join suppliers s on s.id = i.supplier_id
        where lower(i.name) = any($1::text[])`,
      [wanted],
    );
    for (const key of wanted) this.known.set(key, null);
    for (const row of rows)
      this.known.set(lower(row.name), {
        ...row,
        isNew: false,
        variants: new Map(row.variants.map((variant) => [comboKey(variant.values), variant.id])),
        changed: false,
      });
  }

  get(name: string): ItemEntry | null {
    return this.known.get(lower(name)) ?? null;
  }

  /** Items a row creates or appends options or values to. */
  changed(): ItemEntry[] {
    return [...this.known.values()].filter((entry): entry is ItemEntry => entry !== null && entry.changed);
  }

  plan(entry: ItemEntry): void {
    this.known.set(lower(entry.name), entry);
  }
}

/** What a row is judged with, across its batch. */
export type Judge = {
  options: ImportOptions;
  headers: readonly string[];
  columnOf: ColumnOf;
  categories: NameBook;
  suppliers: NameBook;
  taxRates: TaxRates;
  /** The rates `<name> (<rate>%)` and "No tax" cells create, by lower-case name. */
  newTaxRates: Map<string, { name: string; rate: number }>;
  items: ItemBook;
  /** DESIGN §17: the locations `stock@` columns name, by id: their names and their columns' headers. */
  locations: ReadonlyMap<string, { name: string; column: string }>;
};

/** A row's cells as readImportRow read them. */
export type ReadRow = { line: number; values: ImportValues; errors: ImportError[] };

/** The product a row updates, as the check matched it. */
export type Match = {
  /** undefined: none, the row creates one. */
  product: Existing | undefined;
  /** false: which product the row means is not known (its key cell is bad, or its name ambiguous). */
  known: boolean;
  /** Problems of the match itself (duplicates in the file, a code another product holds). */
  errors: ImportError[];
};

/**
 * A product's fields a row writes: every one for a new product, the changed ones for an update.
 * They are the row's own values but its stock and lot, which move through the ledger.
 */
export type ProductFields = Omit<
  ImportValues,
  | 'stock'
  | 'lot'
  | 'expiry'
  | 'stockAt'
  | 'item'
  | 'option1'
  | 'value1'
  | 'option2'
  | 'value2'
  | 'option3'
  | 'value3'
>;

/** What the apply writes for a row. */
export type RowWrite = {
  fields: ProductFields;
  /** How a new product tracks its stock: 'lot' when the row names one. */
  tracking: Tracking;
  /**
   * The units the row moves: a new product's opening stock (0 included), or an update's counted
   * difference (`set`) or units received (`add`), never 0; into `lot` when it names one.
   */
  stock: { quantity: number; lot: { number: string; expiry: string | null } | null } | null;
  /** DESIGN §17: the units moved at other locations (`stock@` columns), never 0. */
  stockAt: { location: string; quantity: number }[];
  /** DESIGN §22: a new product's item (its id; a new one the ItemBook plans) and values. */
  variant: { itemId: string; optionValues: Record<string, string> } | null;
};

export type Judged = {
  line: number;
  result: ImportResult;
  errors: ImportError[];
  productId: string | null;
  changes: ImportChange[] | null;
  /** What the apply writes; null for rows that are unchanged or errors. */
  write: RowWrite | null;
};

/** A lot the apply will create, as the dry run shows it: "A17 (new, expires 2027-01-31)". */
const newLotText = (number: string, expiry: string | null) =>
  `${number} (new, ${expiry === null ? 'no expiry' : `expires ${expiry}`})`;

/**
 * Judges one row against the product it matched (and that product's lots the row names): its
 * result, the changes it makes, its errors by column (left to right as the file's columns go,
 * the row's own problems last), and what the apply writes. A blank cell was left out by
 * readImportRow and changes nothing; a new product takes each left-out field's default.
 */
export function judgeRow(
  judge: Judge,
  row: ReadRow,
  match: Match,
  lots: ReadonlyMap<string, KnownLot> | undefined,
): Judged {
  const { options, headers, columnOf } = judge;
  const { line } = row;
  // The defaults a new variant takes from its item are filled in below.
  const values: ImportValues = { ...row.values };
  const { product } = match;
  const errors = [...row.errors, ...match.errors];
  const columnFor = (field: ImportField) => {
    const index = columnOf[field];
    return index === undefined ? 'Row' : (headers[index] as string);
  };
  const fail = (field: ImportField, message: string) => errors.push({ column: columnFor(field), message });
  const failed = (field: ImportField) =>
    columnOf[field] !== undefined && row.errors.some((error) => error.column === columnFor(field));

  // DESIGN §22: a row with an Item and option values is a variant of that item.
  const variant = readVariant(judge, values, match, fail, failed);

  // DESIGN §22: a preset's new product without a supplier has `No supplier`.
  const noSupplier =
    !product &&
    match.known &&
    options.format !== undefined &&
    options.format !== 'generic' &&
    values.supplier === undefined &&
    !failed('supplier');
  if (noSupplier) values.supplier = NO_SUPPLIER;

  // Category and supplier by name; tax rate by name.
  const newNames: { book: NameBook; name: string }[] = [];
  const refName = (field: 'category' | 'supplier'): string | undefined => {
    const name = values[field];
    if (name === undefined) return undefined;
    const book = field === 'category' ? judge.categories : judge.suppliers;
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
      field === 'category' ? options.createMissing.categories : options.createMissing.suppliers || noSupplier;
    if (!createMissing) {
      fail(field, `No ${field} named ${quoted(name)}.`);
      return undefined;
    }
    newNames.push({ book, name });
    return book.created.get(lower(name)) ?? name;
  };
  const category = refName('category');
  const supplier = refName('supplier');
  // A rate by its name; `<name> (<rate>%)` and `No tax` (DESIGN §22) also one the apply creates.
  let taxRate: string | null | undefined;
  let newRate: { name: string; rate: number } | undefined;
  if (values.taxRate !== undefined) {
    if (values.taxRate === null) taxRate = null;
    else {
      taxRate = judge.taxRates.get(lower(values.taxRate))?.name;
      const named = taxRate === undefined ? namedRate(values.taxRate) : undefined;
      if (taxRate !== undefined) {
        // Known by the cell's whole text.
      } else if (!named) fail('taxRate', `No tax rate named ${quoted(values.taxRate)}.`);
      else {
        const have = judge.taxRates.get(lower(named.name)) ?? judge.newTaxRates.get(lower(named.name));
        if (have && Math.round(have.rate * 1000) !== Math.round(named.rate * 1000))
          fail(
            'taxRate',
            `The tax rate ${quoted(have.name)} is ${percent(have.rate)}, not ${percent(named.rate)}.`,
          );
        else if (have) taxRate = have.name;
        else {
          newRate = named;
          taxRate = named.name;
        }
      }
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
  const known = product && tracked && lot !== null ? lots?.get(lower(lot)) : undefined;
  if (known && expiry !== null && expiry !== known.expiresOn)
    fail('expiry', otherExpiry(known.number, known.expiresOn, expiry));

  // Stock of an update, by the stock mode (a new product's is the file's, blank: 0). A tracked
  // product's `set` counts the row's lot (a new lot holds 0), its `add` adds into it.
  let stockTo: number | undefined;
  let lotChange: ImportChange | undefined;
  let moved: RowWrite['stock'] = null;
  if (product && values.stock !== undefined) {
    const add = options.stock === 'add';
    let into: { number: string; expiry: string | null } | null = null;
    if (tracked && lot !== null) {
      const before = known?.quantity ?? 0;
      const after = add ? before + values.stock : values.stock;
      stockTo = product.stock - before + after;
      into = known ? { number: known.number, expiry: known.expiresOn } : { number: lot, expiry };
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
    } else if (stockTo !== product.stock) moved = { quantity: stockTo - product.stock, lot: into };
  }

  // DESIGN §17: the stock at each location a `stock@` column names, by the same stock mode.
  const stockAt: RowWrite['stockAt'] = [];
  const stockAtChanges: ImportChange[] = [];
  for (const [location, quantity] of Object.entries(values.stockAt ?? {})) {
    const place = judge.locations.get(location);
    const column = place?.column ?? 'Row';
    const before = product ? (product.stockAt[location] ?? 0) : 0;
    const after = product && options.stock === 'add' ? before + quantity : quantity;
    if (after === before) continue;
    if (!Stock.safeParse(after).success) errors.push({ column, message: 'Stock would be too large.' });
    else if (tracked || lot !== null)
      errors.push({
        column,
        message: `A lot-tracked product's stock at ${place?.name ?? 'a location'} moves with its Lot: import it in a file checked at that location.`,
      });
    else {
      stockAt.push({ location, quantity: after - before });
      stockAtChanges.push({
        field: 'stock',
        from: product ? before : null,
        to: after,
        location: place?.name ?? location,
      });
    }
  }

  const changes: ImportChange[] = [];
  const fields: ProductFields = {};
  if (!product && match.known) {
    // A new product needs a name, a price, a category and a supplier.
    for (const field of ['name', 'price', 'category', 'supplier'] as const)
      if (values[field] === undefined && !failed(field)) fail(field, requiredMessage(field));
    // With a Lot it is created lot-tracked, its stock (blank: 0) in that lot.
    if (lot !== null)
      changes.push({ field: 'lot', from: null, to: `${newLotText(lot, expiry)}: ${values.stock ?? 0}` });
    changes.push(...stockAtChanges);
  } else if (product) {
    // A variant's name is its item's and its values' (DESIGN §22): renamed with them, not here.
    if (
      product.itemId !== null &&
      values.name !== undefined &&
      values.name !== product.name &&
      !failed('name')
    )
      fail(
        'name',
        `This variant is named ${quoted(product.name)} by its item and values: rename them in the item editor.`,
      );
    const change = <F extends keyof ProductFields>(
      field: F,
      from: ImportChange['from'],
      to: NonNullable<ProductFields[F]> | null,
    ) => {
      changes.push({ field, from, to });
      fields[field] = to as ProductFields[F];
    };
    for (const field of ['name', 'sku', 'barcode', 'description'] as const) {
      const to = values[field];
      if (field === 'name' && product.itemId !== null) continue;
      if (to !== undefined && to !== product[field]) change(field, product[field], to);
    }
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
    if (moved) changes.push({ field: 'stock', from: product.stock, to: stockTo as number });
    changes.push(...stockAtChanges);
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
    if (values.brand !== undefined && values.brand !== product.brand)
      change('brand', product.brand, values.brand);
    if (values.active !== undefined && values.active !== product.active)
      change('active', product.active, values.active);
  }

  if (errors.length > 0) {
    const place = (column: string) => {
      const index = headers.indexOf(column);
      return index < 0 ? headers.length : index;
    };
    errors.sort((a, b) => place(a.column) - place(b.column));
    return { line, result: 'error', errors, productId: null, changes: null, write: null };
  }
  for (const { book, name } of newNames)
    if (!book.created.has(lower(name))) book.created.set(lower(name), name);
  if (newRate && !judge.newTaxRates.has(lower(newRate.name)))
    judge.newTaxRates.set(lower(newRate.name), newRate);
  const planned = variant && !product ? planVariant(judge, variant, { category, supplier, values }) : null;
  if (!product) {
    const write: RowWrite = {
      fields: {
        name: values.name,
        sku: values.sku ?? null,
        barcode: values.barcode ?? null,
        description: values.description ?? '',
        category,
        supplier,
        price: values.price,
        cost: values.cost ?? null,
        reorderPoint: values.reorderPoint ?? null,
        reorderQuantity: values.reorderQuantity ?? null,
        taxRate: taxRate ?? null,
        brand: values.brand ?? null,
        active: values.active ?? true,
      },
      tracking: lot === null ? 'none' : 'lot',
      stock: { quantity: values.stock ?? 0, lot: lot === null ? null : { number: lot, expiry } },
      stockAt,
      variant: planned,
    };
    return {
      line,
      result: 'create',
      errors,
      productId: null,
      changes: changes.length > 0 ? changes : null,
      write,
    };
  }
  if (changes.length === 0)
    return { line, result: 'unchanged', errors, productId: product.id, changes: null, write: null };
  return {
    line,
    result: 'update',
    errors,
    productId: product.id,
    changes,
    write: { fields, tracking: product.tracking, stock: moved, stockAt, variant: null },
  };
}

/**
 * The product (and its lots in `lots`) as an update row leaves it, so a later row of the same
 * batch on that product is judged against what the first one wrote.
 */
export function afterWrite(product: Existing, lots: LotBook, write: RowWrite): Existing {
  const { fields } = write;
  const next: Existing = { ...product };
  if (fields.name !== undefined) next.name = fields.name;
  if (fields.sku !== undefined) next.sku = fields.sku;
  if (fields.barcode !== undefined) next.barcode = fields.barcode;
  if (fields.description !== undefined) next.description = fields.description;
  if (fields.category !== undefined) next.categoryName = fields.category;
  if (fields.supplier !== undefined) next.supplierName = fields.supplier;
  if (fields.price !== undefined) next.price = fields.price.toFixed(2);
  if (fields.cost !== undefined) next.cost = fields.cost === null ? null : fields.cost.toFixed(2);
  if (fields.reorderPoint !== undefined) next.reorderPoint = fields.reorderPoint;
  if (fields.reorderQuantity !== undefined) next.reorderQuantity = fields.reorderQuantity;
  if (fields.taxRate !== undefined) next.taxRateName = fields.taxRate;
  if (fields.brand !== undefined) next.brand = fields.brand;
  if (fields.active !== undefined) next.active = fields.active;
  if (write.stockAt.length > 0) {
    next.stockAt = { ...product.stockAt };
    for (const { location, quantity } of write.stockAt)
      next.stockAt[location] = (next.stockAt[location] ?? 0) + quantity;
  }
  if (write.stock) {
    next.stock += write.stock.quantity;
    const into = write.stock.lot;
    if (into) {
      const own = lots.get(product.id) ?? new Map<string, KnownLot>();
      const key = lower(into.number);
      const was = own.get(key);
      own.set(key, {
        id: was?.id ?? '',
        number: was?.number ?? into.number,
        expiresOn: was ? was.expiresOn : into.expiry,
        quantity: (was?.quantity ?? 0) + write.stock.quantity,
      });
      lots.set(product.id, own);
    }
  }
  return next;
}

/** A variant row as readVariant read it: its item (null: a row creates it) and values. */
type VariantRead = {
  entry: ItemEntry | null;
  itemName: string;
  options: { name: string; values: string[] }[];
  optionValues: Record<string, string>;
};

const OPTION_FIELDS = [
  ['option1', 'value1'],
  ['option2', 'value2'],
  ['option3', 'value3'],
] as const;

/**
 * DESIGN §22: a row with an Item and at least one option value is a variant of that item (found by
 * name ignoring case, or created by the apply): each Option N names an option and Value N its value,
 * those the item lacks appended to it (3 options, 100 values at most). Its name is the item's and
 * its values'; a product the row matched must be that very variant. Fills the row's name (and, for
 * a new variant of a known item, the item's category, supplier, description and brand when blank).
 */
function readVariant(
  judge: Judge,
  values: ImportValues,
  match: Match,
  fail: (field: ImportField, message: string) => void,
  failed: (field: ImportField) => boolean,
): VariantRead | null {
  const { product } = match;
  const valued = OPTION_FIELDS.filter(([, value]) => values[value] !== undefined || failed(value));
  if (values.item === undefined || valued.length === 0) {
    if (values.item !== undefined && !failed('item'))
      fail('item', 'An Item needs an option value (Value 1–3); leave Item empty for a product on its own.');
    // Values without their item would be dropped: a new product, or one on its own, says so.
    else if (valued.length > 0 && (!product || product.itemId === null) && !failed('item'))
      fail('item', 'Option values need the Item they are values of.');
    return null;
  }
  const itemName = values.item;
  const entry = judge.items.get(itemName);
  const options = (entry?.options ?? []).map((option) => ({ name: option.name, values: [...option.values] }));
  const optionValues: Record<string, string> = {};
  for (const [optionField, valueField] of OPTION_FIELDS) {
    const optionName = values[optionField];
    const value = values[valueField];
    if (value === undefined) continue;
    if (optionName === undefined) {
      if (!failed(optionField))
        fail(
          optionField,
          `Value ${valueField.slice(-1)} needs the name of its option in Option ${valueField.slice(-1)}.`,
        );
      continue;
    }
    let option = options.find((known) => lower(known.name) === lower(optionName));
    if (!option) {
      if (options.length >= MAX_OPTIONS) {
        fail(
          optionField,
          `An item has at most ${MAX_OPTIONS} options: ${quoted(optionName)} would be a fourth of ${quoted(entry?.name ?? itemName)}.`,
        );
        continue;
      }
      option = { name: optionName, values: [] };
      options.push(option);
    }
    if (optionValues[option.name] !== undefined) {
      fail(optionField, `The option ${quoted(option.name)} is named twice on this row.`);
      continue;
    }
    let known = option.values.find((other) => lower(other) === lower(value));
    if (known === undefined) {
      if (option.values.length >= MAX_OPTION_VALUES) {
        fail(
          valueField,
          `An option has at most ${MAX_OPTION_VALUES} values: ${quoted(option.name)} is full.`,
        );
        continue;
      }
      option.values.push(value);
      known = value;
    }
    optionValues[option.name] = known;
  }
  const name = variantName(entry?.name ?? itemName, options, optionValues);
  if (values.name !== undefined && values.name !== name && !failed('name'))
    fail(
      'name',
      `This variant is named ${quoted(name)} by its item and values: leave Name empty or write that.`,
    );
  if (product) {
    if (product.itemId === null)
      fail('item', 'This product is not a variant: an item and its variants are made in the item editor.');
    else if (entry?.id !== product.itemId || comboKey(product.optionValues ?? {}) !== comboKey(optionValues))
      fail(
        'item',
        `This product is ${quoted(product.name)}, a variant of ${quoted(product.itemName ?? '')}: its item and values are changed in the item editor.`,
      );
    return { entry, itemName, options, optionValues };
  }
  if (match.known && entry?.variants.has(comboKey(optionValues)))
    fail('item', `${quoted(name)} already exists: give this row its SKU to update it.`);
  values.name = name;
  if (entry) {
    values.category ??= entry.categoryName;
    values.supplier ??= entry.supplierName;
    values.description ??= entry.description;
    if (values.brand === undefined && entry.brand !== null) values.brand = entry.brand;
  }
  return { entry, itemName, options, optionValues };
}

/** A new variant judged without errors: its item planned (created, or its options appended to). */
function planVariant(
  judge: Judge,
  variant: VariantRead,
  made: { category: string | undefined; supplier: string | undefined; values: ImportValues },
): RowWrite['variant'] {
  const entry: ItemEntry = variant.entry ?? {
    id: randomUUID(),
    isNew: true,
    name: variant.itemName,
    options: [],
    categoryName: made.category as string,
    supplierName: made.supplier as string,
    description: made.values.description ?? '',
    brand: made.values.brand ?? null,
    variants: new Map(),
    changed: true,
  };
  const grew =
    variant.options.length !== entry.options.length ||
    variant.options.some((option, i) => option.values.length !== entry.options[i]?.values.length);
  if (grew) {
    entry.options = variant.options;
    entry.changed = true;
  }
  entry.variants.set(comboKey(variant.optionValues), '');
  judge.items.plan(entry);
  return { itemId: entry.id, optionValues: variant.optionValues };
}
