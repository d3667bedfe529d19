import { and, asc, count, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { LotRef, Tracking } from '../../../shared/lots';
import { searchWords } from '../../../shared/paging';
import type { Product, ProductQuery } from '../../../shared/products';
import type { Role } from '../../../shared/roles';
import { type Database, type Db, runnerOf, statementOf } from '../../db/connection';
import {
  categories,
  productStock,
  products,
  stockMovements,
  storeSettings,
  suppliers,
  taxRates,
} from '../../db/schema';
import { type SignedInRunner, signedInStatement } from '../../lib/auth';
import type { CsvBatch } from '../../lib/csv-stream';
import { badRequest, conflict, inUse, isId, refuseWith } from '../../lib/errors';
import type { JsonBatch } from '../../lib/json-stream';
import { isShortWord, matchesSearch, withinSearchLimit } from '../../lib/search';
import { rowsOf } from '../../lib/sql';
import {
  type Actor,
  changedFields,
  createdFields,
  deletedFields,
  recordAudit,
  type Tx,
} from '../audit/audit.repository';
import { lotForAdding } from '../lots/lots.repository';
import { firstPurchaseOrderWith } from '../purchasing/purchasing.repository';

/**
 * cost, reorderPoint, reorderQuantity, sku, barcode and taxRateId: null for none (taxRateId: the
 * store's default), undefined to leave as they are.
 */
export type ProductValues = {
  name: string;
  description: string;
  price: number;
  stock: number;
  categoryId: string;
  supplierId: string;
  cost?: number | null;
  reorderPoint?: number | null;
  reorderQuantity?: number | null;
  sku?: string | null;
  barcode?: string | null;
  taxRateId?: string | null;
  /** DESIGN §15; undefined: a new product is 'none', an edit keeps it. */
  tracking?: Tracking;
};

/**
 * The reorder point in force: low stock is 0 < stock ≤ it (DESIGN §9): the product's own
 * (`column`), or else the store's LOW_STOCK_THRESHOLD. Every product answer carries it from here.
 */
function reorderPointSql(
  storeThreshold: number,
  column: SQL | typeof products.reorderPoint = products.reorderPoint,
) {
  return sql<number>`coalesce(${column}, ${storeThreshold}::int)`.mapWith(Number);
}

/** The columns of ProductValues that are not stock (stock moves only through the ledger). */
function columnValues(values: Omit<ProductValues, 'stock'>) {
  const { cost, ...rest } = values;
  return {
    ...rest,
    price: values.price.toFixed(2),
    ...(cost !== undefined && { cost: cost?.toFixed(2) ?? null }),
  };
}

function productColumns(storeThreshold: number) {
  return {
    id: products.id,
    name: products.name,
    description: products.description,
    price: products.price,
    stock: products.stock,
    reorderPoint: reorderPointSql(storeThreshold),
    reorderPointFromStore: sql<boolean>`${products.reorderPoint} is null`,
    reorderQuantity: products.reorderQuantity,
    cost: products.cost,
    sku: products.sku,
    barcode: products.barcode,
    categoryId: categories.id,
    categoryName: categories.name,
    supplierId: suppliers.id,
    supplierName: suppliers.name,
    taxRateId: taxRates.id,
    taxRateName: taxRates.name,
    taxRate: taxRates.rate,
    taxRateDefault: sql<boolean>`${products.taxRateId} is null`,
    tracking: products.tracking,
  };
}

/**
 * The tax rate in force (DESIGN §12): the product's own, else the store's default (its one row);
 * each join by key, so a list's plan stays its own. Every product answer carries it from here
 * (the raw statements below say the same in SQL).
 */
const storeRow = sql`${storeSettings.id} = 1`;
const rateInForce = eq(taxRates.id, sql`coalesce(${products.taxRateId}, ${storeSettings.defaultTaxRateId})`);

type ProductRow = {
  id: string;
  name: string;
  description: string;
  price: string;
  stock: number;
  reorderPoint: number;
  reorderPointFromStore: boolean;
  reorderQuantity: number | null;
  cost: string | null;
  sku: string | null;
  barcode: string | null;
  categoryId: string;
  categoryName: string;
  supplierId: string;
  supplierName: string;
  taxRateId: string | null;
  taxRateName: string | null;
  taxRate: string | null;
  taxRateDefault: boolean;
  tracking: string;
};

const toProduct = (row: ProductRow): Product => ({
  _id: row.id,
  name: row.name,
  description: row.description,
  price: Number(row.price),
  stock: row.stock,
  reorderPoint: row.reorderPoint,
  reorderPointFromStore: row.reorderPointFromStore,
  reorderQuantity: row.reorderQuantity,
  cost: row.cost === null ? null : Number(row.cost),
  sku: row.sku,
  barcode: row.barcode,
  category: { _id: row.categoryId, name: row.categoryName },
  supplier: { _id: row.supplierId, name: row.supplierName },
  taxRate:
    row.taxRateId === null
      ? null
      : { _id: row.taxRateId, name: row.taxRateName ?? '', rate: Number(row.taxRate) },
  taxRateDefault: row.taxRateDefault,
  tracking: row.tracking === 'lot' ? 'lot' : 'none',
});

function selectProducts(db: Db, storeThreshold: number) {
  return db
    .select(productColumns(storeThreshold))
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(suppliers, eq(suppliers.id, products.supplierId))
    .leftJoin(storeSettings, storeRow)
    .leftJoin(taxRates, rateInForce);
}

/** The same, joined to product_stock, whose index gives stock order (products.stock has none). */
function selectProductsByStock(db: Db, storeThreshold: number) {
  return selectProducts(db, storeThreshold).innerJoin(productStock, eq(productStock.productId, products.id));
}

const byName = sql`lower(${products.name})`;
const PRODUCT_ORDER: Record<NonNullable<ProductQuery['sort']>, SQL[]> = {
  name: [asc(byName), asc(products.id)],
  '-name': [desc(byName), desc(products.id)],
  price: [asc(products.price), asc(products.id)],
  '-price': [desc(products.price), desc(products.id)],
  stock: [asc(productStock.stock), asc(productStock.nameKey), asc(productStock.productId)],
  '-stock': [desc(productStock.stock), desc(productStock.nameKey), desc(productStock.productId)],
};
const BY_STOCK = new Set<ProductQuery['sort']>(['stock', '-stock']);

/** Past this many matches a search is "broad" and read in index order; below it, matches are sorted. */
const FEW_MATCHES = 2000;

type ProductFilter = { search?: string; category?: string; sort?: ProductQuery['sort'] };

/**
 * The conditions and order of a product list: every word of the search in the name, or the whole
 * search as a SKU or barcode exactly (ignoring case: their unique indexes), and the category.
 */
function productFilter(query: ProductFilter) {
  const words = matchesSearch(query.search, [products.name]);
  const code = query.search?.trim();
  const search =
    words && code && !/\s/.test(code)
      ? or(
          words,
          sql`lower(${products.sku}) = lower(${code})`,
          sql`lower(${products.barcode}) = lower(${code})`,
        )
      : words;
  const category =
    query.category === undefined
      ? undefined
      : isId(query.category)
        ? eq(products.categoryId, query.category)
        : sql`false`;
  return { search, where: and(search, category), order: PRODUCT_ORDER[query.sort ?? 'name'] };
}

/**
 * The keys of each order of the catalogue, as keyset paging compares them: the same columns as
 * PRODUCT_ORDER, each with the type its cursor value is read back as.
 */
const CATALOGUE_KEYS: Record<
  NonNullable<ProductQuery['sort']>,
  { keys: [SQL, string][]; descending: boolean }
> = {
  name: {
    keys: [
      [byName, 'text'],
      [sql`${products.id}`, 'uuid'],
    ],
    descending: false,
  },
  '-name': {
    keys: [
      [byName, 'text'],
      [sql`${products.id}`, 'uuid'],
    ],
    descending: true,
  },
  price: {
    keys: [
      [sql`${products.price}`, 'numeric'],
      [sql`${products.id}`, 'uuid'],
    ],
    descending: false,
  },
  '-price': {
    keys: [
      [sql`${products.price}`, 'numeric'],
      [sql`${products.id}`, 'uuid'],
    ],
    descending: true,
  },
  stock: {
    keys: [
      [sql`${productStock.stock}`, 'int'],
      [sql`${productStock.nameKey}`, 'text'],
      [sql`${productStock.productId}`, 'uuid'],
    ],
    descending: false,
  },
  '-stock': {
    keys: [
      [sql`${productStock.stock}`, 'int'],
      [sql`${productStock.nameKey}`, 'text'],
      [sql`${productStock.productId}`, 'uuid'],
    ],
    descending: true,
  },
};

/** Where a batch of the catalogue stopped: the last product's sort keys, as text. */
export type CatalogueCursor = string[];

/**
 * One batch of the whole catalogue (unpaged GET /api/products) after `after`, in the list's order
 * (PRODUCT_ORDER), read by keyset on the order's keys, each product as `shown` makes it (what the
 * caller may see) in JSON text. The route streams the batches (sendJsonList). The rows are read as
 * columns and turned into JSON here: built by the database, each product's JSON was computed
 * before the sort, for every product after the cursor, not just the batch's.
 */
export async function catalogueJsonBatch(
  db: Db,
  query: ProductFilter,
  storeThreshold: number,
  shown: (product: Product) => Product,
  after: CatalogueCursor | undefined,
  size: number,
): Promise<JsonBatch<CatalogueCursor>> {
  const { where, order } = productFilter(query);
  const { keys, descending } = CATALOGUE_KEYS[query.sort ?? 'name'];
  const past = after
    ? sql`(${sql.join(
        keys.map(([key]) => key),
        sql`, `,
      )}) ${sql.raw(descending ? '<' : '>')} (${sql.join(
        keys.map(([, type], i) => sql`${after[i] ?? null}::${sql.raw(type)}`),
        sql`, `,
      )})`
    : undefined;
  const rows = await db
    .select({
      ...productColumns(storeThreshold),
      cursor: sql<string[]>`array[${sql.join(
        keys.map(([key]) => sql`${key}::text`),
        sql`, `,
      )}]`,
    })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(suppliers, eq(suppliers.id, products.supplierId))
    .innerJoin(productStock, eq(productStock.productId, products.id))
    .leftJoin(storeSettings, storeRow)
    .leftJoin(taxRates, rateInForce)
    .where(and(where, past))
    .orderBy(...order)
    .limit(size);
  const last = rows.at(-1);
  return {
    items: rows.map((row) => JSON.stringify(shown(toProduct(row)))),
    next: last && rows.length === size ? last.cursor : undefined,
  };
}

/**
 * What the whole catalogue answers after its products (DESIGN §3): the categories and suppliers
 * to choose from and the count, as JSON text from the closing bracket of the products on.
 */
export async function catalogueTailJson(db: Db, total: number): Promise<string> {
  const result = await db.execute(sql`
    select json_build_object(
      'categories', (
        select coalesce(json_agg(json_build_object('_id', id, 'name', name, 'description', description)
                                 order by lower(name)), '[]'::json)
        from ${categories}),
      'suppliers', (
        select coalesce(json_agg(json_build_object('_id', id, 'name', name) order by lower(name)), '[]'::json)
        from ${suppliers})
    )::text as body`);
  const lists = (rowsOf<{ body: string }>(result)[0] as { body: string }).body;
  // The lists' object without its braces, then the count: the answer's last fields in their order.
  return `],${lists.slice(1, -1)},"total":${total}}`;
}

type NameCursor = { name: string; id: string };

/**
 * One batch of the products CSV (PRODUCT_CSV_HEADER) after `after`: the list's search and
 * category, always in name order, read by keyset on (lower(name), id), the name index's order.
 */
export async function productCsvBatch(
  db: Db,
  query: ProductFilter,
  storeThreshold: number,
  after: NameCursor | undefined,
  size: number,
): Promise<CsvBatch<NameCursor>> {
  const { where } = productFilter(query);
  const past = after ? sql`(${byName}, ${products.id}) > (${after.name}, ${after.id}::uuid)` : undefined;
  const rows = await db
    .select({ ...productColumns(storeThreshold), nameKey: sql<string>`${byName}` })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(suppliers, eq(suppliers.id, products.supplierId))
    .leftJoin(storeSettings, storeRow)
    .leftJoin(taxRates, rateInForce)
    .where(and(where, past))
    .orderBy(asc(byName), asc(products.id))
    .limit(size);
  const last = rows.at(-1);
  return {
    // A reorder point or tax rate that follows the store's default is an empty cell, so a file
    // exported and imported again keeps following it instead of pinning today's default.
    rows: rows.map((row) => [
      row.name,
      row.sku,
      row.barcode,
      row.description,
      row.categoryName,
      row.supplierName,
      Number(row.price),
      row.cost === null ? null : Number(row.cost),
      row.stock,
      row.reorderPointFromStore ? null : row.reorderPoint,
      row.reorderQuantity,
      row.taxRateDefault ? null : row.taxRateName,
    ]),
    next: last && rows.length === size ? { name: last.nameKey, id: last.id } : undefined,
  };
}

/**
 * One page of the catalogue, filtered by name words and category, with the count of all matches:
 * exact, or, for a search of short words only past FEW_MATCHES matches, FEW_MATCHES and `capped`
 * (decision 0036: such a search is the first letter or two of a name, and counting every product
 * with a word starting "s" read the whole catalogue). A search runs on the database's searches,
 * within their time limit.
 */
export async function productPage(
  database: Database,
  query: ProductFilter,
  window: { limit: number; offset: number },
  storeThreshold: number,
): Promise<{ products: Product[]; total: number; capped: boolean }> {
  const { search, where, order } = productFilter(query);
  const select = BY_STOCK.has(query.sort) ? selectProductsByStock : selectProducts;
  if (!search) {
    const rows = await select(database.db, storeThreshold)
      .where(where)
      .orderBy(...order)
      .limit(window.limit)
      .offset(window.offset);
    return { products: rows.map(toProduct), total: await countProducts(database.db, where), capped: false };
  }
  const words = searchWords(query.search);
  const { db, run } = database.searches;
  return withinSearchLimit(async () => {
    // Words of a name cluster in name order ("Vitamin …" all sit together), so the planner's
    // index-order scan can read far past a page before it finds a few matches. So take up to
    // FEW_MATCHES + 1 matches from the trigram index in one pass: when that is all of them, sort
    // them and count them from the same pass; when there are more, matches are dense and the
    // index-order read below finds a page at once.
    const matching = sql`
      with m as materialized (select * from ${products} where ${where} limit ${FEW_MATCHES + 1})
      select m.id, m.name, m.description, m.price::text as price, m.stock,
             ${reorderPointSql(storeThreshold, sql`m.reorder_point`)} as "reorderPoint",
             m.reorder_point is null as "reorderPointFromStore", m.reorder_quantity as "reorderQuantity",
             m.cost::text as cost, m.sku, m.barcode,
             c.id as "categoryId", c.name as "categoryName", s.id as "supplierId", s.name as "supplierName",
             tr.id as "taxRateId", tr.name as "taxRateName", tr.rate::text as "taxRate",
             m.tax_rate_id is null as "taxRateDefault", m.tracking,
             (select count(*)::int from m) as total
      from m join ${categories} c on c.id = m.category_id join ${suppliers} s on s.id = m.supplier_id
        left join ${storeSettings} ss on ss.id = 1
        left join ${taxRates} tr on tr.id = coalesce(m.tax_rate_id, ss.default_tax_rate_id)
      order by ${sql.raw(SQL_ORDER[query.sort ?? 'name'])}
      limit ${window.limit} offset ${window.offset}`;
    // Planning this takes about as long as running it, so it is prepared (a plan per shape, kept
    // per connection). Not with a short word: how many names have a word starting with it ranges
    // from none to most, and only a plan made for the actual words knows whether to read the
    // trigram index or the table.
    const short = words.every(isShortWord);
    const prepared = !words.some(isShortWord);
    const rows = prepared
      ? await run<ProductRow & { total: number }>(...statementOf(matching))
      : rowsOf<ProductRow & { total: number }>(await db.execute(matching));
    const found = rows[0]?.total ?? (await countProducts(db, where, FEW_MATCHES + 1));
    if (found <= FEW_MATCHES) return { products: rows.map(toProduct), total: found, capped: false };
    const page = await select(db, storeThreshold)
      .where(where)
      .orderBy(...order)
      .limit(window.limit)
      .offset(window.offset);
    return short
      ? { products: page.map(toProduct), total: FEW_MATCHES, capped: true }
      : { products: page.map(toProduct), total: await countProducts(db, where), capped: false };
  });
}

/** The same orders as PRODUCT_ORDER, over the columns of a matched set `m`. */
const SQL_ORDER: Record<NonNullable<ProductQuery['sort']>, string> = {
  name: 'lower(m.name), m.id',
  '-name': 'lower(m.name) desc, m.id desc',
  price: 'm.price, m.id',
  '-price': 'm.price desc, m.id desc',
  stock: 'm.stock, lower(m.name), m.id',
  '-stock': 'm.stock desc, lower(m.name) desc, m.id desc',
};

/**
 * The whole catalogue is counted by product_totals (kept by a trigger); a filtered one counts its
 * rows, up to `upTo` when given.
 */
async function countProducts(db: Db, where: SQL | undefined, upTo?: number): Promise<number> {
  if (!where) {
    const [row] = await db
      .execute(sql`select coalesce(sum(products), 0)::int as n from product_totals`)
      .then((result) => rowsOf<{ n: number }>(result));
    return row?.n ?? 0;
  }
  if (upTo !== undefined) {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from (select 1 from ${products} where ${where} limit ${upTo}) x`,
      ),
    );
    return row?.n ?? 0;
  }
  const [row] = await db.select({ n: count() }).from(products).where(where);
  return row?.n ?? 0;
}

export async function findProduct(db: Db, id: string, storeThreshold: number): Promise<Product | undefined> {
  const [row] = await selectProducts(db, storeThreshold).where(eq(products.id, id));
  return row && toProduct(row);
}

/**
 * The product a scanner's code names: its barcode or its SKU, ignoring case (both unique, each
 * by its own index). Should one product's barcode be another's SKU, the barcode wins.
 *
 * The counter asks this at every scan, so it is one prepared statement that checks the signed-in
 * user too (signedInStatement): one round trip. Its columns are productColumns' own, by name, as
 * toProduct reads them (a test holds the answer equal to GET /api/products/:id's), and the
 * caller's role, which decides whether the answer shows the cost.
 * $1 the code, $2 the store's low-stock threshold.
 */
const PRODUCT_BY_CODE = signedInStatement('products_by_code', {
  select: `select p.id, p.name, p.description, p.price::text as price, p.stock,
          coalesce(p.reorder_point, $2::int) as "reorderPoint",
          p.reorder_point is null as "reorderPointFromStore", p.reorder_quantity as "reorderQuantity",
          p.cost::text as cost, p.sku, p.barcode, c.id as "categoryId", c.name as "categoryName",
          s.id as "supplierId", s.name as "supplierName",
          tr.id as "taxRateId", tr.name as "taxRateName", tr.rate::text as "taxRate",
          p.tax_rate_id is null as "taxRateDefault", p.tracking,
          (select role from signed_in_user) as "callerRole"
   from products p
   join categories c on c.id = p.category_id
   join suppliers s on s.id = p.supplier_id
   left join store_settings ss on ss.id = 1
   left join tax_rates tr on tr.id = coalesce(p.tax_rate_id, ss.default_tax_rate_id)
   where exists (select 1 from signed_in_user)
     and (lower(p.barcode) = lower($1::text) or lower(p.sku) = lower($1::text))
   order by lower(p.barcode) = lower($1::text) desc nulls last
   limit 1`,
});

export async function findProductByCode(
  run: SignedInRunner,
  code: string,
  storeThreshold: number,
): Promise<{ product: Product; callerRole: Role } | undefined> {
  const [row] = await run<(ProductRow & { callerRole: Role }) | { id: null }>(PRODUCT_BY_CODE, [
    code,
    storeThreshold,
  ]);
  if (!row?.id) return undefined;
  const found = row as ProductRow & { callerRole: Role };
  return { product: toProduct(found), callerRole: found.callerRole };
}

/** The categories (with descriptions) and suppliers (by name) a product can be given, by name. */
export async function productChoices(db: Db) {
  const [categoryRows, supplierRows] = await Promise.all([
    db
      .select({ _id: categories.id, name: categories.name, description: categories.description })
      .from(categories)
      .orderBy(asc(sql`lower(${categories.name})`)),
    db
      .select({ _id: suppliers.id, name: suppliers.name })
      .from(suppliers)
      .orderBy(asc(sql`lower(${suppliers.name})`)),
  ]);
  return { categories: categoryRows, suppliers: supplierRows };
}

/** Which of the referenced category, supplier and tax rate (when one is named) do not exist. */
export async function missingReferences(db: Db, categoryId: string, supplierId: string, taxRateId?: string) {
  const result = await db.execute(sql`
    select exists(select 1 from ${categories} where ${categories.id} = ${categoryId}) as category,
           exists(select 1 from ${suppliers} where ${suppliers.id} = ${supplierId}) as supplier,
           ${taxRateId === undefined ? sql`true` : sql`exists(select 1 from ${taxRates} where ${taxRates.id} = ${taxRateId})`} as "taxRate"`);
  const [row] = rowsOf<{ category: boolean; supplier: boolean; taxRate: boolean }>(result);
  return { category: !row?.category, supplier: !row?.supplier, taxRate: !row?.taxRate };
}

/**
 * A product as its audit entries show it: money as its exact text, category and supplier by
 * name, its own tax rate by name. `lock` holds the row until the transaction ends, so the values compared are the ones
 * changed.
 */
async function auditedProduct(tx: Tx, id: string, lock = false) {
  const query = tx
    .select({
      name: products.name,
      description: products.description,
      price: products.price,
      stock: products.stock,
      cost: products.cost,
      reorderPoint: products.reorderPoint,
      reorderQuantity: products.reorderQuantity,
      sku: products.sku,
      barcode: products.barcode,
      category: categories.name,
      supplier: suppliers.name,
      /** The product's own rate by name; null: the store's default. */
      taxRate: taxRates.name,
      /** 'lot' for a lot-tracked product, null (left out of a creation's entry) for none. */
      tracking: sql<string | null>`nullif(${products.tracking}, 'none')`,
    })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(suppliers, eq(suppliers.id, products.supplierId))
    .leftJoin(taxRates, eq(taxRates.id, products.taxRateId))
    .where(eq(products.id, id));
  const [row] = lock ? await query.for('update', { of: products }) : await query;
  return row;
}

const LOT_NOT_TRACKED = 'Name a lot only for a product tracked by lot.';

/** A lot-tracked product's stock moves through its lots, never through the product form. */
const STOCK_THROUGH_LOTS = "Change a lot-tracked product's stock through its lots.";

/**
 * Adds a product. Its stock arrives by its opening movement, which names who created it and, for a
 * lot-tracked product (DESIGN §15), the lot it goes into (a new number with its expiry, created
 * here). The product is written untracked and then marked tracked, so that the opening movement
 * of one created without stock, which names no lot, is applied as any other.
 */
export async function insertProduct(
  db: Db,
  values: ProductValues,
  actor: Actor,
  lot?: LotRef,
): Promise<string> {
  const tracked = values.tracking === 'lot';
  if (lot !== undefined && !tracked) throw badRequest(LOT_NOT_TRACKED);
  if (tracked && values.stock > 0 && lot === undefined)
    throw badRequest('Name the lot the opening stock goes into.');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(products)
      .values({ ...columnValues(values), stock: 0, tracking: 'none' })
      .returning({ id: products.id });
    const id = (row as { id: string }).id;
    const opening = lot === undefined ? undefined : await lotForAdding(runnerOf(tx), id, lot);
    await tx.insert(stockMovements).values({
      productId: id,
      kind: 'initial',
      quantity: values.stock,
      userId: actor.id,
      userName: actor.name,
      lotId: opening?._id ?? null,
    });
    if (tracked) await tx.update(products).set({ tracking: 'lot' }).where(eq(products.id, id));
    const created = await auditedProduct(tx, id);
    if (!created) throw new Error('a product just inserted is missing');
    await recordAudit(tx, {
      actor,
      action: 'created',
      entity: { type: 'product', id, name: created.name },
      changes: [...createdFields(created), ...(opening ? [{ field: 'lot', new: opening.number }] : [])],
    });
    return id;
  });
}

/**
 * What an edit does to the stock (DESIGN §8): the stock to count to, or undefined to leave it.
 * With the stock the form showed (`expected`), a form whose stock was not changed leaves the
 * stock alone, however many sales happened meanwhile; a changed one is refused when the stock
 * moved meanwhile, so no sale's units come back through an edit.
 */
export function stockFromEdit(
  current: number,
  sent: number,
  expected: number | undefined,
): number | undefined {
  if (expected === undefined) return sent === current ? undefined : sent;
  if (sent === expected) return undefined;
  if (current !== expected)
    throw refuseWith('STOCK_CHANGED', { stock: current }, { from: expected, to: current });
  return sent;
}

const TRACKING_ON = 'Lot tracking turned on';

/**
 * Changes a product; the entry holds each changed field, old → new. A new stock is a `count`
 * movement (stockFromEdit decides whether there is one). Lots (DESIGN §15): a lot-tracked
 * product's stock is not changed here (409); turning tracking off needs every lot empty (409);
 * turning it on moves the units there are into the lot named (400 without one when there are
 * any): a count out while the product is untracked, then one in naming the lot, so that the lot
 * is the sum of its movements and the product the sum of its lots and of its movements.
 */
export async function updateProduct(
  db: Db,
  id: string,
  values: ProductValues & { expectedStock?: number; lot?: LotRef },
  actor: Actor,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const before = await auditedProduct(tx, id, true);
    if (!before) return false;
    const { stock, expectedStock, lot, ...rest } = values;
    const wasTracked = before.tracking === 'lot';
    const tracked = rest.tracking === undefined ? wasTracked : rest.tracking === 'lot';
    if (lot !== undefined && !tracked) throw badRequest(LOT_NOT_TRACKED);
    if (lot !== undefined && wasTracked)
      throw badRequest('Name a lot only when creating a product or turning lot tracking on.');
    const target = stockFromEdit(before.stock, stock, expectedStock);
    if (wasTracked && target !== undefined) throw conflict(STOCK_THROUGH_LOTS);
    if (wasTracked && !tracked) {
      const [full] = await runnerOf(tx).query(
        'select 1 from lots where product_id = $1::uuid and quantity > 0 limit 1',
        [id],
      );
      if (full) throw conflict('Lot tracking can be turned off only when every lot is empty.');
    }
    const moving = !wasTracked && tracked ? (target ?? before.stock) : 0;
    if (moving > 0 && lot === undefined)
      throw badRequest(`Name the lot the ${moving} units in stock go into.`);
    // Each at its own moment, so the ledger lists them in the order they happened.
    const move = (quantity: number, note: string, lotId?: string) =>
      tx.insert(stockMovements).values({
        at: sql`clock_timestamp()`,
        productId: id,
        kind: 'count',
        quantity,
        note,
        userId: actor.id,
        userName: actor.name,
        lotId: lotId ?? null,
      });
    if (target !== undefined) await move(target - before.stock, 'Stock set in the product form');
    if (moving > 0) await move(-moving, TRACKING_ON);
    await tx.update(products).set(columnValues(rest)).where(eq(products.id, id));
    const into = lot === undefined ? undefined : await lotForAdding(runnerOf(tx), id, lot);
    if (into && moving > 0) await move(moving, TRACKING_ON, into._id);
    const after = await auditedProduct(tx, id);
    if (!after) throw new Error('a product locked for update is missing');
    const changes = [...changedFields(before, after), ...(into ? [{ field: 'lot', new: into.number }] : [])];
    if (changes.length > 0) {
      await recordAudit(tx, {
        actor,
        action: 'updated',
        entity: { type: 'product', id, name: after.name },
        changes,
      });
    }
    return true;
  });
}

export async function deleteProduct(db: Db, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const before = await auditedProduct(tx, id, true);
    if (!before) return false;
    const onOrder = await firstPurchaseOrderWith(tx, { productId: id });
    if (onOrder) throw inUse(`${before.name} is on purchase order ${onOrder}, so it stays for that history.`);
    await tx.delete(products).where(eq(products.id, id));
    await recordAudit(tx, {
      actor,
      action: 'deleted',
      entity: { type: 'product', id, name: before.name },
      changes: deletedFields(before),
    });
    return true;
  });
}
