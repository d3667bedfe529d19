import { asc, count, eq, sql } from 'drizzle-orm';
import type { Supplier } from '../../../shared/suppliers';
import type { Db } from '../../db/connection';
import { products, suppliers } from '../../db/schema';
import { inUse } from '../../lib/errors';
import {
  type Actor,
  changedFields,
  createdFields,
  deletedFields,
  recordAudit,
} from '../audit/audit.repository';
import { firstPurchaseOrderWith } from '../purchasing/purchasing.repository';

type SupplierValues = { name: string; email: string; phone: string; address: string };

const audited = (row: SupplierValues): SupplierValues => ({
  name: row.name,
  email: row.email,
  phone: row.phone,
  address: row.address,
});

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

export async function insertSupplier(db: Db, values: SupplierValues, actor: Actor) {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(suppliers).values(values).returning();
    const supplier = row as NonNullable<typeof row>;
    await recordAudit(tx, {
      actor,
      action: 'created',
      entity: { type: 'supplier', id: supplier.id, name: supplier.name },
      changes: createdFields(audited(supplier)),
    });
    return toSupplier(supplier);
  });
}

/** Changes a supplier; the entry holds each changed field, old → new. */
export async function updateSupplier(db: Db, id: string, values: SupplierValues, actor: Actor) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(suppliers).where(eq(suppliers.id, id)).for('update');
    if (!before) return undefined;
    const [row] = await tx.update(suppliers).set(values).where(eq(suppliers.id, id)).returning();
    const after = row as NonNullable<typeof row>;
    const changes = changedFields(audited(before), audited(after));
    if (changes.length > 0) {
      await recordAudit(tx, {
        actor,
        action: 'updated',
        entity: { type: 'supplier', id, name: after.name },
        changes,
      });
    }
    return toSupplier(after);
  });
}

export async function productsFromSupplier(db: Db, id: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(products).where(eq(products.supplierId, id));
  return row?.n ?? 0;
}

/**
 * Deletes a supplier with no products and no purchase orders: one with purchase orders stays, so
 * their history stays whole (409 naming the first). Its row is locked first, so no purchase
 * order is drafted for it between the check and the delete.
 */
export async function deleteSupplier(db: Db, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ name: suppliers.name })
      .from(suppliers)
      .where(eq(suppliers.id, id))
      .for('update');
    if (!locked) return false;
    const ordered = await firstPurchaseOrderWith(tx, { supplierId: id });
    if (ordered)
      throw inUse(
        `${locked.name} is the supplier of purchase order ${ordered}, so it stays for that history.`,
      );
    const [row] = await tx.delete(suppliers).where(eq(suppliers.id, id)).returning();
    if (!row) return false;
    await recordAudit(tx, {
      actor,
      action: 'deleted',
      entity: { type: 'supplier', id, name: row.name },
      changes: deletedFields(audited(row)),
    });
    return true;
  });
}
