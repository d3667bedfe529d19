// The store's settings and server-wide values: store details, the token secret, idempotency keys.
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { taxRates } from './catalogue';
import { createdAt } from './columns';

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
