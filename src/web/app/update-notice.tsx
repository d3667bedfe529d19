import { useSyncExternalStore } from 'react';
import { PRODUCT_NAME } from '../../shared/product';
import { buttonClass } from '../components/button';

/**
 * A new version of the app waiting to take over (service-worker.ts offers it). It takes over
 * only when the user says so: a seller may be mid-sale, and a reload would drop the cart.
 */
type Offer = { reload: () => void };

const listeners = new Set<() => void>();
let offer: Offer | null = null;

function emit() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => offer;

/** Asks the user to reload into the new version; `reload` does it. */
function offerNewVersion(reload: () => void): void {
  offer = { reload };
  emit();
}

/**
 * What the service worker's registration (service-worker.ts) calls, given its `takeOver` (which
 * tells the waiting version to take over). Once a new version has taken over, by this tab's
 * Reload or another tab's, the tab that asked reloads; any other keeps its page and asks again,
 * since a seller there may be mid-sale.
 */
export function newVersionHandlers(takeOver: () => Promise<void>) {
  let reloadAsked = false;
  return {
    onNeedRefresh: () =>
      offerNewVersion(() => {
        reloadAsked = true;
        void takeOver();
      }),
    onNeedReload: () => {
      if (reloadAsked) window.location.reload();
      else offerNewVersion(() => window.location.reload());
    },
  };
}

/** "Later": the new version waits; the next time the app opens it asks again. */
function putOff(): void {
  offer = null;
  emit();
}

/**
 * The question, while a new version waits. Polite: it does not take the focus or interrupt a
 * screen reader, and both answers are plain buttons.
 */
export function UpdateNotice() {
  const waiting = useSyncExternalStore(subscribe, current, current);
  if (!waiting) return null;
  return (
    <div className="pointer-events-auto flex w-full max-w-sm flex-wrap items-center gap-3 rounded-lg border border-indigo-200 bg-white px-4 py-3 text-sm text-slate-800 shadow-lg">
      <p role="status" className="min-w-0 flex-1">
        A new version of {PRODUCT_NAME} is ready.
      </p>
      <div className="flex gap-2">
        <button type="button" onClick={waiting.reload} className={buttonClass('primary', 'sm')}>
          Reload
        </button>
        <button type="button" onClick={putOff} className={buttonClass('secondary', 'sm')}>
          Later
        </button>
      </div>
    </div>
  );
}
