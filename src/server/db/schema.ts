import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
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
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    address: text('address').notNull().default(''),
    role: text('role').notNull(),
    /** Bumped on password change; tokens carry it, so older tokens stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** A deactivated user's tokens stop at once and sign-ins are refused (DESIGN §16). */
    active: boolean('active').notNull().default(true),
    /** Set by an admin's password reset; until the user picks a new one, only their profile answers. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** An admin's argon2id PIN hash for approving discounts at the counter (DESIGN §12); never answered. */
    pinHash: text('pin_hash'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
    check('users_role_known', sql`${t.role} in ('superAdmin','admin','salesRep','medicalRep','user')`),
    index('users_role_idx').on(t.role),
  ],
);

export const categories = pgTable(
  'categories',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('categories_name_lower_key').on(sql`lower(${t.name})`)],
);

export const suppliers = pgTable('suppliers', {
  id: id(),
  name: text('name').notNull(),
  email: text('email').notNull().default(''),
  phone: text('phone').notNull().default(''),
  address: text('address').notNull().default(''),
  createdAt: createdAt(),
});

/**
 * The store's tax rates (DESIGN §12): a percent with at most 3 decimals (8.875). Names are unique
 * ignoring case. Sold lines keep a snapshot (orders.tax_rate_name, orders.tax_rate), so a rate
 * may change or go without changing history; one that products or the store default use stays.
 */
export const taxRates = pgTable(
  'tax_rates',
  {
    id: id(),
    name: text('name').notNull(),
    rate: numeric('rate', { precision: 6, scale: 3 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('tax_rates_rate_within', sql`${t.rate} between 0 and 100`),
    uniqueIndex('tax_rates_name_lower_key').on(sql`lower(${t.name})`),
  ],
);

/**
 * The store's details and money rules (DESIGN §12): one row (id 1). The receipt copies the
 * details at each sale (sales.store), so a change never rewrites a receipt.
 */
export const storeSettings = pgTable(
  'store_settings',
  {
    id: smallint('id').primaryKey().default(1),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    phone: text('phone').notNull().default(''),
    taxNumber: text('tax_number').notNull().default(''),
    currency: text('currency').notNull().default('USD'),
    receiptFooter: text('receipt_footer').notNull().default(''),
    pricesIncludeTax: boolean('prices_include_tax').notNull().default(false),
    /** The rate of products without their own; null: no tax. */
    defaultTaxRateId: uuid('default_tax_rate_id').references(() => taxRates.id, { onDelete: 'restrict' }),
    /** The most the selling roles may give without a manager's approval, in percent of a line's gross. */
    maxDiscountPercent: numeric('max_discount_percent', { precision: 5, scale: 2 }).notNull().default('10'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('store_settings_one_row', sql`${t.id} = 1`),
    check('store_settings_currency_code', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('store_settings_max_discount_within', sql`${t.maxDiscountPercent} between 0 and 100`),
  ],
);

export const products = pgTable(
  'products',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    price: numeric('price', { precision: 12, scale: 2 }).notNull(),
    stock: integer('stock').notNull(),
    /** Weighted average unit cost of what was received (DESIGN §9); null while unknown. */
    cost: numeric('cost', { precision: 12, scale: 2 }),
    /** null: the store's LOW_STOCK_THRESHOLD applies. */
    reorderPoint: integer('reorder_point'),
    /** null: twice the reorder point, less stock and what is on order. */
    reorderQuantity: integer('reorder_quantity'),
    /** Optional codes the counter finds a product by (DESIGN §11); each unique ignoring case. */
    sku: text('sku'),
    barcode: text('barcode'),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    supplierId: uuid('supplier_id')
      .notNull()
      .references(() => suppliers.id, { onDelete: 'restrict' }),
    /** null: the store's default rate applies (DESIGN §12). */
    taxRateId: uuid('tax_rate_id').references(() => taxRates.id, { onDelete: 'restrict' }),
    /** DESIGN §15: 'lot': the stock lives in lots, sold first-expiry-first-out; 'none': it does not. */
    tracking: text('tracking').notNull().default('none'),
    createdAt: createdAt(),
  },
  (t) => [
    check('products_tracking_known', sql`${t.tracking} in ('none','lot')`),
    check('products_price_nonnegative', sql`${t.price} >= 0`),
    check('products_stock_nonnegative', sql`${t.stock} >= 0`),
    check('products_cost_nonnegative', sql`${t.cost} >= 0`),
    check('products_reorder_point_nonnegative', sql`${t.reorderPoint} >= 0`),
    check('products_reorder_quantity_positive', sql`${t.reorderQuantity} >= 1`),
    index('products_category_idx').on(t.categoryId),
    index('products_supplier_idx').on(t.supplierId),
    index('products_tax_rate_idx').on(t.taxRateId).where(sql`${t.taxRateId} is not null`),
    // No index may name stock: an order then changes no indexed column, so PostgreSQL updates the
    // row in place (a HOT update, helped by fillfactor 90 set in migration 0008) without touching
    // the trigram index. Lists in stock order read product_stock instead.
    index('products_name_sort_idx').on(sql`lower(${t.name})`, t.id),
    index('products_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    uniqueIndex('products_sku_lower_key').on(sql`lower(${t.sku})`).where(sql`${t.sku} is not null`),
    uniqueIndex('products_barcode_lower_key')
      .on(sql`lower(${t.barcode})`)
      .where(sql`${t.barcode} is not null`),
  ],
);

/**
 * Every product's stock and lower-case name, in its own narrow table so that lists in stock order
 * (the dashboard's out-of-stock and low-stock cards, products sorted by stock) read an index
 * without products.stock being indexed. Kept by triggers on products (migration 0008). It also
 * carries what the dashboard and the reorder suggestions read of a product (migration 0027,
 * decision 0032), so that they read this table alone.
 */
export const productStock = pgTable(
  'product_stock',
  {
    productId: uuid('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    stock: integer('stock').notNull(),
    nameKey: text('name_key').notNull(),
    /** The product's own reorder point (null: the store's). */
    reorderPoint: integer('reorder_point'),
    /**
     * Units on order: ordered − received over its lines on ordered and partly received purchase
     * orders (DESIGN §9). Kept by triggers on purchase orders and their lines (migration 0012).
     */
    onOrder: integer('on_order').notNull().default(0),
    /**
     * The reorder point in force: the product's own, or the store's low-stock threshold as
     * report_settings holds it (the server sets it at every start; decision 0032).
     */
    reorderAt: integer('reorder_at').notNull(),
    /** Copies of the product's, for the dashboard's cards and the reorder suggestions. */
    name: text('name').notNull(),
    categoryId: uuid('category_id').notNull(),
    supplierId: uuid('supplier_id').notNull(),
    cost: numeric('cost', { precision: 12, scale: 2 }),
    reorderQuantity: integer('reorder_quantity'),
  },
  (t) => [
    // Migration 0012 builds it with INCLUDE (reorder_point, on_order), which this schema cannot say.
    index('product_stock_order_idx').on(t.stock, t.nameKey, t.productId),
    // Products at or below their reorder point in force (low stock and out of stock), in stock order.
    index('product_stock_low_idx')
      .on(t.stock, t.nameKey, t.productId)
      .where(sql`${t.stock} <= ${t.reorderAt}`),
    // Products to reorder (stock + on order ≤ the reorder point in force), by supplier and name.
    // Migration 0027 builds it with INCLUDE of what the suggestions read, which this schema cannot say.
    index('product_stock_to_reorder_idx')
      .on(t.supplierId, t.nameKey, t.productId)
      .where(sql`${t.stock} + ${t.onOrder} <= ${t.reorderAt}`),
  ],
);

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
 * Order count and revenue (net of tax and of returns, as sales_days counts it), striped over a few
 * rows so that concurrent orders rarely wait on each other; the figures are the sums over all slots. Kept by the triggers on orders
 * (orders_figures_counted, in src/server/db/functions).
 */
export const orderTotals = pgTable('order_totals', {
  slot: smallint('slot').primaryKey(),
  orders: integer('orders').notNull().default(0),
  // Running sums have no bound (migration 0018): any number of the largest orders fits.
  revenue: numeric('revenue').notNull().default('0'),
});

/**
 * Orders per quarter of an hour (UTC), striped like order_totals, so "orders today" sums a day's
 * quarters in any time zone instead of counting the day's orders. Kept by the triggers on orders
 * (orders_figures_counted).
 */
export const orderQuarters = pgTable(
  'order_quarters',
  {
    quarter: timestamp('quarter', { withTimezone: true }).notNull(),
    slot: smallint('slot').notNull(),
    orders: integer('orders').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.quarter, t.slot] })],
);

/**
 * Each product's sales over all its orders, net of returns, kept by triggers on orders (migration
 * 0013); every product has its row from the start. units (the dashboard's best seller), revenue,
 * and margin_up, the sum over its orders of each order's margin when positive: all three bound what
 * the product can have sold in any range, which lets the products report read candidates best
 * first. last_day, the last day it sold a unit (net; null: none), tells most never-sold products
 * apart without reading their days (decision 0013).
 */
export const productSales = pgTable(
  'product_sales',
  {
    productId: uuid('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    units: integer('units').notNull(),
    revenue: numeric('revenue').notNull().default('0'),
    marginUp: numeric('margin_up').notNull().default('0'),
    lastDay: date('last_day', { mode: 'string' }),
  },
  (t) => [
    // Each matches the order in which the products report reads candidates (ties by id).
    index('product_sales_units_idx').on(t.units.desc().nullsFirst(), t.productId),
    index('product_sales_revenue_idx').on(t.revenue.desc().nullsFirst(), t.productId),
    index('product_sales_margin_up_idx').on(t.marginUp.desc().nullsFirst(), t.productId),
    index('product_sales_last_day_idx').on(t.lastDay, t.productId),
  ],
);

/**
 * The time zone whose days the kept daily figures below count in (one row). At start-up the
 * server sets it to its TZ and, when that changed it, recounts every day from the orders
 * (sales_days_use_time_zone, migration 0013). Likewise the store's low-stock threshold, the
 * reorder point of products without their own, which product_stock.reorder_at and the count of
 * products to reorder are kept in (low_stock_use_threshold, migration 0027).
 */
export const reportSettings = pgTable(
  'report_settings',
  {
    only: boolean('only').primaryKey().default(true),
    timeZone: text('time_zone').notNull(),
    lowStockThreshold: integer('low_stock_threshold').notNull().default(5),
  },
  (t) => [check('report_settings_one_row', sql`${t.only}`)],
);

/**
 * Kept daily figures (DESIGN §10, decision 0013), so that no report reads orders. A day is the
 * local day of an order's date in report_settings' zone; figures are net of returns: units =
 * quantity − returned, revenue = the net kept, (total_price − tax) − (returned_total −
 * returned_tax) (DESIGN §12; units × unit price for orders before taxes), cost = units × unit cost
 * (0 when unknown); orders counts orders not wholly returned. Kept by the statement-level triggers on orders of
 * migration 0013 (orders_figures_counted) and recounted by sales_days_rebuild: both in
 * src/server/db/functions.
 *
 * sales counts the sales placed that day, returned or not (migration 0020, decision 0025): a sale
 * of many lines once (its first line, sale_line 1), an order without a sale once. The dashboard's
 * day reads it with revenue.
 *
 * Striped like order_totals: the figures of a day are the sums over its slots.
 */
export const salesDays = pgTable(
  'sales_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    slot: smallint('slot').notNull(),
    orders: integer('orders').notNull().default(0),
    units: integer('units').notNull().default(0),
    revenue: numeric('revenue').notNull().default('0'),
    cost: numeric('cost').notNull().default('0'),
    sales: integer('sales').notNull().default(0),
    /**
     * Discounts given and tax taken (DESIGN §12); revenue is net of both. tax is net of returns
     * (tax − returned_tax) and so is discount (discount − returned_discount: the share of each
     * line's discount its returned units took with them).
     */
    discount: numeric('discount').notNull().default('0'),
    tax: numeric('tax').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.day, t.slot] })],
);

/**
 * Tax per day and rate as sold (the order's snapshot: name and rate; orders before taxes under
 * '' and 0), net of returns, for the tax report (DESIGN §12): base is the lines' net.
 */
export const salesDayTaxes = pgTable(
  'sales_day_taxes',
  {
    day: date('day', { mode: 'string' }).notNull(),
    rateName: text('rate_name').notNull(),
    rate: numeric('rate', { precision: 6, scale: 3 }).notNull(),
    base: numeric('base').notNull().default('0'),
    tax: numeric('tax').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.day, t.rateName, t.rate] })],
);

/** Per product and day; a product's rows go with it (orders of deleted products are left out). */
export const salesDayProducts = pgTable(
  'sales_day_products',
  {
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    orders: integer('orders').notNull().default(0),
    units: integer('units').notNull().default(0),
    revenue: numeric('revenue').notNull().default('0'),
    cost: numeric('cost').notNull().default('0'),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.day] }),
    // Migration 0013 builds it with INCLUDE (product_id, units, revenue, cost), which this schema
    // cannot say, so that a range of days is summed from the index alone.
    index('sales_day_products_day_idx').on(t.day),
  ],
);

/** Per day and the category name each order was sold under (its snapshot). */
export const salesDayCategories = pgTable(
  'sales_day_categories',
  {
    day: date('day', { mode: 'string' }).notNull(),
    categoryName: text('category_name').notNull(),
    units: integer('units').notNull().default(0),
    revenue: numeric('revenue').notNull().default('0'),
    cost: numeric('cost').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.day, t.categoryName] })],
);

/**
 * Per day and the user who placed the orders; user_id null holds the orders of staff since
 * deleted (deleting a user sets their orders' user_id to null, and the trigger moves the figures).
 * No foreign key, for that reason.
 */
export const salesDayStaff = pgTable(
  'sales_day_staff',
  {
    day: date('day', { mode: 'string' }).notNull(),
    userId: uuid('user_id'),
    orders: integer('orders').notNull().default(0),
    units: integer('units').notNull().default(0),
    revenue: numeric('revenue').notNull().default('0'),
    cost: numeric('cost').notNull().default('0'),
  },
  (t) => [unique('sales_day_staff_day_user_key').on(t.day, t.userId).nullsNotDistinct()],
);

/**
 * Sales, units and revenue per day and customer, for the top customers of a range (DESIGN §11);
 * kept by the same trigger function (migration 0015). customer_id null: customers since deleted.
 */
export const salesDayCustomers = pgTable(
  'sales_day_customers',
  {
    day: date('day', { mode: 'string' }).notNull(),
    customerId: uuid('customer_id'),
    sales: integer('sales').notNull().default(0),
    units: integer('units').notNull().default(0),
    revenue: numeric('revenue').notNull().default('0'),
  },
  (t) => [unique('sales_day_customers_day_customer_key').on(t.day, t.customerId).nullsNotDistinct()],
);

/**
 * The daily figures per category and per person summed by month (the first day of a month in
 * report_settings' zone): a range's whole months are read here, only its partial months by day.
 * Kept and recounted with the daily ones, by the same functions (since migration 0014).
 */
export const salesMonthCategories = pgTable(
  'sales_month_categories',
  {
    month: date('month', { mode: 'string' }).notNull(),
    categoryName: text('category_name').notNull(),
    units: integer('units').notNull().default(0),
    revenue: numeric('revenue').notNull().default('0'),
    cost: numeric('cost').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.month, t.categoryName] })],
);

export const salesMonthStaff = pgTable(
  'sales_month_staff',
  {
    month: date('month', { mode: 'string' }).notNull(),
    userId: uuid('user_id'),
    orders: integer('orders').notNull().default(0),
    units: integer('units').notNull().default(0),
    revenue: numeric('revenue').notNull().default('0'),
    cost: numeric('cost').notNull().default('0'),
  },
  (t) => [unique('sales_month_staff_month_user_key').on(t.month, t.userId).nullsNotDistinct()],
);

/**
 * What each product sold in two months running, first_month and the next (every month counts in
 * two rows), with margin_up as in product_sales: bounds of what it sold in any range inside those
 * months, by which the products report walks a range of up to two months (decision 0013).
 */
export const salesTwoMonthProducts = pgTable(
  'sales_two_month_products',
  {
    firstMonth: date('first_month', { mode: 'string' }).notNull(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    units: integer('units').notNull().default(0),
    revenue: numeric('revenue').notNull().default('0'),
    marginUp: numeric('margin_up').notNull().default('0'),
  },
  (t) => [
    primaryKey({ columns: [t.firstMonth, t.productId] }),
    index('sales_two_month_products_revenue_idx').on(
      t.firstMonth,
      t.revenue.desc().nullsFirst(),
      t.productId,
    ),
    index('sales_two_month_products_units_idx').on(t.firstMonth, t.units.desc().nullsFirst(), t.productId),
    index('sales_two_month_products_margin_up_idx').on(
      t.firstMonth,
      t.marginUp.desc().nullsFirst(),
      t.productId,
    ),
  ],
);

/**
 * Product count and total stock, striped like order_totals; kept by a trigger on products
 * (migration 0005). to_reorder counts the products to reorder (stock + on order ≤ the reorder
 * point in force), kept by a trigger on product_stock (migration 0027, decision 0032).
 */
export const productTotals = pgTable('product_totals', {
  slot: smallint('slot').primaryKey(),
  products: integer('products').notNull().default(0),
  stock: bigint('stock', { mode: 'number' }).notNull().default(0),
  toReorder: integer('to_reorder').notNull().default(0),
});

/**
 * Products, units in stock and their value at cost (a product without a cost counts 0) per
 * category, striped like product_totals: the stock report reads these rows instead of the whole
 * catalogue. Kept by the triggers on products (migration 0013).
 */
export const categoryStock = pgTable(
  'category_stock',
  {
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    slot: smallint('slot').notNull(),
    products: integer('products').notNull().default(0),
    units: bigint('units', { mode: 'number' }).notNull().default(0),
    value: numeric('value').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.slot] })],
);

/**
 * Who did what and when (DESIGN §7). Append-only: a trigger refuses every UPDATE, DELETE and
 * TRUNCATE (migration 0009). No foreign keys: deleting a user or a product must neither change
 * nor remove its entries, so the actor's name and role and the entity's name are copied in.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** null (with name and role) only for a failed sign-in with an email nobody has. */
    actorId: uuid('actor_id'),
    actorName: text('actor_name'),
    actorRole: text('actor_role'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    /** null only for a sign-in with an email nobody has. */
    entityId: uuid('entity_id'),
    entityName: text('entity_name').notNull(),
    /** [{field, old?, new?}]; never a password or a hash. */
    changes: jsonb('changes'),
    /** The client address of a sign-in attempt. */
    address: text('address'),
  },
  (t) => [
    check(
      'audit_log_actor_whole',
      sql`(${t.actorId} is null) = (${t.actorName} is null) and (${t.actorId} is null) = (${t.actorRole} is null)`,
    ),
    check(
      'audit_log_action_known',
      sql`${t.action} in ('signedIn','signInFailed','signInThrottled','created','updated','deleted','stockAdjusted','stockCounted','returned','ordered','received','cancelled','closed','deactivated','reactivated','passwordReset','discountApproved','stockOverridden','pinChanged','opened','cashMoved','refunded','creditAdjusted','imported')`,
    ),
    check(
      'audit_log_entity_known',
      sql`${t.entityType} in ('user','product','category','supplier','order','purchaseOrder','customer','store','taxRate','sale','register','registerSession','refund','import')`,
    ),
    // Each matches the list's order (newest first, then id) under one filter, so a page is read,
    // not sorted.
    index('audit_log_at_id_idx').on(t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_actor_at_id_idx').on(t.actorId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_entity_at_id_idx').on(t.entityType, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_entity_id_at_idx').on(t.entityType, t.entityId, t.at.desc().nullsFirst()),
  ],
);

/**
 * The stock ledger (DESIGN §8): every change of a product's stock is one row, and the database
 * keeps products.stock equal to the sum of its movements (triggers of migration 0010: inserting a
 * movement applies it; nothing else may change stock; nothing updates or deletes a movement).
 * No foreign key to products: deleting a product keeps its history.
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: id(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    productId: uuid('product_id').notNull(),
    kind: text('kind').notNull(),
    /** Signed: units in (+) or out (−). */
    quantity: integer('quantity').notNull(),
    /** The product's stock right after this movement; set by the trigger that applies it. */
    stockAfter: integer('stock_after').notNull().default(0),
    reason: text('reason'),
    note: text('note').notNull().default(''),
    userId: uuid('user_id'),
    userName: text('user_name'),
    orderId: uuid('order_id'),
    purchaseOrderId: uuid('purchase_order_id'),
    /** The refund at the counter that brought the units back or wrote them off (DESIGN §13). */
    refundId: uuid('refund_id'),
    /** The lot the units came from or went to (DESIGN §15); null for a product without lots. */
    lotId: uuid('lot_id'),
  },
  (t) => [
    check(
      'stock_movements_kind_known',
      sql`${t.kind} in ('initial','sale','return','receipt','adjustment','count')`,
    ),
    check(
      'stock_movements_reason_known',
      sql`${t.reason} is null or ${t.reason} in ('received','damaged','lost','found','returned','correction','expired')`,
    ),
    check('stock_movements_stock_after_nonnegative', sql`${t.stockAfter} >= 0`),
    // A product's history, newest first, is read in this order.
    index('stock_movements_product_at_idx').on(
      t.productId,
      t.at.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('stock_movements_order_idx').on(t.orderId),
    // A lot's history (its recall trace), oldest first.
    index('stock_movements_lot_idx').on(t.lotId, t.at, t.id).where(sql`${t.lotId} is not null`),
  ],
);

/**
 * A lot of a lot-tracked product (DESIGN §15): its number (unique per product, ignoring case), its
 * expiry (null: none, sold last) and its units. quantity = the sum of its movements ≥ 0, kept by
 * stock_movements_apply only (lots_quantity_from_ledger refuses any other change); a product's
 * stock = the sum of its lots. Lots are never deleted (their movements name them).
 */
export const lots = pgTable(
  'lots',
  {
    id: id(),
    /** No foreign key, like the movements': a deleted product's lots stay for their recall trace. */
    productId: uuid('product_id').notNull(),
    number: text('number').notNull(),
    expiresOn: date('expires_on', { mode: 'string' }),
    quantity: integer('quantity').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check('lots_quantity_nonnegative', sql`${t.quantity} >= 0`),
    uniqueIndex('lots_product_number_key').on(t.productId, sql`lower(${t.number})`),
    // First-expiry-first-out: a product's lots in the order a sale takes them (no expiry last).
    index('lots_product_expiry_idx').on(t.productId, t.expiresOn.asc().nullsLast(), t.createdAt, t.id),
    // The expiring list: lots holding units, soonest first.
    index('lots_expiring_idx')
      .on(t.expiresOn, t.id)
      .where(sql`${t.quantity} > 0 and ${t.expiresOn} is not null`),
  ],
);

/** Purchase order numbers (PO-000123): unique and increasing; a rolled-back draft leaves a gap. */
export const purchaseOrderNumbers = pgSequence('purchase_order_number_seq');

/** An order to a supplier (DESIGN §9). Its total is the sum of its lines, never stored apart. */
export const purchaseOrders = pgTable(
  'purchase_orders',
  {
    id: id(),
    number: bigint('number', { mode: 'number' }).notNull().default(sql`nextval('purchase_order_number_seq')`),
    // restrict: a supplier with purchase orders stays, so its history stays whole.
    supplierId: uuid('supplier_id')
      .notNull()
      .references(() => suppliers.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('draft'),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
    orderedAt: timestamp('ordered_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('purchase_orders_number_key').on(t.number),
    check(
      'purchase_orders_status_known',
      sql`${t.status} in ('draft','ordered','partially_received','received','cancelled','closed')`,
    ),
    check(
      'purchase_orders_ordered_at_set',
      sql`${t.status} = 'cancelled' or (${t.orderedAt} is null) = (${t.status} = 'draft')`,
    ),
    check('purchase_orders_received_at_set', sql`(${t.receivedAt} is not null) = (${t.status} = 'received')`),
    // The list's orders (newest first), whole or under one filter.
    index('purchase_orders_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('purchase_orders_status_created_idx').on(
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('purchase_orders_supplier_created_idx').on(
      t.supplierId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Each supplier's newest draft, for the reorder suggestions: drafts are few, the probe tiny.
    index('purchase_orders_supplier_draft_idx')
      .on(t.supplierId, t.number.desc())
      .where(sql`${t.status} = 'draft'`),
  ],
);

export const purchaseOrderLines = pgTable(
  'purchase_order_lines',
  {
    id: id(),
    purchaseOrderId: uuid('purchase_order_id')
      .notNull()
      .references(() => purchaseOrders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    // restrict: a product on a purchase order stays, so the order's history stays whole.
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull(),
    received: integer('received').notNull().default(0),
    unitCost: numeric('unit_cost', { precision: 12, scale: 2 }).notNull(),
  },
  (t) => [
    check('purchase_order_lines_quantity_positive', sql`${t.quantity} >= 1`),
    check('purchase_order_lines_received_within', sql`${t.received} between 0 and ${t.quantity}`),
    check('purchase_order_lines_unit_cost_nonnegative', sql`${t.unitCost} >= 0`),
    uniqueIndex('purchase_order_lines_position_key').on(t.purchaseOrderId, t.position),
    index('purchase_order_lines_product_idx').on(t.productId),
  ],
);

/**
 * The first answer to a request sent with an Idempotency-Key (DESIGN §8), kept 24 h: the same
 * user's retry gets it again instead of acting twice. status and body are null while the first
 * request is still running (its transaction holds the row).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: smallint('status'),
    body: text('body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** Server-wide values kept with the data, such as the generated token secret. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Signed-out tokens by their id (`jti`), kept until the token would have expired (decision 0017).
 * The signed-in checks read it in their own statement, so a sign-out holds on every instance and
 * after a restart; Redis and memory only cache it.
 */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    id: uuid('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('revoked_tokens_expires_idx').on(t.expiresAt)],
);

/** A till (DESIGN §13): a drawer that sessions open and close. "Till 1" exists from the start. */
export const registers = pgTable(
  'registers',
  {
    id: id(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('registers_name_lower_key').on(sql`lower(${t.name})`)],
);

/** Till session numbers: unique and increasing. */
export const registerSessionNumbers = pgSequence('register_session_number_seq');

/**
 * A till session (DESIGN §13): opened with a float, closed with the drawer counted. What the
 * drawer should hold is never stored while open: the report sums the session's sales' payments,
 * its refunds and its cash movements (src/shared/till.ts sessionReport). At close, expected_cash is
 * kept beside counted_cash as the Z report said it. At most one open session per register.
 */
export const registerSessions = pgTable(
  'register_sessions',
  {
    id: id(),
    number: bigint('number', { mode: 'number' })
      .notNull()
      .default(sql`nextval('register_session_number_seq')`),
    registerId: uuid('register_id')
      .notNull()
      .references(() => registers.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('open'),
    openedById: uuid('opened_by_id').references(() => users.id, { onDelete: 'set null' }),
    openedByName: text('opened_by_name').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    openingFloat: numeric('opening_float', { precision: 14, scale: 2 }).notNull(),
    closedById: uuid('closed_by_id').references(() => users.id, { onDelete: 'set null' }),
    closedByName: text('closed_by_name'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    countedCash: numeric('counted_cash', { precision: 14, scale: 2 }),
    expectedCash: numeric('expected_cash', { precision: 20, scale: 2 }),
    note: text('note').notNull().default(''),
  },
  (t) => [
    check('register_sessions_status_known', sql`${t.status} in ('open','closed')`),
    check('register_sessions_float_nonnegative', sql`${t.openingFloat} >= 0`),
    check(
      'register_sessions_closed_whole',
      sql`(${t.status} = 'closed') = (${t.closedAt} is not null and ${t.countedCash} is not null and ${t.expectedCash} is not null)`,
    ),
    uniqueIndex('register_sessions_number_key').on(t.number),
    uniqueIndex('register_sessions_one_open').on(t.registerId).where(sql`${t.status} = 'open'`),
    index('register_sessions_opened_idx').on(t.openedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('register_sessions_user_opened_idx').on(
      t.openedById,
      t.openedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/** Cash put into (amount > 0) or taken out of (< 0) a session's drawer, with why (DESIGN §13). */
export const cashMovements = pgTable(
  'cash_movements',
  {
    id: id(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => registerSessions.id, { onDelete: 'restrict' }),
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    reason: text('reason').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('cash_movements_amount_nonzero', sql`${t.amount} <> 0`),
    index('cash_movements_session_idx').on(t.sessionId),
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

/**
 * A catalogue import (DESIGN §14): one uploaded file, its column mapping and options once
 * checked, and how far its apply has come. `processed` moves in the same transaction as each
 * batch it counts; `leaseUntil` is how long the server applying it holds it (a server stopped
 * halfway lets it lapse, and the next start resumes the import).
 */
export const imports = pgTable(
  'imports',
  {
    id: id(),
    fileName: text('file_name').notNull(),
    format: text('format').notNull(),
    status: text('status').notNull().default('uploaded'),
    /** The header row's texts, in order (blank ones named `Column N`). */
    columns: text('columns').array().notNull(),
    /** How many data rows the file holds (blank rows skipped). */
    rows: integer('rows').notNull().default(0),
    /** Field → header text: guessed at upload, the one checked once checked. */
    mapping: jsonb('mapping').notNull(),
    /** matchBy, createMissing, stock: as the last check had them (null before a check). */
    options: jsonb('options'),
    /** {create, update, unchanged, errors}: the last check's, then the apply's. */
    summary: jsonb('summary'),
    processed: integer('processed').notNull().default(0),
    /** Why an apply failed as a whole (a row's own problems are its errors). */
    failure: text('failure'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    check('imports_status_known', sql`${t.status} in ('uploaded','checked','applying','applied','failed')`),
    check('imports_format_known', sql`${t.format} in ('csv','xlsx')`),
    check('imports_processed_nonnegative', sql`${t.processed} >= 0`),
    index('imports_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('imports_applying_idx').on(t.leaseUntil).where(sql`${t.status} = 'applying'`),
  ],
);

/**
 * One data row of an import, its cells exactly as uploaded (`line`: its row in the file, the
 * header being 1). A check writes `result`, `errors`, the matched product and `changes`; an
 * apply sets `appliedAt` in the transaction that writes the row, so no row is written twice.
 */
export const importRows = pgTable(
  'import_rows',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    cells: text('cells').array().notNull(),
    result: text('result'),
    /** [{column, message}] */
    errors: jsonb('errors'),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    /** [{field, from, to}] */
    changes: jsonb('changes'),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.line] }),
    check('import_rows_result_known', sql`${t.result} in ('create','update','unchanged','error')`),
    index('import_rows_result_idx').on(t.importId, t.result, t.line),
  ],
);
