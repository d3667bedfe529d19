import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sale } from '../../../shared/sales';
import { ApiRequestError } from '../../lib/api';
import { clearSession, setSession } from '../../lib/session';
import { sale } from '../../test/fixtures';
import { userOf } from '../../test/helpers';
import { deferred, fakeLocks, freshDatabase, installLocks, offlineBody } from './offline-test-data';
import { answerOf, count, keepSale, type QueuedSale, refused, waiting } from './queue';
import { defaultSend, failureOf, SENDER_LOCK, type Send, sendWaiting } from './sender';

beforeEach(freshDatabase);
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

/** Keeps `n` sales of `sellerId`; answers their ids in the order kept. */
async function keepSales(sellerId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let at = 0; at < n; at++) {
    const body = offlineBody(undefined, undefined, `T1-K7Q2-${String(at + 1).padStart(6, '0')}`);
    await keepSale({ id: body.offline.id, sellerId, body });
    ids.push(body.offline.id);
  }
  return ids;
}

/** A send that records what it was given and answers each sale with the server's sale. */
function recordingSend(failures: Record<number, () => Error> = {}) {
  const sent: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const send: Send = async (entry: QueuedSale): Promise<Sale> => {
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    try {
      await new Promise((done) => setTimeout(done, 1));
      const failure = failures[sent.length];
      sent.push(entry.id);
      if (failure) throw failure();
      return sale({ _id: `sale-${entry.id}`, number: sent.length });
    } finally {
      running -= 1;
    }
  };
  return { send, sent, mostAtOnce: () => mostAtOnce };
}

const refusal = (status: number, code: string, message = 'Refused.') =>
  new ApiRequestError(message, status, { code });

describe('sendWaiting', () => {
  it('sends a seller’s sales one at a time in the order made, storing each answer', async () => {
    const ids = await keepSales('rep1', 3);
    const [otherSeller] = await keepSales('rep2', 1);
    const { send, sent, mostAtOnce } = recordingSend();

    expect(await sendWaiting('rep1', send)).toEqual({ sent: 3, refused: 0, waiting: 0, stopped: 'done' });

    expect(sent).toEqual(ids);
    expect(mostAtOnce()).toBe(1);
    expect((await answerOf(ids[2] ?? ''))?.answer._id).toBe(`sale-${ids[2]}`);
    // Another seller's sale waits for their own sign-in.
    expect((await waiting('rep2')).map((entry) => entry.id)).toEqual([otherSeller]);
  });

  it('stops at a network error, keeping that sale and the ones after it in order, and goes on from it later', async () => {
    const ids = await keepSales('rep1', 3);
    const first = recordingSend({ 1: () => new ApiRequestError('The server cannot be reached.', 0) });

    expect(await sendWaiting('rep1', first.send)).toEqual({
      sent: 1,
      refused: 0,
      waiting: 2,
      stopped: 'unreachable',
    });
    expect(first.sent).toEqual([ids[0], ids[1]]);
    expect((await waiting('rep1')).map((entry) => entry.id)).toEqual([ids[1], ids[2]]);
    expect(await refused('rep1')).toEqual([]);

    const later = recordingSend();
    expect(await sendWaiting('rep1', later.send)).toMatchObject({ sent: 2, stopped: 'done' });
    expect(later.sent).toEqual([ids[1], ids[2]]);
  });

  it.each([
    [502, 'server'],
    [503, 'server'],
    [504, 'server'],
    [500, 'server'],
    [429, 'server'],
  ] as const)('stops at a %i and keeps the sale waiting', async (status, stopped) => {
    const ids = await keepSales('rep1', 2);
    const { send, sent } = recordingSend({ 0: () => new ApiRequestError('Try later.', status) });

    expect(await sendWaiting('rep1', send)).toEqual({ sent: 0, refused: 0, waiting: 2, stopped });
    expect(sent).toEqual([ids[0]]);
    expect((await waiting('rep1')).map((entry) => entry.id)).toEqual(ids);
  });

  it('stops at a thrown error that is no answer (fetch’s TypeError) and keeps the sale', async () => {
    const ids = await keepSales('rep1', 1);
    const { send } = recordingSend({ 0: () => new TypeError('Failed to fetch') });
    expect(await sendWaiting('rep1', send)).toMatchObject({ sent: 0, waiting: 1, stopped: 'unreachable' });
    expect((await waiting('rep1')).map((entry) => entry.id)).toEqual(ids);
  });

  it('stops at a 401 and keeps the whole queue for the seller’s next sign-in', async () => {
    const ids = await keepSales('rep1', 2);
    const { send } = recordingSend({ 0: () => new ApiRequestError('Your session expired.', 401) });

    expect(await sendWaiting('rep1', send)).toEqual({
      sent: 0,
      refused: 0,
      waiting: 2,
      stopped: 'signedOut',
    });
    expect((await waiting('rep1')).map((entry) => entry.id)).toEqual(ids);
    expect(await refused('rep1')).toEqual([]);
  });

  it('keeps a refused sale (409 OFFLINE_SOLD_AT, 400 OFFLINE_TOTAL, 409 OFFLINE_ID_TAKEN) for an admin and goes on', async () => {
    const ids = await keepSales('rep1', 4);
    const sentence = 'This sale was made more than 72 hours ago: an admin records it by hand.';
    const { send, sent } = recordingSend({
      0: () => refusal(409, 'OFFLINE_SOLD_AT', sentence),
      1: () => refusal(400, 'OFFLINE_TOTAL'),
      2: () => refusal(409, 'OFFLINE_ID_TAKEN'),
    });

    expect(await sendWaiting('rep1', send)).toEqual({ sent: 1, refused: 3, waiting: 0, stopped: 'done' });
    expect(sent).toEqual(ids);
    const kept = await refused('rep1');
    expect(kept.map((entry) => [entry.id, entry.refusal?.status, entry.refusal?.code])).toEqual([
      [ids[0], 409, 'OFFLINE_SOLD_AT'],
      [ids[1], 400, 'OFFLINE_TOTAL'],
      [ids[2], 409, 'OFFLINE_ID_TAKEN'],
    ]);
    expect(kept[0]?.refusal?.message).toBe(sentence);
    expect(await answerOf(ids[3] ?? '')).toBeDefined();

    // Refused sales are not sent again.
    const again = recordingSend();
    expect(await sendWaiting('rep1', again.send)).toMatchObject({ sent: 0, refused: 0, stopped: 'done' });
    expect(again.sent).toEqual([]);
  });

  it('never sends a sale twice from two tabs: the tab without the lock sends nothing', async () => {
    const locks = fakeLocks();
    const uninstall = installLocks(locks);
    try {
      const ids = await keepSales('rep1', 3);
      // Two tabs: their own modules and connections to the one database, one lock manager.
      vi.resetModules();
      const tabA = await import('./sender');
      const databaseA = await import('./database');
      vi.resetModules();
      const tabB = await import('./sender');
      const databaseB = await import('./database');

      const gate = deferred();
      const sentBy: string[] = [];
      const sendA: Send = async (entry) => {
        sentBy.push(`A ${entry.id}`);
        await gate.promise;
        return sale({ _id: `sale-${entry.id}` });
      };
      const sendB: Send = async (entry) => {
        sentBy.push(`B ${entry.id}`);
        return sale({ _id: `sale-${entry.id}` });
      };

      const first = tabA.sendWaiting('rep1', sendA);
      await vi.waitFor(() => expect(sentBy).toHaveLength(1));
      // A is waiting for the server's first answer: B arrives meanwhile.
      expect(await tabB.sendWaiting('rep1', sendB)).toEqual({
        sent: 0,
        refused: 0,
        waiting: 3,
        stopped: 'busy',
      });
      gate.resolve();
      expect(await first).toMatchObject({ sent: 3, stopped: 'done' });
      // B again, once A let go: nothing is left to send.
      expect(await tabB.sendWaiting('rep1', sendB)).toMatchObject({ sent: 0, stopped: 'done' });

      expect(sentBy).toEqual(ids.map((id) => `A ${id}`));
      expect(locks.requests).toEqual(Array(3).fill({ name: SENDER_LOCK, options: { ifAvailable: true } }));
      await Promise.all([databaseA.closeOfflineDatabase(), databaseB.closeOfflineDatabase()]);
    } finally {
      uninstall();
    }
  });

  it('without Web Locks, still sends one run at a time in this tab', async () => {
    const ids = await keepSales('rep1', 2);
    const gate = deferred();
    const sent: string[] = [];
    const send: Send = async (entry) => {
      sent.push(entry.id);
      await gate.promise;
      return sale();
    };

    const first = sendWaiting('rep1', send);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(await sendWaiting('rep1', send)).toMatchObject({ sent: 0, stopped: 'busy' });
    gate.resolve();
    expect(await first).toMatchObject({ sent: 2, stopped: 'done' });
    expect(sent).toEqual(ids);
    // Finished: the next run is let in.
    expect(await sendWaiting('rep1', send)).toMatchObject({ stopped: 'done' });
  });

  it('stops, keeping the sale, when the answer cannot be stored (the server has it; sent again it answers the same)', async () => {
    const ids = await keepSales('rep1', 2);
    const unstorable = () => Promise.resolve({ ...sale(), print: () => 'not storable' });
    const send = vi.fn<Send>(unstorable);

    expect(await sendWaiting('rep1', send)).toEqual({ sent: 0, refused: 0, waiting: 2, stopped: 'storage' });
    expect(send).toHaveBeenCalledTimes(1);
    expect((await waiting('rep1')).map((entry) => entry.id)).toEqual(ids);
  });
});

describe('defaultSend', () => {
  it('posts the stored body to /api/sales as the signed-in seller and answers the server’s sale', async () => {
    const [id] = await keepSales('salesRep-id', 1);
    const [entry] = await waiting('salesRep-id');
    if (!entry || !id) throw new Error('the sale should be kept');
    setSession({ token: 'rep-token', user: userOf('salesRep') });
    const fetchMock = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response(JSON.stringify({ success: true, sale: sale({ _id: 'sale-1' }) }), {
          status: 201,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);

    expect((await defaultSend(entry))._id).toBe('sale-1');

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? ['', {}];
    expect(url).toBe('/api/sales');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer rep-token');
    expect(JSON.parse(String(init.body))).toEqual(entry.body);
  });

  it('sends nothing while another user is signed in: the sale would become theirs', async () => {
    await keepSales('salesRep-id', 1);
    const [entry] = await waiting('salesRep-id');
    if (!entry) throw new Error('the sale should be kept');
    setSession({ token: 'admin-token', user: userOf('admin') });
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);

    expect(await sendWaiting('salesRep-id')).toMatchObject({ sent: 0, waiting: 1, stopped: 'signedOut' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(await count('salesRep-id')).toBe(1);
  });
});

describe('failureOf', () => {
  it('tells a sale to send later from a sale the server refused', () => {
    const now = new Date('2026-12-06T12:00:00Z');
    expect(failureOf(new ApiRequestError('Unreachable.', 0))).toEqual({ stop: 'unreachable' });
    expect(failureOf(new DOMException('Aborted', 'AbortError'))).toEqual({ stop: 'unreachable' });
    expect(failureOf(new ApiRequestError('Expired.', 401))).toEqual({ stop: 'signedOut' });
    expect(failureOf(new ApiRequestError('Timed out.', 408))).toEqual({ stop: 'server' });
    expect(failureOf(new ApiRequestError('This page does not understand.', 201))).toEqual({ stop: 'server' });
    expect(failureOf(refusal(404, 'NOT_FOUND', 'Product not found.'), now)).toEqual({
      refusal: {
        status: 404,
        code: 'NOT_FOUND',
        message: 'Product not found.',
        at: '2026-12-06T12:00:00.000Z',
      },
    });
    expect(failureOf(new ApiRequestError('Forbidden.', 403), now)).toEqual({
      refusal: { status: 403, message: 'Forbidden.', at: '2026-12-06T12:00:00.000Z' },
    });
  });
});
