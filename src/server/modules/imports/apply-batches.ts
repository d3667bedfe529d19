import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AuditChange } from '../../../shared/audit';
import {
  IMPORT_FIELDS,
  type ImportChange,
  type ImportError,
  type ImportField,
  type ImportOptions,
  type ImportResult,
  type ImportSummary,
  readImportRow,
} from '../../../shared/imports';
import { refusalSentence } from '../../../shared/refusals';
import type { Role } from '../../../shared/roles';
import { type Db, runnerOf, type Tx } from '../../db/connection';
import { pgCode, violatedConstraint } from '../../lib/errors';
import { rowsOf } from '../../lib/sql';
import { type Actor, recordAudit } from '../audit/audit.repository';
import { type NewMovement, recordMovements } from '../stock/movements';
import { revalueStock } from '../stock/revalue';
import {
  afterWrite,
  type ColumnOf,
  columnIndexes,
  ItemBook,
  type Judge,
  judgeRow,
  lotsNamed,
  NameBook,
  NO_SUPPLIER,
  type ProductFields,
  productsByIds,
  type RowWrite,
  type StockAtColumn,
  stockAtColumns,
  taxRatesByName,
} from './judge';

/**
 * The batches of an import's apply (apply.ts runs them, each in a transaction that first renews
 * the lease, apply-leases.ts): a batch writes the next BATCH_ROWS rows of the file after a
 * cursor, its `create` and `update` rows judged again and written, marks them `applied_at` and
 * adds them to `processed`; the last one marks the import applied.
 */

/** Rows of the file gone through per transaction (about 0.1–0.3 s of work on PostgreSQL). */
export const BATCH_ROWS = 500;

/**
 * The tables an apply fills: the products, what their triggers keep beside them, and the ledger.
 * They are analyzed every ANALYZE_EVERY rows and in the transaction that marks the import applied
 * (decision 0036): a catalogue loaded in one go outgrows the statistics every plan is made from,
 * and a plan already cached for the store it was (the dashboard's, per connection) is only made
 * again when its tables are analyzed; autovacuum may take a minute to come round, or be off.
 */
export const ANALYZE_FILLED = sql`analyze products, product_stock, product_search, name_words, product_sales, stock_movements, lots`;
export const ANALYZE_EVERY = 20_000;

/** Who applies the import: stored in imports.options as `appliedBy` so a resumed apply knows. */
type StoredOptions = ImportOptions & { appliedBy?: Actor };

/** A problem of the import as a whole: it ends `failed` with this sentence. */
export class ImportFailure extends Error {}

export type ImportRecord = {
  id: string;
  file_name: string;
  columns: string[];
  mapping: Record<string, string>;
  options: StoredOptions | null;
  summary: ImportSummary | null;
  processed: number;
  created_by_id: string | null;
  created_by_name: string;
};

type FileRow = {
  line: number;
  cells: string[];
  result: ImportResult | null;
  product_id: string | null;
  applied_at: string | null;
};

/** A row to write, as judgeRow judged it now. */
type Work = {
  line: number;
  kind: 'create' | 'update';
  /** The matched product (update), or the new product's id (create, chosen here). */
  productId: string;
  write: RowWrite;
  /** The changes as judged now, kept on the row in place of the check's. */
  changes: ImportChange[] | null;
};

const key = (name: string) => name.toLowerCase();

/** The SQL error codes that mean one row cannot be written (not a fault of the import as a whole). */
function isRowProblem(error: unknown): boolean {
  const code = pgCode(error);
  return (
    code !== undefined &&
    (code.startsWith('23') ||
      code.startsWith('22') ||
      code === 'IMS01' ||
      code === 'IMS02' ||
      code === 'IMS06' ||
      code === 'IMS07' ||
      code === 'IMS08')
  );
}

/** The import as its apply reads it, or undefined when it is gone. */
export async function loadImport(db: Db, id: string): Promise<ImportRecord | undefined> {
  const rows = rowsOf<ImportRecord>(
    await db.execute(sql`
        select id, file_name, columns, mapping, options, summary, processed, created_by_id, created_by_name
          from imports where id = ${id}`),
  );
  return rows[0];
}

/** The line after which the apply continues: that of the last row already gone through. */
export async function resumeLine(db: Db, id: string, processed: number): Promise<number> {
  if (processed <= 0) return 0;
  const rows = rowsOf<{ line: number }>(
    await db.execute(sql`
        select line from import_rows where import_id = ${id}
         order by line offset ${processed - 1} limit 1`),
  );
  return rows[0]?.line ?? Number.MAX_SAFE_INTEGER;
}

/** Column names of the products table, by the fields a row writes. */
const COLUMN: Record<keyof ProductFields, string> = {
  name: 'name',
  sku: 'sku',
  barcode: 'barcode',
  description: 'description',
  category: 'category_id',
  supplier: 'supplier_id',
  price: 'price',
  cost: 'cost',
  reorderPoint: 'reorder_point',
  reorderQuantity: 'reorder_quantity',
  taxRate: 'tax_rate_id',
  brand: 'brand',
  active: 'active',
};

/** The ids of the categories, suppliers and tax rates the batch's rows name, by lower-case name. */
type Refs = {
  categories: Map<string, string>;
  suppliers: Map<string, string>;
  taxRates: Map<string, string>;
};

/** One import's apply: what every batch needs to know about it, read once. */
export class ApplyJob {
  private readonly options: StoredOptions;
  private readonly actor: Actor;
  private readonly note: string;
  private readonly columnOf: ColumnOf;
  private readonly stockAt: StockAtColumn[];
  private readonly headerOf: Partial<Record<ImportField, string>> = {};

  constructor(private readonly record: ImportRecord) {
    if (!record.options) throw new ImportFailure('The import has not been checked.');
    this.options = record.options;
    // The apply route records who applies; an import put in `applying` otherwise is signed by
    // the admin who uploaded it.
    const actor =
      record.options.appliedBy ??
      (record.created_by_id
        ? { id: record.created_by_id, name: record.created_by_name, role: 'admin' as Role }
        : undefined);
    if (!actor) throw new ImportFailure('The import names nobody who applies it.');
    this.actor = actor;
    this.note = `import ${record.file_name}`;
    for (const field of IMPORT_FIELDS) {
      const header = record.mapping[field];
      if (header === undefined) continue;
      if (!record.columns.includes(header)) throw new ImportFailure(`The file has no column “${header}”.`);
      this.headerOf[field] = header;
    }
    this.columnOf = columnIndexes(record.mapping, record.columns, this.options.stock);
    this.stockAt = stockAtColumns(record.mapping, record.columns, this.options.stock);
    for (const { index } of this.stockAt)
      if (index < 0) throw new ImportFailure('The file has no column for a location’s stock.');
  }

  /**
   * The next batch of rows after `cursor`, written in the caller's transaction: each `create` and
   * `update` row not yet written is judged again by judgeRow (judge.ts says what that means when
   * its product changed since the check) and written as judged.
   */
  async batch(tx: Tx, cursor: number): Promise<{ cursor: number; done: boolean; total: number }> {
    const runner = runnerOf(tx);
    const rows = rowsOf<FileRow>(
      await tx.execute(sql`
        select line, coalesce(translated, cells) as cells, result, product_id, applied_at from import_rows
         where import_id = ${this.record.id} and line > ${cursor}
         order by line limit ${BATCH_ROWS}`),
    );
    const pending = rows.flatMap((row) => {
      const kind = row.result;
      if ((kind !== 'create' && kind !== 'update') || row.applied_at !== null) return [];
      // Cells a check accepted read the same with a decimal comma allowed: a comma in a number
      // is accepted only where the check allowed it (a file split on ; or tabs).
      return [
        { row, kind, read: readImportRow(row.cells, this.columnOf, this.record.columns, true, this.stockAt) },
      ];
    });

    await this.openingNotes(tx);
    const products = new Map(
      (
        await productsByIds(
          runner,
          pending.flatMap(({ kind, row }) => (kind === 'update' && row.product_id ? [row.product_id] : [])),
          true,
          this.options.location,
          this.stockAt.map((column) => column.location),
        )
      ).map((product) => [product.id, product]),
    );
    const judge: Judge = {
      options: this.options,
      headers: this.record.columns,
      columnOf: this.columnOf,
      // Read anew for every batch: an earlier batch may have created some.
      categories: new NameBook('categories'),
      suppliers: new NameBook('suppliers'),
      taxRates: await taxRatesByName(runner),
      newTaxRates: new Map(),
      items: new ItemBook(),
      locations: await this.locations(tx),
    };
    const named = (field: 'category' | 'supplier') =>
      pending.flatMap(({ read }) => (read.values[field] ? [read.values[field]] : []));
    await judge.categories.load(runner, named('category'));
    await judge.suppliers.load(runner, [
      ...named('supplier'),
      ...(this.options.format && this.options.format !== 'generic' ? [NO_SUPPLIER] : []),
    ]);
    await judge.items.load(
      runner,
      pending.flatMap(({ read }) => (read.values.item ? [read.values.item] : [])),
    );
    const lots = await lotsNamed(
      runner,
      [...products.values()].filter((p) => p.tracking === 'lot').map((p) => p.id),
      pending.flatMap(({ read }) => (read.values.lot ? [read.values.lot] : [])),
      this.options.location,
    );

    const failed = new Map<number, ImportError[]>();
    const unchanged: number[] = [];
    const work: Work[] = [];
    for (const { row, kind, read } of pending) {
      const product = kind === 'update' && row.product_id ? products.get(row.product_id) : undefined;
      if (kind === 'update' && !product) {
        failed.set(row.line, [{ column: 'Row', message: 'The product was deleted after the check.' }]);
        continue;
      }
      const judged = judgeRow(
        judge,
        { line: row.line, ...read },
        { product, known: true, errors: [] },
        product ? lots.get(product.id) : undefined,
      );
      if (judged.result === 'error') failed.set(row.line, judged.errors);
      else if (judged.write === null) unchanged.push(row.line);
      else {
        work.push({
          line: row.line,
          kind,
          productId: product?.id ?? randomUUID(),
          write: judged.write,
          changes: judged.changes,
        });
        if (product) products.set(product.id, afterWrite(product, lots, judged.write));
      }
    }

    const refs = await this.references(tx, judge, work);
    let written = work;
    try {
      await tx.transaction((sp) => this.write(sp, written, refs));
    } catch (error) {
      if (!isRowProblem(error)) throw error;
      // One row cannot be written (a SKU taken since the check, say): each row on its own.
      const one: Work[] = [];
      for (const w of work) {
        try {
          await tx.transaction((sp) => this.write(sp, [w], refs));
          one.push(w);
        } catch (rowError) {
          if (!isRowProblem(rowError)) throw rowError;
          failed.set(w.line, [this.rowError(rowError)]);
        }
      }
      written = one;
    }

    // Each row as the apply found it: written with its changes, unchanged by now, or failed.
    const marks = [
      ...written.map((w) => ({
        line: w.line,
        result: w.kind,
        product_id: w.productId,
        changes: w.changes,
        errors: [],
        applied: true,
      })),
      ...unchanged.map((line) => ({ line, result: 'unchanged', changes: null, errors: [], applied: false })),
      ...[...failed].map(([line, errors]) => ({
        line,
        result: 'error',
        product_id: null,
        changes: null,
        errors,
        applied: false,
      })),
    ];
    if (marks.length > 0)
      await tx.execute(sql`
        update import_rows r
           set result = m.result, changes = m.changes, errors = m.errors,
               product_id = case when m.result = 'unchanged' then r.product_id else m.product_id end,
               applied_at = case when m.applied then now() else r.applied_at end
          from jsonb_to_recordset(${JSON.stringify(marks)}::jsonb)
            as m(line integer, result text, product_id uuid, changes jsonb, errors jsonb, applied boolean)
         where r.import_id = ${this.record.id} and r.line = m.line`);
    const [progress] = rowsOf<{ processed: number }>(
      await tx.execute(sql`
        update imports set processed = processed + ${rows.length} where id = ${this.record.id}
        returning processed`),
    );
    const done = rows.length < BATCH_ROWS;
    if (done) await this.finish(tx);
    return { cursor: rows.at(-1)?.line ?? cursor, done, total: progress?.processed ?? 0 };
  }

  /**
   * Names the opening movements of the products this transaction inserts (see
   * src/server/db/functions/products_opening_movement.sql): the note `import <file>` and who
   * imports, and where (DESIGN §17: the import's location). Transaction-local: gone at commit.
   */
  private async openingNotes(tx: Tx): Promise<void> {
    await tx.execute(sql`
      select set_config('ims.opening_note', ${this.note}, true),
             set_config('ims.opening_user_id', ${this.actor.id}, true),
             set_config('ims.opening_user_name', ${this.actor.name}, true),
             set_config('ims.opening_location_id', ${this.options.location ?? ''}, true)`);
  }

  /** DESIGN §17: the locations the `stock@` columns name: their names (for the changes) and headers. */
  private async locations(tx: Tx): Promise<Map<string, { name: string; column: string }>> {
    const found = new Map<string, { name: string; column: string }>();
    if (this.stockAt.length === 0) return found;
    const rows = rowsOf<{ id: string; name: string }>(
      await tx.execute(sql`
        select id::text as id, name from locations
         where id = any(${pgArray(this.stockAt.map((column) => column.location))}::uuid[])`),
    );
    for (const { location, index } of this.stockAt)
      found.set(location, {
        name: rows.find((row) => row.id === location)?.name ?? location,
        column: this.record.columns[index] as string,
      });
    return found;
  }

  /** The message of a row the database refused. */
  private rowError(error: unknown): ImportError {
    const constraint = violatedConstraint(error);
    if (constraint === 'products_sku_lower_key')
      return { column: this.headerOf.sku ?? 'Row', message: refusalSentence('SKU_TAKEN') };
    if (constraint === 'products_barcode_lower_key')
      return { column: this.headerOf.barcode ?? 'Row', message: refusalSentence('BARCODE_TAKEN') };
    if (pgCode(error) === 'IMS06')
      return { column: this.headerOf.lot ?? 'Row', message: 'Lot is required for a lot-tracked product.' };
    if (pgCode(error) === 'IMS07' || pgCode(error) === 'IMS08')
      return {
        column: this.headerOf.lot ?? 'Row',
        message: 'The lot changed after the check: check the file again.',
      };
    if (pgCode(error) === 'IMS02' || pgCode(error) === '23503')
      return {
        column: 'Row',
        message: 'A product, category or supplier this row needs was deleted meanwhile.',
      };
    return { column: 'Row', message: 'This row could not be written: a value is out of the allowed range.' };
  }

  /**
   * The ids of the categories, suppliers and tax rates the rows write, by name (ignoring case);
   * the missing categories and suppliers the judged rows planned (createMissing) are created here.
   */
  private async references(tx: Tx, judge: Judge, work: Work[]): Promise<Refs> {
    const refs: Refs = { categories: new Map(), suppliers: new Map(), taxRates: new Map() };
    for (const rate of judge.taxRates.values()) refs.taxRates.set(key(rate.name), rate.id);
    // DESIGN §22: the rates `<name> (<rate>%)` and `No tax` cells name, created once when missing.
    const rates = [...judge.newTaxRates.values()];
    if (rates.length > 0) {
      await tx.execute(sql`
        insert into tax_rates (name, rate)
        select name, rate from jsonb_to_recordset(${JSON.stringify(rates)}::jsonb) as x(name text, rate numeric)
        on conflict ((lower(name))) do nothing`);
      const made = rowsOf<{ id: string; key: string }>(
        await tx.execute(sql`
          select id, lower(name) as key from tax_rates
           where lower(name) = any(${pgArray(rates.map((rate) => key(rate.name)))}::text[])`),
      );
      for (const row of made) refs.taxRates.set(row.key, row.id);
    }
    const fill = async (
      field: 'category' | 'supplier',
      book: NameBook,
      table: 'categories' | 'suppliers',
    ) => {
      const ids = field === 'category' ? refs.categories : refs.suppliers;
      for (const w of work) {
        const name = w.write.fields[field];
        const id = name === undefined ? undefined : book.get(name)?.id;
        if (name !== undefined && id !== undefined) ids.set(key(name), id);
      }
      const missing = [...book.created.values()];
      if (missing.length === 0) return;
      // Categories are unique by name (ignoring case): one another writer made meanwhile is taken.
      await tx.execute(
        table === 'categories'
          ? sql`insert into categories (name) select unnest(${pgArray(missing)}::text[])
                on conflict ((lower(name))) do nothing`
          : sql`insert into suppliers (name) select unnest(${pgArray(missing)}::text[])`,
      );
      const made = rowsOf<{ id: string; key: string }>(
        await tx.execute(sql`
          select distinct on (lower(name)) id, lower(name) as key from ${sql.raw(table)}
           where lower(name) = any(${pgArray(missing.map(key))}::text[])
           order by lower(name), created_at, id`),
      );
      for (const row of made) ids.set(row.key, row.id);
    };
    await fill('category', judge.categories, 'categories');
    await fill('supplier', judge.suppliers, 'suppliers');
    // DESIGN §22: the items rows create, and the options and values rows append to known ones.
    for (const entry of judge.items.changed()) {
      if (entry.isNew)
        await tx.execute(sql`
          insert into items (id, name, description, category_id, supplier_id, brand, options)
          values (${entry.id}, ${entry.name}, ${entry.description},
                  ${refs.categories.get(key(entry.categoryName)) ?? null},
                  ${refs.suppliers.get(key(entry.supplierName)) ?? null}, ${entry.brand},
                  ${JSON.stringify(entry.options)}::jsonb)`);
      else
        await tx.execute(sql`
          update items set options = ${JSON.stringify(entry.options)}::jsonb where id = ${entry.id}`);
    }
    return refs;
  }

  /**
   * Writes rows as judged: new products with their stock (and so their opening movement) in one
   * multi-row insert, matched products' changed fields with one multi-row update (a product named
   * twice takes the later row's values), then the stock the rows move as movements in one insert,
   * each applied by the ledger's trigger.
   */
  private async write(tx: Tx, work: Work[], refs: Refs): Promise<void> {
    if (work.length === 0) return;
    const mode = this.options.stock;
    const columns = (fields: ProductFields) => {
      const out: Record<string, string | number | boolean | null> = {};
      for (const field of Object.keys(fields) as (keyof ProductFields)[]) {
        const value = fields[field];
        if (value === undefined) continue;
        const column = COLUMN[field];
        if (value === null) out[column] = null;
        else if (field === 'category') out[column] = refs.categories.get(key(value as string)) ?? null;
        else if (field === 'supplier') out[column] = refs.suppliers.get(key(value as string)) ?? null;
        else if (field === 'taxRate') out[column] = refs.taxRates.get(key(value as string)) ?? null;
        else if (field === 'price' || field === 'cost') out[column] = (value as number).toFixed(2);
        else out[column] = value as string | number | boolean;
      }
      return out;
    };

    const created: Record<string, string | number | boolean | null>[] = [];
    const createdTracked: Record<string, string | number | boolean | null>[] = [];
    const updated = new Map<string, Record<string, string | number | boolean | null>>();
    /** Lots the movements go into, by lotKey: created when missing, with the expiry the first row gives. */
    const intoLots = new Map<string, { product_id: string; number: string; expires_on: string | null }>();
    /** The movements the rows make, each with its lot's lotKey when it names one. */
    const movements: { movement: NewMovement; lot: string | null }[] = [];
    for (const w of work) {
      const { fields, stock } = w.write;
      const lot = stock?.lot ?? null;
      const k = lot === null ? null : lotKey(w.productId, lot.number);
      if (lot !== null && k !== null && !intoLots.has(k))
        intoLots.set(k, { product_id: w.productId, number: lot.number, expires_on: lot.expiry });
      // DESIGN §17: the stock at the other locations the row names, as the stock mode moves it.
      for (const at of w.write.stockAt)
        movements.push({
          movement: {
            productId: w.productId,
            kind: mode === 'add' ? 'adjustment' : 'count',
            quantity: at.quantity,
            reason: mode === 'add' ? 'received' : null,
            locationId: at.location,
          },
          lot: null,
        });
      const variant: Record<string, string> = w.write.variant
        ? { item_id: w.write.variant.itemId, option_values: JSON.stringify(w.write.variant.optionValues) }
        : {};
      if (w.kind === 'create') {
        const quantity = stock?.quantity ?? 0;
        if (lot === null) created.push({ id: w.productId, ...columns(fields), ...variant, stock: quantity });
        else {
          // Lot-tracked: inserted at 0, then its lot and the opening movement naming it.
          createdTracked.push({ id: w.productId, ...columns(fields), ...variant, stock: 0 });
          movements.push({ movement: { productId: w.productId, kind: 'initial', quantity }, lot: k });
        }
      } else {
        updated.set(w.productId, { ...updated.get(w.productId), id: w.productId, ...columns(fields) });
        if (stock)
          movements.push({
            movement: {
              productId: w.productId,
              kind: mode === 'add' ? 'adjustment' : 'count',
              quantity: stock.quantity,
              reason: mode === 'add' ? 'received' : null,
            },
            lot: k,
          });
      }
    }

    if (created.length > 0) {
      // Inserted with their stock: the ledger's products_opening_movement writes each one's
      // `initial` movement (noted and signed by the settings `openingNotes` made) in the same
      // statement, so stock = Σ movements from the first moment.
      await this.insertProducts(tx, created, 'none');
    }
    if (createdTracked.length > 0) {
      // Lot-tracked ones at 0 without the opening note, so products_opening_movement writes
      // nothing for them: their one `initial` movement names their lot (below).
      await tx.execute(sql`select set_config('ims.opening_note', '', true)`);
      await this.insertProducts(tx, createdTracked, 'lot');
      await this.openingNotes(tx);
    }
    const lotIds = new Map<string, string>();
    if (intoLots.size > 0) {
      // The lots the rows name, a missing one created once: the batch commits or rolls back with
      // them (a retried or resumed batch starts over), and a number another writer created
      // meanwhile is taken as it is (on conflict).
      const wanted = [...intoLots.values()];
      await tx.execute(sql`
        insert into lots (product_id, number, expires_on)
        select product_id, number, expires_on
          from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as x(
            product_id uuid, number text, expires_on date)
        on conflict (product_id, lower(number)) do nothing`);
      const found = await lotsNamed(
        runnerOf(tx),
        wanted.map((lot) => lot.product_id),
        wanted.map((lot) => lot.number),
      );
      for (const [productId, lots] of found)
        for (const lot of lots.values()) lotIds.set(lotKey(productId, lot.number), lot.id);
    }
    if (updated.size > 0) {
      const set = (column: string, type: string) =>
        sql.raw(`${column} = case when v ? '${column}' then (v->>'${column}')::${type} else p.${column} end`);
      await tx.execute(sql`
        update products p set ${sql.join(
          [
            set('name', 'text'),
            set('description', 'text'),
            set('price', 'numeric'),
            set('cost', 'numeric'),
            set('reorder_point', 'integer'),
            set('reorder_quantity', 'integer'),
            set('sku', 'text'),
            set('barcode', 'text'),
            set('category_id', 'uuid'),
            set('supplier_id', 'uuid'),
            set('tax_rate_id', 'uuid'),
            set('brand', 'text'),
            set('active', 'boolean'),
          ],
          sql`, `,
        )}
          from jsonb_array_elements(${JSON.stringify([...updated.values()])}::jsonb) as v
         where p.id = (v->>'id')::uuid`);
      // DESIGN §19: a cost the file changes revalues the stock there is at it.
      const costed = [...updated.values()].filter((v) => 'cost' in v).map((v) => String(v.id));
      await revalueStock(runnerOf(tx), costed.sort(), this.actor, this.note);
    }
    // A movement naming its lot moves the product and the lot together (the ledger's trigger).
    await recordMovements(
      runnerOf(tx),
      movements.map(({ movement, lot }) => ({
        ...movement,
        note: this.note,
        actor: this.actor,
        lotId: lot === null ? null : (lotIds.get(lot) ?? null),
        // DESIGN §17: at the row's `stock@` location, else the import's (one checked before
        // locations: the default).
        locationId: movement.locationId ?? this.options.location ?? null,
      })),
    );
  }

  /** New products in one multi-row insert, with their tracking. */
  private async insertProducts(
    tx: Tx,
    products: Record<string, string | number | boolean | null>[],
    tracking: 'none' | 'lot',
  ): Promise<void> {
    await tx.execute(sql`
      insert into products (id, name, description, price, stock, cost, reorder_point, reorder_quantity,
                            sku, barcode, category_id, supplier_id, tax_rate_id, tracking, brand, active,
                            item_id, option_values)
      select id, name, description, price, stock, cost, reorder_point, reorder_quantity,
             sku, barcode, category_id, supplier_id, tax_rate_id, ${tracking}, brand, coalesce(active, true),
             item_id, option_values::jsonb
        from jsonb_to_recordset(${JSON.stringify(products)}::jsonb) as x(
          id uuid, name text, description text, price numeric, stock integer, cost numeric,
          reorder_point integer, reorder_quantity integer, sku text, barcode text, category_id uuid,
          supplier_id uuid, tax_rate_id uuid, brand text, active boolean, item_id uuid, option_values text)`);
  }

  /** Status `applied`, the summary as applied, the import's one audit entry, fresh statistics. */
  private async finish(tx: Tx): Promise<void> {
    // Committed with the status, so an import seen `applied` is one the planner knows the size of.
    await tx.execute(ANALYZE_FILLED);
    const counts = rowsOf<{ result: string | null; count: number }>(
      await tx.execute(sql`
        select result, count(*)::integer as count from import_rows
         where import_id = ${this.record.id} group by result`),
    );
    const of = (result: string) => counts.find((c) => c.result === result)?.count ?? 0;
    const summary: ImportSummary = {
      create: of('create'),
      update: of('update'),
      unchanged: of('unchanged'),
      errors: of('error'),
      skipped: of('skipped'),
      newCategories: this.record.summary?.newCategories ?? [],
      newSuppliers: this.record.summary?.newSuppliers ?? [],
    };
    await tx.execute(sql`
      update imports set status = 'applied', applied_at = now(), lease_until = null,
                         summary = ${JSON.stringify(summary)}::jsonb
       where id = ${this.record.id}`);
    const changes: AuditChange[] = [
      { field: 'created', new: summary.create },
      { field: 'updated', new: summary.update },
      { field: 'unchanged', new: summary.unchanged },
      { field: 'errors', new: summary.errors },
      { field: 'stock', new: this.options.stock },
    ];
    await recordAudit(tx, {
      actor: this.actor,
      action: 'imported',
      entity: { type: 'import', id: this.record.id, name: this.record.file_name },
      changes,
    });
  }
}

/** A lot by its product and number, ignoring case (as lots_product_number_key). */
const lotKey = (productId: string, number: string) => `${productId} ${number.toLowerCase()}`;

/** A PostgreSQL array literal of texts (each quoted), for `= any($1::text[])`. */
function pgArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
