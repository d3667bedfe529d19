import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sale } from '../../test/fixtures';
import { closeOfflineDatabase } from './database';
import { freshDatabase, offlineBody } from './offline-test-data';
import {
  answerOf,
  count,
  firstWaiting,
  keepSale,
  markAnswered,
  markRefused,
  refused,
  requestPersistence,
  UnkeepableSale,
  waiting,
} from './queue';

beforeEach(freshDatabase);
afterEach(() => vi.restoreAllMocks());

/** Keeps a valid sale of `sellerId` sold at `soldAt`; answers its id. */
async function keep(sellerId: string, soldAt?: string): Promise<string> {
  const body = offlineBody(undefined, soldAt);
  await keepSale({ id: body.offline.id, sellerId, body });
  return body.offline.id;
}

describe('the offline queue', () => {
  it('keeps its sales over a reload: the database reopened gives them back whole, still waiting', async () => {
    const body = offlineBody();
    await keepSale({ id: body.offline.id, sellerId: 'rep1', body });
    const second = await keep('rep1');

    await closeOfflineDatabase();

    const kept = await waiting('rep1');
    expect(kept.map((entry) => entry.id)).toEqual([body.offline.id, second]);
    expect(kept[0]).toMatchObject({ sellerId: 'rep1', body, madeAt: body.offline.soldAt, state: 'waiting' });
    expect(await count('rep1')).toBe(2);
  });

  it('gives a seller’s sales in the order they were kept, whatever their clocks said, and no one else’s', async () => {
    // The device's clock was put back between the two: order is the order made, not the time.
    const first = await keep('rep1', '2026-12-03T14:05:00+01:00');
    const other = await keep('rep2', '2026-12-03T14:06:00+01:00');
    const second = await keep('rep1', '2026-12-03T13:00:00+01:00');
    await closeOfflineDatabase();
    const third = await keep('rep1', '2026-12-03T12:00:00+01:00');

    expect((await waiting('rep1')).map((entry) => entry.id)).toEqual([first, second, third]);
    expect((await firstWaiting('rep1'))?.id).toBe(first);
    expect((await waiting('rep2')).map((entry) => entry.id)).toEqual([other]);
    expect(await count('rep2')).toBe(1);
    expect(await firstWaiting('nobody')).toBeUndefined();
  });

  it('takes a sold sale off the queue with the server’s answer stored, and keeps that answer over a reload', async () => {
    const first = await keep('rep1');
    const second = await keep('rep1');
    const answer = sale({ _id: 'sale-9', number: 9 });

    expect(await markAnswered(first, answer, new Date('2026-12-03T15:00:00Z'))).toBe(true);
    await closeOfflineDatabase();

    expect((await waiting('rep1')).map((entry) => entry.id)).toEqual([second]);
    expect(await answerOf(first)).toMatchObject({
      id: first,
      sellerId: 'rep1',
      deviceNumber: 'T1-K7Q2-000001',
      answeredAt: '2026-12-03T15:00:00.000Z',
      answer,
    });
    // Answered once: a second answer to the same sale changes nothing.
    expect(await markAnswered(first, sale({ _id: 'other' }))).toBe(false);
    expect((await answerOf(first))?.answer._id).toBe('sale-9');
  });

  it('leaves a sale waiting when taking it off the queue fails after its answer was written (both undone)', async () => {
    const id = await keep('rep1');
    vi.spyOn(IDBObjectStore.prototype, 'delete').mockImplementation(() => {
      throw new DOMException('The disk is full.', 'QuotaExceededError');
    });

    await expect(markAnswered(id, sale())).rejects.toThrow('The disk is full.');
    vi.restoreAllMocks();

    expect((await waiting('rep1')).map((entry) => entry.id)).toEqual([id]);
    // The answer written before the failure went with it: never an answer without its sale, or the reverse.
    expect(await answerOf(id)).toBeUndefined();
  });

  it('leaves a sale waiting when its answer cannot be stored', async () => {
    const id = await keep('rep1');
    const unstorable = { ...sale(), print: () => 'a function is not stored' };

    await expect(markAnswered(id, unstorable)).rejects.toThrow();

    expect((await waiting('rep1')).map((entry) => entry.id)).toEqual([id]);
    expect(await answerOf(id)).toBeUndefined();
  });

  it('keeps a refused sale on the device with why, out of the waiting ones, over a reload', async () => {
    const old = await keep('rep1');
    const next = await keep('rep1');
    const refusal = {
      status: 409,
      code: 'OFFLINE_SOLD_AT',
      message: 'This sale was made more than 72 hours ago: an admin records it by hand.',
      at: '2026-12-06T15:00:00.000Z',
    };

    expect(await markRefused(old, refusal)).toBe(true);
    await closeOfflineDatabase();

    expect((await waiting('rep1')).map((entry) => entry.id)).toEqual([next]);
    expect(await count('rep1')).toBe(1);
    expect(await refused('rep1')).toEqual([expect.objectContaining({ id: old, state: 'refused', refusal })]);
    // Refused once: not waiting, so not refused again; and an unknown sale is not invented.
    expect(await markRefused(old, { ...refusal, status: 400 })).toBe(false);
    expect(await markRefused('unknown', refusal)).toBe(false);
    expect((await refused('rep1'))[0]?.refusal?.status).toBe(409);
  });

  it('refuses to keep the same sale twice, one under another id, or a body the server would refuse', async () => {
    const body = offlineBody();
    await keepSale({ id: body.offline.id, sellerId: 'rep1', body });
    await expect(keepSale({ id: body.offline.id, sellerId: 'rep1', body })).rejects.toThrow(
      'This sale was already kept on this device.',
    );
    await markAnswered(body.offline.id, sale());
    // Sent and answered already: kept again it would be sent again.
    await expect(keepSale({ id: body.offline.id, sellerId: 'rep1', body })).rejects.toThrow(UnkeepableSale);

    const other = offlineBody();
    await expect(keepSale({ id: crypto.randomUUID(), sellerId: 'rep1', body: other })).rejects.toThrow(
      'An offline sale is kept under its own offline id.',
    );
    const { total: _total, ...withoutTotal } = offlineBody();
    await expect(
      keepSale({ id: withoutTotal.offline.id, sellerId: 'rep1', body: withoutTotal }),
    ).rejects.toThrow('An offline sale gives the total the device computed.');
    expect(await count('rep1')).toBe(0);
  });
});

describe('persistent storage', () => {
  afterEach(() => {
    delete (navigator as { storage?: unknown }).storage;
  });

  it('asks the browser to persist the queue, once, and says whether it will', async () => {
    const persist = vi.fn(async () => true);
    const persisted = vi.fn(async () => false);
    Object.defineProperty(navigator, 'storage', { value: { persist, persisted }, configurable: true });

    expect(await requestPersistence()).toBe(true);
    expect(persist).toHaveBeenCalledTimes(1);

    persisted.mockResolvedValue(true);
    expect(await requestPersistence()).toBe(true);
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it('answers false where storage cannot be made persistent, without throwing', async () => {
    expect(await requestPersistence()).toBe(false);
    Object.defineProperty(navigator, 'storage', {
      value: { persist: async () => Promise.reject(new Error('not allowed')) },
      configurable: true,
    });
    expect(await requestPersistence()).toBe(false);
  });
});
