import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, targets } from '../src/server/test/harness';
import { locationLedgerProblems } from '../src/server/test/location-ledger';
import { percentile } from './settings';
import { prepareTransfers, sendAndReceiveAll, TRANSFER_LINES } from './transfers';

/** The benchmark's transfers, run small against a test server: prepared, sent and received whole. */
describe.each(targets)('the bench transfer scenario on $name', (target) => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await startApp(target);
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it(`sends and receives ${TRANSFER_LINES}-line transfers, every one answered 200, the ledgers whole`, async () => {
    await t
      .sql(
        `insert into products (name, price, stock, category_id, supplier_id)
       select 'Bench transfer ' || n, '1.00', 0, (select id from categories limit 1), (select id from suppliers limit 1)
       from generate_series(1, ${TRANSFER_LINES}) n`,
      )
      .catch(async () => {
        await t.product();
        await t.sql(
          `insert into products (name, price, stock, category_id, supplier_id)
         select 'Bench transfer ' || n, '1.00', 0, (select id from categories limit 1), (select id from suppliers limit 1)
         from generate_series(1, ${TRANSFER_LINES} - 1) n`,
        );
      });
    const set = await prepareTransfers(t.app.database, 0);
    expect(set.products).toHaveLength(TRANSFER_LINES);
    const run = await sendAndReceiveAll(url, { authorization: `Bearer ${t.as.admin.token}` }, set, 3);
    expect(run.failures).toEqual([]);
    expect([run.send.length, run.receive.length]).toEqual([3, 3]);
    console.log(
      `[${target.name}] ${TRANSFER_LINES}-line transfer: send p99 ${percentile(
        [...run.send].sort((a, b) => a - b),
        0.99,
      ).toFixed(0)} ms, receive p99 ${percentile(
        [...run.receive].sort((a, b) => a - b),
        0.99,
      ).toFixed(0)} ms`,
    );
    const [atTo] = await t.sql<{ n: number }>(
      'select coalesce(sum(stock), 0)::int as n from location_stock where location_id = $1',
      [set.to],
    );
    expect(atTo?.n).toBe(3 * TRANSFER_LINES);
    expect(await locationLedgerProblems(t.app.database, set.products)).toEqual([]);
  }, 120_000);
});
