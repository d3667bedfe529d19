import { afterAll, describe, expect, it } from 'vitest';
import { StockCheckResponse } from '../../../shared/stock';
import { PostStocktakeResponse, StocktakeResponse } from '../../../shared/stocktakes';
import type { Database } from '../../db/connection';
import { users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';
import { targets } from '../../test/harness';
import { locationLedgerProblems } from '../../test/location-ledger';
import { type ServerProcess, serverDatabase, signInTo, startServer } from '../../test/process';
import { recordMovements } from '../stock/movements';

const PASSWORD = 'stocktake kill password';
const EMAIL = 'owner@stocktakes-kill.test';
const LINES = 2000;
/** Every tenth line is left uncounted (and zeroed by the post). */
const uncounted = (n: number) => n % 10 === 0;
/** What the n-th product is counted at in the stocktake of `round`: about its 10, a few over or short. */
const countOf = (n: number, round: number) => 7 + ((n * 7 + round * 3) % 7);

/** An admin, and LINES products of one category holding 10 units each at the default location. */
async function seed(database: Database): Promise<{ category: string; main: string; products: string[] }> {
  const [category] = await database.query<{ id: string }>(
    `insert into categories (name) values ('Kill stocktake category') returning id`,
  );
  const [supplier] = await database.query<{ id: string }>(
    `insert into suppliers (name) values ('Kill stocktake supplier') returning id`,
  );
  const rows = await database.query<{ id: string }>(
    `insert into products (name, price, stock, category_id, supplier_id, cost)
     select 'Kill count ' || lpad(n::text, 5, '0'), '2.00', 0, $1, $2, '1.00'
       from generate_series(1, ${LINES}) n returning id`,
    [category?.id, supplier?.id],
  );
  const products = rows.map((row) => row.id).sort();
  const [main] = await database.query<{ id: string }>('select default_location() as id');
  for (let start = 0; start < products.length; start += 500)
    await recordMovements(
      database,
      products.slice(start, start + 500).map((productId) => ({
        productId,
        kind: 'receipt' as const,
        quantity: 10,
        locationId: main?.id,
      })),
    );
  await database.db.insert(users).values({
    name: 'Kim Owner',
    email: EMAIL,
    passwordHash: await hashPassword(PASSWORD),
    role: 'admin',
    address: 'Kill street 3',
  });
  return { category: category?.id as string, main: main?.id as string, products };
}

const disposals: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const dispose of disposals) await dispose();
});

const call = (server: ServerProcess, token: string, method: string, path: string, body?: unknown) =>
  fetch(`${server.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

type LineState = { product: string; posted: number | null; counted: number | null; stock: number };

/**
 * DESIGN §18: a post is one transaction. A stocktake of LINES lines is posted once to learn how
 * long a post takes, then another of the same products is counted and its post killed (SIGKILL)
 * part-way, sooner each try until the kill lands before the answer. After a restart it is either
 * posted whole (every line's movement, its audit entry) or not at all and still counting (then
 * posted), and every product ends at what that count said, the ledger whole.
 */
describe.each(targets)('a stocktake killed mid-post on $name', (target) => {
  it('SIGKILL during a post of 2,000 lines leaves every line posted or none, and it posts after the restart', async () => {
    const database = await serverDatabase(target);
    disposals.push(database.dispose);
    const before = await database.open();
    const { category, main, products } = await seed(before);
    await before.close();

    let server = await startServer(database.env);
    let killed: { id: string; round: number; status: number | undefined } | undefined;
    let lastRound = 0;
    try {
      let token = await signInTo(server, EMAIL, PASSWORD);
      /** A stocktake of the category, counted (all but every tenth line) as round `round` says. */
      const counted = async (round: number) => {
        const made = await call(server, token, 'POST', '/api/stocktakes', {
          location: main,
          categories: [category],
        });
        expect(made.status).toBe(201);
        const id = StocktakeResponse.parse(await made.json()).stocktake._id;
        const counts = products.flatMap((product, n) =>
          uncounted(n) ? [] : [{ product, quantity: countOf(n, round), mode: 'set' as const }],
        );
        const answer = await call(server, token, 'POST', `/api/stocktakes/${id}/counts`, { counts });
        expect(answer.status, await answer.clone().text()).toBe(200);
        return id;
      };
      const opening = await counted(0);
      const started = Date.now();
      const first = await call(server, token, 'POST', `/api/stocktakes/${opening}/post`, {
        uncounted: 'zero',
      });
      expect(first.status).toBe(200);
      expect(PostStocktakeResponse.parse(await first.json()).clamped).toEqual([]);
      const took = Date.now() - started;
      for (let round = 1; round <= 4 && !killed; round++) {
        lastRound = round;
        const id = await counted(round);
        const posting = call(server, token, 'POST', `/api/stocktakes/${id}/post`, { uncounted: 'zero' }).then(
          (res) => res.status,
          () => undefined,
        );
        const early = await Promise.race([
          posting,
          new Promise<'kill'>((resolve) => setTimeout(() => resolve('kill'), took / 2 ** round)),
        ]);
        if (early !== 'kill') {
          expect(early, 'a post answered before the kill').toBe(200);
          continue;
        }
        server.child.kill('SIGKILL');
        await server.exited;
        killed = { id, round, status: await posting };
      }
      expect(killed, 'some post was still running when the server was killed').toBeDefined();
      const cut = killed as { id: string; round: number; status: number | undefined };
      server = await startServer(database.env);
      token = await signInTo(server, EMAIL, PASSWORD);
      const check = await call(server, token, 'GET', '/api/stock/check');
      expect(StockCheckResponse.parse(await check.json()).mismatches).toEqual([]);
      const found = StocktakeResponse.parse(
        await (await call(server, token, 'GET', `/api/stocktakes/${cut.id}`)).json(),
      );
      console.log(
        `[${target.name}] stocktake kill: a post took ${took} ms; killed after ${Math.round(took / 2 ** cut.round)} ms, found ${found.stocktake.status}`,
      );
      expect(['posted', 'counting']).toContain(found.stocktake.status);
      if (found.stocktake.status === 'counting') {
        await server.stop('SIGTERM');
        const reading = await database.open();
        try {
          const [written] = await reading.query<{ movements: number; posted: number; audits: number }>(
            `select (select count(*)::int from stock_movements where stocktake_id = $1) as movements,
                    (select count(*)::int from stocktake_lines where stocktake_id = $1 and posted is not null) as posted,
                    (select count(*)::int from audit_log where entity_type = 'stocktake' and entity_id = $1
                       and action = 'posted') as audits`,
            [cut.id],
          );
          expect(written, 'a post cut off wrote nothing').toEqual({ movements: 0, posted: 0, audits: 0 });
        } finally {
          await reading.close();
        }
        server = await startServer(database.env);
        token = await signInTo(server, EMAIL, PASSWORD);
        const again = await call(server, token, 'POST', `/api/stocktakes/${cut.id}/post`, {
          uncounted: 'zero',
        });
        expect(again.status, await again.clone().text()).toBe(200);
      }
    } finally {
      await server.stop('SIGTERM');
    }

    // Whole: every line of the cut stocktake posted once, each product at what its count said.
    const after = await database.open();
    try {
      const id = killed?.id as string;
      const lines = await after.query<LineState>(
        `select sl.product_id as product, sl.posted, sl.counted,
                (select stock from location_stock where product_id = sl.product_id and location_id = $2) as stock
           from stocktake_lines sl where sl.stocktake_id = $1`,
        [id, main],
      );
      expect(lines).toHaveLength(LINES);
      const byProduct = new Map(lines.map((line) => [line.product, line]));
      const wrong = products.filter((product, n) => {
        const line = byProduct.get(product);
        return (
          line?.stock !== (uncounted(n) ? 0 : countOf(n, lastRound)) ||
          line.counted !== (uncounted(n) ? null : countOf(n, lastRound))
        );
      });
      expect(wrong, 'products not at their count').toEqual([]);
      const [written] = await after.query<{
        status: string;
        movements: number;
        moved: number;
        posted: number;
        audits: number;
      }>(
        `select s.status,
                (select count(*)::int from stock_movements where stocktake_id = s.id) as movements,
                (select coalesce(sum(quantity), 0)::int from stock_movements where stocktake_id = s.id) as moved,
                (select coalesce(sum(posted), 0)::int from stocktake_lines where stocktake_id = s.id) as posted,
                (select count(*)::int from audit_log where entity_type = 'stocktake' and entity_id = s.id
                   and action = 'posted') as audits
           from stocktakes s where s.id = $1`,
        [id],
      );
      // The uncounted lines held units from the round before (its every tenth line was zeroed
      // too, so nothing): only counted lines move.
      expect(written).toMatchObject({ status: 'posted', audits: 1, movements: LINES - LINES / 10 });
      expect(written?.moved).toBe(written?.posted);
      expect(await locationLedgerProblems(after, products)).toEqual([]);
    } finally {
      await after.close();
    }
  }, 240_000);
});
