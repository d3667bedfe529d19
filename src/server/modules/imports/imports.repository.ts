import { and, count, desc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import {
  IMPORT_PREVIEW_CHARS,
  IMPORT_PREVIEW_ROWS,
  type Import,
  type ImportError,
  type ImportFileType,
  type ImportFormat,
  type ImportMapping,
  previewText,
} from '../../../shared/imports';
import type { Db, Runner } from '../../db/connection';
import { importRows, imports } from '../../db/schema';
import type { Actor } from '../audit/audit.repository';

/**
 * The catalogue import's tables (DESIGN §14). What each step leaves, so the others can rely on it:
 *
 * - upload: one `imports` row (status `uploaded`, `columns`, `rows`, the guessed `preset` and
 *   `mapping`; `format` is the file's type, csv or xlsx) and one
 *   `import_rows` row per non-blank data row, `line` its row in the file (header = 1), `cells` as
 *   uploaded (one per column, '' for a missing cell).
 * - check: `imports.mapping` (the one checked), `options` {matchBy, createMissing, stock},
 *   `summary`, `checked_at`, status `checked`; on every row `result`, `errors` ([] when none),
 *   `product_id` (the matched product for `update` and `unchanged`, else null) and `changes`
 *   ([{field, from, to, location?}] for `update`, else null); with a preset (DESIGN §22) also
 *   `translated` (the cells the preset made, which the apply reads instead of `cells`) and
 *   `warnings`, a row the preset skips being `skipped`; `imports.preset` the format checked. A
 *   new check replaces all of it.
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
    fileType: ImportFileType;
    /** DESIGN §22: the layout its rows are in; 'generic' unless given. */
    format?: ImportFormat;
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
        format: file.fileType,
        preset: file.format ?? 'generic',
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
    fileType: record.format as Import['fileType'],
    format: record.preset as Import['format'],
    status: record.status as Import['status'],
    rows: record.rows,
    columns: record.columns,
    mapping: record.mapping as Record<string, string>,
    options: (record.options as Import['options']) ?? null,
    // A summary stored before presets (DESIGN §22) counts no skipped rows.
    summary: record.summary
      ? {
          ...(record.summary as NonNullable<Import['summary']>),
          skipped: (record.summary as { skipped?: number }).skipped ?? 0,
        }
      : null,
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

/**
 * One page of the imports, newest first (imports_created_idx), with how many there are; `preview`
 * is [] in a list. Uploads cut off halfway (`rows` still 0, see startImport) are left out.
 */
export async function listImports(
  db: Db,
  window: { limit: number; offset: number },
): Promise<{ imports: Import[]; total: number }> {
  const finished = gt(imports.rows, 0);
  const [records, [counted]] = await Promise.all([
    db
      .select()
      .from(imports)
      .where(finished)
      .orderBy(desc(imports.createdAt), desc(imports.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: count() }).from(imports).where(finished),
  ]);
  return { imports: records.map((record) => importAnswer(record, [])), total: Number(counted?.total ?? 0) };
}

/**
 * The SQL of a row's cells (the text[] `cells`) as an answer echoes them: each cut in the database
 * one character past previewText's length, so no more than that leaves it and previewCells still
 * sees which are longer.
 */
export const previewCellsSql = (cells: string) =>
  `array(select left(c, ${IMPORT_PREVIEW_CHARS + 1}) from unnest(${cells}) with ordinality as u(c, i) order by i)`;

/** Cells read with previewCellsSql, cut as answers echo them. */
export const previewCells = (cells: readonly string[]) => cells.map(previewText);

/** The first rows' cells, each cut short, for the upload's preview. */
export async function importPreview(db: Db, id: string, limit: number): Promise<string[][]> {
  const rows = await db
    .select({ cells: sql<string[]>`${sql.raw(previewCellsSql('import_rows.cells'))}` })
    .from(importRows)
    .where(eq(importRows.importId, id))
    .orderBy(sql`${importRows.line}`)
    .limit(limit);
  return rows.map((row) => previewCells(row.cells));
}

// ---------------------------------------------------------------------------------------------
// The upload, row batch by row batch as the file is read (what createImport leaves, in steps)

/**
 * Starts an upload: the import without its rows (`rows` 0 until finishImport). Rows are added
 * batch by batch while the file is still arriving, each batch its own statement: a transaction
 * open for as long as a client takes to send 50 MB would hold a connection of a small pool (and
 * all of PGlite) that long. A failed upload drops its import (dropImport); an upload cut off by a
 * stopped server leaves an import whose `rows` is still 0, which no one was ever given the id of
 * (an upload of no rows is refused).
 */
export async function startImport(
  db: Db,
  file: {
    fileName: string;
    fileType: ImportFileType;
    format: ImportFormat;
    columns: string[];
    mapping: ImportMapping;
  },
  actor: Actor,
): Promise<string> {
  const [row] = await db
    .insert(imports)
    .values({
      fileName: file.fileName,
      format: file.fileType,
      preset: file.format,
      columns: file.columns,
      rows: 0,
      mapping: file.mapping,
      createdById: actor.id,
      createdByName: actor.name,
    })
    .returning({ id: imports.id });
  return (row as { id: string }).id;
}

/**
 * Adds a batch of rows in one statement with one parameter: the batch as JSON, unpacked by the
 * database. A statement with two parameters per row spends its time binding them.
 */
export async function addImportRows(
  db: Db,
  id: string,
  rows: readonly { line: number; cells: string[] }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`
    insert into import_rows (import_id, line, cells)
    select ${id}::uuid, r.line, array(select jsonb_array_elements_text(r.cells))
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(line integer, cells jsonb)`);
}

/** Ends an upload: the number of rows it holds. */
export async function finishImport(db: Db, id: string, rows: number): Promise<void> {
  await db.update(imports).set({ rows }).where(eq(imports.id, id));
}

/** Removes an upload that failed halfway, with its rows. */
export async function dropImport(db: Db, id: string): Promise<void> {
  await db.delete(imports).where(eq(imports.id, id));
}

/** The store's active locations, for a preset's per-location stock columns (DESIGN §17, §22). */
export async function activeLocations(
  runner: Pick<Runner, 'query'>,
): Promise<{ id: string; name: string }[]> {
  return runner.query<{ id: string; name: string }>(
    'select id, name from locations where active order by name, id',
  );
}

/** Whether the import's rows have been checked (a check gives every row a result). */
export async function importChecked(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .select({ line: importRows.line })
    .from(importRows)
    .where(and(eq(importRows.importId, id), isNotNull(importRows.result)))
    .limit(1);
  return row !== undefined;
}

/** The rows the check refused after line `after`, in line order, for the errors file. */
export async function importErrorRows(
  db: Db,
  id: string,
  after: number,
  limit: number,
): Promise<{ line: number; cells: string[]; errors: ImportError[] }[]> {
  const rows = await db
    .select({ line: importRows.line, cells: importRows.cells, errors: importRows.errors })
    .from(importRows)
    .where(and(eq(importRows.importId, id), eq(importRows.result, 'error'), gt(importRows.line, after)))
    .orderBy(importRows.line)
    .limit(limit);
  return rows.map((row) => ({ ...row, errors: (row.errors as ImportError[] | null) ?? [] }));
}
