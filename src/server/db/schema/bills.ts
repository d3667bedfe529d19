// Suppliers' bills and the payments that settle them (DESIGN §20, decision 0049).
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { accounts } from './accounting';
import { suppliers, taxRates } from './catalogue';
import { createdAt, id } from './columns';
import { purchaseOrderLines } from './purchasing';
import { registerSessions } from './till';
import { users } from './users';

/** Bill numbers (BL-000001) and payment numbers (PY-000001): unique and increasing. */
export const billNumbers = pg.pgSequence('bill_number_seq');
export const supplierPaymentNumbers = pg.pgSequence('supplier_payment_number_seq');

/**
 * A supplier's bill. Its net, tax and total are its lines' (priceBill, written with them); `paid`
 * is the sum of its allocations, kept by the one writer of allocations (bills.repository's
 * allocate) in the statement that adds them, never above the total. Status: draft → posted →
 * partiallyPaid → paid, or void (posted, nothing paid). Posting writes its entry (source 'bill'),
 * voiding that entry's reversal.
 */
export const bills = pg.pgTable(
  'bills',
  {
    id: id(),
    number: pg.bigint('number', { mode: 'number' }).notNull().default(sql`nextval('bill_number_seq')`),
    supplierId: pg
      .uuid('supplier_id')
      .notNull()
      .references(() => suppliers.id, { onDelete: 'restrict' }),
    reference: pg.text('reference').notNull(),
    date: pg.date('date', { mode: 'string' }).notNull(),
    dueDate: pg.date('due_date', { mode: 'string' }),
    status: pg.text('status').notNull().default('draft'),
    note: pg.text('note').notNull().default(''),
    net: pg.numeric('net', { precision: 14, scale: 2 }).notNull(),
    tax: pg.numeric('tax', { precision: 14, scale: 2 }).notNull(),
    total: pg.numeric('total', { precision: 14, scale: 2 }).notNull(),
    paid: pg.numeric('paid', { precision: 14, scale: 2 }).notNull().default('0'),
    createdAt: createdAt(),
    postedAt: pg.timestamp('posted_at', { withTimezone: true }),
    voidedAt: pg.timestamp('voided_at', { withTimezone: true }),
    /** The store's day it was voided (its reversal's date), for what was owed at a day. */
    voidedOn: pg.date('voided_on', { mode: 'string' }),
  },
  (t) => [
    pg.uniqueIndex('bills_number_key').on(t.number),
    pg.uniqueIndex('bills_reference_key').on(t.supplierId, sql`lower(${t.reference})`),
    pg.check('bills_status_known', sql`${t.status} in ('draft','posted','partiallyPaid','paid','void')`),
    pg.check('bills_paid_within', sql`${t.paid} >= 0 and ${t.paid} <= ${t.total}`),
    pg.check('bills_total_sum', sql`${t.total} = ${t.net} + ${t.tax}`),
    pg.check(
      'bills_status_paid',
      sql`case ${t.status} when 'draft' then ${t.paid} = 0 and ${t.postedAt} is null
                          when 'void' then ${t.paid} = 0 and ${t.voidedOn} is not null
                          when 'posted' then ${t.paid} = 0 and ${t.total} > 0
                          when 'partiallyPaid' then ${t.paid} > 0 and ${t.paid} < ${t.total}
                          else ${t.paid} = ${t.total} end`,
    ),
    pg.check('bills_due_after_date', sql`${t.dueDate} is null or ${t.dueDate} >= ${t.date}`),
    pg.index('bills_supplier_idx').on(t.supplierId, t.date),
    // The open bills, for the list's overdue first and the aging.
    pg
      .index('bills_open_idx')
      .on(sql`coalesce(${t.dueDate}, ${t.date})`)
      .where(sql`${t.status} in ('posted','partiallyPaid')`),
  ],
);

export const billLines = pg.pgTable(
  'bill_lines',
  {
    id: id(),
    billId: pg
      .uuid('bill_id')
      .notNull()
      .references(() => bills.id, { onDelete: 'cascade' }),
    position: pg.integer('position').notNull(),
    /** The purchase order line it bills (its received units); null for freight and services. */
    purchaseOrderLineId: pg
      .uuid('purchase_order_line_id')
      .references(() => purchaseOrderLines.id, { onDelete: 'restrict' }),
    description: pg.text('description').notNull().default(''),
    quantity: pg.integer('quantity').notNull(),
    unitPrice: pg.numeric('unit_price', { precision: 12, scale: 2 }).notNull(),
    /** The rate as it was (a snapshot: a rate may change or go); null names no tax. */
    taxRateId: pg.uuid('tax_rate_id').references(() => taxRates.id, { onDelete: 'set null' }),
    taxRateName: pg.text('tax_rate_name'),
    taxRate: pg.numeric('tax_rate', { precision: 6, scale: 3 }),
    /** The account it is posted to: 2100 for a purchase order line, else the one chosen. */
    accountId: pg
      .uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    net: pg.numeric('net', { precision: 14, scale: 2 }).notNull(),
    tax: pg.numeric('tax', { precision: 14, scale: 2 }).notNull(),
  },
  (t) => [
    pg.uniqueIndex('bill_lines_position_key').on(t.billId, t.position),
    pg.index('bill_lines_purchase_order_line_idx').on(t.purchaseOrderLineId),
    pg.check('bill_lines_quantity_positive', sql`${t.quantity} >= 1`),
    pg.check('bill_lines_unit_price_nonnegative', sql`${t.unitPrice} >= 0`),
    pg.check('bill_lines_rate_whole', sql`(${t.taxRateName} is null) = (${t.taxRate} is null)`),
  ],
);

/**
 * A payment to a supplier (DESIGN §20). `allocated` is the sum of its allocations, kept with them;
 * the rest is the supplier's credit. Cash from a till session is also a cash movement of that
 * session (cash_movements.payment_id), so the drawer and its report count it.
 */
export const supplierPayments = pg.pgTable(
  'supplier_payments',
  {
    id: id(),
    number: pg
      .bigint('number', { mode: 'number' })
      .notNull()
      .default(sql`nextval('supplier_payment_number_seq')`),
    supplierId: pg
      .uuid('supplier_id')
      .notNull()
      .references(() => suppliers.id, { onDelete: 'restrict' }),
    date: pg.date('date', { mode: 'string' }).notNull(),
    amount: pg.numeric('amount', { precision: 14, scale: 2 }).notNull(),
    method: pg.text('method').notNull(),
    sessionId: pg.uuid('session_id').references(() => registerSessions.id, { onDelete: 'restrict' }),
    allocated: pg.numeric('allocated', { precision: 14, scale: 2 }).notNull().default('0'),
    userId: pg.uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: pg.text('user_name'),
    createdAt: createdAt(),
  },
  (t) => [
    pg.uniqueIndex('supplier_payments_number_key').on(t.number),
    pg.check('supplier_payments_method_known', sql`${t.method} in ('bank','cash','card')`),
    pg.check('supplier_payments_amount_positive', sql`${t.amount} > 0`),
    pg.check(
      'supplier_payments_allocated_within',
      sql`${t.allocated} >= 0 and ${t.allocated} <= ${t.amount}`,
    ),
    pg.check('supplier_payments_session_cash', sql`${t.sessionId} is null or ${t.method} = 'cash'`),
    pg.index('supplier_payments_supplier_idx').on(t.supplierId, t.date),
  ],
);

/** A part of a payment set against a bill; `on` is the store's day it was allocated. */
export const paymentAllocations = pg.pgTable(
  'payment_allocations',
  {
    id: id(),
    paymentId: pg
      .uuid('payment_id')
      .notNull()
      .references(() => supplierPayments.id, { onDelete: 'restrict' }),
    billId: pg
      .uuid('bill_id')
      .notNull()
      .references(() => bills.id, { onDelete: 'restrict' }),
    amount: pg.numeric('amount', { precision: 14, scale: 2 }).notNull(),
    on: pg.date('on', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    pg.check('payment_allocations_amount_positive', sql`${t.amount} > 0`),
    pg.index('payment_allocations_payment_idx').on(t.paymentId),
    pg.index('payment_allocations_bill_idx').on(t.billId),
  ],
);
