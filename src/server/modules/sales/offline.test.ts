import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BooksCheckResponse } from '../../../shared/accounting';
import { ApiError } from '../../../shared/common';
import { ReviewListResponse, ReviewResponse, SaleListResponse, SaleResponse } from '../../../shared/sales';
import { SessionResponse } from '../../../shared/till';
import { fixtures, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { recordMovements } from '../stock/movements';

/**
 * DESIGN §21, the server's side: a sale made offline is sent with its id, the time it was sold and
 * the device's receipt number. Its id is kept for ever (sent again: the same sale, 200; with
 * another body or by another seller: 409); its time is judged (not ahead, not too old); it is
 * recorded as the fact it is (units found with the reason offline, the device's prices, outside a
 * session that closed) and each such case marks it for an admin's review.
 */
describe.each(targets)('offline sales on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());
  const { sell, stockOf, ledgerOf, storeSettings } = fixtures(() => t);
  const rep = () => t.as.salesRep;
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
  /** An offline sale of `quantity` of a product at `price` (no tax), paid by card. */
  const offlineBody = (
    productId: string,
    quantity: number,
    price: number,
    extra: { id?: string; soldAt?: string; deviceNumber?: string; total?: number; session?: string } = {},
  ) => ({
    lines: [{ productId, quantity, unitPrice: price }],
    payment: { method: 'card' },
    total: extra.total ?? Math.round(quantity * price * 100) / 100,
    ...(extra.session ? { session: extra.session } : {}),
    offline: {
      id: extra.id ?? randomUUID(),
      soldAt: extra.soldAt ?? minutesAgo(30),
      deviceNumber:
        extra.deviceNumber ?? `T1-K7Q2-${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`,
    },
  });
  const admin = () => t.as.admin.token;
  const booksOk = async () => {
    const check = parsed(
      await t.call('GET', '/api/accounting/check', { token: admin() }),
      BooksCheckResponse,
    );
    expect(check.checks.filter((c) => !c.ok)).toEqual([]);
  };

  it('the first send makes the sale at soldAt (201); the same id again answers that sale (200), never a second; another body or seller is a 409', async () => {
    const { id } = await t.product({ stock: 10, price: 4 });
    const body = offlineBody(id, 2, 4, { soldAt: new Date(Date.now() - 3_600_000).toISOString() });
    body.offline.soldAt = new Date(Date.parse(body.offline.soldAt)).toISOString().replace('Z', '+00:00');
    const first = await sell(rep(), body);
    expect(first.status, first.text).toBe(201);
    const sale = parsed(first, SaleResponse).sale;
    expect(new Date(sale.createdAt).getTime()).toBe(Date.parse(body.offline.soldAt));
    expect(sale.offline).toMatchObject({ deviceNumber: body.offline.deviceNumber, review: [] });
    expect(Date.now() - Date.parse(sale.offline?.recordedAt ?? '')).toBeLessThan(60_000);
    const [order] = await t.sql<{ order_date: Date }>('select order_date from orders where sale_id = $1', [
      sale._id,
    ]);
    expect(new Date(order?.order_date as Date).getTime()).toBe(Date.parse(body.offline.soldAt));

    const again = await sell(rep(), body);
    expect(again.status, again.text).toBe(200);
    expect(parsed(again, SaleResponse).sale._id).toBe(sale._id);
    expect(await t.sql('select id from sales where offline_id = $1', [body.offline.id])).toHaveLength(1);
    expect(await stockOf(id)).toBe(8);
    const changed = await sell(rep(), {
      ...body,
      lines: [{ productId: id, quantity: 1, unitPrice: 4 }],
      total: 4,
    });
    expect(changed.status).toBe(409);
    expect(parsed(changed, ApiError).code).toBe('OFFLINE_ID_TAKEN');
    const other = await sell(t.as.medicalRep, body);
    expect(other.status).toBe(409);
    expect(parsed(other, ApiError).error).toMatch(/another seller/);
    expect(await stockOf(id)).toBe(8);
    // Two sends of one new sale at once: one makes it, the other answers it.
    const racing = offlineBody(id, 1, 4);
    const both = await Promise.all([sell(rep(), racing), sell(rep(), racing)]);
    expect(both.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(new Set(both.map((a) => parsed(a, SaleResponse).sale._id)).size).toBe(1);
    expect(await stockOf(id)).toBe(7);
    // The sales search finds it by the device's number too.
    const found = parsed(
      await t.call('GET', `/api/sales?search=${encodeURIComponent(body.offline.deviceNumber)}`, {
        token: admin(),
      }),
      SaleListResponse,
    );
    expect(found.sales.map((s) => s._id)).toEqual([sale._id]);
  });

  it('soldAt is not ahead of the server by more than 5 minutes nor older than offlineHours (409, nothing taken); the total must be the lines’ as sent (400)', async () => {
    const { id } = await t.product({ stock: 10, price: 3 });
    const ahead = await sell(
      rep(),
      offlineBody(id, 1, 3, { soldAt: new Date(Date.now() + 10 * 60_000).toISOString() }),
    );
    expect(ahead.status).toBe(409);
    expect(parsed(ahead, ApiError)).toMatchObject({ code: 'OFFLINE_SOLD_AT' });
    expect(
      (await sell(rep(), offlineBody(id, 1, 3, { soldAt: new Date(Date.now() + 2 * 60_000).toISOString() })))
        .status,
    ).toBe(201);
    await storeSettings({ offlineHours: 2 });
    const old = await sell(rep(), offlineBody(id, 1, 3, { soldAt: minutesAgo(3 * 60) }));
    expect(old.status).toBe(409);
    expect(parsed(old, ApiError).error).toMatch(/more than 2 hours ago/);
    await storeSettings({ offlineHours: 72 });
    const wrong = await sell(rep(), offlineBody(id, 2, 3, { total: 5.99 }));
    expect(wrong.status).toBe(400);
    expect(parsed(wrong, ApiError)).toMatchObject({ code: 'OFFLINE_TOTAL' });
    expect(await stockOf(id)).toBe(9);
  });

  it('a fact: units the system did not know of are found (reason offline) so stock stays ≥ 0; a price it never had, or a session closed meanwhile, is for review', async () => {
    const { id } = await t.product({ stock: 1, price: 5 });
    const short = parsed(await sell(rep(), offlineBody(id, 3, 5)), SaleResponse).sale;
    expect(short.offline?.review).toEqual(['stock']);
    expect(await stockOf(id)).toBe(0);
    expect(await ledgerOf(id)).toBe(0);
    const [found] = await t.sql<{ quantity: number; reason: string; user_name: string }>(
      "select quantity, reason, user_name from stock_movements where product_id = $1 and kind = 'adjustment'",
      [id],
    );
    expect(found).toMatchObject({ quantity: 2, reason: 'offline', user_name: rep().name });
    // A price the product had within offlineHours is its own; one it never had is for review.
    await t.sql('update products set price = 6 where id = $1', [id]);
    const priceNow = 6;
    await recordMovements({ query: t.sql }, [{ productId: id, kind: 'receipt', quantity: 10 }]);
    const oldPrice = parsed(await sell(rep(), offlineBody(id, 1, 5)), SaleResponse).sale;
    expect(oldPrice.offline?.review, 'it was 5 an hour ago, and is 6 now').toEqual([]);
    const neverHad = parsed(await sell(rep(), offlineBody(id, 1, 4.5)), SaleResponse).sale;
    expect(neverHad.offline?.review).toEqual(['price']);
    expect(neverHad.lines[0]).toMatchObject({ unitPrice: 4.5, total: 4.5 });

    // The session closed before the sale arrived: recorded outside any session.
    const made = await t.call('POST', '/api/registers', { token: admin(), body: { name: `Till ${tag()}` } });
    const register = (made.body as { register: { _id: string } }).register._id;
    const opened = await t.call('POST', `/api/registers/${register}/open`, {
      token: rep().token,
      body: { openingFloat: 20 },
    });
    const session = parsed(opened, SessionResponse).session._id;
    const closed = await t.call('POST', `/api/register-sessions/${session}/close`, {
      token: rep().token,
      body: { countedCash: 20 },
    });
    expect(closed.status, closed.text).toBe(200);
    const late = parsed(await sell(rep(), offlineBody(id, 1, priceNow, { session })), SaleResponse).sale;
    expect(late.session).toBeNull();
    expect(late.offline?.review).toEqual(['session']);
    const report = parsed(
      await t.call('GET', `/api/register-sessions/${session}`, { token: admin() }),
      SessionResponse,
    );
    expect(report.report.sales.count).toBe(0);
    await booksOk();
  });

  it('a lot-tracked product short of unexpired units: found into the lot FEFO takes next, or into UNKNOWN when every lot is empty or expired', async () => {
    const { id } = await t.product({ stock: 0, price: 2 });
    await t.sql("update products set tracking = 'lot' where id = $1", [id]);
    const empty = parsed(await sell(rep(), offlineBody(id, 2, 2)), SaleResponse).sale;
    expect(empty.offline?.review).toEqual(['stock']);
    const lots = await t.sql<{ number: string; expires_on: string | null; quantity: number }>(
      'select number, expires_on::text, quantity from lots where product_id = $1',
      [id],
    );
    expect(lots).toEqual([{ number: 'UNKNOWN', expires_on: null, quantity: 0 }]);
    const [lot] = await t.sql<{ id: string }>(
      "insert into lots (product_id, number, expires_on) values ($1, 'A1', store_today() + 30) returning id",
      [id],
    );
    await recordMovements({ query: t.sql }, [
      { productId: id, kind: 'receipt', quantity: 1, lotId: lot?.id },
    ]);
    parsed(await sell(rep(), offlineBody(id, 3, 2)), SaleResponse);
    const [into] = await t.sql<{ number: string; quantity: number }>(
      `select l.number, m.quantity from stock_movements m join lots l on l.id = m.lot_id
        where m.product_id = $1 and m.reason = 'offline' order by m.at desc limit 1`,
      [id],
    );
    expect(into).toEqual({ number: 'A1', quantity: 2 });
    expect(await stockOf(id)).toBe(0);
    expect(await ledgerOf(id)).toBe(0);
  });

  it('the review list: open first, closed with a note once (409 after), for admins only', async () => {
    const { id } = await t.product({ stock: 0, price: 1 });
    const sale = parsed(await sell(rep(), offlineBody(id, 1, 1)), SaleResponse).sale;
    const open = parsed(await t.call('GET', '/api/sales/review', { token: admin() }), ReviewListResponse);
    const item = open.sales.find((s) => s.sale._id === sale._id);
    expect(item).toMatchObject({ review: ['stock'], seller: { name: rep().name }, total: 1 });
    expect((await t.call('GET', '/api/sales/review', { token: rep().token })).status).toBe(403);
    for (const note of ['', ' ', 'x'.repeat(501), 'a\u0000b', ['x'], 5])
      expect(
        (await t.call('POST', `/api/sales/${sale._id}/review`, { token: admin(), body: { note } })).status,
      ).toBe(400);
    const closed = await t.call('POST', `/api/sales/${sale._id}/review`, {
      token: admin(),
      body: { note: 'Counted the shelf: two boxes behind the counter.' },
    });
    expect(closed.status, closed.text).toBe(200);
    expect(parsed(closed, ReviewResponse).review).toMatchObject({ reviewedBy: { name: t.as.admin.name } });
    const twice = await t.call('POST', `/api/sales/${sale._id}/review`, {
      token: admin(),
      body: { note: 'Again' },
    });
    expect(parsed(twice, ApiError).code).toBe('REVIEW_CLOSED');
    const done = parsed(
      await t.call('GET', '/api/sales/review?status=closed', { token: admin() }),
      ReviewListResponse,
    );
    expect(done.sales.some((s) => s.sale._id === sale._id)).toBe(true);
    expect((await t.call('GET', '/api/sales/review?status=maybe', { token: admin() })).status).toBe(400);
    expect(
      (await t.call('POST', '/api/sales/nope/review', { token: admin(), body: { note: 'x' } })).status,
    ).toBe(404);
  });

  it('bad offline input is a 400 with one sentence, and nothing is taken', async () => {
    const { id } = await t.product({ stock: 5, price: 2 });
    const good = offlineBody(id, 1, 2);
    const bad = (offline: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({
      ...good,
      ...rest,
      offline: { ...good.offline, ...offline },
    });
    for (const body of [
      bad({ id: 'not-a-uuid' }),
      bad({ soldAt: '2026-12-03T09:15:00' }),
      bad({ soldAt: '0000-01-01T00:00:00Z' }),
      bad({ soldAt: '2026-02-30T10:00:00Z' }),
      bad({ soldAt: 1764752100000 }),
      bad({ deviceNumber: '' }),
      bad({ deviceNumber: 'x'.repeat(41) }),
      bad({ deviceNumber: 'T1 K7Q2 1' }),
      bad({ deviceNumber: 'T1-\u0000-1' }),
      bad({ deviceNumber: ['T1'] }),
      bad({}, { total: undefined }),
      bad({}, { lines: [{ productId: id, quantity: 1 }] }),
      bad({}, { lines: [{ productId: id, quantity: 1, unitPrice: -1 }] }),
      bad({}, { lines: [{ productId: id, quantity: 1, unitPrice: Number.NaN }] }),
      bad({}, { lines: [{ productId: id, quantity: 1, unitPrice: 2, overrideStock: true }] }),
      { ...good, offline: undefined, lines: [{ productId: id, quantity: 1, unitPrice: 2 }] },
      { ...good, offline: 'yes' },
    ]) {
      const answer = await sell(rep(), body);
      expect(answer.status, JSON.stringify(body).slice(0, 160)).toBe(400);
      expect(parsed(answer, ApiError).error.length).toBeGreaterThan(0);
    }
    expect(await stockOf(id)).toBe(5);
  });
});
