// The store's customers.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';

/** The store's customers (DESIGN §11). Orders and sales keep their name as it was. */
export const customers = pg.pgTable(
  'customers',
  {
    id: id(),
    name: pg.text('name').notNull(),
    phone: pg.text('phone').notNull().default(''),
    email: pg.text('email').notNull().default(''),
    address: pg.text('address').notNull().default(''),
    note: pg.text('note').notNull().default(''),
    /**
     * customer_duplicate_key(name, phone) (migration 0022): the name trimmed, lower case, inner
     * spaces collapsed, and the phone's digits. Unique, so two customers of one name and phone
     * cannot both be stored; null for the later rows of duplicates that were stored before.
     */
    duplicateKey: pg.text('duplicate_key'),
    /**
     * Store credit held (DESIGN §13): the sum of the customer's store_credit_entries, kept by their
     * trigger (store_credit_apply, src/server/db/functions), never below 0.
     */
    creditBalance: pg.numeric('credit_balance', { precision: 20, scale: 2 }).notNull().default('0'),
    createdAt: createdAt(),
  },
  (t) => [
    pg.check('customers_credit_balance_nonnegative', sql`${t.creditBalance} >= 0`),
    pg.uniqueIndex('customers_duplicate_key').on(t.duplicateKey),
    pg.index('customers_name_sort_idx').on(sql`lower(${t.name})`, t.id),
    pg.index('customers_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    pg.index('customers_phone_trgm_idx').using('gin', t.phone.op('gin_trgm_ops')),
    pg.index('customers_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
  ],
);
