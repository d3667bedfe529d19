import { useEffect, useRef, useState } from 'react';
import type { Product } from '../../../shared/products';
import type { StoreSettings } from '../../../shared/store';
import type { RegisterSession } from '../../../shared/till';
import { useOffline } from '../../lib/connection';
import { type CounterKit, keepKit, kitOf, productsLeft, readKit } from './kit';
import { useOutbox } from './outbox';
import { type QueuedSale, waiting } from './queue';

/**
 * While online the kit is read again this often (prices, stock), and at once on coming back: the
 * whole location's catalogue, so not much more often (at 100k products it is tens of megabytes).
 */
export const KIT_EVERY_MS = 10 * 60_000;

/**
 * The seller's counter kit (DESIGN §21): the one kept on this device at once, then read from the
 * server while online (for `session`, the counter's open session) and kept again. A failed read
 * keeps the kit there was, quietly: the counter sells from it offline. `products` are the kit's
 * with the stock left after the sales kept on this device since it was read.
 */
export function useCounterKit(
  sellerId: string,
  session: RegisterSession | null,
  /** The store's settings as the counter last read them (null: not read). */
  store: StoreSettings | null,
): { kit: CounterKit | null; products: Product[] | null } {
  const offline = useOffline();
  const [kit, setKit] = useState<CounterKit | null>(null);
  const [kept, setKept] = useState<QueuedSale[]>([]);
  const { waiting: waitingCount } = useOutbox();

  useEffect(() => {
    let current = true;
    kitOf(sellerId)
      .then((found) => {
        if (current && found) setKit((now) => now ?? found);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [sellerId]);

  // The session as last answered; a refetch of the same session is no reason to read the kit again.
  const sessionNow = useRef(session);
  sessionNow.current = session;
  const storeNow = useRef(store);
  storeNow.current = store;
  const sessionId = session?._id ?? null;
  const storeRead = store !== null;
  useEffect(() => {
    if (offline || sessionId === null || !storeRead) return;
    let current = true;
    const refresh = () => {
      const open = sessionNow.current;
      const settings = storeNow.current;
      if (!open || !settings) return Promise.resolve();
      return readKit(sellerId, open, settings)
        .then(async (fresh) => {
          if (!current) return;
          setKit(fresh);
          await keepKit(fresh);
        })
        .catch(() => undefined);
    };
    void refresh();
    const timer = window.setInterval(refresh, KIT_EVERY_MS);
    return () => {
      current = false;
      window.clearInterval(timer);
    };
  }, [sellerId, sessionId, offline, storeRead]);

  // The sales kept since: read again whenever the outbox's count moves (a sale kept, one sent).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the count is the signal to read again
  useEffect(() => {
    let current = true;
    waiting(sellerId)
      .then((sales) => {
        if (current) setKept(sales);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [sellerId, waitingCount]);

  return { kit, products: kit ? productsLeft(kit, kept) : null };
}
