import { eq, sql } from 'drizzle-orm';
import {
  IMPORT_PREVIEW_ROWS,
  type Import,
  type ImportFormat,
  type ImportMapping,
} from '../../../shared/imports';
import type { Db } from '../../db/connection';
import { importRows, imports } from '../../db/schema';
import type { Actor } from '../audit/audit.repository';

/**
 * The catalogue import's tables (DESIGN §14). What each step leaves, so the others can rely on it:
 *
 * - upload: one `imports` row (status `uploaded`, `columns`, `rows`, the guessed `mapping`) and one
 *   `import_rows` row per non-blank data row, `line` its row in the file (header = 1), `cells` as
 *   uploaded (one per column, '' for a missing cell).
 * - check: `imports.mapping` (the one checked), `options` {matchBy, createMissing, stock},
 *   `summary`, `checked_at`, status `checked`; on every row `result`, `errors` ([] when none),
 *   `product_id` (the matched product for `update` and `unchanged`, else null) and `changes`
 *   ([{field, from, to}] for `update`, else null). A new check replaces all of it.
 * - apply: status `applying`, then, batch by batch in line order, each `create`/`update` row's
 *   product written together with its `applied_at` and the import's `processed` in one
 *   transaction; a row that fails at apply time becomes `error` with its message. Finally status
 *   `applied`, `summary` as applied, `applied_at`, and one audit entry.
 */

/** The rows inserted per statement at upload (each row's cells are one text[] parameter). */
export const UPLOAD_BATCH = 1000;

/** Creates an import with its rows (cells as uploaded); answers its id. */
export async function createImport(
  db: Db,
  file: {
    fileName: string;
    format: ImportFormat;
    columns: string[];
    mapping: ImportMapping;
    rows: { line: number; cells: string[] }[];
  },
  actor: Actor,
): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(imports)
      .values({
        fileName: file.fileName,
        format: file.format,
        columns: file.columns,
        rows: file.rows.length,
        mapping: file.mapping,
        createdById: actor.id,
        createdByName: actor.name,
      })
      .returning({ id: imports.id });
    const id = (row as { id: string }).id;
    for (let start = 0; start < file.rows.length; start += UPLOAD_BATCH) {
      const batch = file.rows.slice(start, start + UPLOAD_BATCH);
      await tx.insert(importRows).values(batch.map((r) => ({ importId: id, line: r.line, cells: r.cells })));
    }
    return id;
  });
}

type ImportRecord = typeof imports.$inferSelect;

/** An import as answered, with the first rows' cells (`preview`). */
export function importAnswer(record: ImportRecord, preview: string[][]): Import {
  const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());
  return {
    _id: record.id,
    fileName: record.fileName,
    format: record.format as Import['format'],
    status: record.status as Import['status'],
    rows: record.rows,
    columns: record.columns,
    mapping: record.mapping as Record<string, string>,
    options: (record.options as Import['options']) ?? null,
    summary: (record.summary as Import['summary']) ?? null,
    processed: record.processed,
    total: record.rows,
    failure: record.failure,
    preview,
    createdAt: new Date(record.createdAt).toISOString(),
    createdBy: { _id: record.createdById, name: record.createdByName },
    checkedAt: iso(record.checkedAt),
    appliedAt: iso(record.appliedAt),
  };
}

/** The import, or undefined when there is none with this id (the caller checks the id's form). */
export async function findImport(db: Db, id: string): Promise<Import | undefined> {
  const [record] = await db.select().from(imports).where(eq(imports.id, id));
  return record ? importAnswer(record, await importPreview(db, id, IMPORT_PREVIEW_ROWS)) : undefined;
}

/** The first rows' cells, for the upload's preview. */
export async function importPreview(db: Db, id: string, limit: number): Promise<string[][]> {
  const rows = await db
    .select({ cells: importRows.cells })
    .from(importRows)
    .where(eq(importRows.importId, id))
    .orderBy(sql`${importRows.line}`)
    .limit(limit);
  return rows.map((row) => row.cells);
}
