import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors';

/** How many expensive reads one user may have in flight at once (decision 0036). */
export const EXPENSIVE_READS_PER_USER = 2;

export const TOO_MANY_READS =
  'Too many searches, reports or exports at once; wait for the last one to finish.';

/**
 * The expensive reads each user has in flight on this server: searches of the catalogue and the
 * whole catalogue, reports and CSV exports, each of which can keep a connection and a processor
 * busy for far longer than a sale. One user (the lowest role can search) holding several at once
 * slowed every counter of the store; a third at once is refused with 429 instead, and other users
 * keep their own. Per process: with several servers each counts its own.
 */
export class ExpensiveReads {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly perUser = EXPENSIVE_READS_PER_USER) {}

  /** Takes one of the user's slots: the function that gives it back (once), or undefined when all are taken. */
  take(userId: string): (() => void) | undefined {
    const held = this.inFlight.get(userId) ?? 0;
    if (held >= this.perUser) return undefined;
    this.inFlight.set(userId, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.inFlight.get(userId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(userId, left);
      else this.inFlight.delete(userId);
    };
  }

  /** How many the user has in flight. */
  held(userId: string): number {
    return this.inFlight.get(userId) ?? 0;
  }
}

/** Whether a request is an expensive read: any list as CSV, or what its route's config says. */
export function isExpensiveRead(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (query.format === 'csv') return true;
  const expensive = request.routeOptions.config.expensiveRead;
  return typeof expensive === 'function' ? expensive(query) : expensive === true;
}

/**
 * For an expensive read, takes one of the caller's slots until the answer is sent or its
 * connection closes (a stream too), or refuses with 429. Called once the token is verified and
 * before anything is asked of the database, so a refusal costs none of it.
 */
export function holdExpensiveRead(request: FastifyRequest, reply: FastifyReply, userId: string): void {
  if (!isExpensiveRead(request)) return;
  const release = request.server.expensiveReads.take(userId);
  if (!release) throw new AppError(429, TOO_MANY_READS);
  reply.raw.once('close', release);
}
