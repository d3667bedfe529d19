import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { product } from '../../test/fixtures';
import { mockFetch, storeOf } from '../../test/helpers';
import { keepKit, kitOf, productsLeft, readKit, searchKit } from './kit';
import { freshDatabase, offlineBody } from './offline-test-data';
import type { QueuedSale } from './queue';

beforeEach(freshDatabase);

const session = {
  _id: 'session1',
  number: 12,
  register: { _id: 'register1', name: 'Till 1' },
  location: { _id: 'main', name: 'Main store' },
  status: 'open' as const,
  openedBy: { _id: 'u1', name: 'Ann' },
  openedAt: '2026-12-03T09:00:00.000Z',
  openingFloat: 100,
  closedBy: null,
  closedAt: null,
  countedCash: null,
  note: '',
};

const crisps = product('p1', 'Salted Crisps', { stock: 5, barcode: '4006381333931', sku: 'CR-1' });
const cola = product('p2', 'Cola Can', { stock: 2, sku: 'COLA' });
const chips = product('p3', 'Chili Chips', { stock: 0 });

function kept(productId: string, quantity: number, madeAt: string): QueuedSale {
  const body = offlineBody();
  return {
    id: body.offline.id,
    sellerId: 'u1',
    body: { ...body, lines: [{ productId, quantity, unitPrice: 1 }] },
    madeAt,
    order: 1,
    state: 'waiting',
  };
}

describe('the counter kit', () => {
  it('is read as the location’s whole active catalogue, kept per seller, and read back after a reload', async () => {
    const { calls } = mockFetch({
      'GET /api/products': () => ({ body: { success: true, products: [crisps, cola], total: 2 } }),
    });
    const kit = await readKit('u1', session, storeOf(), new Date('2026-12-03T10:00:00Z'));
    expect(calls.map((call) => [call.path, call.query])).toEqual([
      ['/api/products', { location: 'main', active: 'true' }],
    ]);
    expect(kit).toMatchObject({
      sellerId: 'u1',
      keptAt: '2026-12-03T10:00:00.000Z',
      session,
      products: [crisps, cola],
    });
    await keepKit(kit);
    expect(await kitOf('u1')).toEqual(kit);
    expect(await kitOf('someone-else')).toBeUndefined();
    // A newer read replaces the one before.
    await keepKit({ ...kit, products: [cola] });
    expect((await kitOf('u1'))?.products).toEqual([cola]);
  });

  it('has the stock left after the sales kept since it was read, never below 0; sales before it are in its stock already', () => {
    const kit = {
      sellerId: 'u1',
      keptAt: '2026-12-03T10:00:00.000Z',
      session,
      store: storeOf(),
      products: [crisps, cola],
    };
    const left = productsLeft(kit, [
      kept('p1', 2, '2026-12-03T10:05:00.000Z'),
      kept('p1', 1, '2026-12-03T10:06:00.000Z'),
      kept('p2', 9, '2026-12-03T10:07:00.000Z'),
      kept('p1', 4, '2026-12-03T09:59:00.000Z'),
      kept('p1', 4, 'not a date'),
    ]);
    expect(left.map((one) => [one._id, one.stock])).toEqual([
      ['p1', 2],
      ['p2', 0],
    ]);
    expect(productsLeft(kit, [])).toBe(kit.products);
  });

  it('is searched as the server searches: every word in the name (one or two letters at the start of a word) or a code exactly (any case), by name, at most the limit', () => {
    const all = [crisps, cola, chips];
    expect(searchKit(all, '4006381333931', 10)).toEqual([crisps]);
    expect(searchKit(all, ' cola ', 10)).toEqual([cola]);
    expect(searchKit(all, 'cr-1', 10)).toEqual([crisps]);
    expect(searchKit(all, 'ch', 10)).toEqual([chips]);
    expect(searchKit(all, 'c', 10).map((one) => one.name)).toEqual([
      'Chili Chips',
      'Cola Can',
      'Salted Crisps',
    ]);
    expect(searchKit(all, 'c', 2)).toHaveLength(2);
    expect(searchKit(all, 'salted chips', 10)).toEqual([]);
    // Three letters or more anywhere in the name, as the server finds them.
    expect(searchKit(all, 'risp', 10)).toEqual([crisps]);
    expect(searchKit(all, 'rips', 10)).toEqual([]);
    expect(searchKit(all, 'hip sal', 10)).toEqual([]);
    expect(searchKit(all, 'ted cri', 10)).toEqual([crisps]);
    expect(searchKit(all, 'ps', 10)).toEqual([]);
    expect(searchKit(all, '   ', 10)).toEqual([]);
    expect(searchKit(all, 'x'.repeat(10_000), 10)).toEqual([]);
  });
});
