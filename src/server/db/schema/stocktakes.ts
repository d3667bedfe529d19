// Stocktakes (DESIGN §18, decision 0044): a location counted by category while it trades.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { products } from './catalogue';
import { createdAt, id } from './columns';
import { locations } from './locations';

/** Stocktake numbers (ST-000001): unique and increasing. */
export const stocktakeNumbers = pg.pgSequence('stocktake_number_seq');

/**
 * A stocktake of one location: counting → posted (its differences written as `count` movements,
 * once) or cancelled (nothing written). `scope` is what it was made of ({categories, products}:
 * ids); the products it counts are stocktake_products, fixed when it is made.
 */
export const stocktakes = pg.pgTable(
  'stocktakes',
  {
    id: id(),
    number: pg.bigint('number', { mode: 'number' }).notNull().default(sql`nextval('stocktake_number_seq')`),
    locationId: pg
      .uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'restrict' }),
    status: pg.text('status').notNull().default('counting'),
    blind: pg.boolean('blind').notNull().default(false),
    scope: pg.jsonb('scope').notNull(),
    note: pg.text('note').notNull().default(''),
    userId: pg.uuid('user_id'),
    userName: pg.text('user_name'),
    createdAt: createdAt(),
    postedAt: pg.timestamp('posted_at', { withTimezone: true }),
    postedById: pg.uuid('posted_by_id'),
    postedByName: pg.text('posted_by_name'),
    cancelledAt: pg.timestamp('cancelled_at', { withTimezone: true }),
    /**
     * How many lines it has: set when it is made, one more for each lot a count adds (read with
     * every count's answer, so not counted over the lines each time).
     */
    lineCount: pg.integer('line_count').notNull().default(0),
    /** The post's choice for uncounted lines. */
    uncounted: pg.text('uncounted'),
  },
  (t) => [
    pg.uniqueIndex('stocktakes_number_key').on(t.number),
    pg.check('stocktakes_status_known', sql`${t.status} in ('counting','posted','cancelled')`),
    pg.check('stocktakes_uncounted_known', sql`${t.uncounted} is null or ${t.uncounted} in ('keep','zero')`),
    pg.check('stocktakes_posted_whole', sql`(${t.status} = 'posted') = (${t.postedAt} is not null)`),
    pg.index('stocktakes_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg
      .index('stocktakes_status_created_idx')
      .on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg.index('stocktakes_location_idx').on(t.locationId, t.status),
  ],
);

/**
 * The products a stocktake counts, fixed when it is made. `open` while it counts: two open
 * stocktakes never share a (location, product) (stocktake_products_open_key, so two admins racing
 * to create overlapping ones cannot both win). A tracked product is here even with no lot in stock
 * there: counting a lot of it makes its line.
 */
export const stocktakeProducts = pg.pgTable(
  'stocktake_products',
  {
    stocktakeId: pg
      .uuid('stocktake_id')
      .notNull()
      .references(() => stocktakes.id, { onDelete: 'cascade' }),
    productId: pg
      .uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    locationId: pg.uuid('location_id').notNull(),
    open: pg.boolean('open').notNull().default(true),
  },
  (t) => [
    pg.primaryKey({ columns: [t.stocktakeId, t.productId] }),
    pg.uniqueIndex('stocktake_products_open_key').on(t.locationId, t.productId).where(sql`${t.open}`),
  ],
);

/**
 * One line of a stocktake: a product (one per lot for a tracked product). `counted` is null until
 * counted; the last count's who and when, and `expected_at_count`, the ledger's stock of the line
 * read in that count's statement. `posted` is the movement the post wrote (null: none).
 */
export const stocktakeLines = pg.pgTable(
  'stocktake_lines',
  {
    id: id(),
    stocktakeId: pg
      .uuid('stocktake_id')
      .notNull()
      .references(() => stocktakes.id, { onDelete: 'cascade' }),
    productId: pg
      .uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** No foreign key, like the movements': lots are never deleted. */
    lotId: pg.uuid('lot_id'),
    counted: pg.integer('counted'),
    countedById: pg.uuid('counted_by_id'),
    countedByName: pg.text('counted_by_name'),
    countedAt: pg.timestamp('counted_at', { withTimezone: true }),
    expectedAtCount: pg.integer('expected_at_count'),
    posted: pg.integer('posted'),
  },
  (t) => [
    pg
      .uniqueIndex('stocktake_lines_product_key')
      .on(t.stocktakeId, t.productId)
      .where(sql`${t.lotId} is null`),
    pg.uniqueIndex('stocktake_lines_lot_key').on(t.stocktakeId, t.lotId).where(sql`${t.lotId} is not null`),
    pg.index('stocktake_lines_product_idx').on(t.stocktakeId, t.productId),
    pg.check(
      'stocktake_lines_counted_range',
      sql`${t.counted} is null or ${t.counted} between 0 and 1000000`,
    ),
    pg.check(
      'stocktake_lines_count_whole',
      sql`(${t.counted} is null) = (${t.countedAt} is null) and (${t.counted} is null) = (${t.expectedAtCount} is null)`,
    ),
  ],
);

/** Every count sent (a scan, a typed quantity, a sheet's row): who, when, how, and the stock then. */
export const stocktakeCounts = pg.pgTable(
  'stocktake_counts',
  {
    id: id(),
    lineId: pg
      .uuid('line_id')
      .notNull()
      .references(() => stocktakeLines.id, { onDelete: 'cascade' }),
    mode: pg.text('mode').notNull(),
    quantity: pg.integer('quantity').notNull(),
    /** The line's count after this one. */
    countedAfter: pg.integer('counted_after').notNull(),
    expectedAtCount: pg.integer('expected_at_count').notNull(),
    userId: pg.uuid('user_id'),
    userName: pg.text('user_name'),
    at: pg.timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    pg.check('stocktake_counts_mode_known', sql`${t.mode} in ('set','add')`),
    pg.index('stocktake_counts_line_idx').on(t.lineId, t.at),
  ],
);
