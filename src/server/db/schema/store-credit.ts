// The store-credit ledger: what each customer was given and spent.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { id } from './columns';
import { customers } from './customers';
import { refunds } from './refunds';
import { sales } from './sales';
import { users } from './users';

/**
 * A customer's store credit, entry by entry (DESIGN §13): + from a refund or an admin's
 * adjustment, − when a sale is paid with it. Inserting an entry applies it to
 * customers.credit_balance in one conditional update that never goes below 0 (trigger
 * store_credit_apply: IMS03 "Not enough store credit"), and records the balance after it.
 */
export const storeCreditEntries = pg.pgTable(
  'store_credit_entries',
  {
    id: id(),
    customerId: pg
      .uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    at: pg.timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    amount: pg.numeric('amount', { precision: 20, scale: 2 }).notNull(),
    kind: pg.text('kind').notNull(),
    saleId: pg.uuid('sale_id').references(() => sales.id, { onDelete: 'set null' }),
    refundId: pg.uuid('refund_id').references(() => refunds.id, { onDelete: 'set null' }),
    userId: pg.uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: pg.text('user_name').notNull(),
    note: pg.text('note').notNull().default(''),
    balanceAfter: pg.numeric('balance_after', { precision: 20, scale: 2 }).notNull().default('0'),
  },
  (t) => [
    pg.check('store_credit_entries_kind_known', sql`${t.kind} in ('refund','sale','adjustment')`),
    pg.check('store_credit_entries_amount_nonzero', sql`${t.amount} <> 0`),
    pg.check('store_credit_entries_balance_nonnegative', sql`${t.balanceAfter} >= 0`),
    pg
      .index('store_credit_entries_customer_at_idx')
      .on(t.customerId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);
