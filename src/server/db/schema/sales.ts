// Orders (a sold line), sales (a receipt) and a sale's payments.
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { products } from './catalogue';
import { createdAt, id } from './columns';
import { customers } from './customers';
import { registerSessions } from './till';
import { users } from './users';

/** An order keeps a snapshot of what was true when it was placed. */
export const orders = pgTable(
  'orders',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    quantity: integer('quantity').notNull(),
    unitPrice: numeric('unit_price', { precision: 12, scale: 2 }).notNull(),
    /** The product's cost when sold, for margins (DESIGN §9); null when it had none. */
    unitCost: numeric('unit_cost', { precision: 12, scale: 2 }),
    // The highest price times the largest quantity (< 10^15) fits; so do a sale's 100 such lines.
    totalPrice: numeric('total_price', { precision: 20, scale: 2 }).notNull(),
    productName: text('product_name').notNull(),
    categoryName: text('category_name').notNull(),
    userName: text('user_name').notNull(),
    userAddress: text('user_address').notNull(),
    orderDate: timestamp('order_date', { withTimezone: true }).notNull().defaultNow(),
    /** 'returned' once every unit came back (DESIGN §8); a partly returned order stays 'placed'. */
    status: text('status').notNull().default('placed'),
    returnedQuantity: integer('returned_quantity').notNull().default(0),
    /** The sale this order is a line of (DESIGN §11), and its number; null for a lone order. */
    saleId: uuid('sale_id').references(() => sales.id, { onDelete: 'restrict' }),
    saleNumber: bigint('sale_number', { mode: 'number' }),
    /** The line's place on the receipt, from 1. */
    saleLine: smallint('sale_line'),
    /** The sale's customer, and their name as it was (kept when the customer is deleted). */
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    customerName: text('customer_name'),
    /**
     * Money at the counter (DESIGN §12), as the shared computation gave it: the line's discount
     * (its own plus its share of the cart's), its tax and the rate it was taxed at (a snapshot;
     * null for orders placed before taxes, which count with tax 0). total_price is what the
     * customer paid for the line; its net is total_price − tax.
     */
    discount: numeric('discount', { precision: 20, scale: 2 }).notNull().default('0'),
    tax: numeric('tax', { precision: 20, scale: 2 }).notNull().default('0'),
    taxRateName: text('tax_rate_name'),
    taxRate: numeric('tax_rate', { precision: 6, scale: 3 }),
    /**
     * Money given back so far by returns, the tax in it, and the share of the discount that went
     * with the units returned (all pro rata, cents exact, by refundDue: DESIGN §12), so every
     * figure of a report can be net of returns (§10) without computing a share a second way.
     */
    returnedTotal: numeric('returned_total', { precision: 20, scale: 2 }).notNull().default('0'),
    returnedTax: numeric('returned_tax', { precision: 20, scale: 2 }).notNull().default('0'),
    returnedDiscount: numeric('returned_discount', { precision: 20, scale: 2 }).notNull().default('0'),
  },
  (t) => [
    check('orders_quantity_positive', sql`${t.quantity} >= 1`),
    check('orders_discount_nonnegative', sql`${t.discount} >= 0`),
    check('orders_tax_within', sql`${t.tax} between 0 and ${t.totalPrice}`),
    check('orders_returned_total_within', sql`${t.returnedTotal} between 0 and ${t.totalPrice}`),
    check('orders_returned_tax_within', sql`${t.returnedTax} between 0 and ${t.tax}`),
    check('orders_returned_discount_within', sql`${t.returnedDiscount} between 0 and ${t.discount}`),
    check('orders_returned_within', sql`${t.returnedQuantity} between 0 and ${t.quantity}`),
    check(
      'orders_status_follows_returns',
      sql`${t.status} = case when ${t.returnedQuantity} = ${t.quantity} then 'returned' else 'placed' end`,
    ),
    check('orders_unit_price_nonnegative', sql`${t.unitPrice} >= 0`),
    // Both match the lists' order (newest first, then id), so a page is read, not sorted.
    index('orders_date_id_idx').on(t.orderDate.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('orders_user_date_id_idx').on(t.userId, t.orderDate.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('orders_product_idx').on(t.productId),
    index('orders_sale_idx').on(t.saleId).where(sql`${t.saleId} is not null`),
    index('orders_customer_idx').on(t.customerId).where(sql`${t.customerId} is not null`),
  ],
);

/**
 * Receipt numbers (S-000123): unique and increasing. A sale draws one only once it is sure to go
 * ahead; one refused after that (its stock taken meanwhile) leaves a gap (decision 0015).
 */
export const saleNumbers = pgSequence('sale_number_seq');

/**
 * A sale at the counter (DESIGN §11): its lines are orders (orders.sale_id). The total is what
 * was sold (returns show on the orders); tendered only for cash, never below the total.
 */
export const sales = pgTable(
  'sales',
  {
    id: id(),
    number: bigint('number', { mode: 'number' }).notNull().default(sql`nextval('sale_number_seq')`),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    customerName: text('customer_name'),
    paymentMethod: text('payment_method').notNull(),
    tendered: numeric('tendered', { precision: 14, scale: 2 }),
    total: numeric('total', { precision: 20, scale: 2 }).notNull(),
    /** Σ gross of the lines, all discounts, all tax (DESIGN §12); null for sales before taxes (= total, 0, 0). */
    subtotal: numeric('subtotal', { precision: 20, scale: 2 }),
    discount: numeric('discount', { precision: 20, scale: 2 }).notNull().default('0'),
    tax: numeric('tax', { precision: 20, scale: 2 }).notNull().default('0'),
    /** The store's details as they were at the sale: {name, address, phone, taxNumber, receiptFooter, pricesIncludeTax, currency}. */
    store: jsonb('store'),
    /** The till session whose drawer took the sale's cash (DESIGN §13); null: no drawer. */
    sessionId: uuid('session_id').references(() => registerSessions.id, { onDelete: 'restrict' }),
    /**
     * Cash handed back (DESIGN §13): Σ payments − total, only ever from cash; null for sales
     * before split payments (then tendered − total for cash).
     */
    change: numeric('change', { precision: 20, scale: 2 }),
    createdAt: createdAt(),
  },
  (t) => [
    // 'split': more than one payment (sale_payments lists them); every sale has its payments there.
    check(
      'sales_payment_method_known',
      sql`${t.paymentMethod} in ('cash','card','other','storeCredit','split')`,
    ),
    check(
      'sales_tendered_covers_total',
      sql`${t.tendered} is null or ${t.paymentMethod} = 'split' or (${t.paymentMethod} = 'cash' and ${t.tendered} >= ${t.total})`,
    ),
    check('sales_change_nonnegative', sql`${t.change} is null or ${t.change} >= 0`),
    index('sales_session_idx').on(t.sessionId).where(sql`${t.sessionId} is not null`),
    check('sales_total_nonnegative', sql`${t.total} >= 0`),
    uniqueIndex('sales_number_key').on(t.number),
    index('sales_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('sales_user_created_idx').on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('sales_customer_created_idx')
      .on(t.customerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.customerId} is not null`),
    // The sales view finds sales by words of the customer's name (migration 0021).
    index('sales_customer_name_trgm_idx')
      .using('gin', t.customerName.op('gin_trgm_ops'))
      .where(sql`${t.customerName} is not null`),
  ],
);

/**
 * How a sale was paid (DESIGN §13), one row per payment in the order given. `amount` is what the
 * payment put towards the total: for cash, what was handed over less the change it gave back
 * (`tendered` keeps what was handed over). Σ amount = the sale's total.
 */
export const salePayments = pgTable(
  'sale_payments',
  {
    saleId: uuid('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    n: smallint('n').notNull(),
    method: text('method').notNull(),
    amount: numeric('amount', { precision: 20, scale: 2 }).notNull(),
    tendered: numeric('tendered', { precision: 20, scale: 2 }),
  },
  (t) => [
    primaryKey({ columns: [t.saleId, t.n] }),
    check('sale_payments_method_known', sql`${t.method} in ('cash','card','other','storeCredit')`),
    check('sale_payments_amount_nonnegative', sql`${t.amount} >= 0`),
    check(
      'sale_payments_tendered_cash',
      sql`${t.tendered} is null or (${t.method} = 'cash' and ${t.tendered} >= ${t.amount})`,
    ),
  ],
);
