// The store-credit ledger: what each customer was given and spent.
import { sql } from 'drizzle-orm';
import { check, index, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
export const storeCreditEntries = pgTable(
  'store_credit_entries',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    amount: numeric('amount', { precision: 20, scale: 2 }).notNull(),
    kind: text('kind').notNull(),
    saleId: uuid('sale_id').references(() => sales.id, { onDelete: 'set null' }),
    refundId: uuid('refund_id').references(() => refunds.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    note: text('note').notNull().default(''),
    balanceAfter: numeric('balance_after', { precision: 20, scale: 2 }).notNull().default('0'),
  },
  (t) => [
    check('store_credit_entries_kind_known', sql`${t.kind} in ('refund','sale','adjustment')`),
    check('store_credit_entries_amount_nonzero', sql`${t.amount} <> 0`),
    check('store_credit_entries_balance_nonnegative', sql`${t.balanceAfter} >= 0`),
    index('store_credit_entries_customer_at_idx').on(
      t.customerId,
      t.at.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);
