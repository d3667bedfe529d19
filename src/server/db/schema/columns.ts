import { timestamp, uuid } from 'drizzle-orm/pg-core';

// Not re-exported by the index: drizzle reads every export of the schema as a table.
export const id = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
