import type { FastifyReply, FastifyRequest } from 'fastify';
import { refusalSentence } from '../../shared/refusals';
import { refuse } from './errors';

/**
 * How many expensive reads of one user run at once, how many more may wait for their turn, and
 * for how long (decision 0036).
 */
export const EXPENSIVE_READ_LIMITS = { running: 2, waiting: 8, waitMs: 10_000 };

export const TOO_MANY_READS = refusalSentence('BUSY');

type UserReads = { running: number; waiting: Array<() => void> };

/**
 * The expensive reads each user has on this server: searches of the catalogue and the whole
 * catalogue, reports and CSV exports, each of which can keep a connection and a processor busy
 * far longer than a sale. One user (the lowest role can search) running several at once slowed
 * every counter of the store. A user's reads run `running` at once; the next ones wait their turn
 * (costing no processor time, so a client that asks again and again is slowed, not answered
 * faster), and one that finds `waiting` already waiting, or waits past `waitMs`, is refused
 * (429). Other users keep their own. Per process: with several servers each counts its own.
 */
export class ExpensiveReads {
  private readonly users = new Map<string, UserReads>();

  constructor(readonly limits = EXPENSIVE_READ_LIMITS) {}

  /**
   * Waits for one of the user's slots: answers the function that gives it back (once), or
   * undefined when refused. `gone` ends a wait early (the caller hung up), refused too.
   */
  take(userId: string, gone?: Promise<void>): Promise<(() => void) | undefined> {
    const user = this.users.get(userId) ?? { running: 0, waiting: [] };
    this.users.set(userId, user);
    if (user.running < this.limits.running) {
      user.running++;
      return Promise.resolve(this.giveBack(userId, user));
    }
    if (user.waiting.length >= this.limits.waiting) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      let settled = false;
      const turn = () => {
        settled = true;
        clearTimeout(timer);
        user.running++;
        resolve(this.giveBack(userId, user));
      };
      const leave = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        user.waiting.splice(user.waiting.indexOf(turn), 1);
        this.forget(userId, user);
        resolve(undefined);
      };
      const timer = setTimeout(leave, this.limits.waitMs);
      user.waiting.push(turn);
      void gone?.then(leave);
    });
  }

  /** How many of the user's reads run, and how many wait. */
  of(userId: string): { running: number; waiting: number } {
    const user = this.users.get(userId);
    return { running: user?.running ?? 0, waiting: user?.waiting.length ?? 0 };
  }

  /** The slot's release: the next waiting read of the user takes it. */
  private giveBack(userId: string, user: UserReads): () => void {
    let given = false;
    return () => {
      if (given) return;
      given = true;
      user.running--;
      const next = user.waiting.shift();
      if (next) next();
      else this.forget(userId, user);
    };
  }

  private forget(userId: string, user: UserReads): void {
    if (user.running === 0 && user.waiting.length === 0) this.users.delete(userId);
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
 * For an expensive read, waits for one of the caller's slots and holds it until the answer is
 * sent or its connection closes (a stream too), or refuses with 429. Called once the token is
 * verified and before anything is asked of the database, so a wait or a refusal costs none of it.
 */
export async function holdExpensiveRead(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  if (!isExpensiveRead(request)) return;
  const closed = new Promise<void>((resolve) => reply.raw.once('close', () => resolve()));
  const release = await request.server.expensiveReads.take(userId, closed);
  if (!release) throw refuse('BUSY');
  void closed.then(release);
}
