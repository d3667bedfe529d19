import { useSyncExternalStore } from 'react';
import { ApiRequestError } from './api-error';

/**
 * Whether the server can be reached (DESIGN §21: the counter then sells offline): the browser
 * says it has no network, or the last call to the server got no answer (or a 502, 503 or 504
 * from what stands before it) and none has been answered since. api.ts reports every call, so
 * the counter, its banner and the sender agree without asking the server themselves.
 */

const AWAY = [502, 503, 504];

/**
 * No answer from the server: the network, or a proxy saying the server is away (its own page,
 * not our sentence: the server's own 503, a search that ran too long, is an answer).
 */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  return error.status === 0 || (AWAY.includes(error.status) && error.withoutSentence);
}

const listeners = new Set<() => void>();
let unanswered = false;

function emit() {
  for (const listener of listeners) listener();
}

/** While unanswered, the server is asked this often whether it is back (the network alone says nothing). */
export const PROBE_EVERY_MS = 10_000;
let probe: ReturnType<typeof setInterval> | null = null;

/** What a call to the server came to: unreachable (see isUnreachable) or answered. */
export function reportReach(outcome: 'unreachable' | 'answered'): void {
  const next = outcome === 'unreachable';
  if (next === unanswered) return;
  unanswered = next;
  if (unanswered) startProbe();
  else stopProbe();
  emit();
}

/**
 * Asks /api/health until the server answers, so a counter with nothing to send finds out that it
 * is back: a 2xx to 4xx answer of ours is an answer; no answer or a proxy's 502–504 is not.
 */
function startProbe() {
  if (probe !== null || typeof window === 'undefined') return;
  probe = setInterval(() => {
    if (browserOffline()) return;
    fetch('/api/health', { cache: 'no-store' })
      .then((answer) => {
        if (!AWAY.includes(answer.status)) reportReach('answered');
      })
      .catch(() => undefined);
  }, PROBE_EVERY_MS);
}

function stopProbe() {
  if (probe === null) return;
  clearInterval(probe);
  probe = null;
}

function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** True while the server cannot be reached: the counter sells offline. */
export function isOffline(): boolean {
  return unanswered || browserOffline();
}

/** Called whenever the state may have changed (the server's answer, the browser's network). */
export function subscribeReach(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export function useOffline(): boolean {
  return useSyncExternalStore(subscribeReach, isOffline, () => false);
}

/** For tests: back to "answered", without a probe. */
export function resetReach(): void {
  unanswered = false;
  stopProbe();
  emit();
}
