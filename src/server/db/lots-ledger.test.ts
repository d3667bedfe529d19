import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessError } from '../lib/errors';
import { fixtures } from '../test/fixtures';
import { startApp, type TestApp, targets } from '../test/harness';
import { lotLedgerOf } from '../test/lot-ledger';

/**
 * The ledger's lots (DESIGN §15, stock_movements_apply.sql) at the level of SQL, below every route:
 * a movement naming its lot moves the lot and the product together; a sale naming none takes
 * first-expiry-first-out across lots, one movement per lot, never an expired unit; a return goes
 * back to the lots its order took from; nothing but the ledger changes a lot.
 */
describe.each(targets)('lots in the stock ledger on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(async () => t?.close());

  const today = async () =>
    (
      await t.sql<{ d: string }>(
        `select ((now() at time zone (select time_zone from report_settings))::date)::text as d`,
      )
    )[0]?.d as string;
  const shift = async (days: number) =>
    (await t.sql<{ d: string }>(`select ($1::date + $2::int)::text as d`, [await today(), days]))[0]
      ?.d as string;

  /** A lot-tracked product at 0 with the given lots, each filled by a receipt movement. */
  async function tracked(lots: { number: string; expiresOn: string | null; quantity: number }[]) {
    const name = `Tracked ${Math.random().toString(36).slice(2, 9)}`;
    const { id } = await t.product({ name, stock: 0 });
    await t.sql(`update products set tracking = 'lot' where id = $1`, [id]);
    const ids: string[] = [];
    for (const lot of lots) {
      const [row] = await t.sql<{ id: string }>(
        `insert into lots (product_id, number, expires_on) values ($1, $2, $3) returning id`,
        [id, lot.number, lot.expiresOn],
      );
      ids.push(row?.id as string);
      await t.sql(
        `insert into stock_movements (product_id, kind, quantity, lot_id) values ($1, 'receipt', $2, $3)`,
        [id, lot.quantity, row?.id],
      );
    }
    return { id, name, lots: ids };
  }
  const lotQuantities = async (productId: string) =>
    (
      await t.sql<{ number: string; quantity: number }>(
        `select number, quantity from lots where product_id = $1 order by number`,
        [productId],
      )
    ).map((row) => [row.number, row.quantity]);
  const { stockOf } = fixtures(() => t);
  /** The refusal a statement meets, as the API would answer it. */
  async function refusal(text: string, params: unknown[]) {
    try {
      await t.sql(text, params);
    } catch (error) {
      const known = businessError(error);
      return known
        ? { status: known.status, message: known.message }
        : { status: 500, message: String(error) };
    }
    return undefined;
  }
  /** Every lot's quantity against its movements, every tracked product's stock against its lots. */
  async function ledgerHolds(productId: string) {
    const row = await lotLedgerOf(t.sql, productId);
    expect(row).toMatchObject({ stock: row?.lots, lots: row?.ledger, ledger: row?.stock, bad: 0 });
  }

  it('a sale naming no lot takes the earliest unexpired lots first, one movement per lot', async () => {
    const p = await tracked([
      { number: 'LATE', expiresOn: await shift(90), quantity: 5 },
      { number: 'NONE', expiresOn: null, quantity: 5 },
      { number: 'SOON', expiresOn: await shift(3), quantity: 2 },
      { number: 'GONE', expiresOn: await shift(-1), quantity: 4 },
    ]);
    await t.sql(`insert into stock_movements (product_id, kind, quantity) values ($1, 'sale', -4)`, [p.id]);
    expect(await lotQuantities(p.id)).toEqual([
      ['GONE', 4],
      ['LATE', 3],
      ['NONE', 5],
      ['SOON', 0],
    ]);
    const moves = await t.sql<{ number: string; quantity: number }>(
      `select l.number, m.quantity from stock_movements m join lots l on l.id = m.lot_id
       where m.product_id = $1 and m.kind = 'sale' order by l.number`,
      [p.id],
    );
    expect(moves.map((m) => [m.number, m.quantity])).toEqual([
      ['LATE', -2],
      ['SOON', -2],
    ]);
    expect(await stockOf(p.id)).toBe(12);
    await ledgerHolds(p.id);
    // Expired units are never sold: 8 unexpired remain of 12, in the sentence the API answers.
    expect(
      await refusal(`insert into stock_movements (product_id, kind, quantity) values ($1, 'sale', -9)`, [
        p.id,
      ]),
    ).toEqual({ status: 409, message: `Only 8 of ${p.name} unexpired in stock.` });
    await t.sql(`insert into stock_movements (product_id, kind, quantity) values ($1, 'sale', -8)`, [p.id]);
    expect(await lotQuantities(p.id)).toEqual([
      ['GONE', 4],
      ['LATE', 0],
      ['NONE', 0],
      ['SOON', 0],
    ]);
    await ledgerHolds(p.id);
  });

  it('a return goes back to the lots its order took from', async () => {
    const p = await tracked([
      { number: 'A', expiresOn: await shift(10), quantity: 2 },
      { number: 'B', expiresOn: await shift(20), quantity: 5 },
    ]);
    const [order] = await t.sql<{ id: string }>(`select gen_random_uuid() as id`);
    await t.sql(
      `insert into stock_movements (product_id, kind, quantity, order_id) values ($1, 'sale', -4, $2)`,
      [p.id, order?.id],
    );
    expect(await lotQuantities(p.id)).toEqual([
      ['A', 0],
      ['B', 3],
    ]);
    await t.sql(
      `insert into stock_movements (product_id, kind, quantity, order_id) values ($1, 'return', 3, $2)`,
      [p.id, order?.id],
    );
    // The latest expiry first: B gave 2 and takes 2 back, A gave 2 and takes 1.
    expect(await lotQuantities(p.id)).toEqual([
      ['A', 1],
      ['B', 5],
    ]);
    expect(
      await refusal(
        `insert into stock_movements (product_id, kind, quantity, order_id) values ($1, 'return', 2, $2)`,
        [p.id, order?.id],
      ),
    ).toEqual({
      status: 400,
      message: 'The order took 1 of these units from no lot: name the lot they go back to.',
    });
    await ledgerHolds(p.id);
  });

  it('a movement naming its lot never takes it below 0; one naming none of a tracked product is refused', async () => {
    const p = await tracked([
      { number: 'L1', expiresOn: null, quantity: 3 },
      { number: 'L2', expiresOn: null, quantity: 5 },
    ]);
    expect(
      await refusal(
        `insert into stock_movements (product_id, kind, quantity, reason, lot_id) values ($1, 'adjustment', -4, 'lost', $2)`,
        [p.id, p.lots[0]],
      ),
    ).toEqual({ status: 409, message: 'Not enough stock in lot L1.' });
    expect(
      await refusal(
        `insert into stock_movements (product_id, kind, quantity, reason) values ($1, 'adjustment', 1, 'found')`,
        [p.id],
      ),
    ).toEqual({ status: 400, message: 'Name the lot: this product is tracked by lot.' });
    const other = await tracked([{ number: 'X', expiresOn: null, quantity: 1 }]);
    expect(
      await refusal(
        `insert into stock_movements (product_id, kind, quantity, lot_id) values ($1, 'receipt', 1, $2)`,
        [p.id, other.lots[0]],
      ),
    ).toEqual({ status: 404, message: 'Lot not found.' });
    expect(await refusal(`update lots set quantity = 99 where id = $1`, [p.lots[0]])).toMatchObject({
      status: 500,
    });
    expect(await lotQuantities(p.id)).toEqual([
      ['L1', 3],
      ['L2', 5],
    ]);
    await ledgerHolds(p.id);
  });

  it('a product without lots moves as before', async () => {
    const { id } = await t.product({ stock: 2 });
    await t.sql(`insert into stock_movements (product_id, kind, quantity) values ($1, 'sale', -2)`, [id]);
    expect(await stockOf(id)).toBe(0);
    expect(
      await refusal(`insert into stock_movements (product_id, kind, quantity) values ($1, 'sale', -1)`, [id]),
    ).toEqual({ status: 409, message: 'Not enough stock' });
  });
});
