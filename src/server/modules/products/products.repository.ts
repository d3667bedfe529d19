import { asc, eq, sql } from 'drizzle-orm';
import type { Product } from '../../../shared/products';
import type { Db } from '../../db/connection';
import { categories, products, suppliers } from '../../db/schema';
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

export async function listProducts(db: Db): Promise<Product[]> {
  const rows = await selectProducts(db).orderBy(asc(sql`lower(${products.name})`), asc(products.id));
  return rows.map(toProduct);
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
