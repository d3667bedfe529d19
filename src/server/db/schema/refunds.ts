// Refunds of sold lines.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { customers } from './customers';
import { orders, sales } from './sales';
import { registerSessions } from './till';
import { users } from './users';

/** Refund numbers (R-000123): unique and increasing. */
export const refundNumbers = pg.pgSequence('refund_number_seq');

/**
 * Money and units given back at the counter (DESIGN §13) against one sale. Its lines add to the
 * orders' returned_quantity/returned_total/returned_tax, by the shared rule (refundDue).
 */
export const refunds = pg.pgTable(
  'refunds',
  {
    id: id(),
    number: pg.bigint('number', { mode: 'number' }).notNull().default(sql`nextval('refund_number_seq')`),
    saleId: pg
      .uuid('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'restrict' }),
    saleNumber: pg.bigint('sale_number', { mode: 'number' }).notNull(),
    sessionId: pg.uuid('session_id').references(() => registerSessions.id, { onDelete: 'restrict' }),
    method: pg.text('method').notNull(),
    restock: pg.boolean('restock').notNull(),
    reason: pg.text('reason').notNull().default(''),
    total: pg.numeric('total', { precision: 20, scale: 2 }).notNull(),
    tax: pg.numeric('tax', { precision: 20, scale: 2 }).notNull(),
    customerId: pg.uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    customerName: pg.text('customer_name'),
    userId: pg.uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: pg.text('user_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    pg.check('refunds_method_known', sql`${t.method} in ('cash','card','other','storeCredit')`),
    pg.check('refunds_total_nonnegative', sql`${t.total} >= 0 and ${t.tax} between 0 and ${t.total}`),
    pg.check('refunds_cash_in_session', sql`${t.method} <> 'cash' or ${t.sessionId} is not null`),
    pg.uniqueIndex('refunds_number_key').on(t.number),
    pg.index('refunds_sale_idx').on(t.saleId),
    pg.index('refunds_session_idx').on(t.sessionId).where(sql`${t.sessionId} is not null`),
    pg.index('refunds_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** A refund's line: units of one order given back and the money and tax for them. */
export const refundLines = pg.pgTable(
  'refund_lines',
  {
    refundId: pg
      .uuid('refund_id')
      .notNull()
      .references(() => refunds.id, { onDelete: 'cascade' }),
    n: pg.smallint('n').notNull(),
    orderId: pg
      .uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    productId: pg.uuid('product_id'),
    productName: pg.text('product_name').notNull(),
    quantity: pg.integer('quantity').notNull(),
    amount: pg.numeric('amount', { precision: 20, scale: 2 }).notNull(),
    tax: pg.numeric('tax', { precision: 20, scale: 2 }).notNull(),
    taxRateName: pg.text('tax_rate_name'),
    taxRate: pg.numeric('tax_rate', { precision: 6, scale: 3 }),
  },
  (t) => [
    pg.primaryKey({ columns: [t.refundId, t.n] }),
    pg.check('refund_lines_quantity_positive', sql`${t.quantity} >= 1`),
    pg.check('refund_lines_amount_within', sql`${t.amount} >= 0 and ${t.tax} between 0 and ${t.amount}`),
    pg.index('refund_lines_order_idx').on(t.orderId),
  ],
);
