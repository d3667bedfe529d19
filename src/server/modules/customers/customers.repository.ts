import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Customer, CustomerInput, CustomerSummary } from '../../../shared/customers';
import { formatCents, toCents } from '../../../shared/money';
import { type Db, runnerOf, type Tx } from '../../db/connection';
import { customers } from '../../db/schema';
import { type AppError, inUse, pgCode, refuseWith, violatedConstraint } from '../../lib/errors';
import { matchesSearch } from '../../lib/search';
import { rowsOf } from '../../lib/sql';
import {
  type Actor,
  changedFields,
  createdFields,
  deletedFields,
  recordAudit,
} from '../audit/audit.repository';
import { storeCurrency } from '../store/store.repository';

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
 * What a customer bought: their sales, what they spent net of returns (what they paid for each
 * line, after discounts and with tax, less the money given back: DESIGN §12; summed exactly in the
 * database) and when they last bought. With `sellerId`, only the sales that
 * person made (a seller reads no one else's sales, summed or not). Their store credit balance
 * (DESIGN §13) is theirs whoever reads it.
 */
export async function customerSummary(db: Db, id: string, sellerId?: string): Promise<CustomerSummary> {
  const seller = sellerId ?? null;
  const [row] = rowsOf<{ sales: number; spent: string; last: string | Date | null; credit: string | null }>(
    await db.execute(sql`
      select (select credit_balance::text from customers where id = ${id}) as credit,
             (select count(*)::int from sales
              where customer_id = ${id} and (${seller}::uuid is null or user_id = ${seller}::uuid)) as sales,
             (select coalesce(sum(total_price - returned_total), 0)::text from orders
              where customer_id = ${id} and (${seller}::uuid is null or user_id = ${seller}::uuid)) as spent,
             (select max(created_at) from sales
              where customer_id = ${id} and (${seller}::uuid is null or user_id = ${seller}::uuid)) as last`),
  );
  return {
    sales: row?.sales ?? 0,
    totalSpent: Number(row?.spent ?? 0),
    lastPurchaseAt: row?.last ? new Date(row.last).toISOString() : null,
    creditBalance: Number(row?.credit ?? 0),
  };
}

/**
 * The key two customers may not share (customer_duplicate_key.sql): the name trimmed, lower case, inner
 * spaces collapsed, and the phone's digits. Worked out by the database, one definition for all.
 */
const duplicateKey = (values: { name: string; phone: string }) =>
  sql<string>`customer_duplicate_key(${values.name}, ${values.phone})`;

type Duplicate = { id: string; name: string; phone: string };

/** The one sentence refusing a duplicate, naming the customer already stored (and their id). */
function duplicateRefusal(existing: Duplicate): AppError {
  const phone = existing.phone.trim();
  return refuseWith(
    'CUSTOMER_TAKEN',
    { existing: { _id: existing.id, name: existing.name } },
    { name: existing.name, phone },
  );
}

/** Another customer holding the key of these values. */
async function duplicateOf(
  db: Db | Tx,
  values: { name: string; phone: string },
  except?: string,
): Promise<Duplicate | undefined> {
  const [row] = await db
    .select({ id: customers.id, name: customers.name, phone: customers.phone })
    .from(customers)
    .where(
      and(eq(customers.duplicateKey, duplicateKey(values)), except ? ne(customers.id, except) : undefined),
    )
    .limit(1);
  return row;
}

/**
 * Runs a write refused (409 naming the customer) when it would store a duplicate. The check before
 * the write gives the sentence; the unique index refuses the one that raced past it, and that
 * refusal becomes the same sentence once the other customer is visible.
 */
async function refusingDuplicates<T>(
  db: Db,
  values: { name: string; phone: string },
  except: string | undefined,
  write: (tx: Tx) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction(async (tx) => write(tx));
  } catch (error) {
    if (pgCode(error) !== '23505' || violatedConstraint(error) !== 'customers_duplicate_key') throw error;
    const existing = await duplicateOf(db, values, except);
    throw existing ? duplicateRefusal(existing) : error;
  }
}

export async function insertCustomer(db: Db, values: CustomerValues, actor: Actor): Promise<Customer> {
  return refusingDuplicates(db, values, undefined, async (tx) => {
    const existing = await duplicateOf(tx, values);
    if (existing) throw duplicateRefusal(existing);
    const [row] = await tx
      .insert(customers)
      .values({ ...values, duplicateKey: duplicateKey(values) })
      .returning();
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

/**
 * Changes a customer; the entry holds each changed field. Orders keep the name they were sold under.
 * A new name or phone matching another customer is refused (409); a customer whose name and phone
 * stay as they were keeps its key, so a duplicate stored before the rule can still be edited.
 */
export async function updateCustomer(
  db: Db,
  id: string,
  values: CustomerValues,
  actor: Actor,
): Promise<Customer | undefined> {
  return refusingDuplicates(db, values, id, async (tx) => {
    const [before] = await tx.select().from(customers).where(eq(customers.id, id)).for('update');
    if (!before) return undefined;
    const [same] = rowsOf<{ same: boolean }>(
      await tx.execute(sql`select ${duplicateKey(values)} = ${duplicateKey(before)} as same`),
    );
    if (!same?.same) {
      const existing = await duplicateOf(tx, values, id);
      if (existing) throw duplicateRefusal(existing);
    }
    const [row] = await tx
      .update(customers)
      .set(same?.same ? values : { ...values, duplicateKey: duplicateKey(values) })
      .where(eq(customers.id, id))
      .returning();
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
 * foreign keys set customer_id to null). A customer who still has store credit is kept (409):
 * the row is locked first, so credit given while the delete runs is seen.
 */
export async function deleteCustomer(db: Db, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [held] = await tx.select().from(customers).where(eq(customers.id, id)).for('update');
    if (!held) return false;
    if (toCents(held.creditBalance) !== 0n) {
      const balance = formatCents(toCents(held.creditBalance), await storeCurrency(runnerOf(tx)));
      throw inUse(`${held.name} still has ${balance} of store credit.`);
    }
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
