import { type Sale, SaleResponse } from '../../../shared/sales';
import { ApiRequestError, api } from '../../lib/api';
import { isUnreachable } from '../../lib/connection';
import { getSession } from '../../lib/session';
import { count, firstWaiting, markAnswered, markRefused, type QueuedSale, type Refusal } from './queue';

/**
 * Sends a seller's offline sales (DESIGN §21): one tab at a time (a Web Lock), in the order they
 * were made, one at a time. Each sale is read afresh from the queue before it is sent, and leaves
 * it only with the server's answer stored (markAnswered). The server records an offline id once,
 * so a sale sent twice (an answer lost on the way) is answered 200 with the same sale.
 */

export const SENDER_LOCK = 'inventory-ms-offline-sender';

/** Sends one sale and answers the server's sale (201 or 200), or throws as `api` does. */
export type Send = (sale: QueuedSale) => Promise<Sale>;

/**
 * Why sending stopped: `done` (nothing waits), `unreachable` (no answer: the network), `server`
 * (502/503/504 or another 5xx, a 408 or a 429, or a success this page cannot read: later),
 * `signedOut` (401, or the session is not the seller's: kept for the seller's next sign-in),
 * `busy` (another tab sends), `storage` (the device's database failed: the sale stays waiting).
 */
export type StopReason = 'done' | 'unreachable' | 'server' | 'signedOut' | 'busy' | 'storage';

/** What one run did: sales recorded and refused, how many still wait (null: unreadable), why it stopped. */
export type SendReport = { sent: number; refused: number; waiting: number | null; stopped: StopReason };

/** What a failed send means for the sale: send it later (and stop now), or keep it refused. */
export type SendFailure = { stop: Exclude<StopReason, 'done' | 'busy'> } | { refusal: Refusal };

const SIGNED_OUT = 'Sign in again to send the sales kept on this device.';

/** POST /api/sales with the sale's stored body, as the signed-in seller (never as anyone else). */
export const defaultSend: Send = async (sale) => {
  // Another user signed in on this device: their token would make the sale theirs.
  if (getSession()?.user._id !== sale.sellerId) throw new ApiRequestError(SIGNED_OUT, 401);
  const { sale: recorded } = await api('/sales', { method: 'POST', body: sale.body, schema: SaleResponse });
  return recorded;
};

/** What a thrown send means (see StopReason); every other answer of the server refuses the sale. */
export function failureOf(error: unknown, now: Date = new Date()): SendFailure {
  // No answer (or a proxy's page for one): the reach state's own judgement.
  if (!(error instanceof ApiRequestError) || isUnreachable(error)) return { stop: 'unreachable' };
  const { status } = error;
  if (status === 401) return { stop: 'signedOut' };
  // A 2xx here is an answer that did not parse: the server recorded the sale; a later send gets it.
  if (status < 400 || status >= 500 || status === 408 || status === 429) return { stop: 'server' };
  const refusal: Refusal = { status, message: error.message, at: now.toISOString() };
  if (error.code !== undefined) refusal.code = error.code;
  return { refusal };
}

/** One lock over every tab of the origin, when the browser has Web Locks. */
type Locks = {
  request<T>(
    name: string,
    options: { ifAvailable: true },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>;
};

function locks(): Locks | undefined {
  return (globalThis.navigator as { locks?: Locks } | undefined)?.locks;
}

/** This tab's sending, when the browser has no Web Locks: one at a time here at least. */
let sendingHere = false;

/**
 * Sends the seller's waiting sales in order until none waits or one must wait (see StopReason):
 * 201/200 stores the answer, a refusal (409 OFFLINE_SOLD_AT, OFFLINE_ID_TAKEN, a 400, a 404…)
 * keeps the sale refused and goes on. Another tab sending already: `busy`, nothing sent.
 */
export async function sendWaiting(sellerId: string, send: Send = defaultSend): Promise<SendReport> {
  const manager = locks();
  if (manager) {
    return manager.request(SENDER_LOCK, { ifAvailable: true }, async (lock) =>
      lock ? sendInOrder(sellerId, send) : reportOf(sellerId, 0, 0, 'busy'),
    );
  }
  if (sendingHere) return reportOf(sellerId, 0, 0, 'busy');
  sendingHere = true;
  try {
    return await sendInOrder(sellerId, send);
  } finally {
    sendingHere = false;
  }
}

async function sendInOrder(sellerId: string, send: Send): Promise<SendReport> {
  let sent = 0;
  let refused = 0;
  const tried = new Set<string>();
  for (;;) {
    let next: QueuedSale | undefined;
    try {
      next = await firstWaiting(sellerId);
    } catch {
      return reportOf(sellerId, sent, refused, 'storage');
    }
    if (!next) return reportOf(sellerId, sent, refused, 'done');
    // Still first after its answer: the answer could not be taken off the queue.
    if (tried.has(next.id)) return reportOf(sellerId, sent, refused, 'storage');
    tried.add(next.id);

    let recorded: Sale;
    try {
      recorded = await send(next);
    } catch (error) {
      const failure = failureOf(error);
      if ('stop' in failure) return reportOf(sellerId, sent, refused, failure.stop);
      try {
        // false: no longer waiting (another sender took it meanwhile); the next read moves on.
        if (await markRefused(next.id, failure.refusal)) refused += 1;
      } catch {
        return reportOf(sellerId, sent, refused, 'storage');
      }
      continue;
    }
    try {
      if (await markAnswered(next.id, recorded)) sent += 1;
    } catch {
      // The server has it; the sale stays waiting, and sent again it is answered with the same sale.
      return reportOf(sellerId, sent, refused, 'storage');
    }
  }
}

async function reportOf(
  sellerId: string,
  sent: number,
  refused: number,
  stopped: StopReason,
): Promise<SendReport> {
  const left = await count(sellerId).catch(() => null);
  return { sent, refused, waiting: left, stopped };
}
