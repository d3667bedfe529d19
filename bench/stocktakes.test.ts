import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordMovements } from '../src/server/modules/stock/movements';
import { startApp, type TestApp, targets } from '../src/server/test/harness';
import { locationLedgerProblems } from '../src/server/test/location-ledger';
import { countAndPost, prepareStocktakes, scanAll, timedRow } from './stocktakes';

const LINES = 300;

/**
 * The benchmark's stocktakes, run small against a test server: one of every line of its category
 * counted and posted, and four people's racing scans into another, every one counted.
 */
describe.each(targets)('the bench stocktake scenario on $name', (target) => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await startApp(target);
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it(`posts a ${LINES}-line stocktake counted whole, its differences as planned, and counts every racing scan`, async () => {
    const [category] = await t.sql<{ id: string }>(
      `insert into categories (name) values ('Bench stocktake') returning id`,
    );
    const [supplier] = await t.sql<{ id: string }>(
      `insert into suppliers (name) values ('Bench stocktake supplier') returning id`,
    );
    await t.sql(
      `insert into products (name, price, stock, category_id, supplier_id, sku, barcode)
       select 'Bench counted ' || n, '1.00', 0, $1, $2, 'STB-' || n, '29' || lpad(n::text, 11, '0')
       from generate_series(1, ${LINES}) n`,
      [category?.id, supplier?.id],
    );
    const [shop] = await t.sql<{ id: string }>(
      `insert into locations (name, kind) values ('Bench counted shop', 'store') returning id`,
    );
    const [room] = await t.sql<{ id: string }>(
      `insert into locations (name, kind) values ('Bench scanned room', 'stockroom') returning id`,
    );
    const ids = (
      await t.sql<{ id: string }>('select id from products where category_id = $1 order by id', [
        category?.id,
      ])
    ).map((row) => row.id);
    // Opening stock at the shop (0 to 6 units), as the loader's: products no run has moved.
    await recordMovements(
      t.app.database,
      ids
        .map((productId, i) => ({
          productId,
          kind: 'initial' as const,
          quantity: i % 7,
          note: 'Opening balance',
          locationId: shop?.id,
        }))
        .filter((movement) => movement.quantity > 0),
    );
    const [before] = await t.sql<{ n: number }>(
      'select coalesce(sum(stock), 0)::int as n from location_stock where location_id = $1',
      [shop?.id],
    );

    const set = await prepareStocktakes(
      t.app.database,
      { location: shop?.id as string, scanLocation: room?.id as string },
      LINES,
    );
    expect(set.categories).toEqual([category?.id]);
    expect(set.lines).toBe(LINES);
    const planned = Object.values(set.differences);
    expect(planned.filter((d) => d === 2).length).toBe(LINES / 20);
    expect(planned.filter((d) => d === -1).length).toBeGreaterThan(0);
    expect(set.ledgerAloneMs).toBeGreaterThan(0);
    expect(set.scanCodes.some((code) => code.startsWith('STB-'))).toBe(true);
    expect(set.scanCodes.some((code) => code.startsWith('29'))).toBe(true);
    // The limit's movements were rolled back.
    const [counts] = await t.sql<{ n: number }>(
      `select count(*)::int as n from stock_movements where kind = 'count'`,
    );
    expect(counts?.n).toBe(0);

    const post = await countAndPost(url, { authorization: `Bearer ${t.as.admin.token}` }, set);
    expect(post.problems).toEqual([]);
    expect(post.lines).toBe(LINES);
    expect(post.counts).toHaveLength(1);
    expect(post.differing).toBe(planned.length);
    expect([post.unitsOver, post.unitsShort]).toEqual([
      2 * (LINES / 20),
      planned.filter((d) => d === -1).length,
    ]);
    expect(post.postMs).toBeGreaterThan(0);
    const [after] = await t.sql<{ n: number; movements: number }>(
      `select (select coalesce(sum(stock), 0)::int from location_stock where location_id = $1) as n,
              (select count(*)::int from stock_movements where stocktake_id is not null) as movements`,
      [shop?.id],
    );
    expect(after?.n).toBe((before?.n ?? 0) + planned.reduce((a, b) => a + b, 0));
    expect(after?.movements).toBe(LINES);

    const staff = [t.as.salesRep, t.as.medicalRep, t.as.user, t.as.admin];
    const scans = await scanAll(
      url,
      { authorization: `Bearer ${t.as.admin.token}` },
      (client) => ({ authorization: `Bearer ${staff[client % staff.length]?.token}` }),
      set,
      4,
      25,
      2,
    );
    expect(scans.problems).toEqual([]);
    expect(scans.lines).toBe(LINES);
    // 4 × 25 flat out, then 4 people each scanning every 250 ms for 2 s.
    expect(scans.sent).toBe(132);
    expect(scans.counted).toBe(132);
    expect([scans.people?.requests, scans.people?.statuses['200']]).toEqual([32, 32]);
    expect([scans.floor.ms.length, scans.scans.ms.length]).toEqual([100, 100]);
    const row = timedRow('scans', 4, scans.scans);
    expect([row.requests, row.statuses['200']]).toEqual([100, 100]);
    expect(row.p99).toBeGreaterThanOrEqual(row.p50);
    console.log(
      `[${target.name}] ${LINES}-line stocktake posted in ${post.postMs.toFixed(0)} ms (its movements alone ${set.ledgerAloneMs.toFixed(0)} ms); scans p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms`,
    );
    // The scanners' stocktake was cancelled: nothing written at the stockroom.
    const [scanned] = await t.sql<{ status: string; movements: number }>(
      `select (select status from stocktakes where location_id = $1) as status,
              (select count(*)::int from stock_movements where location_id = $1) as movements`,
      [room?.id],
    );
    expect(scanned).toEqual({ status: 'cancelled', movements: 0 });
    expect(await locationLedgerProblems(t.app.database, ids)).toEqual([]);
  }, 120_000);
});
