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
} from '../../../shared/imports';
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
            c.name as "categoryName", s.name as "supplierName", t.name as "taxRateName", p.tracking
       from products p
       join categories c on c.id = p.category_id
       join suppliers s on s.id = p.supplier_id
       left join tax_rates t on t.id = p.tax_rate_id
      where p.id = any($1::uuid[])
      ${lock ? 'order by p.id for update of p' : ''}`,
    locationId === undefined ? [wanted] : [wanted, locationId],
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

/** Tax rates by lower-case name: a store has a handful, read whole. */
export type TaxRates = Map<string, { id: string; name: string }>;

export async function taxRatesByName(runner: Runner): Promise<TaxRates> {
  const rows = await runner.query<{ id: string; name: string }>('select id, name from tax_rates');
  return new Map(rows.map((row) => [lower(row.name), row]));
}

/** What a row is judged with, across its batch. */
export type Judge = {
  options: ImportOptions;
  headers: readonly string[];
  columnOf: ColumnOf;
  categories: NameBook;
  suppliers: NameBook;
  taxRates: TaxRates;
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
export type ProductFields = Omit<ImportValues, 'stock' | 'lot' | 'expiry'>;

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
  const { values, line } = row;
  const { product } = match;
  const errors = [...row.errors, ...match.errors];
  const columnFor = (field: ImportField) => {
    const index = columnOf[field];
    return index === undefined ? 'Row' : (headers[index] as string);
  };
  const fail = (field: ImportField, message: string) => errors.push({ column: columnFor(field), message });
  const failed = (field: ImportField) =>
    columnOf[field] !== undefined && row.errors.some((error) => error.column === columnFor(field));

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
      taxRate = judge.taxRates.get(lower(values.taxRate))?.name;
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

  const changes: ImportChange[] = [];
  const fields: ProductFields = {};
  if (!product && match.known) {
    // A new product needs a name, a price, a category and a supplier.
    for (const field of ['name', 'price', 'category', 'supplier'] as const)
      if (values[field] === undefined && !failed(field)) fail(field, requiredMessage(field));
    // With a Lot it is created lot-tracked, its stock (blank: 0) in that lot.
    if (lot !== null)
      changes.push({ field: 'lot', from: null, to: `${newLotText(lot, expiry)}: ${values.stock ?? 0}` });
  } else if (product) {
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
    const place = (column: string) => {
      const index = headers.indexOf(column);
      return index < 0 ? headers.length : index;
    };
    errors.sort((a, b) => place(a.column) - place(b.column));
    return { line, result: 'error', errors, productId: null, changes: null, write: null };
  }
  for (const { book, name } of newNames)
    if (!book.created.has(lower(name))) book.created.set(lower(name), name);
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
      },
      tracking: lot === null ? 'none' : 'lot',
      stock: { quantity: values.stock ?? 0, lot: lot === null ? null : { number: lot, expiry } },
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
    write: { fields, tracking: product.tracking, stock: moved },
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
