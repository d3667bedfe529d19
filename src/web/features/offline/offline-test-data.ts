import { IDBFactory } from 'fake-indexeddb';
import { closeOfflineDatabase, type OfflineSaleBody } from './database';

/**
 * The offline tests' helpers (not part of the app): an empty browser database per test, a sale's
 * body, a Web Locks stand-in and a promise the test settles.
 */

/** Closes this tab's connection and gives the test an empty browser database of its own. */
export async function freshDatabase(): Promise<void> {
  await closeOfflineDatabase();
  Object.assign(globalThis, { indexedDB: new IDBFactory() });
}

/** A valid offline sale's body: 2 × $1.35 in cash, sold at `soldAt`. */
export function offlineBody(
  id: string = crypto.randomUUID(),
  soldAt = '2026-12-03T14:05:00+01:00',
  deviceNumber = 'T1-K7Q2-000001',
): OfflineSaleBody {
  return {
    lines: [{ productId: 'p1', quantity: 2, unitPrice: 1.35 }],
    payment: { method: 'cash' },
    total: 2.7,
    offline: { id, soldAt, deviceNumber },
  };
}

/**
 * navigator.locks as one origin has it, for tabs in one test: a lock held by one request is
 * refused (null) to an `ifAvailable` request meanwhile. A request that would wait fails loudly.
 */
export function fakeLocks() {
  const held = new Set<string>();
  const requests: { name: string; options: unknown }[] = [];
  return {
    requests,
    async request<T>(
      name: string,
      options: { ifAvailable?: boolean },
      callback: (lock: { name: string } | null) => Promise<T>,
    ): Promise<T> {
      requests.push({ name, options });
      if (held.has(name)) {
        if (options?.ifAvailable) return callback(null);
        throw new Error(`the lock ${name} is held: a request that waits is not expected`);
      }
      held.add(name);
      try {
        return await callback({ name });
      } finally {
        held.delete(name);
      }
    },
  };
}

/** Puts `locks` on navigator (happy-dom has none); answers how to take it off. */
export function installLocks(locks: object): () => void {
  Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
  return () => {
    delete (navigator as { locks?: unknown }).locks;
  };
}

/** A promise and its resolve, for a send the test lets finish when it chooses. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
