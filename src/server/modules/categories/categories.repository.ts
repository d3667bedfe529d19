import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Category } from '../../../shared/categories';
import type { Db } from '../../db/connection';
import { categories, products } from '../../db/schema';

const toCategory = (row: typeof categories.$inferSelect): Category => ({
  _id: row.id,
  name: row.name,
  description: row.description,
});

export async function listCategories(db: Db): Promise<Category[]> {
  const rows = await db
    .select()
    .from(categories)
    .orderBy(asc(sql`lower(${categories.name})`));
  return rows.map(toCategory);
}

export async function nameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  const sameName = eq(sql`lower(${categories.name})`, name.toLowerCase());
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(exceptId ? and(sameName, ne(categories.id, exceptId)) : sameName);
  return !!row;
}

export async function insertCategory(db: Db, values: { name: string; description: string }) {
  const [row] = await db.insert(categories).values(values).returning();
  return toCategory(row as NonNullable<typeof row>);
}

export async function updateCategory(db: Db, id: string, values: { name: string; description: string }) {
  const [row] = await db.update(categories).set(values).where(eq(categories.id, id)).returning();
  return row && toCategory(row);
}

export async function productsInCategory(db: Db, id: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(products).where(eq(products.categoryId, id));
  return row?.n ?? 0;
}

export async function deleteCategory(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(categories).where(eq(categories.id, id)).returning({ id: categories.id });
  return rows.length > 0;
}
