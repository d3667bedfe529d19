import { Readable } from 'node:stream';
import type { AnyColumn, SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { CSV_TYPE, type CsvValue, csvCell } from '../../shared/csv';
import { can, type Role } from '../../shared/roles';
import { forbidden } from './errors';

/**
 * Rows of one batch and where the next batch starts (undefined: this was the last). A large
 * export writes its rows to the batch's CsvWriter as the database hands them over instead
 * (Database.eachRow), and answers no rows here.
 */
export type CsvBatch<Cursor> = { rows: CsvValue[][]; next?: Cursor };

/**
 * Refuses a list's CSV export (403) to a role without exports:read: an export streams every row
 * of a list, which is admin work, not something the lowest role may start at will.
 */
export function checkMayExport(role: Role): void {
  if (!can(role, 'exports:read')) throw forbidden('Only an admin may export lists.');
}

/** Rows read per statement: large enough that the statements cost little, small enough to hold. */
export const CSV_BATCH = 5000;

/** Bytes a CsvWriter fills before it starts the next chunk. */
const CSV_CHUNK = 64 * 1024;

/**
 * CSV rows (csvCell's rules, as csvRow writes them) written as UTF-8 into chunks of 64 kB, cell
 * by cell: no string per row or per batch to build and then encode again (each cell is encoded
 * straight into the chunk), and no buffer that grows by copies.
 */
export class CsvWriter {
  private readonly done: Buffer[] = [];
  private chunk = Buffer.allocUnsafe(CSV_CHUNK);
  private at = 0;

  row(values: readonly CsvValue[]): void {
    for (let i = 0; i < values.length; i++) {
      const cell = csvCell(values[i]);
      // At most 3 bytes per UTF-16 unit, and a comma.
      this.room(cell.length * 3 + 1);
      if (i > 0) this.chunk[this.at++] = 0x2c;
      this.at += this.chunk.write(cell, this.at);
    }
    this.room(2);
    this.chunk[this.at++] = 0x0d;
    this.chunk[this.at++] = 0x0a;
  }

  /** The bytes written since the last call, in chunks. */
  take(): Buffer[] {
    if (this.at > 0) this.next(CSV_CHUNK);
    return this.done.splice(0);
  }

  /** Starts a new chunk when this one has less than `bytes` left. */
  private room(bytes: number): void {
    if (this.at + bytes > this.chunk.length) this.next(Math.max(CSV_CHUNK, bytes));
  }

  private next(bytes: number): void {
    if (this.at > 0) this.done.push(this.chunk.subarray(0, this.at));
    this.chunk = Buffer.allocUnsafe(bytes);
    this.at = 0;
  }
}

/**
 * Sends a CSV answer that streams (DESIGN §10): the header row, then the batches that `read`
 * answers one after another, each asked for only when the client has taken the one before, so a
 * million rows never sit in memory. `read` reads a batch after its cursor (keyset paging, no
 * offset), so each batch costs the same however deep the export is. Batches are separate
 * statements: a row written during a long export may or may not be in it, as with any list.
 *
 * Batches go out as the chunks of one CsvWriter: `read` writes its rows there as they arrive (a
 * large export) or answers them (the rest). Rows handed over one by one die young; read 5,000 at a
 * time as objects and joined into strings, they lived through young-generation collections and
 * piled up in the old generation: a million orders grew the server by 120–130 MB.
 */
export function sendCsv<Cursor>(
  reply: FastifyReply,
  filename: string,
  header: readonly string[],
  read: (after: Cursor | undefined, out: CsvWriter) => Promise<CsvBatch<Cursor>>,
): FastifyReply {
  const out = new CsvWriter();
  const chunksOf = async (after: Cursor | undefined) => {
    const batch = await read(after, out);
    for (const row of batch.rows) out.row(row);
    return { chunks: out.take(), next: batch.next };
  };
  async function* chunks() {
    out.row(header);
    let after: Cursor | undefined;
    do {
      const batch = await chunksOf(after);
      yield* batch.chunks;
      after = batch.next;
    } while (after !== undefined);
  }
  return reply
    .header('content-type', CSV_TYPE)
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .send(Readable.from(chunks(), { objectMode: false }));
}

/**
 * Where a newest-first export stopped: the last row's time as the database holds it (to the
 * microsecond, from exactTime) and its id. A time cut to the millisecond (a JavaScript Date) would
 * skip the rows that share the last row's millisecond but not its microseconds.
 */
export type NewestCursor = { at: string; id: string };

/** A time column as text to the microsecond, for a cursor: select it beside the row. */
export function exactTime(at: AnyColumn): SQL<string> {
  return sql<string>`${at}::text`;
}

/** Rows after `after` in newest-first order (time desc, id desc), the lists' index order. */
export function olderThan(at: AnyColumn, id: AnyColumn, after: NewestCursor | undefined): SQL | undefined {
  return after ? sql`(${at}, ${id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined;
}

/**
 * The cursor after a batch of `size` newest-first rows, or undefined when it was the last. `key`
 * gives a row's exactTime and id.
 */
export function nextNewest<Row>(
  rows: Row[],
  size: number,
  key: (row: Row) => NewestCursor,
): NewestCursor | undefined {
  const last = rows.at(-1);
  if (!last || rows.length < size) return undefined;
  return key(last);
}
