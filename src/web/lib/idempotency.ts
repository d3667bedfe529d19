import { isUnreachable } from './connection';

/**
 * One Idempotency-Key per submit (DESIGN §8): the same submit sent again — a retry after a
 * network error or a double click — carries the same key, so the server acts once; a submit of
 * something else gets a new key. Forget the key once the answer is in.
 */
/** A submit sent without an answer, and its key: what a retry must send again. */
export type UnansweredSubmit = { body: string; key: string };

export function idempotencyKeys(newKey: () => string = () => crypto.randomUUID()) {
  let last: UnansweredSubmit | null = null;
  return {
    /** The key for this submit: the previous one when the same thing is sent again. */
    keyFor(submitted: unknown): string {
      const body = JSON.stringify(submitted);
      if (last?.body !== body) last = { body, key: newKey() };
      return last.key;
    },
    /**
     * The call ended. After an answer (success or refusal) the next submit is a new one, even of
     * the same thing; after no answer at all the work may have been done, so a retry keeps the key.
     */
    settled(error?: unknown): void {
      // No answer (or a proxy's 502–504): the server may have done it, so a retry keeps the key.
      if (isUnreachable(error)) return;
      last = null;
    },
    /** The submit still waiting for an answer (its key), or null: kept by a screen that outlives a reload. */
    unanswered(): UnansweredSubmit | null {
      return last;
    },
    /** Takes back an unanswered submit kept from earlier, so its retry after a reload has the same key. */
    restore(unanswered: UnansweredSubmit | null): void {
      last = unanswered;
    },
  };
}

export type IdempotencyKeys = ReturnType<typeof idempotencyKeys>;
