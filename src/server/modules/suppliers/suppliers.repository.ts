import { asc, count, eq, sql } from 'drizzle-orm';
import type { Supplier } from '../../../shared/suppliers';
import type { Db } from '../../db/connection';
import { products, suppliers } from '../../db/schema';

type SupplierValues = { name: string; email: string; phone: string; address: string };

const toSupplier = (row: typeof suppliers.$inferSelect): Supplier => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  address: row.address,
});

export async function listSuppliers(db: Db): Promise<Supplier[]> {
  const rows = await db
    .select()
    .from(suppliers)
    .orderBy(asc(sql`lower(${suppliers.name})`));
  return rows.map(toSupplier);
}

export async function insertSupplier(db: Db, values: SupplierValues) {
  const [row] = await db.insert(suppliers).values(values).returning();
  return toSupplier(row as NonNullable<typeof row>);
}

export async function updateSupplier(db: Db, id: string, values: SupplierValues) {
  const [row] = await db.update(suppliers).set(values).where(eq(suppliers.id, id)).returning();
  return row && toSupplier(row);
}

export async function productsFromSupplier(db: Db, id: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(products).where(eq(products.supplierId, id));
  return row?.n ?? 0;
}

export async function deleteSupplier(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(suppliers).where(eq(suppliers.id, id)).returning({ id: suppliers.id });
  return rows.length > 0;
}
