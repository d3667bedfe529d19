// Refunds of sold lines.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { customers } from './customers';
import { orders, sales } from './sales';
import { registerSessions } from './till';
import { users } from './users';

/** Refund numbers (R-000123): unique and increasing. */
export const refundNumbers = pgSequence('refund_number_seq');

/**
 * Money and units given back at the counter (DESIGN §13) against one sale. Its lines add to the
 * orders' returned_quantity/returned_total/returned_tax, by the shared rule (refundDue).
 */
export const refunds = pgTable(
  'refunds',
  {
    id: id(),
    number: bigint('number', { mode: 'number' }).notNull().default(sql`nextval('refund_number_seq')`),
    saleId: uuid('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'restrict' }),
    saleNumber: bigint('sale_number', { mode: 'number' }).notNull(),
    sessionId: uuid('session_id').references(() => registerSessions.id, { onDelete: 'restrict' }),
    method: text('method').notNull(),
    restock: boolean('restock').notNull(),
    reason: text('reason').notNull().default(''),
    total: numeric('total', { precision: 20, scale: 2 }).notNull(),
    tax: numeric('tax', { precision: 20, scale: 2 }).notNull(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    customerName: text('customer_name'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('refunds_method_known', sql`${t.method} in ('cash','card','other','storeCredit')`),
    check('refunds_total_nonnegative', sql`${t.total} >= 0 and ${t.tax} between 0 and ${t.total}`),
    check('refunds_cash_in_session', sql`${t.method} <> 'cash' or ${t.sessionId} is not null`),
    uniqueIndex('refunds_number_key').on(t.number),
    index('refunds_sale_idx').on(t.saleId),
    index('refunds_session_idx').on(t.sessionId).where(sql`${t.sessionId} is not null`),
    index('refunds_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** A refund's line: units of one order given back and the money and tax for them. */
export const refundLines = pgTable(
  'refund_lines',
  {
    refundId: uuid('refund_id')
      .notNull()
      .references(() => refunds.id, { onDelete: 'cascade' }),
    n: smallint('n').notNull(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    productId: uuid('product_id'),
    productName: text('product_name').notNull(),
    quantity: integer('quantity').notNull(),
    amount: numeric('amount', { precision: 20, scale: 2 }).notNull(),
    tax: numeric('tax', { precision: 20, scale: 2 }).notNull(),
    taxRateName: text('tax_rate_name'),
    taxRate: numeric('tax_rate', { precision: 6, scale: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.refundId, t.n] }),
    check('refund_lines_quantity_positive', sql`${t.quantity} >= 1`),
    check('refund_lines_amount_within', sql`${t.amount} >= 0 and ${t.tax} between 0 and ${t.amount}`),
    index('refund_lines_order_idx').on(t.orderId),
  ],
);
