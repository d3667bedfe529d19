// Purchase orders to suppliers and their lines.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { products, suppliers } from './catalogue';
import { createdAt, id } from './columns';
import { locations } from './locations';

/** Purchase order numbers (PO-000123): unique and increasing; a rolled-back draft leaves a gap. */
export const purchaseOrderNumbers = pg.pgSequence('purchase_order_number_seq');

/** An order to a supplier (DESIGN §9). Its total is the sum of its lines, never stored apart. */
export const purchaseOrders = pg.pgTable(
  'purchase_orders',
  {
    id: id(),
    number: pg
      .bigint('number', { mode: 'number' })
      .notNull()
      .default(sql`nextval('purchase_order_number_seq')`),
    // restrict: a supplier with purchase orders stays, so its history stays whole.
    supplierId: pg
      .uuid('supplier_id')
      .notNull()
      .references(() => suppliers.id, { onDelete: 'restrict' }),
    status: pg.text('status').notNull().default('draft'),
    note: pg.text('note').notNull().default(''),
    /** Where it is delivered (DESIGN §17): receipts add stock there; its units on order are that location's. */
    locationId: pg
      .uuid('location_id')
      .notNull()
      .default(sql`default_location()`)
      .references(() => locations.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    orderedAt: pg.timestamp('ordered_at', { withTimezone: true }),
    receivedAt: pg.timestamp('received_at', { withTimezone: true }),
  },
  (t) => [
    pg.uniqueIndex('purchase_orders_number_key').on(t.number),
    pg.check(
      'purchase_orders_status_known',
      sql`${t.status} in ('draft','ordered','partially_received','received','cancelled','closed')`,
    ),
    pg.check(
      'purchase_orders_ordered_at_set',
      sql`${t.status} = 'cancelled' or (${t.orderedAt} is null) = (${t.status} = 'draft')`,
    ),
    pg.check(
      'purchase_orders_received_at_set',
      sql`(${t.receivedAt} is not null) = (${t.status} = 'received')`,
    ),
    // The list's orders (newest first), whole or under one filter.
    pg.index('purchase_orders_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg
      .index('purchase_orders_status_created_idx')
      .on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg
      .index('purchase_orders_supplier_created_idx')
      .on(t.supplierId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Each supplier's newest draft, for the reorder suggestions: drafts are few, the probe tiny.
    pg
      .index('purchase_orders_supplier_draft_idx')
      .on(t.supplierId, t.number.desc())
      .where(sql`${t.status} = 'draft'`),
  ],
);

export const purchaseOrderLines = pg.pgTable(
  'purchase_order_lines',
  {
    id: id(),
    purchaseOrderId: pg
      .uuid('purchase_order_id')
      .notNull()
      .references(() => purchaseOrders.id, { onDelete: 'cascade' }),
    position: pg.integer('position').notNull(),
    // restrict: a product on a purchase order stays, so the order's history stays whole.
    productId: pg
      .uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    quantity: pg.integer('quantity').notNull(),
    received: pg.integer('received').notNull().default(0),
    /** DESIGN §20: the units posted bills bill (bills.repository's postBill and voidBill alone change it). */
    billed: pg.integer('billed').notNull().default(0),
    unitCost: pg.numeric('unit_cost', { precision: 12, scale: 2 }).notNull(),
  },
  (t) => [
    pg.check('purchase_order_lines_quantity_positive', sql`${t.quantity} >= 1`),
    pg.check('purchase_order_lines_received_within', sql`${t.received} between 0 and ${t.quantity}`),
    pg.check('purchase_order_lines_billed_within', sql`${t.billed} between 0 and ${t.received}`),
    pg.check('purchase_order_lines_unit_cost_nonnegative', sql`${t.unitCost} >= 0`),
    pg.uniqueIndex('purchase_order_lines_position_key').on(t.purchaseOrderId, t.position),
    pg.index('purchase_order_lines_product_idx').on(t.productId),
  ],
);
