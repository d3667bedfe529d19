// Locations (DESIGN §17): the shops and stockrooms stock lives in, and transfers between them.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { products } from './catalogue';
import { createdAt, id } from './columns';

/**
 * A place stock lives in: a shop ('store') or a stockroom. `Main store` exists from the start
 * (migration 0029) and owns everything that existed before; store_settings.default_location_id
 * names the location a write without one uses (default_location.sql). Never deleted: movements
 * name them.
 */
export const locations = pg.pgTable(
  'locations',
  {
    id: id(),
    name: pg.text('name').notNull(),
    kind: pg.text('kind').notNull().default('store'),
    address: pg.text('address').notNull().default(''),
    active: pg.boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    pg.uniqueIndex('locations_name_lower_key').on(sql`lower(${t.name})`),
    pg.check('locations_kind_known', sql`${t.kind} in ('store','stockroom')`),
  ],
);

/**
 * A product's stock at one location (DESIGN §17), and its reorder point there (null: the
 * product's own). stock = the sum of the movements at this location ≥ 0, kept by
 * stock_movements_apply only (location_stock_from_ledger refuses any other change); a product's
 * stock = the sum of its rows. A row appears with the first movement (or reorder point) there.
 */
export const locationStock = pg.pgTable(
  'location_stock',
  {
    productId: pg
      .uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    locationId: pg
      .uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'restrict' }),
    stock: pg.integer('stock').notNull().default(0),
    /** DESIGN §19: what the stock here is worth, the sum of the movements' values here; 0 with the stock. */
    stockValue: pg.numeric('stock_value', { precision: 20, scale: 2 }).notNull().default('0'),
    reorderPoint: pg.integer('reorder_point'),
    reorderQuantity: pg.integer('reorder_quantity'),
    /** Units on order for this location: ordered − received over its open purchase orders' lines. */
    onOrder: pg.integer('on_order').notNull().default(0),
  },
  (t) => [
    pg.primaryKey({ columns: [t.productId, t.locationId] }),
    pg.check('location_stock_nonnegative', sql`${t.stock} >= 0`),
    pg.check(
      'location_stock_value_valid',
      sql`${t.stockValue} >= 0 and (${t.stock} > 0 or ${t.stockValue} = 0)`,
    ),
    pg.check('location_stock_on_order_nonnegative', sql`${t.onOrder} >= 0`),
    pg.check(
      'location_stock_reorder_point_nonnegative',
      sql`${t.reorderPoint} is null or ${t.reorderPoint} >= 0`,
    ),
    pg.check(
      'location_stock_reorder_quantity_positive',
      sql`${t.reorderQuantity} is null or ${t.reorderQuantity} > 0`,
    ),
    // A location's products (its stock list, its reorder suggestions).
    pg.index('location_stock_location_idx').on(t.locationId, t.productId),
  ],
);

/**
 * A lot's units at one location (DESIGN §17): quantity = the sum of the lot's movements there ≥ 0,
 * kept by stock_movements_apply only; lots.quantity = the sum of its rows. product_id is the lot's,
 * so first-expiry-first-out within a location reads one index.
 */
export const lotStock = pg.pgTable(
  'lot_stock',
  {
    lotId: pg.uuid('lot_id').notNull(),
    locationId: pg
      .uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'restrict' }),
    productId: pg.uuid('product_id').notNull(),
    quantity: pg.integer('quantity').notNull().default(0),
  },
  (t) => [
    pg.primaryKey({ columns: [t.lotId, t.locationId] }),
    pg.check('lot_stock_nonnegative', sql`${t.quantity} >= 0`),
    pg.index('lot_stock_product_location_idx').on(t.productId, t.locationId),
  ],
);

/** Transfer numbers (TR-000001): unique and increasing. */
export const transferNumbers = pg.pgSequence('transfer_number_seq');

/**
 * A transfer of stock from one location to another (DESIGN §17): draft → inTransit (sent: every
 * line's units left `from`) → partiallyReceived → received; a draft may be cancelled, a sent one
 * closed (what was neither received nor lost goes back to `from`). Units sent and not yet
 * received, lost or returned are in transit: they belong to no location.
 */
export const transfers = pg.pgTable(
  'transfers',
  {
    id: id(),
    number: pg.bigint('number', { mode: 'number' }).notNull().default(sql`nextval('transfer_number_seq')`),
    fromLocationId: pg
      .uuid('from_location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'restrict' }),
    toLocationId: pg
      .uuid('to_location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'restrict' }),
    status: pg.text('status').notNull().default('draft'),
    note: pg.text('note').notNull().default(''),
    userId: pg.uuid('user_id'),
    userName: pg.text('user_name'),
    createdAt: createdAt(),
    sentAt: pg.timestamp('sent_at', { withTimezone: true }),
    receivedAt: pg.timestamp('received_at', { withTimezone: true }),
    closedAt: pg.timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    pg.uniqueIndex('transfers_number_key').on(t.number),
    pg.check('transfers_two_places', sql`${t.fromLocationId} <> ${t.toLocationId}`),
    pg.check(
      'transfers_status_known',
      sql`${t.status} in ('draft','inTransit','partiallyReceived','received','cancelled','closed')`,
    ),
    pg.index('transfers_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg
      .index('transfers_status_created_idx')
      .on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg.index('transfers_from_idx').on(t.fromLocationId, t.status),
    pg.index('transfers_to_idx').on(t.toLocationId, t.status),
  ],
);

/**
 * One line of a transfer: the units asked for (quantity), then sent, received, lost and returned
 * (to `from`, when a sent transfer is closed). In transit = sent − received − lost − returned ≥ 0.
 * `lots` is what a draft names ([{number, quantity}]); the lots actually sent are transfer_line_lots.
 */
export const transferLines = pg.pgTable(
  'transfer_lines',
  {
    id: id(),
    transferId: pg
      .uuid('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    lineNo: pg.smallint('line_no').notNull(),
    productId: pg
      .uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    productName: pg.text('product_name').notNull(),
    quantity: pg.integer('quantity').notNull(),
    sent: pg.integer('sent').notNull().default(0),
    received: pg.integer('received').notNull().default(0),
    lost: pg.integer('lost').notNull().default(0),
    returned: pg.integer('returned').notNull().default(0),
    lots: pg.jsonb('lots'),
  },
  (t) => [
    pg.uniqueIndex('transfer_lines_transfer_line_key').on(t.transferId, t.lineNo),
    pg.index('transfer_lines_product_idx').on(t.productId),
    pg.check('transfer_lines_quantity_positive', sql`${t.quantity} > 0`),
    pg.check(
      'transfer_lines_within_sent',
      sql`${t.sent} >= 0 and ${t.received} >= 0 and ${t.lost} >= 0 and ${t.returned} >= 0 and ${t.received} + ${t.lost} + ${t.returned} <= ${t.sent}`,
    ),
  ],
);

/** The lots a tracked line was sent with, and what of each was received, lost and returned. */
export const transferLineLots = pg.pgTable(
  'transfer_line_lots',
  {
    lineId: pg
      .uuid('line_id')
      .notNull()
      .references(() => transferLines.id, { onDelete: 'cascade' }),
    lotId: pg.uuid('lot_id').notNull(),
    sent: pg.integer('sent').notNull(),
    received: pg.integer('received').notNull().default(0),
    lost: pg.integer('lost').notNull().default(0),
    returned: pg.integer('returned').notNull().default(0),
  },
  (t) => [
    pg.primaryKey({ columns: [t.lineId, t.lotId] }),
    pg.check(
      'transfer_line_lots_within_sent',
      sql`${t.sent} > 0 and ${t.received} >= 0 and ${t.lost} >= 0 and ${t.returned} >= 0 and ${t.received} + ${t.lost} + ${t.returned} <= ${t.sent}`,
    ),
  ],
);
