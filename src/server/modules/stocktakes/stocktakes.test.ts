import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { IDEMPOTENCY_HEADER, StockCheckResponse } from '../../../shared/stock';
import {
  type CountInput,
  CountsResponse,
  PostStocktakeResponse,
  type Stocktake,
  type StocktakeInput,
  StocktakeLinesResponse,
  StocktakeResponse,
} from '../../../shared/stocktakes';
import { fixtures, nth, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { locationLedgerProblems } from '../../test/location-ledger';
import { recordMovements } from '../stock/movements';
import { stocktakeFixtures } from './stocktake-fixtures';

describe.each(targets)('stocktakes on $name', (target) => {
  let t: TestApp;
  let main: string;
  beforeAll(async () => {
    t = await startApp(target);
    main = (await t.sql<{ id: string }>('select default_location() as id'))[0]?.id as string;
  });
  afterAll(() => t?.close());
  const { sold, stockOf } = fixtures(() => t);
  const s = stocktakeFixtures(() => t);
  const call = (method: string, url: string, body?: unknown, token = t.as.admin.token) =>
    t.call(method, url, { token, body });
  const make = async (body: StocktakeInput): Promise<Stocktake> => {
    const answer = await call('POST', '/api/stocktakes', body);
    expect(answer.status, answer.text).toBe(201);
    return parsed(answer, StocktakeResponse).stocktake;
  };

  it('counts a category while it sells, and posts counted − expected at the count', async () => {
    const a = await t.product({ stock: 10, price: 2 });
    await t.setCost(a.id, 1.25);
    await t.sql(`update products set sku = 'ST-A-' || substr(id::text, 1, 8) where id = $1`, [a.id]);
    const b = await t.sql<{ id: string }>(
      `insert into products (name, price, stock, category_id, supplier_id, cost) values ('Second of category', 3, 4, $1, $2, 2) returning id`,
      [a.categoryId, a.supplierId],
    );
    const bId = nth(b).id;
    const take = await make({ location: main, categories: [a.categoryId] });
    expect(take).toMatchObject({ status: 'counting', lines: 2, blind: false, location: { _id: main } });
    expect(take.number).toMatch(/^ST-\d{6}$/);
    // The overlap is refused, naming it.
    const overlap = await call('POST', '/api/stocktakes', { location: main, products: [a.id] });
    expect(overlap.status).toBe(409);
    expect(parsed(overlap, ApiError)).toMatchObject({ code: 'STOCKTAKE_OVERLAP' });
    expect(parsed(overlap, ApiError).error).toContain(take.number);

    // Two counters: 8 of a (one set, then scans), b counted 4.
    const sku = nth(await t.sql<{ sku: string }>('select sku from products where id = $1', [a.id])).sku;
    const c1 = await call(
      'POST',
      `/api/stocktakes/${take._id}/counts`,
      {
        counts: [{ product: a.id, quantity: 6, mode: 'set' }],
      },
      t.as.salesRep.token,
    );
    expect(c1.status, c1.text).toBe(200);
    await Promise.all(
      [1, 2].map(() =>
        call(
          'POST',
          `/api/stocktakes/${take._id}/counts`,
          { counts: [{ product: sku, quantity: 1, mode: 'add' }] },
          t.as.medicalRep.token,
        ),
      ),
    );
    const c2 = await call('POST', `/api/stocktakes/${take._id}/counts`, {
      counts: [{ product: bId, quantity: 4, mode: 'set' }],
    });
    expect(parsed(c2, CountsResponse).counted).toMatchObject([{ counted: 4, expectedAtCount: 4 }]);
    // Sold after the count: stays counted.
    await sold(t.as.salesRep, { lines: [{ productId: a.id, quantity: 3 }] });
    const review = parsed(await call('GET', `/api/stocktakes/${take._id}`), StocktakeResponse).stocktake;
    expect(review.summary).toMatchObject({
      lines: 2,
      counted: 2,
      unitsShort: 2,
      unitsOver: 0,
      valueShort: 2.5,
      net: -2.5,
    });
    const lines = parsed(
      await call('GET', `/api/stocktakes/${take._id}/lines?differences=true`),
      StocktakeLinesResponse,
    );
    expect(lines.lines).toMatchObject([
      { product: { _id: a.id }, counted: 8, expectedAtCount: 10, expected: 7, cost: 1.25, value: -2.5 },
    ]);
    const posted = await call('POST', `/api/stocktakes/${take._id}/post`, { uncounted: 'keep' });
    expect(posted.status, posted.text).toBe(200);
    expect(parsed(posted, PostStocktakeResponse)).toMatchObject({
      clamped: [],
      stocktake: { status: 'posted' },
    });
    expect(await stockOf(a.id)).toBe(5);
    expect(await stockOf(bId)).toBe(4);
    expect((await call('POST', `/api/stocktakes/${take._id}/post`, { uncounted: 'keep' })).status).toBe(409);
    expect(await locationLedgerProblems(t.app.database, [a.id, bId])).toEqual([]);
  });

  describe('making one', () => {
    it('a category scope counts every product of it, stock there or not; a product scope those named', async () => {
      const where = await s.location();
      const a = await s.productAt(where, 3);
      const b = await s.productAt(where, 0, { category: a.categoryId });
      const other = await s.productAt(where, 5);
      const byCategory = await s.make({ location: where, categories: [a.categoryId] });
      expect(byCategory).toMatchObject({
        lines: 2,
        scope: { categories: [{ _id: a.categoryId }], products: [] },
      });
      expect((await s.lines(byCategory._id)).lines.map((l) => l.product._id).sort()).toEqual(
        [a.id, b.id].sort(),
      );
      const byProduct = await s.make({ location: where, products: [other.id] });
      expect(byProduct).toMatchObject({ lines: 1, scope: { categories: [], products: [{ _id: other.id }] } });
    });

    it('categories and products together are their union, a product named in both counted once', async () => {
      const where = await s.location();
      const a = await s.productAt(where, 1);
      const b = await s.productAt(where, 1, { category: a.categoryId });
      const c = await s.productAt(where, 0);
      const take = await s.make({ location: where, categories: [a.categoryId], products: [c.id, b.id] });
      expect(take.lines).toBe(3);
      expect((await s.lines(take._id)).lines.map((l) => l.product._id).sort()).toEqual(
        [a.id, b.id, c.id].sort(),
      );
    });

    it('neither: every product with stock there (none held only elsewhere), a tracked one a line per lot with stock there', async () => {
      const where = await s.location();
      const held = await s.productAt(where, 4);
      const elsewhere = await s.productAt(main, 6);
      const emptied = await s.productAt(where, 2);
      await recordMovements(t.app.database, [
        { productId: emptied.id, kind: 'count', quantity: -2, locationId: where },
      ]);
      const tracked = await s.trackedAt([
        { number: 'N1', quantity: 3, at: where },
        { number: 'N2', quantity: 5, at: main },
        { number: 'N3', quantity: 2, at: where, expiresOn: '2031-01-01' },
      ]);
      const take = await s.make({ location: where });
      const got = (await s.lines(take._id)).lines.map(
        (l) => `${l.product._id} ${l.lot?.number ?? '-'} ${l.expected}`,
      );
      expect(got.sort()).toEqual([`${held.id} - 4`, `${tracked.id} N1 3`, `${tracked.id} N3 2`].sort());
      expect(take.lines).toBe(3);
      expect(got.join()).not.toContain(elsewhere.id);
      expect(got.join()).not.toContain(emptied.id);
    });

    it('a tracked product in a category scope gets a line per lot with stock there, none for lots held elsewhere', async () => {
      const where = await s.location();
      const tracked = await s.trackedAt([
        { number: 'T1', quantity: 2, at: where },
        { number: 'T2', quantity: 4, at: main },
        { number: 'T3', quantity: 1, at: where, expiresOn: '2030-02-01' },
      ]);
      const take = await s.make({ location: where, categories: [tracked.categoryId] });
      const got = (await s.lines(take._id)).lines;
      // A product's lots by expiry, none last.
      expect(got.map((l) => [l.lot?.number, l.lot?.expiresOn, l.expected])).toEqual([
        ['T3', '2030-02-01', 1],
        ['T1', null, 2],
      ]);
    });

    it('refuses an empty scope, an unknown category or product (400), an unknown location (404) and an inactive one (409), making nothing', async () => {
      const where = await s.location();
      const refused = async (body: unknown, status: number, code: string, says?: string) => {
        const answer = await s.call('POST', '/api/stocktakes', body);
        expect(answer.status, answer.text).toBe(status);
        expect(s.refusal(answer).code).toBe(code);
        if (says) expect(s.refusal(answer).error).toContain(says);
      };
      await refused({ location: where }, 400, 'STOCKTAKE_EMPTY', 'nothing to count');
      const [empty] = await t.sql<{ id: string }>('insert into categories (name) values ($1) returning id', [
        `Empty ${tag()}`,
      ]);
      await refused({ location: where, categories: [empty?.id] }, 400, 'STOCKTAKE_EMPTY');
      const nobody = '00000000-0000-4000-8000-000000000001';
      await refused({ location: where, categories: [nobody] }, 400, 'BAD_REQUEST', nobody);
      await refused({ location: where, categories: ['not-an-id'] }, 400, 'BAD_REQUEST', 'not-an-id');
      await refused({ location: where, products: [nobody] }, 400, 'BAD_REQUEST', nobody);
      const a = await s.productAt(where, 1);
      await refused({ location: where, products: [a.id, nobody] }, 400, 'BAD_REQUEST', nobody);
      await refused({ location: nobody, products: [a.id] }, 404, 'NOT_FOUND');
      await refused({ location: 'nowhere', products: [a.id] }, 404, 'NOT_FOUND');
      const closed = await s.location(false);
      await refused({ location: closed, products: [a.id] }, 409, 'LOCATION_INACTIVE');
      expect(
        await t.sql('select 1 from stocktakes where location_id = any($1::uuid[])', [[where, closed]]),
      ).toEqual([]);
    });

    it('an overlap with an open stocktake there is a 409 naming it; after a post or cancel, or at another location, the products may be taken', async () => {
      const where = await s.location();
      const room = await s.location();
      const a = await s.productAt(where, 2);
      await s.receive(a.id, room, 1);
      const first = await s.make({ location: where, categories: [a.categoryId] });
      for (const body of [{ location: where, products: [a.id] }, { location: where }]) {
        const again = await s.call('POST', '/api/stocktakes', body);
        expect(again.status, again.text).toBe(409);
        expect(s.refusal(again)).toMatchObject({ code: 'STOCKTAKE_OVERLAP' });
        expect(s.refusal(again).error).toContain(first.number);
      }
      await s.make({ location: room, products: [a.id] });
      const cancelled = await s.call('POST', `/api/stocktakes/${first._id}/cancel`);
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(parsed(cancelled, StocktakeResponse).stocktake).toMatchObject({ status: 'cancelled' });
      expect(await t.sql('select 1 from stock_movements where stocktake_id = $1', [first._id])).toEqual([]);
      const second = await s.make({ location: where, products: [a.id] });
      await s.post(second._id);
      await s.make({ location: where, categories: [a.categoryId] });
    });

    it('a location with an open stocktake cannot be deactivated; once it is cancelled, it can', async () => {
      const where = await s.location();
      const a = await s.productAt(main, 3);
      const take = await s.make({ location: where, categories: [a.categoryId] });
      expect(take.lines).toBe(1);
      const refused = await s.call('PUT', `/api/locations/${where}`, { active: false });
      expect(refused.status, refused.text).toBe(409);
      expect(s.refusal(refused)).toMatchObject({ code: 'LOCATION_IN_USE' });
      expect(s.refusal(refused).error).toContain('has an open stocktake');
      await s.call('POST', `/api/stocktakes/${take._id}/cancel`);
      const done = await s.call('PUT', `/api/locations/${where}`, { active: false });
      expect(done.status, done.text).toBe(200);
    });
  });

  describe('reading its lines', () => {
    it('pages, searches by name, SKU, barcode and lot, and filters counted, differences and category', async () => {
      const where = await s.location();
      const word = tag();
      const a = await s.productAt(where, 5, { name: `Aspirin ${word}` });
      const b = await s.productAt(where, 3, { name: `Bandage ${word}`, category: a.categoryId });
      const c = await s.productAt(where, 2, { name: `Cream ${word}` });
      const lot = `LOT${tag()}`;
      const d = await s.trackedAt([{ number: lot, quantity: 4, at: where }], { category: a.categoryId });
      const take = await s.make({ location: where, categories: [a.categoryId, c.categoryId] });
      expect(take.lines).toBe(4);
      const ids = async (query: string) => (await s.lines(take._id, query)).lines.map((l) => l.product._id);

      const first = await s.lines(take._id, 'page=1&pageSize=3');
      const second = await s.lines(take._id, 'page=2&pageSize=3');
      expect(first).toMatchObject({ total: 4, page: 1, pageSize: 3 });
      expect(first.lines).toHaveLength(3);
      expect(second.lines).toHaveLength(1);
      expect(new Set([...first.lines, ...second.lines].map((l) => l._id)).size).toBe(4);
      expect((await s.lines(take._id, 'page=3&pageSize=3')).lines).toEqual([]);

      expect(await ids(`search=ASPIRIN%20${word}`)).toEqual([a.id]);
      expect(await ids(`search=${b.sku.toLowerCase()}`)).toEqual([b.id]);
      expect(await ids(`search=${c.barcode.toLowerCase()}`)).toEqual([c.id]);
      expect(await ids(`search=${lot.toLowerCase()}`)).toEqual([d.id]);
      expect(await ids('search=%25')).toEqual([]);
      expect((await s.lines(take._id, `search=${word}`)).total).toBe(3);

      await s.count(take._id, [
        { product: a.id, quantity: 5, mode: 'set' },
        { product: b.id, quantity: 1, mode: 'set' },
      ]);
      expect((await ids('counted=true')).sort()).toEqual([a.id, b.id].sort());
      expect((await ids('counted=false')).sort()).toEqual([c.id, d.id].sort());
      expect(await ids('differences=true')).toEqual([b.id]);
      expect(await ids(`category=${c.categoryId}`)).toEqual([c.id]);
      expect((await ids(`category=${a.categoryId}&counted=false`)).sort()).toEqual([d.id]);
      expect(await ids('category=none')).toEqual([]);
      expect(await ids('category=not-a-category')).toEqual([]);
    });

    it('in a blind stocktake counters see neither what is expected nor the cost, admins both; otherwise counters see what is expected, never the cost', async () => {
      const where = await s.location();
      const a = await s.productAt(where, 5, { cost: 1.5 });
      const b = await s.productAt(where, 2, { cost: 3 });
      const blind = await s.make({ location: where, products: [a.id], blind: true });
      const open = await s.make({ location: where, products: [b.id] });
      const [counted] = await s.count(blind._id, [{ product: a.id, quantity: 4, mode: 'set' }]);
      expect(counted).toMatchObject({ counted: 4 });
      for (const key of ['expected', 'expectedAtCount', 'cost', 'posted'])
        expect(counted).not.toHaveProperty(key);
      await s.count(open._id, [{ product: b.id, quantity: 2, mode: 'set' }]);
      for (const who of [t.as.salesRep, t.as.medicalRep, t.as.user]) {
        const hidden = nth((await s.lines(blind._id, 'pageSize=10', who.token)).lines);
        expect(hidden).toMatchObject({ counted: 4, countedBy: { _id: t.as.salesRep.id } });
        for (const key of ['expected', 'expectedAtCount', 'cost', 'posted'])
          expect(hidden).not.toHaveProperty(key);
        const shown = nth((await s.lines(open._id, 'pageSize=10', who.token)).lines);
        expect(shown).toMatchObject({ expected: 2, expectedAtCount: 2 });
        expect(shown).not.toHaveProperty('cost');
        const read = await s.call('GET', `/api/stocktakes/${blind._id}`, undefined, who.token);
        expect(read.status, read.text).toBe(200);
        expect(parsed(read, StocktakeResponse).stocktake).not.toHaveProperty('summary');
      }
      const admin = nth((await s.lines(blind._id)).lines);
      expect(admin).toMatchObject({ expected: 5, expectedAtCount: 5, cost: 1.5, posted: null });
      const review = parsed(await s.call('GET', `/api/stocktakes/${blind._id}`), StocktakeResponse).stocktake;
      expect(review.summary).toMatchObject({ unitsShort: 1, valueShort: 1.5 });
    });
  });

  describe('counting', () => {
    it('sets and adds by _id, SKU or barcode in any case, each count keeping who, when and the stock then', async () => {
      const where = await s.location();
      const a = await s.productAt(where, 7);
      const take = await s.make({ location: where, products: [a.id] });
      const before = Date.now();
      let [line] = await s.count(take._id, [{ product: a.id, quantity: 3, mode: 'set' }]);
      expect(line).toMatchObject({
        counted: 3,
        expectedAtCount: 7,
        countedBy: { _id: t.as.salesRep.id, name: t.as.salesRep.name },
      });
      expect(Date.parse(line?.countedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
      await s.receive(a.id, where, 2);
      [line] = await s.count(
        take._id,
        [{ product: a.sku.toLowerCase(), quantity: 2, mode: 'add' }],
        t.as.medicalRep.token,
      );
      expect(line).toMatchObject({ counted: 5, expectedAtCount: 9, countedBy: { _id: t.as.medicalRep.id } });
      const many = await s.count(
        take._id,
        [
          { product: ` ${a.barcode.toLowerCase()} `, quantity: 1, mode: 'add' },
          { product: a.id, quantity: 6, mode: 'set' },
          { product: a.sku, quantity: 1, mode: 'add' },
        ],
        t.as.user.token,
      );
      expect(many).toHaveLength(1);
      expect(many[0]).toMatchObject({ counted: 7, expectedAtCount: 9, countedBy: { _id: t.as.user.id } });
      const history = await t.sql<{ row: string }>(
        `select concat_ws(' ', c.mode, c.quantity, c.counted_after, c.expected_at_count, c.user_name) as row
           from stocktake_counts c join stocktake_lines l on l.id = c.line_id where l.stocktake_id = $1`,
        [take._id],
      );
      expect(history.map((h) => h.row).sort()).toEqual(
        [
          `set 3 3 7 ${t.as.salesRep.name}`,
          `add 2 5 9 ${t.as.medicalRep.name}`,
          `add 1 6 9 ${t.as.user.name}`,
          `set 6 6 9 ${t.as.user.name}`,
          `add 1 7 9 ${t.as.user.name}`,
        ].sort(),
      );
    });

    it('refuses a product outside the scope or an unknown code naming it, a tracked one without its lot, a lot where none belongs, a new lot without its expiry', async () => {
      const where = await s.location();
      const a = await s.productAt(where, 4);
      const outside = await s.productAt(where, 1, { name: `Outside ${tag()}` });
      const tracked = await s.trackedAt([{ number: 'K1', quantity: 2, at: where }]);
      const take = await s.make({ location: where, products: [a.id, tracked.id] });
      const refused = async (counts: CountInput[], status: number, code: string, says: string) => {
        const answer = await s.countAnswer(take._id, counts);
        expect(answer.status, answer.text).toBe(status);
        expect(s.refusal(answer).code).toBe(code);
        expect(s.refusal(answer).error).toContain(says);
      };
      const one = { quantity: 1, mode: 'add' as const };
      await refused([{ product: outside.sku, ...one }], 400, 'STOCKTAKE_OUT_OF_SCOPE', outside.name);
      await refused([{ product: outside.id, ...one }], 400, 'STOCKTAKE_OUT_OF_SCOPE', take.number);
      await refused([{ product: 'NO-SUCH-CODE', ...one }], 400, 'STOCKTAKE_OUT_OF_SCOPE', 'NO-SUCH-CODE');
      await refused([{ product: tracked.id, ...one }], 400, 'LOT_NEEDED', 'lot');
      await refused(
        [{ product: a.id, lot: { number: 'K1' }, ...one }],
        400,
        'BAD_REQUEST',
        'not tracked by lot',
      );
      await refused([{ product: tracked.id, lot: { number: 'NEW' }, ...one }], 400, 'BAD_REQUEST', 'expiry');
      // The third count is refused after the second made its lot and line: none of it stays.
      await refused(
        [
          { product: a.id, quantity: 2, mode: 'set' },
          { product: tracked.id, lot: { number: 'NEW2', expiresOn: '2030-01-01' }, quantity: 1, mode: 'set' },
          { product: a.id, quantity: 999_999, mode: 'add' },
        ],
        400,
        'BAD_REQUEST',
        '1,000,000',
      );
      await refused(
        [
          { product: a.id, quantity: 2, mode: 'set' },
          { product: tracked.id, lot: { number: 'NEW3', expiresOn: null }, quantity: 1, mode: 'set' },
          { product: tracked.id, lot: { number: 'K1', expiresOn: '2030-01-01' }, quantity: 1, mode: 'set' },
        ],
        409,
        'LOT_EXPIRY_DIFFERS',
        'K1',
      );
      expect((await s.lines(take._id)).lines.map((l) => l.counted)).toEqual([null, null]);
      expect(
        await t.sql(
          'select 1 from stocktake_counts c join stocktake_lines l on l.id = c.line_id where l.stocktake_id = $1',
          [take._id],
        ),
      ).toEqual([]);
      expect(
        await t.sql(`select number from lots where product_id = $1 and number like 'NEW%'`, [tracked.id]),
      ).toEqual([]);
    });

    it('a lot not on the list becomes a line: a known number in any case, a new one with its expiry; posted into their lots', async () => {
      const where = await s.location();
      const tracked = await s.trackedAt([
        { number: 'ON', quantity: 3, at: where },
        { number: 'AWAY', quantity: 4, at: main },
      ]);
      const take = await s.make({ location: where, products: [tracked.id] });
      expect(take.lines).toBe(1);
      const counted = await s.count(take._id, [
        { product: tracked.sku, lot: { number: 'away' }, quantity: 2, mode: 'set' },
        {
          product: tracked.barcode,
          lot: { number: 'FRESH', expiresOn: '2030-06-30' },
          quantity: 5,
          mode: 'set',
        },
        { product: tracked.id, lot: { number: 'on' }, quantity: 1, mode: 'add' },
        { product: tracked.id, lot: { number: 'FRESH' }, quantity: 1, mode: 'add' },
      ]);
      expect(counted.map((l) => `${l.lot?.number} ${l.counted} ${l.expectedAtCount}`).sort()).toEqual(
        ['AWAY 2 0', 'FRESH 6 0', 'ON 1 3'].sort(),
      );
      const fresh = nth(
        await t.sql<{ id: string; expires: string }>(
          `select id, expires_on::text as expires from lots where product_id = $1 and number = 'FRESH'`,
          [tracked.id],
        ),
      );
      expect(fresh.expires).toBe('2030-06-30');
      expect((await s.lines(take._id)).total).toBe(3);
      await s.post(take._id);
      expect(await s.stockAt(tracked.id, where, tracked.lots.ON)).toBe(1);
      expect(await s.stockAt(tracked.id, where, tracked.lots.AWAY)).toBe(2);
      expect(await s.stockAt(tracked.id, main, tracked.lots.AWAY)).toBe(4);
      expect(await s.stockAt(tracked.id, where, fresh.id)).toBe(6);
      expect(await s.stockAt(tracked.id, where)).toBe(9);
      expect(
        (
          await t.sql<{ lot: string; quantity: number }>(
            'select lot_id as lot, quantity from stock_movements where stocktake_id = $1 order by quantity',
            [take._id],
          )
        ).map((m) => [m.lot, m.quantity]),
      ).toEqual([
        [tracked.lots.ON, -2],
        [tracked.lots.AWAY, 2],
        [fresh.id, 6],
      ]);
      expect(await locationLedgerProblems(t.app.database, [tracked.id])).toEqual([]);
    });

    it('a line counts at most 1,000,000: adds past it are a 400 and leave the count as it was', async () => {
      const where = await s.location();
      const a = await s.productAt(where, 1);
      const take = await s.make({ location: where, products: [a.id] });
      await s.count(take._id, [{ product: a.id, quantity: 999_999, mode: 'set' }]);
      const over = await s.countAnswer(take._id, [{ product: a.id, quantity: 2, mode: 'add' }]);
      expect(over.status, over.text).toBe(400);
      expect(s.refusal(over).error).toBe('A line may count at most 1,000,000 units.');
      expect(nth((await s.lines(take._id)).lines).counted).toBe(999_999);
      expect(nth(await s.count(take._id, [{ product: a.id, quantity: 1, mode: 'add' }])).counted).toBe(
        1_000_000,
      );
    });

    it('a posted or cancelled stocktake takes no count, post or cancel (409 STOCKTAKE_STATUS)', async () => {
      const where = await s.location();
      const a = await s.productAt(where, 1);
      const b = await s.productAt(where, 1);
      const posted = await s.make({ location: where, products: [a.id] });
      await s.post(posted._id);
      const cancelled = await s.make({ location: where, products: [b.id] });
      await s.call('POST', `/api/stocktakes/${cancelled._id}/cancel`);
      for (const [take, product, status] of [
        [posted, a.id, 'posted'],
        [cancelled, b.id, 'cancelled'],
      ] as const) {
        for (const answer of [
          await s.countAnswer(take._id, [{ product, quantity: 1, mode: 'add' }]),
          await s.call('POST', `/api/stocktakes/${take._id}/post`, { uncounted: 'keep' }),
          await s.call('POST', `/api/stocktakes/${take._id}/cancel`),
        ]) {
          expect(answer.status, answer.text).toBe(409);
          expect(s.refusal(answer)).toMatchObject({ code: 'STOCKTAKE_STATUS' });
          expect(s.refusal(answer).error).toContain(`${take.number} is ${status}`);
        }
      }
      expect(await s.stockAt(a.id, where)).toBe(1);
    });
  });

  describe('posting', () => {
    it('writes counted − expected at the count per line (a zero too): what was sold or received after the count stays counted', async () => {
      const a = await s.productAt(main, 10, { cost: 1.1 });
      const z = await s.productAt(main, 4);
      const take = await s.make({ location: main, products: [a.id, z.id], note: 'Spring count' });
      await s.count(take._id, [
        { product: a.id, quantity: 8, mode: 'set' },
        { product: z.id, quantity: 4, mode: 'set' },
      ]);
      await sold(t.as.salesRep, { lines: [{ productId: a.id, quantity: 3 }] });
      await s.receive(a.id, main, 5);
      const answer = await s.post(take._id);
      expect(answer.clamped).toEqual([]);
      expect(answer.stocktake).toMatchObject({
        status: 'posted',
        uncounted: 'keep',
        note: 'Spring count',
        postedBy: { _id: t.as.admin.id },
        summary: { counted: 2, unitsShort: 2, unitsOver: 0, valueShort: 2.2, valueOver: 0, net: -2.2 },
      });
      expect(await s.stockAt(a.id, main)).toBe(8 - 3 + 5);
      expect(await s.stockAt(z.id, main)).toBe(4);
      const movements = await t.sql<{ product: string; kind: string; quantity: number; note: string }>(
        `select product_id as product, kind, quantity, note from stock_movements where stocktake_id = $1 order by quantity`,
        [take._id],
      );
      expect(movements).toEqual([
        { product: a.id, kind: 'count', quantity: -2, note: expect.stringContaining(take.number) },
        { product: z.id, kind: 'count', quantity: 0, note: expect.stringContaining(take.number) },
      ]);
      expect((await s.lines(take._id)).lines.map((l) => [l.product._id, l.posted]).sort()).toEqual(
        [
          [a.id, -2],
          [z.id, 0],
        ].sort(),
      );
      const audit = await t.sql<{ action: string; actor: string }>(
        `select action, actor_id as actor from audit_log where entity_type = 'stocktake' and entity_id = $1 and action = 'posted'`,
        [take._id],
      );
      expect(audit).toEqual([{ action: 'posted', actor: t.as.admin.id }]);
      const again = await s.call('POST', `/api/stocktakes/${take._id}/post`, { uncounted: 'zero' });
      expect(again.status).toBe(409);
      expect(await t.sql('select 1 from stock_movements where stocktake_id = $1', [take._id])).toHaveLength(
        2,
      );
      const check = await s.call('GET', '/api/stock/check');
      expect(parsed(check, StockCheckResponse).mismatches).toEqual([]);
      expect(await locationLedgerProblems(t.app.database, [a.id, z.id])).toEqual([]);
    });

    it('uncounted lines are kept, or with zero written down to 0 (a tracked one in its lot)', async () => {
      const where = await s.location();
      const a = await s.productAt(where, 5);
      const b = await s.productAt(where, 3);
      const c = await s.trackedAt([{ number: 'Z1', quantity: 2, at: where }]);
      const kept = await s.make({ location: where, products: [a.id, b.id, c.id] });
      await s.count(kept._id, [{ product: a.id, quantity: 6, mode: 'set' }]);
      await s.post(kept._id, 'keep');
      expect([
        await s.stockAt(a.id, where),
        await s.stockAt(b.id, where),
        await s.stockAt(c.id, where),
      ]).toEqual([6, 3, 2]);
      expect(await t.sql('select 1 from stock_movements where stocktake_id = $1', [kept._id])).toHaveLength(
        1,
      );
      const zeroed = await s.make({ location: where, products: [a.id, b.id, c.id] });
      await s.count(zeroed._id, [{ product: a.id, quantity: 6, mode: 'set' }]);
      const answer = await s.post(zeroed._id, 'zero');
      expect(answer.clamped).toEqual([]);
      expect(answer.stocktake.uncounted).toBe('zero');
      expect([
        await s.stockAt(a.id, where),
        await s.stockAt(b.id, where),
        await s.stockAt(c.id, where),
      ]).toEqual([6, 0, 0]);
      expect(await s.stockAt(c.id, where, c.lots.Z1)).toBe(0);
      const movements = await t.sql<{ product: string; quantity: number; lot: string | null }>(
        'select product_id as product, quantity, lot_id as lot from stock_movements where stocktake_id = $1 order by quantity',
        [zeroed._id],
      );
      expect(movements).toEqual([
        { product: b.id, quantity: -3, lot: null },
        { product: c.id, quantity: -2, lot: c.lots.Z1 },
        { product: a.id, quantity: 0, lot: null },
      ]);
      expect(await locationLedgerProblems(t.app.database, [a.id, b.id, c.id])).toEqual([]);
    });

    it('a counted line that would fall below 0 (sold after its count) goes to 0 and is listed in clamped', async () => {
      const a = await s.productAt(main, 5);
      const lotted = await s.trackedAt([{ number: `CL${tag()}`, quantity: 4, at: main }]);
      const lotNumber = Object.keys(lotted.lots)[0] as string;
      const take = await s.make({ location: main, products: [a.id, lotted.id] });
      await s.count(take._id, [
        { product: a.id, quantity: 1, mode: 'set' },
        { product: lotted.id, lot: { number: lotNumber }, quantity: 1, mode: 'set' },
      ]);
      await sold(t.as.salesRep, {
        lines: [
          { productId: a.id, quantity: 3 },
          { productId: lotted.id, quantity: 2 },
        ],
      });
      const answer = await s.post(take._id);
      expect(answer.clamped).toHaveLength(2);
      expect(answer.clamped).toEqual(
        expect.arrayContaining([
          { product: { _id: a.id, name: expect.any(String) }, difference: -4, posted: -2 },
          {
            product: { _id: lotted.id, name: expect.any(String) },
            lot: { _id: lotted.lots[lotNumber], number: lotNumber, expiresOn: null },
            difference: -3,
            posted: -2,
          },
        ]),
      );
      expect(await s.stockAt(a.id, main)).toBe(0);
      expect(await s.stockAt(lotted.id, main, lotted.lots[lotNumber])).toBe(0);
      expect(await locationLedgerProblems(t.app.database, [a.id, lotted.id])).toEqual([]);
    });

    it('the review’s figures are exact to the cent: over and short at cost, net, by category in name order', async () => {
      const where = await s.location();
      const p1 = await s.productAt(where, 10, { cost: 0.1 });
      await t.sql('update categories set name = $2 where id = $1', [p1.categoryId, `Alpha ${tag()}`]);
      const p2 = await s.productAt(where, 10, { cost: 0.2, category: p1.categoryId });
      const p3 = await s.productAt(where, 3, { cost: 0.7, category: p1.categoryId });
      const p7 = await s.productAt(where, 1, { cost: 5, category: p1.categoryId });
      const p4 = await s.productAt(where, 1, { cost: 1_234_567.89 });
      await t.sql('update categories set name = $2 where id = $1', [p4.categoryId, `beta ${tag()}`]);
      // Every product has a category (products.category_id is not null), so none is never a group.
      const p5 = await s.productAt(where, 2, { cost: null });
      await t.sql('update categories set name = $2 where id = $1', [p5.categoryId, `Gamma ${tag()}`]);
      const p6 = await s.productAt(where, 0, { cost: 0.01, category: p5.categoryId });
      const take = await s.make({
        location: where,
        categories: [p4.categoryId, p1.categoryId],
        products: [p5.id, p6.id],
      });
      await s.count(take._id, [
        { product: p1.id, quantity: 13, mode: 'set' },
        { product: p2.id, quantity: 9, mode: 'set' },
        { product: p3.id, quantity: 0, mode: 'set' },
        { product: p4.id, quantity: 4, mode: 'set' },
        { product: p5.id, quantity: 5, mode: 'set' },
      ]);
      const figures = (
        lines: number,
        counted: number,
        over: number,
        short: number,
        valueOver: number,
        valueShort: number,
        net: number,
      ) => ({
        lines,
        counted,
        uncounted: lines - counted,
        unitsOver: over,
        unitsShort: short,
        valueOver,
        valueShort,
        net,
      });
      const review = parsed(await s.call('GET', `/api/stocktakes/${take._id}`), StocktakeResponse).stocktake;
      expect(review.summary).toEqual({
        ...figures(7, 5, 9, 4, 3_703_703.97, 2.3, 3_703_701.67),
        categories: [
          {
            category: { _id: p1.categoryId, name: expect.stringMatching(/^Alpha/) },
            ...figures(4, 3, 3, 4, 0.3, 2.3, -2),
          },
          {
            category: { _id: p4.categoryId, name: expect.stringMatching(/^beta/) },
            ...figures(1, 1, 3, 0, 3_703_703.67, 0, 3_703_703.67),
          },
          {
            category: { _id: p5.categoryId, name: expect.stringMatching(/^Gamma/) },
            ...figures(2, 1, 3, 0, 0, 0, 0),
          },
        ],
      });
      expect(p7.id).toBeTruthy();
      const posted = await s.post(take._id);
      expect(posted.stocktake.summary).toEqual(review.summary);
    });

    it('a post repeated with its Idempotency-Key answers the same and writes once', async () => {
      const a = await s.productAt(main, 6);
      const take = await s.make({ location: main, products: [a.id] });
      await s.count(take._id, [{ product: a.id, quantity: 2, mode: 'set' }]);
      const headers = { [IDEMPOTENCY_HEADER]: `post-${tag()}` };
      const once = () =>
        t.call('POST', `/api/stocktakes/${take._id}/post`, {
          token: t.as.admin.token,
          body: { uncounted: 'keep' },
          headers,
        });
      const [first, second] = await Promise.all([once(), once()]);
      const third = await once();
      for (const answer of [first, second, third]) {
        expect(answer?.status, answer?.text).toBe(200);
        expect(answer?.body).toEqual(first?.body);
      }
      expect(await t.sql('select 1 from stock_movements where stocktake_id = $1', [take._id])).toHaveLength(
        1,
      );
      expect(
        await t.sql(`select 1 from audit_log where entity_id = $1 and action = 'posted'`, [take._id]),
      ).toHaveLength(1);
      expect(await s.stockAt(a.id, main)).toBe(2);
    });
  });
});
