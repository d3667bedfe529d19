import { asc, count, eq, sql } from 'drizzle-orm';
import type { Customer, CustomerInput, CustomerSummary } from '../../../shared/customers';
import type { Db } from '../../db/connection';
import { customers } from '../../db/schema';
import { matchesSearch } from '../../lib/search';
import { rowsOf } from '../../lib/sql';
import {
  type Actor,
  changedFields,
  createdFields,
  deletedFields,
  recordAudit,
} from '../audit/audit.repository';

type CustomerValues = Required<{ [K in keyof CustomerInput]: string }>;
type CustomerRow = typeof customers.$inferSelect;

const audited = (row: CustomerValues): CustomerValues => ({
  name: row.name,
  phone: row.phone,
  email: row.email,
  address: row.address,
  note: row.note,
});

export const toCustomer = (row: CustomerRow): Customer => ({
  _id: row.id,
  name: row.name,
  phone: row.phone,
  email: row.email,
  address: row.address,
  note: row.note,
  createdAt: new Date(row.createdAt).toISOString(),
});

const byName = sql`lower(${customers.name})`;

/** A page of customers by name; every word of the search in the name, phone or email. */
export async function customerPage(
  db: Db,
  query: { search?: string },
  window: { limit: number; offset: number },
): Promise<{ customers: Customer[]; total: number }> {
  const where = matchesSearch(query.search, [customers.name, customers.phone, customers.email]);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(customers)
      .where(where)
      .orderBy(asc(byName), asc(customers.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ n: count() }).from(customers).where(where),
  ]);
  return { customers: rows.map(toCustomer), total: counted?.n ?? 0 };
}

export async function findCustomer(db: Db, id: string): Promise<Customer | undefined> {
  const [row] = await db.select().from(customers).where(eq(customers.id, id));
  return row && toCustomer(row);
}

/**
 * What a customer bought: their sales, what they spent net of returns (units kept × unit price,
 * summed exactly in the database) and when they last bought. With `sellerId`, only the sales that
 * person made (a seller reads no one else's sales, summed or not).
 */
export async function customerSummary(db: Db, id: string, sellerId?: string): Promise<CustomerSummary> {
  const seller = sellerId ?? null;
  const [row] = rowsOf<{ sales: number; spent: string; last: string | Date | null }>(
    await db.execute(sql`
      select (select count(*)::int from sales
              where customer_id = ${id} and (${seller}::uuid is null or user_id = ${seller}::uuid)) as sales,
             (select coalesce(sum((quantity - returned_quantity) * unit_price), 0)::text from orders
              where customer_id = ${id} and (${seller}::uuid is null or user_id = ${seller}::uuid)) as spent,
             (select max(created_at) from sales
              where customer_id = ${id} and (${seller}::uuid is null or user_id = ${seller}::uuid)) as last`),
  );
  return {
    sales: row?.sales ?? 0,
    totalSpent: Number(row?.spent ?? 0),
    lastPurchaseAt: row?.last ? new Date(row.last).toISOString() : null,
  };
}

export async function insertCustomer(db: Db, values: CustomerValues, actor: Actor): Promise<Customer> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(customers).values(values).returning();
    const customer = row as CustomerRow;
    await recordAudit(tx, {
      actor,
      action: 'created',
      entity: { type: 'customer', id: customer.id, name: customer.name },
      changes: createdFields(audited(customer)),
    });
    return toCustomer(customer);
  });
}

/** Changes a customer; the entry holds each changed field. Orders keep the name they were sold under. */
export async function updateCustomer(
  db: Db,
  id: string,
  values: CustomerValues,
  actor: Actor,
): Promise<Customer | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(customers).where(eq(customers.id, id)).for('update');
    if (!before) return undefined;
    const [row] = await tx.update(customers).set(values).where(eq(customers.id, id)).returning();
    const after = row as CustomerRow;
    const changes = changedFields(audited(before), audited(after));
    if (changes.length > 0) {
      await recordAudit(tx, {
        actor,
        action: 'updated',
        entity: { type: 'customer', id, name: after.name },
        changes,
      });
    }
    return toCustomer(after);
  });
}

/**
 * Deletes a customer. Their sales and orders stay, with the name they were sold under (the
 * foreign keys set customer_id to null).
 */
export async function deleteCustomer(db: Db, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(customers).where(eq(customers.id, id)).returning();
    if (!row) return false;
    await recordAudit(tx, {
      actor,
      action: 'deleted',
      entity: { type: 'customer', id, name: row.name },
      changes: deletedFields(audited(row)),
    });
    return true;
  });
}
