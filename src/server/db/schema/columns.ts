import * as pg from 'drizzle-orm/pg-core';

// Not re-exported by the index: drizzle reads every export of the schema as a table.
export const id = () => pg.uuid('id').primaryKey().defaultRandom();
export const createdAt = () => pg.timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
