import { afterAll, describe, expect, it } from 'vitest';
import { StockCheckResponse } from '../../../shared/stock';
import { TransferResponse } from '../../../shared/transfers';
import type { Database } from '../../db/connection';
import { users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';
import { targets } from '../../test/harness';
import { locationLedgerProblems } from '../../test/location-ledger';
import { type ServerProcess, serverDatabase, signInTo, startServer } from '../../test/process';
import { recordMovements } from '../stock/movements';

const PASSWORD = 'transfer kill password';
const EMAIL = 'owner@transfers-kill.test';
const PRODUCTS = 60;
const TRANSFERS = 14;
const LINES = 40;

/** An admin, a stockroom and PRODUCTS products holding 30 units each at the default location. */
async function seed(database: Database): Promise<{ room: string; main: string; products: string[] }> {
  const [category] = await database.query<{ id: string }>(
    `insert into categories (name) values ('Kill transfers category') returning id`,
  );
  const [supplier] = await database.query<{ id: string }>(
    `insert into suppliers (name) values ('Kill transfers supplier') returning id`,
  );
  const rows = await database.query<{ id: string }>(
    `insert into products (name, price, stock, category_id, supplier_id)
     select 'Kill transfer ' || n, '2.00', 0, $1, $2 from generate_series(1, ${PRODUCTS}) n returning id`,
    [category?.id, supplier?.id],
  );
  const products = rows.map((row) => row.id).sort();
  const [main] = await database.query<{ id: string }>('select default_location() as id');
  const [room] = await database.query<{ id: string }>(
    `insert into locations (name, kind) values ('Kill stockroom', 'stockroom') returning id`,
  );
  await recordMovements(
    database,
    products.map((productId) => ({
      productId,
      kind: 'receipt' as const,
      quantity: 30,
      locationId: main?.id,
    })),
  );
  await database.db.insert(users).values({
    name: 'Kim Owner',
    email: EMAIL,
    passwordHash: await hashPassword(PASSWORD),
    role: 'admin',
    address: 'Kill street 2',
  });
  return { room: room?.id as string, main: main?.id as string, products };
}

const disposals: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const dispose of disposals) await dispose();
});

const post = (server: ServerProcess, token: string, path: string, body?: unknown) =>
  fetch(`${server.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

describe.each(targets)('transfers killed mid-send on $name', (target) => {
  it('SIGKILL while transfers are being sent leaves each sent whole or not at all, and every ledger adds up', async () => {
    const database = await serverDatabase(target);
    disposals.push(database.dispose);
    const before = await database.open();
    const { room, main, products } = await seed(before);
    await before.close();

    let server = await startServer(database.env);
    const outcomes: { id: string; status?: number }[] = [];
    try {
      const token = await signInTo(server, EMAIL, PASSWORD);
      const ids: string[] = [];
      for (let i = 0; i < TRANSFERS; i++) {
        const lines = Array.from({ length: LINES }, (_, n) => ({
          product: products[(i * 7 + n) % PRODUCTS] as string,
          quantity: 1 + ((i + n) % 3),
        }));
        const res = await post(server, token, '/api/transfers', { from: main, to: room, lines });
        expect(res.status).toBe(201);
        ids.push(TransferResponse.parse(await res.json()).transfer._id);
      }
      const calls = ids.map((id) =>
        post(server, token, `/api/transfers/${id}/send`).then(
          (res) => ({ id, status: res.status }),
          () => ({ id, status: undefined }),
        ),
      );
      let answered = 0;
      await new Promise<void>((resolve) => {
        for (const call of calls)
          void call.then(() => {
            answered += 1;
            if (answered === 3) resolve();
          });
      });
      server.child.kill('SIGKILL');
      await server.exited;
      outcomes.push(...(await Promise.all(calls)));
      server = await startServer(database.env);
      const check = await fetch(`${server.base}/api/stock/check`, {
        headers: { authorization: `Bearer ${await signInTo(server, EMAIL, PASSWORD)}` },
      });
      expect(StockCheckResponse.parse(await check.json()).mismatches).toEqual([]);
    } finally {
      await server.stop('SIGTERM');
    }
    const acknowledged = outcomes.filter((o) => o.status === 200);
    const cut = outcomes.filter((o) => o.status === undefined);
    console.log(
      `[${target.name}] transfers kill: ${acknowledged.length} sent, ${cut.length} cut off by SIGKILL`,
    );
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(cut.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status !== undefined && o.status !== 200)).toEqual([]);

    const after = await database.open();
    try {
      const states = await after.query<{
        id: string;
        status: string;
        sent: number;
        asked: number;
        moved: number;
        movements: number;
      }>(
        `select t.id, t.status,
                (select coalesce(sum(sent), 0)::int from transfer_lines where transfer_id = t.id) as sent,
                (select coalesce(sum(quantity), 0)::int from transfer_lines where transfer_id = t.id) as asked,
                (select coalesce(-sum(quantity), 0)::int from stock_movements where transfer_id = t.id) as moved,
                (select count(*)::int from stock_movements where transfer_id = t.id) as movements
         from transfers t`,
      );
      expect(states).toHaveLength(TRANSFERS);
      for (const state of states) {
        if (state.status === 'draft')
          expect(state, 'a draft moved nothing').toMatchObject({ sent: 0, moved: 0, movements: 0 });
        else {
          expect(state.status).toBe('inTransit');
          expect(state, 'a sent transfer moved every line').toMatchObject({
            sent: state.asked,
            moved: state.asked,
            movements: LINES,
          });
        }
      }
      for (const outcome of acknowledged)
        expect(states.find((s) => s.id === outcome.id)?.status).toBe('inTransit');
      expect(await locationLedgerProblems(after, products)).toEqual([]);
    } finally {
      await after.close();
    }
  }, 180_000);
});
