// The store's customers.
import { sql } from 'drizzle-orm';
import { check, index, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';

/** The store's customers (DESIGN §11). Orders and sales keep their name as it was. */
export const customers = pgTable(
  'customers',
  {
    id: id(),
    name: text('name').notNull(),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    address: text('address').notNull().default(''),
    note: text('note').notNull().default(''),
    /**
     * customer_duplicate_key(name, phone) (migration 0022): the name trimmed, lower case, inner
     * spaces collapsed, and the phone's digits. Unique, so two customers of one name and phone
     * cannot both be stored; null for the later rows of duplicates that were stored before.
     */
    duplicateKey: text('duplicate_key'),
    /**
     * Store credit held (DESIGN §13): the sum of the customer's store_credit_entries, kept by their
     * trigger (store_credit_apply, src/server/db/functions), never below 0.
     */
    creditBalance: numeric('credit_balance', { precision: 20, scale: 2 }).notNull().default('0'),
    createdAt: createdAt(),
  },
  (t) => [
    check('customers_credit_balance_nonnegative', sql`${t.creditBalance} >= 0`),
    uniqueIndex('customers_duplicate_key').on(t.duplicateKey),
    index('customers_name_sort_idx').on(sql`lower(${t.name})`, t.id),
    index('customers_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('customers_phone_trgm_idx').using('gin', t.phone.op('gin_trgm_ops')),
    index('customers_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
  ],
);
