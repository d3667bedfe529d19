import { useEffect, useRef } from 'react';

/** How often an open counter reads the store's settings and its cart's products again. */
export const COUNTER_REREAD_MS = 30_000;

/**
 * Runs `reread` when the counter comes back into view (its window gets the focus, its tab is
 * shown) and every COUNTER_REREAD_MS while it is shown, one at a time: an admin's change of prices,
 * rates or "prices include tax" reaches an open counter within seconds, not at the next reload.
 * A hidden tab reads nothing; the server's total check (TOTAL_CHANGED) covers what falls between.
 */
export function useRereadWhileOpen(reread: () => Promise<void>): void {
  const latest = useRef(reread);
  useEffect(() => {
    latest.current = reread;
  }, [reread]);
  useEffect(() => {
    let running = false;
    const now = () => {
      if (running || document.visibilityState === 'hidden') return;
      running = true;
      void latest.current().finally(() => {
        running = false;
      });
    };
    window.addEventListener('focus', now);
    document.addEventListener('visibilitychange', now);
    const timer = setInterval(now, COUNTER_REREAD_MS);
    return () => {
      window.removeEventListener('focus', now);
      document.removeEventListener('visibilitychange', now);
      clearInterval(timer);
    };
  }, []);
}
