import { and, asc, count, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { searchWords } from '../../../shared/paging';
import type { Product, ProductQuery } from '../../../shared/products';
import type { Role } from '../../../shared/roles';
import { isShortWord } from '../../../shared/search';
import { type Database, type Db, statementOf } from '../../db/connection';
import {
  categories,
  items,
  nameWords,
  productSearch,
  productStock,
  products,
  storeSettings,
  suppliers,
  taxRates,
} from '../../db/schema';
import { type SignedInRunner, signedInStatement } from '../../lib/auth';
import type { CsvBatch } from '../../lib/csv-stream';
import { isId } from '../../lib/errors';
import type { JsonBatch } from '../../lib/json-stream';
import { withinSearchLimit, wordMatch } from '../../lib/search';
import { rowsOf } from '../../lib/sql';
import { atLocation, stocksAt } from '../stock/product-locations';
import {
  itemOfProduct,
  type ProductRow,
  productColumns,
  rateInForce,
  reorderPointSql,
  selectProducts,
  selectProductsByStock,
  storeRow,
  toProduct,
} from './products.columns';

/** The reads of the catalogue: lists, pages, the whole catalogue and its CSV, one product, choices. */

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

type ProductFilter = {
  search?: string;
  category?: string;
  sort?: ProductQuery['sort'];
  /** DESIGN §22: 'true' only active products, 'false' only inactive ones, 'all' or undefined both. */
  active?: ProductQuery['active'];
  /** DESIGN §22: only this item's variants. */
  item?: string;
};

/**
 * The conditions and order of a product list: every word of the search in the name, or the whole
 * search as a SKU or barcode exactly (ignoring case: their unique indexes), the category, whether
 * active and the item (DESIGN §22). Every read of a list takes its conditions from here: the
 * pages, the whole catalogue's batches and the CSV. A search's conditions are product_search's
 * (productSearchConditions); `where` holds them for the reads of products.
 */
function productFilter(query: ProductFilter) {
  const search = productSearchConditions(query);
  const where = search
    ? sql`${products.id} in (select ${productSearch.productId} from ${productSearch} where ${search})`
    : and(...listConditions(query, products));
  return { search, where, order: PRODUCT_ORDER[query.sort ?? 'name'] };
}

/** The category, whether active and the item (DESIGN §22), over products or product_search. */
function listConditions(
  query: ProductFilter,
  t: { categoryId: AnyPgColumn; active: AnyPgColumn; itemId: AnyPgColumn },
): (SQL | undefined)[] {
  const category =
    query.category === undefined
      ? undefined
      : isId(query.category)
        ? eq(t.categoryId, query.category)
        : sql`false`;
  const active =
    query.active === 'true' ? eq(t.active, true) : query.active === 'false' ? eq(t.active, false) : undefined;
  const item =
    query.item === undefined ? undefined : isId(query.item) ? eq(t.itemId, query.item) : sql`false`;
  return [category, active, item];
}

/**
 * A search's conditions over product_search (decision 0052), undefined without a search: each
 * word of the search matches (wordMatch, the rule of every list's search) a word of name_words and
 * the name holds one of those, or the whole search is a SKU or barcode exactly; with the category,
 * whether active and the item.
 */
export function productSearchConditions(query: ProductFilter): SQL | undefined {
  const words = searchWords(query.search);
  if (words.length === 0) return undefined;
  const names = and(
    ...words.map((word) => {
      const { operator, pattern } = wordMatch(word);
      return sql`${productSearch.words} && array(select ${nameWords.word} from ${nameWords} where ${nameWords.word} ${sql.raw(operator)} ${pattern})`;
    }),
  );
  const code = query.search?.trim() ?? '';
  const search = /\s/.test(code)
    ? names
    : or(
        names,
        sql`${productSearch.productId} = any(array(select ${products.id} from ${products} where lower(${products.sku}) = lower(${code}) or lower(${products.barcode}) = lower(${code})))`,
      );
  return and(search, ...listConditions(query, productSearch));
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
  locationId?: string,
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
    .leftJoin(items, itemOfProduct)
    .where(and(where, past))
    .orderBy(...order)
    .limit(size);
  const last = rows.at(-1);
  const here =
    locationId === undefined
      ? undefined
      : await stocksAt(
          db,
          locationId,
          rows.map((row) => row.id),
        );
  return {
    items: rows.map((row) => JSON.stringify(shown(here ? atLocation(toProduct(row), here) : toProduct(row)))),
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
  locationId?: string,
): Promise<CsvBatch<NameCursor>> {
  const { where } = productFilter(query);
  const past = after ? sql`(${byName}, ${products.id}) > (${after.name}, ${after.id}::uuid)` : undefined;
  const rows = await db
    .select({
      ...productColumns(storeThreshold),
      itemOptions: items.options,
      nameKey: sql<string>`${byName}`,
    })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(suppliers, eq(suppliers.id, products.supplierId))
    .leftJoin(storeSettings, storeRow)
    .leftJoin(taxRates, rateInForce)
    .leftJoin(items, itemOfProduct)
    .where(and(where, past))
    .orderBy(asc(byName), asc(products.id))
    .limit(size);
  const last = rows.at(-1);
  // DESIGN §17: with a location, Stock is the stock there (an import at that location sets it back).
  const here =
    locationId === undefined
      ? undefined
      : await stocksAt(
          db,
          locationId,
          rows.map((row) => row.id),
        );
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
      here ? (here.get(row.id) ?? 0) : row.stock,
      row.reorderPointFromStore ? null : row.reorderPoint,
      row.reorderQuantity,
      row.taxRateDefault ? null : row.taxRateName,
      ...variantCells(row.itemName, row.itemOptions, row.optionValues),
      row.brand,
      row.active ? 'true' : 'false',
    ]),
    next: last && rows.length === size ? { name: last.nameKey, id: last.id } : undefined,
  };
}

/**
 * A variant's Item, Option 1, Value 1, … Value 3 cells (DESIGN §22): its item's name, then each of
 * the item's options with this product's value; empty for a product on its own.
 */
function variantCells(itemName: string | null, options: unknown, values: unknown): (string | null)[] {
  const cells: (string | null)[] = [itemName];
  const named = (itemName === null ? [] : (options as { name: string }[])).slice(0, 3);
  const own = (values ?? {}) as Record<string, string>;
  for (let i = 0; i < 3; i++) {
    const option = named[i];
    cells.push(option?.name ?? null, option ? (own[option.name] ?? null) : null);
  }
  return cells;
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
  locationId?: string,
): Promise<{ products: Product[]; total: number; capped: boolean }> {
  const page = await catalogueWindow(database, query, window, storeThreshold);
  if (locationId === undefined) return page;
  // DESIGN §17: the page as it always is, then its products' stock at the location (one lookup).
  const here = await stocksAt(
    database.db,
    locationId,
    page.products.map((product) => product._id),
  );
  return { ...page, products: page.products.map((product) => atLocation(product, here)) };
}

async function catalogueWindow(
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
    // Up to FEW_MATCHES + 1 matches, read from product_search's word index alone (decision 0052):
    // when that is all of them, the page is taken from them by the name's key (or by the products'
    // price or stock) and counted from the same pass, and only the page's products are read; when
    // there are more, the page is read in the order of product_search's name index, which finds a
    // page of dense matches at once.
    const few = sql`select ${productSearch.productId} as id, ${productSearch.nameKey} as name_key from ${productSearch} where ${search} limit ${FEW_MATCHES + 1}`;
    const matching = pageOf(
      sql`materialized (${few})`,
      query.sort,
      window,
      storeThreshold,
      sql`(select count(*)::int from k)`,
    );
    // Planning this takes about as long as running it, so it is prepared (a plan per shape, kept
    // per connection). Not with a short word: how many names have a word starting with it ranges
    // from none to most, and only a plan made for the actual words knows how to read them.
    const short = words.every(isShortWord);
    const prepared = !words.some(isShortWord);
    const rows = prepared
      ? await run<ProductRow & { total: number }>(...statementOf(matching))
      : rowsOf<ProductRow & { total: number }>(await db.execute(matching));
    const found = rows[0]?.total ?? (await countMatches(db, search, FEW_MATCHES + 1));
    if (found <= FEW_MATCHES) return { products: rows.map(toProduct), total: found, capped: false };
    const all = sql`select ${productSearch.productId} as id, ${productSearch.nameKey} as name_key from ${productSearch} where ${search}`;
    const page = rowsOf<ProductRow>(
      await db.execute(pageOf(sql`(${all})`, query.sort, window, storeThreshold, sql`0`)),
    );
    return short
      ? { products: page.map(toProduct), total: FEW_MATCHES, capped: true }
      : { products: page.map(toProduct), total: await countMatches(db, search), capped: false };
  });
}

/**
 * A page of the matches `k` (a subquery of product_search's id and name_key): taken by the name's
 * key for the name orders, reading no product but the page's; by the products' own columns for
 * the others. Each row carries `total`.
 */
function pageOf(
  matches: SQL,
  sort: ProductQuery['sort'],
  window: { limit: number; offset: number },
  storeThreshold: number,
  total: SQL,
): SQL {
  const order = sort ?? 'name';
  const page =
    order === 'name' || order === '-name'
      ? sql`select k.id from k order by ${sql.raw(order === 'name' ? 'k.name_key, k.id' : 'k.name_key desc, k.id desc')}`
      : sql`select m.id from k join ${products} m on m.id = k.id order by ${sql.raw(SQL_ORDER[order])}`;
  return sql`
    with k as ${matches}, page as (${page} limit ${window.limit} offset ${window.offset})
    select m.id, m.name, m.description, m.price::text as price, m.stock,
           ${reorderPointSql(storeThreshold, sql`m.reorder_point`)} as "reorderPoint",
           m.reorder_point is null as "reorderPointFromStore", m.reorder_quantity as "reorderQuantity",
           m.cost::text as cost, m.sku, m.barcode,
           c.id as "categoryId", c.name as "categoryName", s.id as "supplierId", s.name as "supplierName",
           tr.id as "taxRateId", tr.name as "taxRateName", tr.rate::text as "taxRate",
           m.tax_rate_id is null as "taxRateDefault", m.tracking,
           m.brand, m.active, i.id as "itemId", i.name as "itemName", m.option_values as "optionValues",
           ${total} as total
    from page join ${products} m on m.id = page.id
      join ${categories} c on c.id = m.category_id join ${suppliers} s on s.id = m.supplier_id
      left join ${storeSettings} ss on ss.id = 1
      left join ${taxRates} tr on tr.id = coalesce(m.tax_rate_id, ss.default_tax_rate_id)
      left join ${items} i on i.id = m.item_id
    order by ${sql.raw(SQL_ORDER[order])}`;
}

/** How many products a search's conditions match (product_search alone), up to `upTo` when given. */
async function countMatches(db: Db, search: SQL, upTo?: number): Promise<number> {
  const matches = sql`select 1 from ${productSearch} where ${search}${upTo === undefined ? sql`` : sql` limit ${upTo}`}`;
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${matches}) x`));
  return row?.n ?? 0;
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

/** The whole catalogue is counted by product_totals (kept by a trigger); a filtered one counts its rows. */
async function countProducts(db: Db, where: SQL | undefined): Promise<number> {
  if (!where) {
    const [row] = await db
      .execute(sql`select coalesce(sum(products), 0)::int as n from product_totals`)
      .then((result) => rowsOf<{ n: number }>(result));
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
          p.brand, p.active, i.id as "itemId", i.name as "itemName", p.option_values as "optionValues",
          (select role from signed_in_user) as "callerRole"
   from products p
   join categories c on c.id = p.category_id
   join suppliers s on s.id = p.supplier_id
   left join store_settings ss on ss.id = 1
   left join tax_rates tr on tr.id = coalesce(p.tax_rate_id, ss.default_tax_rate_id)
   left join items i on i.id = p.item_id
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
