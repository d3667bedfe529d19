import { afterAll, describe, expect, it } from 'vitest';
import type { OrderLot } from '../../../shared/lots';
import type { Database } from '../../db/connection';
import { users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';
import { targets } from '../../test/harness';
import { type ServerProcess, serverDatabase, signInTo, startServer } from '../../test/process';
import { booksCheck } from '../accounting/books';
import { orderLots } from '../lots/lots.repository';
import { recordMovements } from '../stock/movements';

const PASSWORD = 'lots kill password';
const EMAIL = 'seller@lots-kill.test';
/** Lots of a few units each, so most sales of 1–4 units cross two of them. */
const LOTS = Array.from({ length: 8 }, (_, i) => ({ number: `K-${i}`, days: 5 + i * 7, quantity: 7 }));
const EXPIRED = { number: 'K-OLD', days: -2, quantity: 9 };
const REQUESTS = 120;

/** A seller, and a lot-tracked product whose stock lives in LOTS and one EXPIRED lot, written directly. */
async function seed(database: Database): Promise<string> {
  const [category] = await database.query<{ id: string }>(
    `insert into categories (name) values ('Kill lots category') returning id`,
  );
  const [supplier] = await database.query<{ id: string }>(
    `insert into suppliers (name) values ('Kill lots supplier') returning id`,
  );
  const [product] = await database.query<{ id: string }>(
    `insert into products (name, price, stock, category_id, supplier_id, tracking)
     values ('Kill lots pills', '1.50', 0, $1, $2, 'lot') returning id`,
    [category?.id, supplier?.id],
  );
  const productId = product?.id as string;
  for (const lot of [...LOTS, EXPIRED]) {
    const [row] = await database.query<{ id: string }>(
      `insert into lots (product_id, number, expires_on)
       values ($1, $2, (now() at time zone (select time_zone from report_settings))::date + $3::int) returning id`,
      [productId, lot.number, lot.days],
    );
    // Bought at 0.85 a unit, so each sale carries its cost into the books (DESIGN §19).
    await recordMovements(database, [
      {
        productId,
        kind: 'receipt',
        quantity: lot.quantity,
        lotId: row?.id,
        value: (lot.quantity * 0.85).toFixed(2),
      },
    ]);
  }
  await database.db.insert(users).values({
    name: 'Kim Seller',
    email: EMAIL,
    passwordHash: await hashPassword(PASSWORD),
    role: 'salesRep',
    address: 'Kill street 1',
  });
  return productId;
}

type Outcome = { status?: number; orderId?: string; quantity: number; lots?: OrderLot[]; error?: string };

/** One sale of `quantity` units, by either route (both are a sale, DESIGN §16), as the client saw it. */
async function sellOnce(
  server: ServerProcess,
  token: string,
  productId: string,
  i: number,
): Promise<Outcome> {
  const quantity = 1 + (i % 4);
  const viaOrder = i % 2 === 0;
  try {
    const res = await fetch(`${server.base}${viaOrder ? '/api/order/add' : '/api/sales'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(
        viaOrder
          ? { productId, quantity }
          : { lines: [{ productId, quantity }], payment: { method: 'card' } },
      ),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the answer is read as the client reads it.
    const body = (await res.json()) as any;
    const placed = viaOrder ? body.order : body.sale?.lines?.[0];
    return {
      status: res.status,
      quantity,
      orderId: viaOrder ? placed?._id : placed?.order?._id,
      lots: placed?.lots,
    };
  } catch (error) {
    return { quantity, error: String(error) };
  }
}

const disposals: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const dispose of disposals) await dispose();
});

describe.each(targets)('lot-tracked sales killed mid-flight on $name', (target) => {
  it('SIGKILL under concurrent sales loses no acknowledged order, and every lot still adds up', async () => {
    const database = await serverDatabase(target);
    disposals.push(database.dispose);
    const before = await database.open();
    const productId = await seed(before);
    await before.close();

    let server = await startServer(database.env);
    let outcomes: Outcome[];
    try {
      const token = await signInTo(server, EMAIL, PASSWORD);
      const calls = Array.from({ length: REQUESTS }, (_, i) => sellOnce(server, token, productId, i));
      // SIGKILL once a few sales are answered and most are not: nothing gets to clean up.
      let answered = 0;
      await new Promise<void>((resolve) => {
        for (const call of calls)
          void call.then(() => {
            answered += 1;
            if (answered === 15) resolve();
          });
      });
      server.child.kill('SIGKILL');
      await server.exited;
      outcomes = await Promise.all(calls);
      // Restarted on the same database, it sells again from what is left.
      server = await startServer(database.env);
      const again = await sellOnce(server, await signInTo(server, EMAIL, PASSWORD), productId, 0);
      expect([201, 409]).toContain(again.status);
      outcomes.push(again);
    } finally {
      // The embedded database belongs to one process at a time: stop it before reading it.
      await server.stop('SIGTERM');
    }

    const acknowledged = outcomes.filter((o) => o.status === 201);
    const refused = outcomes.filter((o) => o.status === 409);
    const lost = outcomes.filter((o) => o.status === undefined);
    console.log(
      `[${target.name}] lots kill: ${acknowledged.length} acknowledged, ${refused.length} refused, ${lost.length} cut off by SIGKILL`,
    );
    // The kill really came mid-flight, and nothing but a sale or a 409 was answered.
    expect(lost.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status !== undefined && o.status !== 201 && o.status !== 409)).toEqual(
      [],
    );
    expect(acknowledged.length).toBeGreaterThan(0);

    const after = await database.open();
    try {
      const orders = await after.query<{ id: string; quantity: number; sale_id: string }>(
        'select id, quantity, sale_id from orders where product_id = $1',
        [productId],
      );
      const byId = new Map(orders.map((order) => [order.id, order]));
      const lots = await orderLots(
        after,
        orders.map((order) => order.id),
      );
      // Every acknowledged order exists exactly once, with the quantity and the lots it answered.
      const ids = acknowledged.map((o) => o.orderId as string);
      expect(new Set(ids).size).toBe(ids.length);
      for (const outcome of acknowledged) {
        const order = byId.get(outcome.orderId as string);
        expect(order?.quantity).toBe(outcome.quantity);
        expect(lots.get(outcome.orderId as string)).toEqual(outcome.lots);
      }
      // Every order written (acknowledged or cut off after its commit) took its units from lots,
      // once per lot, never the expired one, and belongs to exactly one sale.
      const expired = await after.query<{ n: number }>(
        `select count(*)::int as n from stock_movements m join lots l on l.id = m.lot_id
         where m.product_id = $1 and l.number = $2 and m.kind = 'sale'`,
        [productId, EXPIRED.number],
      );
      expect(expired[0]?.n).toBe(0);
      // The sales crossed lots: several lots were taken from, first-expiry-first-out, so every lot
      // taken from but the last one is empty now (whether an order straddled two lots or one
      // ended exactly where a lot did depends on which sales the kill cut off).
      const taken = [...lots.values()];
      const used = new Set(taken.flat().map((lot) => lot.lot._id));
      expect(used.size).toBeGreaterThan(1);
      const usedLots = await after.query<{ id: string; quantity: number }>(
        `select id, quantity from lots where product_id = $1 and id = any($2::uuid[])
         order by expires_on nulls last, created_at, id`,
        [productId, [...used]],
      );
      expect(usedLots.slice(0, -1).map((lot) => lot.quantity)).toEqual(usedLots.slice(0, -1).map(() => 0));
      for (const order of orders) {
        const taken = lots.get(order.id) ?? [];
        expect(taken.reduce((sum, lot) => sum + lot.quantity, 0)).toBe(order.quantity);
        expect(new Set(taken.map((lot) => lot.lot._id)).size).toBe(taken.length);
      }
      const [sales] = await after.query<{ sales: number; unlinked: number }>(
        `select count(distinct o.sale_id)::int as sales, count(*) filter (where s.id is null)::int as unlinked
         from orders o left join sales s on s.id = o.sale_id where o.product_id = $1`,
        [productId],
      );
      expect(sales).toEqual({ sales: orders.length, unlinked: 0 });
      // Every lot = Σ its movements ≥ 0; the product = Σ lots = Σ movements.
      const badLots = await after.query(
        `select l.number, l.quantity from lots l
         where l.product_id = $1 and (l.quantity < 0 or l.quantity <>
           (select coalesce(sum(m.quantity), 0) from stock_movements m where m.lot_id = l.id))`,
        [productId],
      );
      expect(badLots).toEqual([]);
      const [totals] = await after.query<{ stock: number; lots: number; movements: number; sold: number }>(
        `select p.stock, (select sum(quantity)::int from lots where product_id = p.id) as lots,
                (select sum(quantity)::int from stock_movements where product_id = p.id) as movements,
                (select coalesce(sum(quantity), 0)::int from orders where product_id = p.id) as sold
         from products p where p.id = $1`,
        [productId],
      );
      const received = [...LOTS, EXPIRED].reduce((sum, lot) => sum + lot.quantity, 0);
      expect(totals).toEqual({
        stock: received - (totals?.sold ?? 0),
        lots: totals?.stock,
        movements: totals?.stock,
        sold: orders.reduce((sum, order) => sum + order.quantity, 0),
      });
      expect(totals?.sold).toBeGreaterThanOrEqual(acknowledged.reduce((sum, o) => sum + o.quantity, 0));
      // DESIGN §19: no sale without its one entry, no sale entry without its sale, whatever the
      // kill cut off; and the books check out against the shop (stock value, tills, credit).
      const [posted] = await after.query<{ unposted: number; orphans: number }>(
        `select (select count(*)::int from sales s
                  where (select count(*) from journal_entries e where e.source_kind = 'sale' and e.source_id = s.id) <> 1)
                  as unposted,
                (select count(*)::int from journal_entries e
                  where e.source_kind = 'sale' and not exists (select 1 from sales s where s.id = e.source_id)) as orphans`,
      );
      expect(posted).toEqual({ unposted: 0, orphans: 0 });
      expect((await booksCheck(after)).checks.filter((c) => !c.ok)).toEqual([]);
    } finally {
      await after.close();
    }
  }, 180_000);
});
