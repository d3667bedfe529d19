// Report figures kept up to date by triggers: totals per order, day, month, product and category.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { categories, products } from './catalogue';

/**
 * Order count and revenue (net of tax and of returns, as sales_days counts it), striped over a few
 * rows so that concurrent orders rarely wait on each other; the figures are the sums over all slots. Kept by the triggers on orders
 * (orders_figures_counted, in src/server/db/functions).
 */
export const orderTotals = pg.pgTable('order_totals', {
  slot: pg.smallint('slot').primaryKey(),
  orders: pg.integer('orders').notNull().default(0),
  // Running sums have no bound (migration 0018): any number of the largest orders fits.
  revenue: pg.numeric('revenue').notNull().default('0'),
});

/**
 * Orders per quarter of an hour (UTC), striped like order_totals, so "orders today" sums a day's
 * quarters in any time zone instead of counting the day's orders. Kept by the triggers on orders
 * (orders_figures_counted).
 */
export const orderQuarters = pg.pgTable(
  'order_quarters',
  {
    quarter: pg.timestamp('quarter', { withTimezone: true }).notNull(),
    slot: pg.smallint('slot').notNull(),
    orders: pg.integer('orders').notNull().default(0),
  },
  (t) => [pg.primaryKey({ columns: [t.quarter, t.slot] })],
);

/**
 * Each product's sales over all its orders, net of returns, kept by triggers on orders (migration
 * 0013); every product has its row from the start. units (the dashboard's best seller), revenue,
 * and margin_up, the sum over its orders of each order's margin when positive: all three bound what
 * the product can have sold in any range, which lets the products report read candidates best
 * first. last_day, the last day it sold a unit (net; null: none), tells most never-sold products
 * apart without reading their days (decision 0013).
 */
export const productSales = pg.pgTable(
  'product_sales',
  {
    productId: pg
      .uuid('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    units: pg.integer('units').notNull(),
    revenue: pg.numeric('revenue').notNull().default('0'),
    marginUp: pg.numeric('margin_up').notNull().default('0'),
    lastDay: pg.date('last_day', { mode: 'string' }),
  },
  (t) => [
    // Each matches the order in which the products report reads candidates (ties by id).
    pg.index('product_sales_units_idx').on(t.units.desc().nullsFirst(), t.productId),
    pg.index('product_sales_revenue_idx').on(t.revenue.desc().nullsFirst(), t.productId),
    pg.index('product_sales_margin_up_idx').on(t.marginUp.desc().nullsFirst(), t.productId),
    pg.index('product_sales_last_day_idx').on(t.lastDay, t.productId),
  ],
);

/**
 * The time zone whose days the kept daily figures below count in (one row). At start-up the
 * server sets it to its TZ and, when that changed it, recounts every day from the orders
 * (sales_days_use_time_zone, migration 0013). Likewise the store's low-stock threshold, the
 * reorder point of products without their own, which product_stock.reorder_at and the count of
 * products to reorder are kept in (low_stock_use_threshold, migration 0027).
 */
export const reportSettings = pg.pgTable(
  'report_settings',
  {
    only: pg.boolean('only').primaryKey().default(true),
    timeZone: pg.text('time_zone').notNull(),
    lowStockThreshold: pg.integer('low_stock_threshold').notNull().default(5),
  },
  (t) => [pg.check('report_settings_one_row', sql`${t.only}`)],
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
export const salesDays = pg.pgTable(
  'sales_days',
  {
    day: pg.date('day', { mode: 'string' }).notNull(),
    slot: pg.smallint('slot').notNull(),
    orders: pg.integer('orders').notNull().default(0),
    units: pg.integer('units').notNull().default(0),
    revenue: pg.numeric('revenue').notNull().default('0'),
    cost: pg.numeric('cost').notNull().default('0'),
    sales: pg.integer('sales').notNull().default(0),
    /**
     * Discounts given and tax taken (DESIGN §12); revenue is net of both. tax is net of returns
     * (tax − returned_tax) and so is discount (discount − returned_discount: the share of each
     * line's discount its returned units took with them).
     */
    discount: pg.numeric('discount').notNull().default('0'),
    tax: pg.numeric('tax').notNull().default('0'),
  },
  (t) => [pg.primaryKey({ columns: [t.day, t.slot] })],
);

/**
 * Tax per day and rate as sold (the order's snapshot: name and rate; orders before taxes under
 * '' and 0), net of returns, for the tax report (DESIGN §12): base is the lines' net.
 */
export const salesDayTaxes = pg.pgTable(
  'sales_day_taxes',
  {
    day: pg.date('day', { mode: 'string' }).notNull(),
    rateName: pg.text('rate_name').notNull(),
    rate: pg.numeric('rate', { precision: 6, scale: 3 }).notNull(),
    base: pg.numeric('base').notNull().default('0'),
    tax: pg.numeric('tax').notNull().default('0'),
  },
  (t) => [pg.primaryKey({ columns: [t.day, t.rateName, t.rate] })],
);

/** Per product and day; a product's rows go with it (orders of deleted products are left out). */
export const salesDayProducts = pg.pgTable(
  'sales_day_products',
  {
    productId: pg
      .uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    day: pg.date('day', { mode: 'string' }).notNull(),
    orders: pg.integer('orders').notNull().default(0),
    units: pg.integer('units').notNull().default(0),
    revenue: pg.numeric('revenue').notNull().default('0'),
    cost: pg.numeric('cost').notNull().default('0'),
  },
  (t) => [
    pg.primaryKey({ columns: [t.productId, t.day] }),
    // Migration 0013 builds it with INCLUDE (product_id, units, revenue, cost), which this schema
    // cannot say, so that a range of days is summed from the index alone.
    pg.index('sales_day_products_day_idx').on(t.day),
  ],
);

/** Per day and the category name each order was sold under (its snapshot). */
export const salesDayCategories = pg.pgTable(
  'sales_day_categories',
  {
    day: pg.date('day', { mode: 'string' }).notNull(),
    categoryName: pg.text('category_name').notNull(),
    units: pg.integer('units').notNull().default(0),
    revenue: pg.numeric('revenue').notNull().default('0'),
    cost: pg.numeric('cost').notNull().default('0'),
  },
  (t) => [pg.primaryKey({ columns: [t.day, t.categoryName] })],
);

/**
 * Per day and the user who placed the orders; user_id null holds the orders of staff since
 * deleted (deleting a user sets their orders' user_id to null, and the trigger moves the figures).
 * No foreign key, for that reason.
 */
export const salesDayStaff = pg.pgTable(
  'sales_day_staff',
  {
    day: pg.date('day', { mode: 'string' }).notNull(),
    userId: pg.uuid('user_id'),
    orders: pg.integer('orders').notNull().default(0),
    units: pg.integer('units').notNull().default(0),
    revenue: pg.numeric('revenue').notNull().default('0'),
    cost: pg.numeric('cost').notNull().default('0'),
  },
  (t) => [pg.unique('sales_day_staff_day_user_key').on(t.day, t.userId).nullsNotDistinct()],
);

/**
 * Sales, units and revenue per day and customer, for the top customers of a range (DESIGN §11);
 * kept by the same trigger function (orders_figures_counted.sql). customer_id null: customers since deleted.
 */
export const salesDayCustomers = pg.pgTable(
  'sales_day_customers',
  {
    day: pg.date('day', { mode: 'string' }).notNull(),
    customerId: pg.uuid('customer_id'),
    sales: pg.integer('sales').notNull().default(0),
    units: pg.integer('units').notNull().default(0),
    revenue: pg.numeric('revenue').notNull().default('0'),
  },
  (t) => [pg.unique('sales_day_customers_day_customer_key').on(t.day, t.customerId).nullsNotDistinct()],
);

/**
 * The daily figures per category and per person summed by month (the first day of a month in
 * report_settings' zone): a range's whole months are read here, only its partial months by day.
 * Kept and recounted with the daily ones, by the same functions (since migration 0014).
 */
export const salesMonthCategories = pg.pgTable(
  'sales_month_categories',
  {
    month: pg.date('month', { mode: 'string' }).notNull(),
    categoryName: pg.text('category_name').notNull(),
    units: pg.integer('units').notNull().default(0),
    revenue: pg.numeric('revenue').notNull().default('0'),
    cost: pg.numeric('cost').notNull().default('0'),
  },
  (t) => [pg.primaryKey({ columns: [t.month, t.categoryName] })],
);

export const salesMonthStaff = pg.pgTable(
  'sales_month_staff',
  {
    month: pg.date('month', { mode: 'string' }).notNull(),
    userId: pg.uuid('user_id'),
    orders: pg.integer('orders').notNull().default(0),
    units: pg.integer('units').notNull().default(0),
    revenue: pg.numeric('revenue').notNull().default('0'),
    cost: pg.numeric('cost').notNull().default('0'),
  },
  (t) => [pg.unique('sales_month_staff_month_user_key').on(t.month, t.userId).nullsNotDistinct()],
);

/**
 * What each product sold in two months running, first_month and the next (every month counts in
 * two rows), with margin_up as in product_sales: bounds of what it sold in any range inside those
 * months, by which the products report walks a range of up to two months (decision 0013).
 */
export const salesTwoMonthProducts = pg.pgTable(
  'sales_two_month_products',
  {
    firstMonth: pg.date('first_month', { mode: 'string' }).notNull(),
    productId: pg
      .uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    units: pg.integer('units').notNull().default(0),
    revenue: pg.numeric('revenue').notNull().default('0'),
    marginUp: pg.numeric('margin_up').notNull().default('0'),
  },
  (t) => [
    pg.primaryKey({ columns: [t.firstMonth, t.productId] }),
    pg
      .index('sales_two_month_products_revenue_idx')
      .on(t.firstMonth, t.revenue.desc().nullsFirst(), t.productId),
    pg.index('sales_two_month_products_units_idx').on(t.firstMonth, t.units.desc().nullsFirst(), t.productId),
    pg
      .index('sales_two_month_products_margin_up_idx')
      .on(t.firstMonth, t.marginUp.desc().nullsFirst(), t.productId),
  ],
);

/**
 * Product count and total stock, striped like order_totals; kept by the triggers on products
 * (product_totals_added/changed/removed.sql). to_reorder counts the products to reorder (stock + on order ≤ the reorder
 * point in force), kept by product_stock_to_reorder_counted.sql (decision 0032).
 */
export const productTotals = pg.pgTable('product_totals', {
  slot: pg.smallint('slot').primaryKey(),
  products: pg.integer('products').notNull().default(0),
  stock: pg.bigint('stock', { mode: 'number' }).notNull().default(0),
  toReorder: pg.integer('to_reorder').notNull().default(0),
});

/**
 * Products, units in stock and their value at cost (a product without a cost counts 0) per
 * category, striped like product_totals: the stock report reads these rows instead of the whole
 * catalogue. Kept by the triggers on products (product_totals_added/changed/removed.sql).
 */
export const categoryStock = pg.pgTable(
  'category_stock',
  {
    categoryId: pg
      .uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    slot: pg.smallint('slot').notNull(),
    products: pg.integer('products').notNull().default(0),
    units: pg.bigint('units', { mode: 'number' }).notNull().default(0),
    value: pg.numeric('value').notNull().default('0'),
  },
  (t) => [pg.primaryKey({ columns: [t.categoryId, t.slot] })],
);
