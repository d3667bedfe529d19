// Catalogue imports and their rows.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { products } from './catalogue';
import { createdAt, id } from './columns';
import { users } from './users';

/**
 * A catalogue import (DESIGN §14): one uploaded file, its column mapping and options once
 * checked, and how far its apply has come. `processed` moves in the same transaction as each
 * batch it counts; `leaseUntil` is how long the server applying it holds it (a server stopped
 * halfway lets it lapse, and the next start resumes the import).
 */
export const imports = pg.pgTable(
  'imports',
  {
    id: id(),
    fileName: pg.text('file_name').notNull(),
    format: pg.text('format').notNull(),
    /**
     * DESIGN §22: how the rows are read: 'generic' (a column per field), 'shopify' or 'square'
     * (their export layouts). Guessed at upload from the header, the checked one once checked.
     */
    preset: pg.text('preset').notNull().default('generic'),
    status: pg.text('status').notNull().default('uploaded'),
    /** The header row's texts, in order (blank ones named `Column N`). */
    columns: pg.text('columns').array().notNull(),
    /** How many data rows the file holds (blank rows skipped). */
    rows: pg.integer('rows').notNull().default(0),
    /** Field → header text: guessed at upload, the one checked once checked. */
    mapping: pg.jsonb('mapping').notNull(),
    /** matchBy, createMissing, stock: as the last check had them (null before a check). */
    options: pg.jsonb('options'),
    /** {create, update, unchanged, errors}: the last check's, then the apply's. */
    summary: pg.jsonb('summary'),
    processed: pg.integer('processed').notNull().default(0),
    /** Why an apply failed as a whole (a row's own problems are its errors). */
    failure: pg.text('failure'),
    leaseUntil: pg.timestamp('lease_until', { withTimezone: true }),
    createdById: pg.uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdByName: pg.text('created_by_name').notNull(),
    createdAt: createdAt(),
    checkedAt: pg.timestamp('checked_at', { withTimezone: true }),
    appliedAt: pg.timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    pg.check(
      'imports_status_known',
      sql`${t.status} in ('uploaded','checked','applying','applied','failed')`,
    ),
    pg.check('imports_format_known', sql`${t.format} in ('csv','xlsx')`),
    pg.check('imports_preset_known', sql`${t.preset} in ('generic','shopify','square')`),
    pg.check('imports_processed_nonnegative', sql`${t.processed} >= 0`),
    pg.index('imports_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg.index('imports_applying_idx').on(t.leaseUntil).where(sql`${t.status} = 'applying'`),
  ],
);

/**
 * One data row of an import, its cells exactly as uploaded (`line`: its row in the file, the
 * header being 1). A check writes `result`, `errors`, the matched product and `changes`; an
 * apply sets `appliedAt` in the transaction that writes the row, so no row is written twice.
 */
export const importRows = pg.pgTable(
  'import_rows',
  {
    importId: pg
      .uuid('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    line: pg.integer('line').notNull(),
    cells: pg.text('cells').array().notNull(),
    result: pg.text('result'),
    /** [{column, message}] */
    errors: pg.jsonb('errors'),
    productId: pg.uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    /** [{field, from, to}] */
    changes: pg.jsonb('changes'),
    /**
     * DESIGN §22: a preset's row as the check read it, one cell per file column (the group's cells
     * filled in, flags turned into values); the apply reads these, so it judges what the check did.
     * null for a generic import (its cells are read as they are).
     */
    translated: pg.text('translated').array(),
    /** [{column, message}]: what the row imports other than the file says (a negative quantity as 0). */
    warnings: pg.jsonb('warnings'),
    appliedAt: pg.timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    pg.primaryKey({ columns: [t.importId, t.line] }),
    pg.check(
      'import_rows_result_known',
      sql`${t.result} in ('create','update','unchanged','error','skipped')`,
    ),
    pg.index('import_rows_result_idx').on(t.importId, t.result, t.line),
  ],
);
