// Stock on hand: per-product stock, the movements ledger and lots.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { products } from './catalogue';
import { createdAt, id } from './columns';

/**
 * Every product's stock and lower-case name, in its own narrow table so that lists in stock order
 * (the dashboard's out-of-stock and low-stock cards, products sorted by stock) read an index
 * without products.stock being indexed. Kept by the triggers on products (product_totals_added/changed/removed.sql). It also
 * carries what the dashboard and the reorder suggestions read of a product (decision 0032), so that they read this table alone.
 */
export const productStock = pg.pgTable(
  'product_stock',
  {
    productId: pg
      .uuid('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    stock: pg.integer('stock').notNull(),
    nameKey: pg.text('name_key').notNull(),
    /** The product's own reorder point (null: the store's). */
    reorderPoint: pg.integer('reorder_point'),
    /**
     * Units on order: ordered − received over its lines on ordered and partly received purchase
     * orders (DESIGN §9). Kept by purchase_orders_on_order.sql and purchase_order_lines_on_order.sql.
     */
    onOrder: pg.integer('on_order').notNull().default(0),
    /**
     * The reorder point in force: the product's own, or the store's low-stock threshold as
     * report_settings holds it (the server sets it at every start; decision 0032).
     */
    reorderAt: pg.integer('reorder_at').notNull(),
    /** Copies of the product's, for the dashboard's cards and the reorder suggestions. */
    name: pg.text('name').notNull(),
    categoryId: pg.uuid('category_id').notNull(),
    supplierId: pg.uuid('supplier_id').notNull(),
    cost: pg.numeric('cost', { precision: 12, scale: 2 }),
    reorderQuantity: pg.integer('reorder_quantity'),
  },
  (t) => [
    // Migration 0012 builds it with INCLUDE (reorder_point, on_order), which this schema cannot say.
    pg.index('product_stock_order_idx').on(t.stock, t.nameKey, t.productId),
    // Products at or below their reorder point in force (low stock and out of stock), in stock order.
    pg
      .index('product_stock_low_idx')
      .on(t.stock, t.nameKey, t.productId)
      .where(sql`${t.stock} <= ${t.reorderAt}`),
    // Products to reorder (stock + on order ≤ the reorder point in force), by supplier and name.
    // Migration 0027 builds it with INCLUDE of what the suggestions read, which this schema cannot say.
    pg
      .index('product_stock_to_reorder_idx')
      .on(t.supplierId, t.nameKey, t.productId)
      .where(sql`${t.stock} + ${t.onOrder} <= ${t.reorderAt}`),
  ],
);

/**
 * The stock ledger (DESIGN §8): every change of a product's stock is one row, and the database
 * keeps products.stock equal to the sum of its movements (stock_movements_apply.sql: inserting a
 * movement applies it; products_stock_from_ledger.sql: nothing else may change stock;
 * stock_movements_append_only.sql: nothing updates or deletes a movement). Every writer goes
 * through src/server/modules/stock/movements.ts (decision 0039).
 * No foreign key to products: deleting a product keeps its history.
 */
export const stockMovements = pg.pgTable(
  'stock_movements',
  {
    id: id(),
    at: pg.timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    productId: pg.uuid('product_id').notNull(),
    kind: pg.text('kind').notNull(),
    /** Signed: units in (+) or out (−). */
    quantity: pg.integer('quantity').notNull(),
    /**
     * DESIGN §19: what the units were worth, signed like the quantity (exact to the cent). The
     * ledger's trigger fills it in (the average at the location out, the receipt's cost or the
     * sale's value in); a receipt, a revaluation and an opening movement may give it. No default:
     * a writer that leaves it out leaves it to the trigger.
     */
    value: pg.numeric('value', { precision: 20, scale: 2 }).notNull(),
    /** The product's stock right after this movement; set by the trigger that applies it. */
    stockAfter: pg.integer('stock_after').notNull().default(0),
    reason: pg.text('reason'),
    note: pg.text('note').notNull().default(''),
    userId: pg.uuid('user_id'),
    userName: pg.text('user_name'),
    orderId: pg.uuid('order_id'),
    purchaseOrderId: pg.uuid('purchase_order_id'),
    /** The refund at the counter that brought the units back or wrote them off (DESIGN §13). */
    refundId: pg.uuid('refund_id'),
    /** The lot the units came from or went to (DESIGN §15); null for a product without lots. */
    lotId: pg.uuid('lot_id'),
    /**
     * Where the units came in or went out (DESIGN §17); a write that names none takes the default
     * location (default_location.sql). stock_after is that location's stock right after it. No foreign key
     * (as to products): written on every sale; locations are never deleted.
     */
    locationId: pg.uuid('location_id').notNull().default(sql`default_location()`),
    /** The transfer a transferOut, transferIn or transferLoss belongs to (DESIGN §17). */
    transferId: pg.uuid('transfer_id'),
    /** The stocktake a count was posted by (DESIGN §18). */
    stocktakeId: pg.uuid('stocktake_id'),
  },
  (t) => [
    pg.check(
      'stock_movements_kind_known',
      sql`${t.kind} in ('initial','sale','return','receipt','adjustment','count','transferOut','transferIn','transferLoss','revaluation')`,
    ),
    pg.check(
      'stock_movements_reason_known',
      sql`${t.reason} is null or ${t.reason} in ('received','damaged','lost','found','returned','correction','expired','offline')`,
    ),
    pg.check('stock_movements_stock_after_nonnegative', sql`${t.stockAfter} >= 0`),
    // A revaluation moves value, never units (DESIGN §19).
    pg.check('stock_movements_revaluation_no_units', sql`${t.kind} <> 'revaluation' or ${t.quantity} = 0`),
    // A product's history, newest first, is read in this order.
    pg
      .index('stock_movements_product_at_idx')
      .on(t.productId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg.index('stock_movements_order_idx').on(t.orderId),
    // A lot's history (its recall trace), oldest first.
    pg.index('stock_movements_lot_idx').on(t.lotId, t.at, t.id).where(sql`${t.lotId} is not null`),
    // A transfer's movements.
    pg.index('stock_movements_transfer_idx').on(t.transferId).where(sql`${t.transferId} is not null`),
    // A refund's entry reads its movements (post_refund.sql) in the transaction that holds the
    // day's figures: without this every refund read the whole ledger twice (issue 42's bench).
    pg.index('stock_movements_refund_idx').on(t.refundId).where(sql`${t.refundId} is not null`),
    // A stocktake's movements.
    pg.index('stock_movements_stocktake_idx').on(t.stocktakeId).where(sql`${t.stocktakeId} is not null`),
    // DESIGN §19: a purchase order's receipts, and the movements one entry posts together
    // (journal_source_posted.sql: one kind, note and moment); sales do not pay for either.
    pg
      .index('stock_movements_purchase_order_idx')
      .on(t.purchaseOrderId)
      .where(sql`${t.purchaseOrderId} is not null`),
    pg
      .index('stock_movements_posted_at_idx')
      .on(t.at)
      .where(sql`${t.kind} in ('initial','adjustment','count','revaluation','receipt')`),
  ],
);

/**
 * A lot of a lot-tracked product (DESIGN §15): its number (unique per product, ignoring case), its
 * expiry (null: none, sold last) and its units. quantity = the sum of its movements ≥ 0, kept by
 * stock_movements_apply only (lots_quantity_from_ledger refuses any other change); a product's
 * stock = the sum of its lots. Lots are never deleted (their movements name them).
 */
export const lots = pg.pgTable(
  'lots',
  {
    id: id(),
    /** No foreign key, like the movements': a deleted product's lots stay for their recall trace. */
    productId: pg.uuid('product_id').notNull(),
    number: pg.text('number').notNull(),
    expiresOn: pg.date('expires_on', { mode: 'string' }),
    quantity: pg.integer('quantity').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    pg.check('lots_quantity_nonnegative', sql`${t.quantity} >= 0`),
    pg.uniqueIndex('lots_product_number_key').on(t.productId, sql`lower(${t.number})`),
    // First-expiry-first-out: a product's lots in the order a sale takes them (no expiry last).
    pg.index('lots_product_expiry_idx').on(t.productId, t.expiresOn.asc().nullsLast(), t.createdAt, t.id),
    // The expiring list: lots holding units, soonest first.
    pg
      .index('lots_expiring_idx')
      .on(t.expiresOn, t.id)
      .where(sql`${t.quantity} > 0 and ${t.expiresOn} is not null`),
  ],
);
