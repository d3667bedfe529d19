import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SaleResponse } from '../../../shared/sales';
import { StockCheckResponse } from '../../../shared/stock';
import { CountsResponse, StocktakeResponse } from '../../../shared/stocktakes';
import { runnerOf } from '../../db/connection';
import { nth, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { locationLedgerProblems } from '../../test/location-ledger';
import { recordMovements } from '../stock/movements';
import { stocktakeFixtures } from './stocktake-fixtures';

/**
 * Stocktakes under concurrency (DESIGN §18): creates racing for one product, scanners racing on one
 * line and on one new lot, a post while the shop sells and counts, a deactivation meeting a create,
 * and a post of 2,000 lines. On PostgreSQL the requests truly overlap; PGlite runs them one by one,
 * and the answers must be the same.
 */
describe.each(targets)('stocktakes under races on $name', (target) => {
  let t: TestApp;
  let main: string;
  beforeAll(async () => {
    t = await startApp(target);
    main = (await t.sql<{ id: string }>('select default_location() as id'))[0]?.id as string;
  });
  afterAll(() => t?.close());
  const s = stocktakeFixtures(() => t);
  const historyOf = async (id: string) =>
    nth(
      await t.sql<{ n: number }>(
        'select count(*)::int as n from stocktake_counts c join stocktake_lines l on l.id = c.line_id where l.stocktake_id = $1',
        [id],
      ),
    ).n;

  it('two creates of one product racing: exactly one 201, the other a 409 naming it', async () => {
    const where = await s.location();
    const a = await s.productAt(where, 3);
    const answers = await Promise.all([
      s.call('POST', '/api/stocktakes', { location: where, products: [a.id] }),
      s.call('POST', '/api/stocktakes', { location: where, categories: [a.categoryId] }),
    ]);
    const made = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(made, answers.map((answer) => answer.text).join('\n')).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const winner = parsed(nth(made), StocktakeResponse).stocktake;
    expect(s.refusal(nth(refused))).toMatchObject({ code: 'STOCKTAKE_OVERLAP' });
    expect(s.refusal(nth(refused)).error).toContain(winner.number);
    expect(
      await t.sql(`select 1 from stocktake_products where product_id = $1 and open`, [a.id]),
    ).toHaveLength(1);
  });

  it('20 scanners adding 1 at once all count: 20 counted, 20 counts kept', async () => {
    const where = await s.location();
    const a = await s.productAt(where, 5);
    const take = await s.make({ location: where, products: [a.id] });
    const tokens = [t.as.salesRep.token, t.as.medicalRep.token, t.as.user.token, t.as.admin.token];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.countAnswer(take._id, [{ product: i % 2 ? a.sku : a.id, quantity: 1, mode: 'add' }], tokens[i % 4]),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(nth((await s.lines(take._id)).lines)).toMatchObject({ counted: 20, expectedAtCount: 5 });
    expect(await historyOf(take._id)).toBe(20);
    const afters = await t.sql<{ after: number }>(
      `select c.counted_after as after from stocktake_counts c join stocktake_lines l on l.id = c.line_id
        where l.stocktake_id = $1 order by c.counted_after`,
      [take._id],
    );
    expect(afters.map((row) => row.after)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('scanners counting lots not on the list at once make each line once, in whatever order they name them', async () => {
    const where = await s.location();
    const tracked = await s.trackedAt([
      { number: 'HERE', quantity: 1, at: where },
      { number: 'THERE', quantity: 3, at: main },
    ]);
    const take = await s.make({ location: where, products: [tracked.id] });
    const there = { product: tracked.id, lot: { number: 'THERE' }, quantity: 1, mode: 'add' as const };
    const fresh = {
      product: tracked.sku,
      lot: { number: 'NEWLY', expiresOn: '2031-03-01' },
      quantity: 1,
      mode: 'add' as const,
    };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => s.countAnswer(take._id, i % 2 ? [there, fresh] : [fresh, there])),
    );
    expect(
      answers.map((answer) => answer.status),
      answers.map((a) => a.text).join('\n'),
    ).toEqual(Array(12).fill(200));
    for (const answer of answers) expect(parsed(answer, CountsResponse).counted).toHaveLength(2);
    const lines = (await s.lines(take._id)).lines.map((l) => `${l.lot?.number} ${l.counted}`);
    expect(lines.sort()).toEqual(['HERE null', 'NEWLY 12', 'THERE 12']);
    expect(
      await t.sql(`select 1 from lots where product_id = $1 and number = 'NEWLY'`, [tracked.id]),
    ).toHaveLength(1);
    expect(await historyOf(take._id)).toBe(24);
  });

  it('a post while the shop sells and counts: no deadlock, every counted line posted as counted − expected at its count', async () => {
    const products = await Promise.all(Array.from({ length: 6 }, () => s.productAt(main, 40)));
    const take = await s.make({ location: main, products: products.map((p) => p.id) });
    await s.count(
      take._id,
      products.map((p) => ({ product: p.id, quantity: 30, mode: 'set' as const })),
    );
    const sale = (i: number) =>
      t.call('POST', '/api/sales', {
        token: t.as.salesRep.token,
        body: {
          lines: [...products]
            .sort(() => (i % 2 ? 1 : -1))
            .slice(0, 4)
            .map((p) => ({ productId: p.id, quantity: 1 })),
          payment: { method: 'card' },
        },
      });
    const [posted, ...rest] = await Promise.all([
      s.call('POST', `/api/stocktakes/${take._id}/post`, { uncounted: 'keep' }),
      ...Array.from({ length: 6 }, (_, i) => sale(i)),
      ...products.map((p) => s.countAnswer(take._id, [{ product: p.id, quantity: 1, mode: 'add' }])),
    ]);
    expect(posted?.status, posted?.text).toBe(200);
    const sales = rest.slice(0, 6);
    const counts = rest.slice(6);
    for (const answer of sales) {
      expect(answer.status, answer.text).toBe(201);
      parsed(answer, SaleResponse);
    }
    for (const answer of counts) {
      expect([200, 409], answer.text).toContain(answer.status);
      if (answer.status === 409) expect(s.refusal(answer).code).toBe('STOCKTAKE_STATUS');
    }
    // Each line's movement is its last count less the stock read then, and nothing came after the post.
    const rows = await t.sql<{ counted: number; expected: number; posted: number; moved: number }>(
      `select l.counted, l.expected_at_count as expected, l.posted,
              (select sum(m.quantity)::int from stock_movements m where m.stocktake_id = l.stocktake_id
                and m.product_id = l.product_id) as moved
         from stocktake_lines l where l.stocktake_id = $1`,
      [take._id],
    );
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.posted).toBe(row.counted - row.expected);
      expect(row.moved).toBe(row.posted);
    }
    expect(
      await locationLedgerProblems(
        t.app.database,
        products.map((p) => p.id),
      ),
    ).toEqual([]);
    expect(parsed(await s.call('GET', '/api/stock/check'), StockCheckResponse).mismatches).toEqual([]);
  });

  if (target.name === 'postgres')
    it('a stocktake made while its location is being deactivated waits, and is refused once it is inactive', async () => {
      const where = await s.location();
      const a = await s.productAt(main, 2);
      let made: ReturnType<typeof s.call> | undefined;
      await t.app.database.db.transaction(async (tx) => {
        const q = runnerOf(tx);
        await q.query('select id from locations where id = $1 for update', [where]);
        made = s.call('POST', '/api/stocktakes', { location: where, categories: [a.categoryId] });
        await new Promise((resolve) => setTimeout(resolve, 300));
        await q.query('update locations set active = false where id = $1', [where]);
      });
      const answer = await (made as ReturnType<typeof s.call>);
      expect(answer.status, answer.text).toBe(409);
      expect(s.refusal(answer).code).toBe('LOCATION_INACTIVE');
      expect(await t.sql(`select 1 from stocktakes where location_id = $1`, [where])).toEqual([]);
    });

  it('a stocktake of 2,000 lines counted in one request posts every line', async () => {
    const where = await s.location();
    const [category] = await t.sql<{ id: string }>('insert into categories (name) values ($1) returning id', [
      `Big ${tag()}`,
    ]);
    const [supplier] = await t.sql<{ id: string }>('insert into suppliers (name) values ($1) returning id', [
      `Big ${tag()}`,
    ]);
    const prefix = tag().toUpperCase();
    const ids = await t.sql<{ id: string; n: number }>(
      `insert into products (name, price, stock, category_id, supplier_id, cost, sku)
       select 'Big ' || n, 1, 0, $1, $2, 0.5, $3 || '-' || n from generate_series(1, 2000) n
       returning id, substring(sku from '[0-9]+$')::int as n`,
      [category?.id, supplier?.id, prefix],
    );
    await recordMovements(
      t.app.database,
      [...ids]
        .sort((x, y) => (x.id < y.id ? -1 : 1))
        .map((p) => ({ productId: p.id, kind: 'receipt' as const, quantity: 10, locationId: where })),
    );
    const take = await s.make({ location: where, categories: [category?.id as string] });
    expect(take.lines).toBe(2000);
    // Line n counts n % 21: from 10 short to 10 over.
    await s.count(
      take._id,
      ids.map((p) => ({ product: `${prefix}-${p.n}`, quantity: p.n % 21, mode: 'set' as const })),
    );
    const answer = await s.post(take._id, 'keep');
    expect(answer.clamped).toEqual([]);
    const over = ids.reduce((sum, p) => sum + Math.max(0, (p.n % 21) - 10), 0);
    const short = ids.reduce((sum, p) => sum + Math.max(0, 10 - (p.n % 21)), 0);
    expect(answer.stocktake.summary).toMatchObject({
      lines: 2000,
      counted: 2000,
      unitsOver: over,
      unitsShort: short,
      valueOver: over / 2,
      valueShort: short / 2,
    });
    const wrong = await t.sql(
      `select p.id from products p join location_stock ls on ls.product_id = p.id and ls.location_id = $1
        where p.category_id = $2 and ls.stock <> substring(p.sku from '[0-9]+$')::int % 21`,
      [where, category?.id],
    );
    expect(wrong).toEqual([]);
    expect(await t.sql('select 1 from stock_movements where stocktake_id = $1', [take._id])).toHaveLength(
      2000,
    );
    expect(
      await locationLedgerProblems(
        t.app.database,
        ids.map((p) => p.id),
      ),
    ).toEqual([]);
  });
});
