// Orders (a sold line), sales (a receipt) and a sale's payments.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { products } from './catalogue';
import { createdAt, id } from './columns';
import { customers } from './customers';
import { registerSessions } from './till';
import { users } from './users';

/** An order keeps a snapshot of what was true when it was placed. */
export const orders = pg.pgTable(
  'orders',
  {
    id: id(),
    userId: pg.uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    productId: pg.uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    quantity: pg.integer('quantity').notNull(),
    unitPrice: pg.numeric('unit_price', { precision: 12, scale: 2 }).notNull(),
    /** The product's cost when sold, for margins (DESIGN §9); null when it had none. */
    unitCost: pg.numeric('unit_cost', { precision: 12, scale: 2 }),
    // The highest price times the largest quantity (< 10^15) fits; so do a sale's 100 such lines.
    totalPrice: pg.numeric('total_price', { precision: 20, scale: 2 }).notNull(),
    productName: pg.text('product_name').notNull(),
    categoryName: pg.text('category_name').notNull(),
    userName: pg.text('user_name').notNull(),
    userAddress: pg.text('user_address').notNull(),
    orderDate: pg.timestamp('order_date', { withTimezone: true }).notNull().defaultNow(),
    /** 'returned' once every unit came back (DESIGN §8); a partly returned order stays 'placed'. */
    status: pg.text('status').notNull().default('placed'),
    returnedQuantity: pg.integer('returned_quantity').notNull().default(0),
    /** The sale this order is a line of (DESIGN §11), and its number; null for a lone order. */
    saleId: pg.uuid('sale_id').references(() => sales.id, { onDelete: 'restrict' }),
    saleNumber: pg.bigint('sale_number', { mode: 'number' }),
    /** The line's place on the receipt, from 1. */
    saleLine: pg.smallint('sale_line'),
    /** Where the units left from (DESIGN §17): the register's location, else the seller's, else the default. */
    locationId: pg.uuid('location_id').notNull().default(sql`default_location()`),
    /** The sale's customer, and their name as it was (kept when the customer is deleted). */
    customerId: pg.uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    customerName: pg.text('customer_name'),
    /**
     * Money at the counter (DESIGN §12), as the shared computation gave it: the line's discount
     * (its own plus its share of the cart's), its tax and the rate it was taxed at (a snapshot;
     * null for orders placed before taxes, which count with tax 0). total_price is what the
     * customer paid for the line; its net is total_price − tax.
     */
    discount: pg.numeric('discount', { precision: 20, scale: 2 }).notNull().default('0'),
    tax: pg.numeric('tax', { precision: 20, scale: 2 }).notNull().default('0'),
    taxRateName: pg.text('tax_rate_name'),
    taxRate: pg.numeric('tax_rate', { precision: 6, scale: 3 }),
    /**
     * Money given back so far by returns, the tax in it, and the share of the discount that went
     * with the units returned (all pro rata, cents exact, by refundDue: DESIGN §12), so every
     * figure of a report can be net of returns (§10) without computing a share a second way.
     */
    returnedTotal: pg.numeric('returned_total', { precision: 20, scale: 2 }).notNull().default('0'),
    returnedTax: pg.numeric('returned_tax', { precision: 20, scale: 2 }).notNull().default('0'),
    returnedDiscount: pg.numeric('returned_discount', { precision: 20, scale: 2 }).notNull().default('0'),
    /**
     * DESIGN §10, §19: the value its returns brought back into stock (the return movements' values,
     * added by takeBack as each return is taken); the order's cost is what its sale movements took
     * out less this (order_cost.sql).
     */
    returnedCost: pg.numeric('returned_cost', { precision: 20, scale: 2 }).notNull().default('0'),
  },
  (t) => [
    // Sales by where the stock left from (DESIGN §17): a location's orders by day.
    pg.index('orders_location_date_idx').on(t.locationId, t.orderDate),
    pg.check('orders_quantity_positive', sql`${t.quantity} >= 1`),
    pg.check('orders_discount_nonnegative', sql`${t.discount} >= 0`),
    pg.check('orders_tax_within', sql`${t.tax} between 0 and ${t.totalPrice}`),
    pg.check('orders_returned_total_within', sql`${t.returnedTotal} between 0 and ${t.totalPrice}`),
    pg.check('orders_returned_tax_within', sql`${t.returnedTax} between 0 and ${t.tax}`),
    pg.check('orders_returned_discount_within', sql`${t.returnedDiscount} between 0 and ${t.discount}`),
    pg.check('orders_returned_within', sql`${t.returnedQuantity} between 0 and ${t.quantity}`),
    pg.check(
      'orders_status_follows_returns',
      sql`${t.status} = case when ${t.returnedQuantity} = ${t.quantity} then 'returned' else 'placed' end`,
    ),
    pg.check('orders_unit_price_nonnegative', sql`${t.unitPrice} >= 0`),
    // Both match the lists' order (newest first, then id), so a page is read, not sorted.
    pg.index('orders_date_id_idx').on(t.orderDate.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg
      .index('orders_user_date_id_idx')
      .on(t.userId, t.orderDate.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg.index('orders_product_idx').on(t.productId),
    pg.index('orders_sale_idx').on(t.saleId).where(sql`${t.saleId} is not null`),
    pg.index('orders_customer_idx').on(t.customerId).where(sql`${t.customerId} is not null`),
  ],
);

/**
 * Receipt numbers (S-000123): unique and increasing. A sale draws one only once it is sure to go
 * ahead; one refused after that (its stock taken meanwhile) leaves a gap (decision 0015).
 */
export const saleNumbers = pg.pgSequence('sale_number_seq');

/**
 * A sale at the counter (DESIGN §11): its lines are orders (orders.sale_id). The total is what
 * was sold (returns show on the orders); tendered only for cash, never below the total.
 */
export const sales = pg.pgTable(
  'sales',
  {
    id: id(),
    number: pg.bigint('number', { mode: 'number' }).notNull().default(sql`nextval('sale_number_seq')`),
    userId: pg.uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: pg.text('user_name').notNull(),
    customerId: pg.uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    customerName: pg.text('customer_name'),
    paymentMethod: pg.text('payment_method').notNull(),
    tendered: pg.numeric('tendered', { precision: 14, scale: 2 }),
    total: pg.numeric('total', { precision: 20, scale: 2 }).notNull(),
    /** Σ gross of the lines, all discounts, all tax (DESIGN §12); null for sales before taxes (= total, 0, 0). */
    subtotal: pg.numeric('subtotal', { precision: 20, scale: 2 }),
    discount: pg.numeric('discount', { precision: 20, scale: 2 }).notNull().default('0'),
    tax: pg.numeric('tax', { precision: 20, scale: 2 }).notNull().default('0'),
    /** The store's details as they were at the sale: {name, address, phone, taxNumber, receiptFooter, pricesIncludeTax, currency}. */
    store: pg.jsonb('store'),
    /** The till session whose drawer took the sale's cash (DESIGN §13); null: no drawer. */
    sessionId: pg.uuid('session_id').references(() => registerSessions.id, { onDelete: 'restrict' }),
    /**
     * Cash handed back (DESIGN §13): Σ payments − total, only ever from cash; null for sales
     * before split payments (then tendered − total for cash).
     */
    change: pg.numeric('change', { precision: 20, scale: 2 }),
    createdAt: createdAt(),
    /**
     * DESIGN §21: a sale made offline. `offlineId` is the device's UUID for it, kept for ever and
     * unique (a second send answers this sale); `offlineHash` the body it came with (the same id
     * with another body is a 409); `deviceNumber` the receipt number the device printed;
     * `recordedAt` when it arrived (its createdAt is when it was sold).
     */
    offlineId: pg.uuid('offline_id'),
    offlineHash: pg.text('offline_hash'),
    deviceNumber: pg.text('device_number'),
    recordedAt: pg.timestamp('recorded_at', { withTimezone: true }),
    /** Why an offline sale is for an admin to look at ('stock', 'price', 'session'); null: nothing. */
    review: pg.text('review').array(),
    reviewNote: pg.text('review_note'),
    reviewedById: pg.uuid('reviewed_by_id'),
    reviewedByName: pg.text('reviewed_by_name'),
    reviewedAt: pg.timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [
    pg.uniqueIndex('sales_offline_id_key').on(t.offlineId).where(sql`${t.offlineId} is not null`),
    pg.check(
      'sales_offline_whole',
      sql`(${t.offlineId} is null) = (${t.deviceNumber} is null) and (${t.offlineId} is null) = (${t.recordedAt} is null)`,
    ),
    pg.check('sales_reviewed_whole', sql`(${t.reviewedAt} is null) = (${t.reviewNote} is null)`),
    // The sales to review, open first: few, so a small partial index.
    pg.index('sales_review_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`${t.review} is not null`),
    pg.index('sales_device_number_idx').on(t.deviceNumber).where(sql`${t.deviceNumber} is not null`),
    // 'split': more than one payment (sale_payments lists them); every sale has its payments there.
    pg.check(
      'sales_payment_method_known',
      sql`${t.paymentMethod} in ('cash','card','other','storeCredit','split')`,
    ),
    pg.check(
      'sales_tendered_covers_total',
      sql`${t.tendered} is null or ${t.paymentMethod} = 'split' or (${t.paymentMethod} = 'cash' and ${t.tendered} >= ${t.total})`,
    ),
    pg.check('sales_change_nonnegative', sql`${t.change} is null or ${t.change} >= 0`),
    pg.index('sales_session_idx').on(t.sessionId).where(sql`${t.sessionId} is not null`),
    pg.check('sales_total_nonnegative', sql`${t.total} >= 0`),
    pg.uniqueIndex('sales_number_key').on(t.number),
    pg.index('sales_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg
      .index('sales_user_created_idx')
      .on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg
      .index('sales_customer_created_idx')
      .on(t.customerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.customerId} is not null`),
    // The sales view finds sales by words of the customer's name (migration 0021).
    pg
      .index('sales_customer_name_trgm_idx')
      .using('gin', t.customerName.op('gin_trgm_ops'))
      .where(sql`${t.customerName} is not null`),
  ],
);

/**
 * How a sale was paid (DESIGN §13), one row per payment in the order given. `amount` is what the
 * payment put towards the total: for cash, what was handed over less the change it gave back
 * (`tendered` keeps what was handed over). Σ amount = the sale's total.
 */
export const salePayments = pg.pgTable(
  'sale_payments',
  {
    saleId: pg
      .uuid('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    n: pg.smallint('n').notNull(),
    method: pg.text('method').notNull(),
    amount: pg.numeric('amount', { precision: 20, scale: 2 }).notNull(),
    tendered: pg.numeric('tendered', { precision: 20, scale: 2 }),
  },
  (t) => [
    pg.primaryKey({ columns: [t.saleId, t.n] }),
    pg.check('sale_payments_method_known', sql`${t.method} in ('cash','card','other','storeCredit')`),
    pg.check('sale_payments_amount_nonnegative', sql`${t.amount} >= 0`),
    pg.check(
      'sale_payments_tendered_cash',
      sql`${t.tendered} is null or (${t.method} = 'cash' and ${t.tendered} >= ${t.amount})`,
    ),
  ],
);
