import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER, IdempotencyKey } from '../../shared/stock';
import { runnerOf, type Tx } from '../db/connection';
import { checkSignedInUser } from './auth';
import { AppError, appErrorBody, badRequest, businessError, pgCode, refuse } from './errors';

/** How long a key's first answer is kept and replayed. */
const KEEP_HOURS = 24;

/** What a route answers: the status and the body it sends. */
export type Answer = { status: number; body: unknown };

const CLAIM = `
  insert into idempotency_keys (user_id, key, request_hash) values ($1, $2, $3)
  on conflict (user_id, key) do update
    set request_hash = excluded.request_hash, status = null, body = null, created_at = now()
    where idempotency_keys.created_at < now() - interval '${KEEP_HOURS} hours'
  returning 1 as claimed`;

/** A request's fingerprint: the same key with a different request is refused, not replayed. */
function fingerprint(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url} ${JSON.stringify(request.params)} `)
    .update(JSON.stringify(request.body ?? null))
    .digest('hex');
}

/**
 * Answers that a retry may get again; a refused sign-in, role or approval (401, 403) and a
 * throttled one (429) must be tried afresh.
 */
const replayable = (status: number) => status < 500 && status !== 401 && status !== 403 && status !== 429;

/** How many times a write is run when PostgreSQL picks it as a deadlock's victim. */
const DEADLOCK_ATTEMPTS = 3;

/**
 * Runs `work` again when PostgreSQL broke a deadlock by failing it (40P01) or could not serialise
 * it (40001): either way the whole transaction was rolled back, nothing of it stayed, and trying
 * again is what the server recommends. The stock writers take their rows in one order (decision
 * 0016), so this is a safety net, not the way they meet.
 */
export async function retryingDeadlocks<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = pgCode(error);
      if (attempt >= DEADLOCK_ATTEMPTS || (code !== '40P01' && code !== '40001')) throw error;
    }
  }
}

/**
 * Runs a write once per Idempotency-Key (DESIGN §8) and sends its answer. A write that lost a
 * deadlock is run again (retryingDeadlocks), with its key's claim, since both were undone.
 *
 * Without the header `work` runs in a transaction of its own. With it, the key is claimed in the
 * same transaction as the work, so the key exists exactly when the work was done: a concurrent
 * request with the same key waits on the claim until the first commits, then replays its answer;
 * a request after a failure that rolled back finds no key and does the work. A business refusal
 * (400, 404, 409) is kept and replayed like a success, with the work's own writes undone.
 */
export async function answerOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Tx) => Promise<Answer>,
  /** The way without a key, when it is cheaper than a transaction (one statement on the pool). */
  withoutKey: () => Promise<Answer> = () => request.server.db.transaction(work),
): Promise<FastifyReply> {
  const header = request.headers[IDEMPOTENCY_HEADER];
  const db = request.server.db;
  if (header === undefined) {
    const answer = await retryingDeadlocks(withoutKey);
    return reply.code(answer.status).send(answer.body);
  }
  const key = IdempotencyKey.safeParse(header);
  if (!key.success) throw badRequest('Idempotency-Key must be 1 to 200 visible ASCII characters.');
  // A replay answers without the route's own statement, so the user is checked here first.
  const userId = (request.signedInChecked ? request.user : await checkSignedInUser(request))?.id;
  if (!userId) throw new AppError(401, 'Please sign in to continue.');
  const hash = fingerprint(request);

  const answer = await retryingDeadlocks(() =>
    db.transaction(async (tx) => {
      const run = runnerOf(tx);
      const claimed = await run.query(CLAIM, [userId, key.data, hash]);
      if (claimed.length === 0) {
        const [row] = await run.query<{ request_hash: string; status: number | null; body: string | null }>(
          'select request_hash, status, body from idempotency_keys where user_id = $1 and key = $2',
          [userId, key.data],
        );
        if (!row || row.status === null) throw refuse('IDEMPOTENCY_RUNNING');
        if (row.request_hash !== hash) throw refuse('IDEMPOTENCY_REUSED');
        return { status: row.status, body: row.body, replayed: true };
      }
      let done: Answer;
      try {
        done = await tx.transaction(work);
      } catch (thrown) {
        const error = businessError(thrown);
        if (!error || !replayable(error.status)) throw thrown;
        done = { status: error.status, body: appErrorBody(error) };
      }
      const body = JSON.stringify(done.body);
      await run.query('update idempotency_keys set status = $3, body = $4 where user_id = $1 and key = $2', [
        userId,
        key.data,
        done.status,
        body,
      ]);
      return { status: done.status, body, replayed: false };
    }),
  );
  if (answer.replayed) reply.header('idempotent-replay', 'true');
  return reply
    .code(answer.status)
    .type('application/json; charset=utf-8')
    .send(answer.body as string);
}
