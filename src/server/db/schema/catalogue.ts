// What the store sells: categories, suppliers, tax rates and products.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';

export const categories = pg.pgTable(
  'categories',
  {
    id: id(),
    name: pg.text('name').notNull(),
    description: pg.text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [pg.uniqueIndex('categories_name_lower_key').on(sql`lower(${t.name})`)],
);

export const suppliers = pg.pgTable('suppliers', {
  id: id(),
  name: pg.text('name').notNull(),
  email: pg.text('email').notNull().default(''),
  phone: pg.text('phone').notNull().default(''),
  address: pg.text('address').notNull().default(''),
  createdAt: createdAt(),
});

/**
 * The store's tax rates (DESIGN §12): a percent with at most 3 decimals (8.875). Names are unique
 * ignoring case. Sold lines keep a snapshot (orders.tax_rate_name, orders.tax_rate), so a rate
 * may change or go without changing history; one that products or the store default use stays.
 */
export const taxRates = pg.pgTable(
  'tax_rates',
  {
    id: id(),
    name: pg.text('name').notNull(),
    rate: pg.numeric('rate', { precision: 6, scale: 3 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    pg.check('tax_rates_rate_within', sql`${t.rate} between 0 and 100`),
    pg.uniqueIndex('tax_rates_name_lower_key').on(sql`lower(${t.name})`),
  ],
);

/**
 * An item with options (DESIGN §22): "CeraVe Lotion" in sizes 8 oz, 12 oz and 16 oz. Each of its
 * variants is a product (products.item_id) with one value of each option (products.option_values);
 * the item holds what they share. `options`: [{name, values[]}], at most 3, in their order; a
 * product's name is the item's name and its values (variantName in src/shared/items.ts), kept in
 * step by the items repository. Names are unique ignoring case: an import finds an item by name.
 */
export const items = pg.pgTable(
  'items',
  {
    id: id(),
    name: pg.text('name').notNull(),
    description: pg.text('description').notNull().default(''),
    categoryId: pg
      .uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    supplierId: pg
      .uuid('supplier_id')
      .notNull()
      .references(() => suppliers.id, { onDelete: 'restrict' }),
    brand: pg.text('brand'),
    options: pg.jsonb('options').notNull().default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [
    pg.uniqueIndex('items_name_lower_key').on(sql`lower(${t.name})`),
    pg.check('items_options_array', sql`jsonb_typeof(${t.options}) = 'array'`),
  ],
);

export const products = pg.pgTable(
  'products',
  {
    id: id(),
    name: pg.text('name').notNull(),
    description: pg.text('description').notNull().default(''),
    price: pg.numeric('price', { precision: 12, scale: 2 }).notNull(),
    stock: pg.integer('stock').notNull(),
    /**
     * The unit cost (DESIGN §9, §19): while there is stock, stock_value ÷ stock to the cent, kept so
     * by the ledger's trigger; with none, the last known (the one a gain is valued at). null while
     * unknown.
     */
    cost: pg.numeric('cost', { precision: 12, scale: 2 }),
    /**
     * DESIGN §19: what the stock is worth, the sum of its movements' values (and of its locations'
     * stock_value), kept by the ledger's trigger alone; 0 with the stock.
     */
    stockValue: pg.numeric('stock_value', { precision: 20, scale: 2 }).notNull().default('0'),
    /** null: the store's LOW_STOCK_THRESHOLD applies. */
    reorderPoint: pg.integer('reorder_point'),
    /** null: twice the reorder point, less stock and what is on order. */
    reorderQuantity: pg.integer('reorder_quantity'),
    /** Optional codes the counter finds a product by (DESIGN §11); each unique ignoring case. */
    sku: pg.text('sku'),
    barcode: pg.text('barcode'),
    categoryId: pg
      .uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    supplierId: pg
      .uuid('supplier_id')
      .notNull()
      .references(() => suppliers.id, { onDelete: 'restrict' }),
    /** null: the store's default rate applies (DESIGN §12). */
    taxRateId: pg.uuid('tax_rate_id').references(() => taxRates.id, { onDelete: 'restrict' }),
    /** DESIGN §15: 'lot': the stock lives in lots, sold first-expiry-first-out; 'none': it does not. */
    tracking: pg.text('tracking').notNull().default('none'),
    /** DESIGN §22: the item this product is a variant of (null: a product on its own). */
    itemId: pg.uuid('item_id').references(() => items.id, { onDelete: 'restrict' }),
    /** DESIGN §22: a variant's value of each of its item's options, {option: value}; null without an item. */
    optionValues: pg.jsonb('option_values'),
    /** DESIGN §22: optional. */
    brand: pg.text('brand'),
    /** DESIGN §22: an inactive product is not offered nor sold; it keeps its history and stock. */
    active: pg.boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    pg.check('products_tracking_known', sql`${t.tracking} in ('none','lot')`),
    pg.check('products_price_nonnegative', sql`${t.price} >= 0`),
    pg.check('products_stock_nonnegative', sql`${t.stock} >= 0`),
    pg.check('products_cost_nonnegative', sql`${t.cost} >= 0`),
    pg.check(
      'products_stock_value_valid',
      sql`${t.stockValue} >= 0 and (${t.stock} > 0 or ${t.stockValue} = 0)`,
    ),
    pg.check('products_reorder_point_nonnegative', sql`${t.reorderPoint} >= 0`),
    pg.check('products_reorder_quantity_positive', sql`${t.reorderQuantity} >= 1`),
    pg.check('products_variant_whole', sql`(${t.itemId} is null) = (${t.optionValues} is null)`),
    // One variant per combination of values (DESIGN §22).
    pg
      .uniqueIndex('products_item_variant_key')
      .on(t.itemId, t.optionValues)
      .where(sql`${t.itemId} is not null`),
    pg.index('products_category_idx').on(t.categoryId),
    pg.index('products_supplier_idx').on(t.supplierId),
    pg.index('products_tax_rate_idx').on(t.taxRateId).where(sql`${t.taxRateId} is not null`),
    // No index may name stock: an order then changes no indexed column, so PostgreSQL updates the
    // row in place (a HOT update, helped by fillfactor 90 set in migration 0008) without touching
    // the trigram index. Lists in stock order read product_stock instead.
    pg.index('products_name_sort_idx').on(sql`lower(${t.name})`, t.id),
    pg.uniqueIndex('products_sku_lower_key').on(sql`lower(${t.sku})`).where(sql`${t.sku} is not null`),
    pg
      .uniqueIndex('products_barcode_lower_key')
      .on(sql`lower(${t.barcode})`)
      .where(sql`${t.barcode} is not null`),
  ],
);

/**
 * DESIGN §21: each product's price and own tax rate over time, kept by products_price_history
 * (src/server/db/functions/) at every insert and change of either, so an offline sale's price can
 * be judged against what the product had while the device was offline. `validTo` null: in force
 * now; a product known before the history began starts at -infinity.
 */
export const productPrices = pg.pgTable(
  'product_prices',
  {
    productId: pg
      .uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    price: pg.numeric('price', { precision: 12, scale: 2 }),
    taxRateId: pg.uuid('tax_rate_id'),
    validFrom: pg.timestamp('valid_from', { withTimezone: true }).notNull(),
    validTo: pg.timestamp('valid_to', { withTimezone: true }),
  },
  (t) => [
    pg.primaryKey({ columns: [t.productId, t.validFrom] }),
    pg.uniqueIndex('product_prices_current_key').on(t.productId).where(sql`${t.validTo} is null`),
  ],
);

/**
 * Decision 0052: every word of a product name once, lower case (the name split at its spaces),
 * kept by product_search_kept (src/server/db/functions/). A search word is first matched against
 * these few words (by their trigram index, with the rule of every list's search), and the words it
 * matches are then looked up in product_search: a name holds a search word exactly when one of its
 * words does. A word is never removed: one no product has any more matches nothing there.
 */
export const nameWords = pg.pgTable('name_words', { word: pg.text('word').primaryKey() }, (t) => [
  pg.index('name_words_word_trgm_idx').using('gin', t.word.op('gin_trgm_ops')),
]);

/**
 * Decision 0052: what a product search reads, a narrow row a product that changes only with its
 * name, category, item or whether it is active (never with a sale), kept by product_search_kept:
 * the name's words (name_words) under an exact array index, so that matching needs no rechecking
 * of names and counting reads no product, and the name's sort key under its order, so that a page
 * of many matches is read in order instead of sorting every match.
 */
export const productSearch = pg.pgTable(
  'product_search',
  {
    productId: pg
      .uuid('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    nameKey: pg.text('name_key').notNull(),
    words: pg.text('words').array().notNull(),
    categoryId: pg.uuid('category_id').notNull(),
    itemId: pg.uuid('item_id'),
    active: pg.boolean('active').notNull(),
  },
  (t) => [
    pg.index('product_search_words_idx').using('gin', t.words),
    pg.index('product_search_name_idx').on(t.nameKey, t.productId),
  ],
);
