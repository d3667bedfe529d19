import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';

/** Items of one batch as JSON texts, and where the next batch starts (undefined: this was the last). */
export type JsonBatch<Cursor> = { items: string[]; next?: Cursor };

/**
 * Items read per statement. On the embedded database every statement runs on the server's own
 * thread, so a batch stays small (100 rows: a few milliseconds); PostgreSQL runs them elsewhere,
 * and there round trips cost more than rows (100 a batch made the whole catalogue several times
 * slower than one statement), so a batch is larger.
 */
export function jsonBatchFor(database: { kind: 'pglite' | 'postgres' }): number {
  return database.kind === 'pglite' ? 100 : 1000;
}

/**
 * Sends a whole list as one JSON answer that streams: `head` (the text up to the list's opening
 * bracket, e.g. `{"success":true,"products":[`), the items of the batches that `read` answers
 * one after another, then what `tail` answers once the count is known (from the closing bracket
 * on). Each batch is read by keyset after the last one's cursor and only when the client has
 * taken the one before, so memory stays flat however long the list; between batches the server
 * answers other requests (on the embedded database every statement runs on this thread, so a
 * single statement for 50,000 products held it for seconds).
 *
 * Like sendJsonText, the text bypasses the route's serializer: the route's tests hold it to the
 * response schema.
 */
export function sendJsonList<Cursor>(
  reply: FastifyReply,
  head: string,
  read: (after: Cursor | undefined) => Promise<JsonBatch<Cursor>>,
  tail: (count: number) => Promise<string>,
): FastifyReply {
  async function* chunks() {
    yield head;
    let count = 0;
    let after: Cursor | undefined;
    do {
      const batch = await read(after);
      if (batch.items.length > 0) {
        yield `${count > 0 ? ',' : ''}${batch.items.join(',')}`;
        count += batch.items.length;
      }
      after = batch.next;
      if (after !== undefined) await nextTurn();
    } while (after !== undefined);
    yield await tail(count);
  }
  return reply.type('application/json; charset=utf-8').send(Readable.from(chunks(), { objectMode: false }));
}
