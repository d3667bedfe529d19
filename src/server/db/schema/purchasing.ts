// Purchase orders to suppliers and their lines.
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  numeric,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { products, suppliers } from './catalogue';
import { createdAt, id } from './columns';

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
