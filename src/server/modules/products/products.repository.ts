import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { pageWindow } from '../../../shared/paging';
import type { Product, ProductQuery } from '../../../shared/products';
import type { Db } from '../../db/connection';
import { categories, products, suppliers } from '../../db/schema';
import { isId } from '../../lib/errors';
import { matchesSearch } from '../../lib/search';
import { rowsOf } from '../../lib/sql';

export type ProductValues = {
  name: string;
  description: string;
  price: number;
  stock: number;
  categoryId: string;
  supplierId: string;
};

const productColumns = {
  id: products.id,
  name: products.name,
  description: products.description,
  price: products.price,
  stock: products.stock,
  categoryId: categories.id,
  categoryName: categories.name,
  supplierId: suppliers.id,
  supplierName: suppliers.name,
};

type ProductRow = {
  id: string;
  name: string;
  description: string;
  price: string;
  stock: number;
  categoryId: string;
  categoryName: string;
  supplierId: string;
  supplierName: string;
};

const toProduct = (row: ProductRow): Product => ({
  _id: row.id,
  name: row.name,
  description: row.description,
  price: Number(row.price),
  stock: row.stock,
  category: { _id: row.categoryId, name: row.categoryName },
  supplier: { _id: row.supplierId, name: row.supplierName },
});

function selectProducts(db: Db) {
  return db
    .select(productColumns)
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(suppliers, eq(suppliers.id, products.supplierId));
}

const byName = sql`lower(${products.name})`;
const PRODUCT_ORDER: Record<NonNullable<ProductQuery['sort']>, SQL[]> = {
  name: [asc(byName), asc(products.id)],
  '-name': [desc(byName), desc(products.id)],
  price: [asc(products.price), asc(products.id)],
  '-price': [desc(products.price), desc(products.id)],
  stock: [asc(products.stock), asc(products.id)],
  '-stock': [desc(products.stock), desc(products.id)],
};

/** The catalogue, or one page of it, filtered by name words and category. */
export async function listProducts(
  db: Db,
  query: {
    search?: string;
    category?: string;
    sort?: ProductQuery['sort'];
    page?: number;
    pageSize?: number;
  } = {},
): Promise<{ products: Product[]; total: number }> {
  const where = and(
    matchesSearch(query.search, [products.name]),
    query.category === undefined
      ? undefined
      : isId(query.category)
        ? eq(products.categoryId, query.category)
        : sql`false`,
  );
  const window = pageWindow(query);
  const listed = selectProducts(db)
    .where(where)
    .orderBy(...PRODUCT_ORDER[query.sort ?? 'name']);
  const rows = await (window ? listed.limit(window.limit).offset(window.offset) : listed);
  if (!window) return { products: rows.map(toProduct), total: rows.length };
  const [counted] = await db.select({ n: count() }).from(products).where(where);
  return { products: rows.map(toProduct), total: counted?.n ?? 0 };
}

export async function findProduct(db: Db, id: string): Promise<Product | undefined> {
  const [row] = await selectProducts(db).where(eq(products.id, id));
  return row && toProduct(row);
}

export async function categoryList(db: Db) {
  const rows = await db
    .select({ _id: categories.id, name: categories.name, description: categories.description })
    .from(categories)
    .orderBy(asc(sql`lower(${categories.name})`));
  return rows;
}

export async function supplierNames(db: Db) {
  const rows = await db
    .select({ _id: suppliers.id, name: suppliers.name })
    .from(suppliers)
    .orderBy(asc(sql`lower(${suppliers.name})`));
  return rows;
}

/** Which of the referenced category and supplier do not exist. */
export async function missingReferences(db: Db, categoryId: string, supplierId: string) {
  const result = await db.execute(sql`
    select exists(select 1 from ${categories} where ${categories.id} = ${categoryId}) as category,
           exists(select 1 from ${suppliers} where ${suppliers.id} = ${supplierId}) as supplier`);
  const [row] = rowsOf<{ category: boolean; supplier: boolean }>(result);
  return { category: !row?.category, supplier: !row?.supplier };
}

export async function insertProduct(db: Db, values: ProductValues): Promise<string> {
  const [row] = await db
    .insert(products)
    .values({ ...values, price: values.price.toFixed(2) })
    .returning({ id: products.id });
  return (row as { id: string }).id;
}

export async function updateProduct(db: Db, id: string, values: ProductValues): Promise<boolean> {
  const rows = await db
    .update(products)
    .set({ ...values, price: values.price.toFixed(2) })
    .where(eq(products.id, id))
    .returning({ id: products.id });
  return rows.length > 0;
}

export async function deleteProduct(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(products).where(eq(products.id, id)).returning({ id: products.id });
  return rows.length > 0;
}
