import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Category } from '../../../shared/categories';
import type { Db } from '../../db/connection';
import { categories, products } from '../../db/schema';
import {
  type Actor,
  changedFields,
  createdFields,
  deletedFields,
  recordAudit,
} from '../audit/audit.repository';

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

type CategoryValues = { name: string; description: string };

const audited = (row: CategoryValues): CategoryValues => ({ name: row.name, description: row.description });

export async function insertCategory(db: Db, values: CategoryValues, actor: Actor) {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(categories).values(values).returning();
    const category = row as NonNullable<typeof row>;
    await recordAudit(tx, {
      actor,
      action: 'created',
      entity: { type: 'category', id: category.id, name: category.name },
      changes: createdFields(audited(category)),
    });
    return toCategory(category);
  });
}

/** Renames and redescribes a category; the entry holds each changed field, old → new. */
export async function updateCategory(db: Db, id: string, values: CategoryValues, actor: Actor) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(categories).where(eq(categories.id, id)).for('update');
    if (!before) return undefined;
    const [row] = await tx.update(categories).set(values).where(eq(categories.id, id)).returning();
    const after = row as NonNullable<typeof row>;
    const changes = changedFields(audited(before), audited(after));
    if (changes.length > 0) {
      await recordAudit(tx, {
        actor,
        action: 'updated',
        entity: { type: 'category', id, name: after.name },
        changes,
      });
    }
    return toCategory(after);
  });
}

export async function productsInCategory(db: Db, id: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(products).where(eq(products.categoryId, id));
  return row?.n ?? 0;
}

export async function deleteCategory(db: Db, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(categories).where(eq(categories.id, id)).returning();
    if (!row) return false;
    await recordAudit(tx, {
      actor,
      action: 'deleted',
      entity: { type: 'category', id, name: row.name },
      changes: deletedFields(audited(row)),
    });
    return true;
  });
}
