// Catalogue imports and their rows.
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { products } from './catalogue';
import { createdAt, id } from './columns';
import { users } from './users';

/**
 * A catalogue import (DESIGN §14): one uploaded file, its column mapping and options once
 * checked, and how far its apply has come. `processed` moves in the same transaction as each
 * batch it counts; `leaseUntil` is how long the server applying it holds it (a server stopped
 * halfway lets it lapse, and the next start resumes the import).
 */
export const imports = pgTable(
  'imports',
  {
    id: id(),
    fileName: text('file_name').notNull(),
    format: text('format').notNull(),
    status: text('status').notNull().default('uploaded'),
    /** The header row's texts, in order (blank ones named `Column N`). */
    columns: text('columns').array().notNull(),
    /** How many data rows the file holds (blank rows skipped). */
    rows: integer('rows').notNull().default(0),
    /** Field → header text: guessed at upload, the one checked once checked. */
    mapping: jsonb('mapping').notNull(),
    /** matchBy, createMissing, stock: as the last check had them (null before a check). */
    options: jsonb('options'),
    /** {create, update, unchanged, errors}: the last check's, then the apply's. */
    summary: jsonb('summary'),
    processed: integer('processed').notNull().default(0),
    /** Why an apply failed as a whole (a row's own problems are its errors). */
    failure: text('failure'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    check('imports_status_known', sql`${t.status} in ('uploaded','checked','applying','applied','failed')`),
    check('imports_format_known', sql`${t.format} in ('csv','xlsx')`),
    check('imports_processed_nonnegative', sql`${t.processed} >= 0`),
    index('imports_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('imports_applying_idx').on(t.leaseUntil).where(sql`${t.status} = 'applying'`),
  ],
);

/**
 * One data row of an import, its cells exactly as uploaded (`line`: its row in the file, the
 * header being 1). A check writes `result`, `errors`, the matched product and `changes`; an
 * apply sets `appliedAt` in the transaction that writes the row, so no row is written twice.
 */
export const importRows = pgTable(
  'import_rows',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    cells: text('cells').array().notNull(),
    result: text('result'),
    /** [{column, message}] */
    errors: jsonb('errors'),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    /** [{field, from, to}] */
    changes: jsonb('changes'),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.line] }),
    check('import_rows_result_known', sql`${t.result} in ('create','update','unchanged','error')`),
    index('import_rows_result_idx').on(t.importId, t.result, t.line),
  ],
);
