import { useEffect, useSyncExternalStore } from 'react';
import { count, refused } from './queue';
import { type SendReport, sendWaiting } from './sender';

/**
 * The signed-in seller's outbox of offline sales (DESIGN §21), as the screens show it: how many
 * wait on this device and how many the server refused, and the sending, which the app's frame
 * runs (useSendingOutbox) whatever screen is open: now, every SEND_EVERY_MS while some wait, when
 * the browser finds its network again, and when the counter keeps a sale.
 */

export const SEND_EVERY_MS = 15_000;

export type Outbox = {
  sellerId: string | null;
  /** Sales waiting to be sent; null until read (or when the device's database cannot be read). */
  waiting: number | null;
  refused: number;
  sending: boolean;
  /** The last run's report, or null before one ran. */
  last: SendReport | null;
};

let outbox: Outbox = { sellerId: null, waiting: null, refused: 0, sending: false, last: null };
const listeners = new Set<() => void>();

function set(change: Partial<Outbox>) {
  outbox = { ...outbox, ...change };
  for (const listener of listeners) listener();
}

export function useOutbox(): Outbox {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => outbox,
    () => outbox,
  );
}

/** The outbox shows this seller's counts (or nobody's yet: the first to read takes it). */
function isTheSeller(sellerId: string): boolean {
  return outbox.sellerId === null || outbox.sellerId === sellerId;
}

/** Reads the seller's counts from the device again (after a sale was kept, after a send). */
export async function recount(sellerId: string): Promise<void> {
  try {
    const [waitingNow, refusedNow] = await Promise.all([count(sellerId), refused(sellerId)]);
    if (isTheSeller(sellerId)) set({ sellerId, waiting: waitingNow, refused: refusedNow.length });
  } catch {
    if (isTheSeller(sellerId)) set({ sellerId, waiting: null });
  }
}

let running: Promise<SendReport | null> | null = null;

/**
 * Sends the seller's waiting sales now (one run at a time in this tab; sendWaiting makes it one
 * tab at a time). Not while the browser says it has no network: the `online` event comes first.
 */
export function sendNow(sellerId: string): Promise<SendReport | null> {
  if (running) return running;
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return Promise.resolve(null);
  set({ sending: true });
  const run = sendWaiting(sellerId)
    .then((report) => {
      if (isTheSeller(sellerId)) set({ sellerId, last: report });
      return report;
    })
    .catch(() => null)
    .finally(async () => {
      running = null;
      set({ sending: false });
      await recount(sellerId);
    });
  running = run;
  return run;
}

/**
 * The frame's sender for the signed-in seller (null: nobody signed in). Switching seller starts
 * over with that seller's counts: one seller's sales are never sent with another's sign-in.
 */
export function useSendingOutbox(sellerId: string | null): void {
  useEffect(() => {
    set({ sellerId, waiting: null, refused: 0, last: null });
    if (sellerId === null) return;
    let stopped = false;
    const tryNow = () => {
      if (!stopped && (outbox.waiting ?? 1) > 0) void sendNow(sellerId);
    };
    void recount(sellerId).then(tryNow);
    const timer = window.setInterval(tryNow, SEND_EVERY_MS);
    window.addEventListener('online', tryNow);
    return () => {
      stopped = true;
      window.clearInterval(timer);
      window.removeEventListener('online', tryNow);
    };
  }, [sellerId]);
}
