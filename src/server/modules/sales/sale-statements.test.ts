import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomerResponse } from '../../../shared/customers';
import { PERMISSIONS } from '../../../shared/roles';
import { Sale } from '../../../shared/sales';
import { runnerOf } from '../../db/connection';
import { signedInRunnerFor } from '../../lib/auth';
import { MemoryState } from '../../lib/shared-state';
import { allowancesOn } from '../../lib/throttle';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { recordMovements } from '../stock/movements';
import { CartRow, readCart, WrittenRow } from './sales.repository';
import { type SellContext, sellCart } from './sell';

/**
 * The sale's two statements (read-cart.sql, write-sale.sql; decision 0040) on a real database:
 * every row they answer is what their schemas in sales.repository.ts say (the types the code maps
 * from), and the receipt mapped from the write's rows is the shared Sale.
 */
describe.each(targets)("the sale's statements on $name", (target) => {
  let t: TestApp;
  let context: SellContext;
  beforeAll(async () => {
    t = await startApp(target);
    const [seller] = await t.sql<{ userId: string; tokenVersion: number }>(
      `select id as "userId", token_version as "tokenVersion" from users where id = $1`,
      [t.as.salesRep.id],
    );
    if (!seller) throw new Error('the seller exists');
    context = {
      signedIn: (runner) => signedInRunnerFor(runner, { ...seller, roles: PERMISSIONS['sales:create'] }),
      storeName: 'Statements',
      pins: allowancesOn(new MemoryState()).approvalPins,
    };
  });
  afterAll(() => t?.close());

  /** A taxed product, an untaxed one and a lot-tracked one with a lot; a customer with credit; an open session. */
  async function cart() {
    const taxed = await t.product({ stock: 20, price: 12.5 });
    const [rate] = await t.sql<{ id: string }>(
      `insert into tax_rates (name, rate) values ($1, 8.875) returning id`,
      [`Rate ${taxed.id.slice(0, 8)}`],
    );
    await t.sql('update products set tax_rate_id = $1 where id = $2', [rate?.id, taxed.id]);
    await t.setCost(taxed.id, 7.25);
    const plain = await t.product({ stock: 3, price: 0.99 });
    const tracked = await t.product({ stock: 0, price: 4 });
    await t.sql(`update products set tracking = 'lot' where id = $1`, [tracked.id]);
    const [lot] = await t.sql<{ id: string }>(
      `insert into lots (product_id, number, expires_on) values ($1, 'L1', current_date + 30) returning id`,
      [tracked.id],
    );
    await recordMovements({ query: t.sql }, [
      { productId: tracked.id, kind: 'receipt', quantity: 6, lotId: lot?.id },
    ]);
    const { customer } = parsed(
      await t.call('POST', '/api/customers', {
        token: t.as.salesRep.token,
        body: { name: `Customer ${taxed.id.slice(0, 8)}` },
      }),
      CustomerResponse,
    );
    const credited = await t.call('POST', `/api/customers/${customer._id}/credit`, {
      token: t.as.admin.token,
      body: { amount: 100, note: 'Goodwill' },
    });
    expect(credited.status).toBe(201);
    const [register] = await t.sql<{ id: string }>('insert into registers (name) values ($1) returning id', [
      `Till ${taxed.id.slice(0, 8)}`,
    ]);
    const [session] = await t.sql<{ id: string }>(
      `insert into register_sessions (register_id, opened_by_id, opened_by_name, opening_float)
       values ($1, $2, $3, 50) returning id`,
      [register?.id, t.as.salesRep.id, t.as.salesRep.name],
    );
    return {
      lines: [
        { productId: plain.id, quantity: 2, discount: { type: 'amount' as const, value: 0.1 } },
        { productId: taxed.id, quantity: 3 },
        { productId: tracked.id, quantity: 1 },
      ],
      customerId: customer._id,
      sessionId: session?.id as string,
    };
  }

  it('READ_CART answers one row a line, each as CartRow says', async () => {
    const { lines, customerId, sessionId } = await cart();
    const rows = await t.app.database.db.transaction((tx) =>
      readCart(context.signedIn(runnerOf(tx)), { lines, customerId, storeName: 'Statements', sessionId }),
    );
    expect(rows.map((row) => row.n)).toEqual([1, 2, 3]);
    for (const row of rows) CartRow.parse(row);
    expect(rows.map((row) => [row.price, row.cost, row.rate, row.tracking, row.unexpired])).toEqual([
      ['0.99', null, null, 'none', null],
      ['12.50', '7.25', '8.875', 'none', null],
      ['4.00', null, null, 'lot', 6],
    ]);
    expect(rows[0]?.customer_credit).toBe('100.00');
    expect(rows[0]?.session_status).toBe('open');
  });

  it('READ_CART answers a missing product and no customer or session as nulls CartRow allows', async () => {
    const rows = await t.app.database.db.transaction((tx) =>
      readCart(context.signedIn(runnerOf(tx)), {
        lines: [{ productId: '00000000-0000-4000-8000-000000000000', quantity: 1 }],
        customerId: null,
        storeName: 'Statements',
        sessionId: null,
      }),
    );
    expect(rows).toHaveLength(1);
    const row = CartRow.parse(rows[0]);
    expect([row.found, row.customer_found, row.session_found]).toEqual([false, 0, 0]);
  });

  it('WRITE_SALE answers each order as WrittenRow says, and the receipt mapped from them is a Sale', async () => {
    const { lines, customerId, sessionId } = await cart();
    const sold = await t.app.database.db.transaction((tx) =>
      sellCart(context, tx, {
        lines,
        customerId,
        sessionId,
        payment: {
          payments: [
            { method: 'storeCredit', amount: 10n * 100n },
            { method: 'cash', amount: 5000n },
          ],
        },
      }),
    );
    if ('reason' in sold) throw new Error(`refused: ${sold.reason}`);
    expect(sold.orders).toHaveLength(3);
    for (const row of sold.orders) WrittenRow.parse(row);
    expect(Sale.parse(sold.sale)).toEqual(sold.sale);
    expect(sold.sale.lines.map((line) => line.total)).toEqual([1.88, 40.83, 4]);
    expect(sold.sale.taxes).toEqual([expect.objectContaining({ rate: 8.875, base: 37.5, tax: 3.33 })]);
    expect(sold.sale.payments).toEqual([
      { method: 'storeCredit', amount: 10, tendered: null },
      { method: 'cash', amount: 36.71, tendered: 50 },
    ]);
    expect(sold.sale.change).toBe(13.29);
    expect(sold.sale.lines[2]?.lots).toHaveLength(1);
  });
});
