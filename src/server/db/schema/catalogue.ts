// What the store sells: categories, suppliers, tax rates and products.
import { sql } from 'drizzle-orm';
import { check, index, integer, numeric, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';

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
