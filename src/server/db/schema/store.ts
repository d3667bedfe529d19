// The store's settings and server-wide values: store details, the token secret, idempotency keys.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { taxRates } from './catalogue';
import { createdAt } from './columns';
import { locations } from './locations';

/**
 * The store's details and money rules (DESIGN §12): one row (id 1). The receipt copies the
 * details at each sale (sales.store), so a change never rewrites a receipt.
 */
export const storeSettings = pg.pgTable(
  'store_settings',
  {
    id: pg.smallint('id').primaryKey().default(1),
    name: pg.text('name').notNull(),
    address: pg.text('address').notNull().default(''),
    phone: pg.text('phone').notNull().default(''),
    taxNumber: pg.text('tax_number').notNull().default(''),
    currency: pg.text('currency').notNull().default('USD'),
    receiptFooter: pg.text('receipt_footer').notNull().default(''),
    pricesIncludeTax: pg.boolean('prices_include_tax').notNull().default(false),
    /** The rate of products without their own; null: no tax. */
    defaultTaxRateId: pg.uuid('default_tax_rate_id').references(() => taxRates.id, { onDelete: 'restrict' }),
    /** The most the selling roles may give without a manager's approval, in percent of a line's gross. */
    maxDiscountPercent: pg
      .numeric('max_discount_percent', { precision: 5, scale: 2 })
      .notNull()
      .default('10'),
    /** DESIGN §21: how long (hours, 1–168) a counter may sell offline, and an offline sale be sent. */
    offlineHours: pg.integer('offline_hours').notNull().default(72),
    /** Where a write that names no location takes or puts stock (DESIGN §17); null: the first location made. */
    defaultLocationId: pg
      .uuid('default_location_id')
      .references(() => locations.id, { onDelete: 'restrict' }),
    updatedAt: pg.timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    pg.check('store_settings_one_row', sql`${t.id} = 1`),
    pg.check('store_settings_currency_code', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    pg.check('store_settings_max_discount_within', sql`${t.maxDiscountPercent} between 0 and 100`),
    pg.check('store_settings_offline_hours_within', sql`${t.offlineHours} between 1 and 168`),
  ],
);

/**
 * The first answer to a request sent with an Idempotency-Key (DESIGN §8), kept 24 h: the same
 * user's retry gets it again instead of acting twice. status and body are null while the first
 * request is still running (its transaction holds the row).
 */
export const idempotencyKeys = pg.pgTable(
  'idempotency_keys',
  {
    userId: pg.uuid('user_id').notNull(),
    key: pg.text('key').notNull(),
    requestHash: pg.text('request_hash').notNull(),
    status: pg.smallint('status'),
    body: pg.text('body'),
    createdAt: createdAt(),
  },
  (t) => [
    pg.primaryKey({ columns: [t.userId, t.key] }),
    pg.index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

/** Server-wide values kept with the data, such as the generated token secret. */
export const settings = pg.pgTable('settings', {
  key: pg.text('key').primaryKey(),
  value: pg.text('value').notNull(),
});
