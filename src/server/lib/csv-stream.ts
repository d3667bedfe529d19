import { Readable } from 'node:stream';
import type { AnyColumn, SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { CSV_TYPE, type CsvValue, csvRow } from '../../shared/csv';

/** Rows of one batch and where the next batch starts (undefined: this was the last). */
export type CsvBatch<Cursor> = { rows: CsvValue[][]; next?: Cursor };

/** Rows read per statement: large enough that the statements cost little, small enough to hold. */
export const CSV_BATCH = 5000;

/**
 * Sends a CSV answer that streams (DESIGN §10): the header row, then the batches that `read`
 * answers one after another, each asked for only when the client has taken the one before, so a
 * million rows never sit in memory. `read` reads a batch after its cursor (keyset paging, no
 * offset), so each batch costs the same however deep the export is. Batches are separate
 * statements: a row written during a long export may or may not be in it, as with any list.
 */
export function sendCsv<Cursor>(
  reply: FastifyReply,
  filename: string,
  header: readonly string[],
  read: (after: Cursor | undefined) => Promise<CsvBatch<Cursor>>,
): FastifyReply {
  async function* lines() {
    yield csvRow(header);
    let after: Cursor | undefined;
    do {
      const batch = await read(after);
      if (batch.rows.length > 0) yield batch.rows.map(csvRow).join('');
      after = batch.next;
    } while (after !== undefined);
  }
  return reply
    .header('content-type', CSV_TYPE)
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .send(Readable.from(lines(), { objectMode: false }));
}

/** Where a newest-first export stopped: the last row's time and id. */
export type NewestCursor = { at: string; id: string };

/** Rows after `after` in newest-first order (time desc, id desc), the lists' index order. */
export function olderThan(at: AnyColumn, id: AnyColumn, after: NewestCursor | undefined): SQL | undefined {
  return after ? sql`(${at}, ${id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined;
}

/** The cursor after a batch of `size` newest-first rows, or undefined when it was the last. */
export function nextNewest<Row>(
  rows: Row[],
  size: number,
  key: (row: Row) => { at: Date | string; id: string },
): NewestCursor | undefined {
  const last = rows.at(-1);
  if (!last || rows.length < size) return undefined;
  const { at, id } = key(last);
  return { at: new Date(at).toISOString(), id };
}
