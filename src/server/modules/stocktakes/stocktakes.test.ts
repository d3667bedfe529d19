import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import {
  CountsResponse,
  PostStocktakeResponse,
  type Stocktake,
  type StocktakeInput,
  StocktakeLinesResponse,
  StocktakeResponse,
} from '../../../shared/stocktakes';
import { fixtures, nth } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { locationLedgerProblems } from '../../test/location-ledger';

describe.each(targets)('stocktakes on $name', (target) => {
  let t: TestApp;
  let main: string;
  beforeAll(async () => {
    t = await startApp(target);
    main = (await t.sql<{ id: string }>('select default_location() as id'))[0]?.id as string;
  });
  afterAll(() => t?.close());
  const { sold, stockOf } = fixtures(() => t);
  const call = (method: string, url: string, body?: unknown, token = t.as.admin.token) =>
    t.call(method, url, { token, body });
  const make = async (body: StocktakeInput): Promise<Stocktake> => {
    const answer = await call('POST', '/api/stocktakes', body);
    expect(answer.status, answer.text).toBe(201);
    return parsed(answer, StocktakeResponse).stocktake;
  };

  it('counts a category while it sells, and posts counted − expected at the count', async () => {
    const a = await t.product({ stock: 10, price: 2 });
    await t.sql(`update products set cost = 1.25, sku = 'ST-A-' || substr(id::text, 1, 8) where id = $1`, [
      a.id,
    ]);
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
      { product: { _id: a.id }, counted: 8, expectedAtCount: 10, expected: 7 },
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
});
