import type { Sale } from '../../../shared/sales';
import { SaleInput } from '../../../shared/sales';
import {
  type AnsweredSale,
  type OfflineSaleBody,
  offlineDatabase,
  type QueuedSale,
  type Refusal,
} from './database';

export type { AnsweredSale, OfflineSaleBody, QueuedSale, Refusal } from './database';

/**
 * The queue of sales made offline (DESIGN §21), in IndexedDB: it survives a reload, a closed tab
 * and a restarted machine. A sale waits until the server's answer is stored (in the same
 * transaction that takes it off the queue), or until the server refuses it: then it stays on the
 * device, refused, for an admin to see, and is not sent again.
 */

/** A sale to keep: its offline id, seller and body; madeAt defaults to the body's soldAt. */
export type SaleToKeep = { id: string; sellerId: string; body: OfflineSaleBody; madeAt?: string };

/** A body the queue will not keep: its first problem in a sentence. */
export class UnkeepableSale extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnkeepableSale';
  }
}

/** The key range of one seller's sales in one state, in the order they were made. */
function ofSeller(sellerId: string, state: QueuedSale['state']): IDBKeyRange {
  return IDBKeyRange.bound([sellerId, state, -Infinity], [sellerId, state, Infinity]);
}

/**
 * Keeps a sale made offline, after the last one kept: one transaction draws its place and stores
 * it, so it is on the device once this resolves. The body is held to the shared SaleInput (a sale
 * the server would refuse for its shape is refused now, while the customer is still there).
 */
export async function keepSale(sale: SaleToKeep): Promise<QueuedSale> {
  const parsed = SaleInput.safeParse(sale.body);
  if (!parsed.success) throw new UnkeepableSale(parsed.error.issues[0]?.message ?? 'This sale is not valid.');
  if (sale.body.offline?.id !== sale.id)
    throw new UnkeepableSale('An offline sale is kept under its own offline id.');
  const database = await offlineDatabase();
  const transaction = database.transaction(['sales', 'answered', 'device'], 'readwrite');
  try {
    // Kept twice (a second click, a retry): the same id is one sale, never overwritten.
    if (await transaction.objectStore('answered').getKey(sale.id))
      throw new UnkeepableSale('This sale was already kept on this device.');
    const last = await transaction.objectStore('device').get('order');
    const order = (typeof last === 'number' ? last : 0) + 1;
    const kept: QueuedSale = {
      id: sale.id,
      sellerId: sale.sellerId,
      body: sale.body,
      madeAt: sale.madeAt ?? sale.body.offline.soldAt,
      order,
      state: 'waiting',
    };
    await transaction.objectStore('device').put(order, 'order');
    await transaction.objectStore('sales').add(kept);
    await transaction.done;
    return kept;
  } catch (error) {
    abort(transaction);
    if (error instanceof DOMException && error.name === 'ConstraintError')
      throw new UnkeepableSale('This sale was already kept on this device.');
    throw error;
  }
}

/** The seller's sales waiting to be sent, in the order they were made. */
export async function waiting(sellerId: string): Promise<QueuedSale[]> {
  const database = await offlineDatabase();
  return database.getAllFromIndex('sales', 'by-seller', ofSeller(sellerId, 'waiting'));
}

/** The seller's first waiting sale (the next to send), read afresh; undefined when none waits. */
export async function firstWaiting(sellerId: string): Promise<QueuedSale | undefined> {
  const database = await offlineDatabase();
  const [first] = await database.getAllFromIndex('sales', 'by-seller', ofSeller(sellerId, 'waiting'), 1);
  return first;
}

/** How many of the seller's sales wait to be sent ("Offline — N sales kept on this device"). */
export async function count(sellerId: string): Promise<number> {
  const database = await offlineDatabase();
  return database.countFromIndex('sales', 'by-seller', ofSeller(sellerId, 'waiting'));
}

/** The seller's sales the server refused, in the order they were made: kept for an admin. */
export async function refused(sellerId: string): Promise<QueuedSale[]> {
  const database = await offlineDatabase();
  return database.getAllFromIndex('sales', 'by-seller', ofSeller(sellerId, 'refused'));
}

/** The server's stored answer to a sent sale, or undefined while it has none. */
export async function answerOf(id: string): Promise<AnsweredSale | undefined> {
  const database = await offlineDatabase();
  return database.get('answered', id);
}

/**
 * Stores the server's answer to a sale and takes the sale off the queue, in one transaction: the
 * sale leaves only with its answer written (a failure of either undoes both). Answers whether the
 * sale was on the queue (false: unknown here, or answered already).
 */
export async function markAnswered(id: string, answer: Sale, now: Date = new Date()): Promise<boolean> {
  const database = await offlineDatabase();
  const transaction = database.transaction(['sales', 'answered'], 'readwrite');
  try {
    const sale = await transaction.objectStore('sales').get(id);
    if (!sale) {
      await transaction.done;
      return false;
    }
    await transaction.objectStore('answered').put({
      id,
      sellerId: sale.sellerId,
      deviceNumber: sale.body.offline.deviceNumber,
      madeAt: sale.madeAt,
      order: sale.order,
      answeredAt: now.toISOString(),
      answer,
    });
    await transaction.objectStore('sales').delete(id);
    await transaction.done;
    return true;
  } catch (error) {
    abort(transaction);
    throw error;
  }
}

/**
 * Marks a waiting sale refused by the server (a 409 OFFLINE_SOLD_AT, a 400, an id taken): it stays
 * on the device with why, out of the waiting ones, and is not sent again. Answers whether it was
 * waiting.
 */
export async function markRefused(id: string, refusal: Refusal): Promise<boolean> {
  const database = await offlineDatabase();
  const transaction = database.transaction('sales', 'readwrite');
  try {
    const sale = await transaction.store.get(id);
    if (sale?.state !== 'waiting') {
      await transaction.done;
      return false;
    }
    await transaction.store.put({ ...sale, state: 'refused', refusal });
    await transaction.done;
    return true;
  } catch (error) {
    abort(transaction);
    throw error;
  }
}

/**
 * Asks the browser to keep this origin's storage under pressure (navigator.storage.persist), so
 * the queue is not evicted. Answers whether storage is persistent; false where it cannot be asked.
 */
export async function requestPersistence(): Promise<boolean> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (typeof storage?.persist !== 'function') return false;
  try {
    if (typeof storage.persisted === 'function' && (await storage.persisted())) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}

/**
 * Undoes a transaction that failed part way: a call that threw does not abort it by itself, and
 * the writes before it would be kept. Its `done` then rejects; the caller has the first error.
 */
function abort(transaction: { abort(): void; done: Promise<void> }): void {
  transaction.done.catch(() => undefined);
  try {
    transaction.abort();
  } catch {
    // Already finished or aborted: nothing of it was kept after the failure.
  }
}
