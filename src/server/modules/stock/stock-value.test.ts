import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MovementListResponse } from '../../../shared/stock';
import { fixtures, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { locationLedgerProblems } from '../../test/location-ledger';
import { recordMovements } from './movements';

/**
 * DESIGN §19, stock has a value: each movement's value by the rules (the average out, the last
 * unit taking what is left; receipts at their cost; returns at what the sale took; transfers at
 * what left; gains at the average), kept per product and per location, the cost its average.
 */
describe.each(targets)('stock value on $name', (target) => {
  let t: TestApp;
  let main: string;
  beforeAll(async () => {
    t = await startApp(target);
    main = (await t.sql<{ id: string }>('select default_location() as id'))[0]?.id as string;
  });
  afterAll(() => t?.close());
  const { sold } = fixtures(() => t);
  const admin = () => t.as.admin.token;

  const worth = async (productId: string) =>
    (
      await t.sql<{ stock: number; value: string; cost: string | null }>(
        'select stock, stock_value::text as value, cost::text as cost from products where id = $1',
        [productId],
      )
    )[0];
  const worthAt = async (productId: string, locationId: string) =>
    (
      await t.sql<{ stock: number; value: string }>(
        'select stock, stock_value::text as value from location_stock where product_id = $1 and location_id = $2',
        [productId, locationId],
      )
    )[0];
  /** The values of a product's movements of a kind, oldest first. */
  const values = async (productId: string, kind: string) =>
    (
      await t.sql<{ value: string }>(
        `select value::text as value from stock_movements where product_id = $1 and kind = $2 order by at, id`,
        [productId, kind],
      )
    ).map((row) => row.value);
  const holds = async (productIds: string[]) =>
    expect(await locationLedgerProblems(t.app.database, productIds)).toEqual([]);

  it('an opening stock is worth stock × cost; sales take the average out, the last unit what is left', async () => {
    // 3 units worth 10.00 (cost 3.333… is not a price: made by a receipt of 3 at 10.00 the lot).
    const { id } = await t.product({ stock: 0, price: 9 });
    await recordMovements(t.app.database, [{ productId: id, kind: 'receipt', quantity: 3, value: '10.00' }]);
    expect(await worth(id)).toEqual({ stock: 3, value: '10.00', cost: '3.33' });
    const seller = t.as.salesRep;
    for (let i = 0; i < 3; i++) await sold(seller, { lines: [{ productId: id, quantity: 1 }] });
    // 10.00 × 1/3 = 3.33; 6.67 × 1/2 = 3.335 → 3.34; the last unit takes 3.33: 10.00 in all.
    expect(await values(id, 'sale')).toEqual(['-3.33', '-3.34', '-3.33']);
    expect(await worth(id)).toEqual({ stock: 0, value: '0.00', cost: '3.33' });
    const opened = await t.product({ stock: 4, cost: 2.5 });
    expect(await values(opened.id, 'initial')).toEqual(['10.00']);
    expect(await worth(opened.id)).toEqual({ stock: 4, value: '10.00', cost: '2.50' });
    await holds([id, opened.id]);
  });

  it('a receipt comes in at the line’s cost and the cost becomes the average', async () => {
    // 10 on hand at 2.00; 5 arrive at 3.00: 35.00 for 15, the cost 2.33.
    const { id, supplierId } = await t.product({ stock: 10, cost: 2 });
    const made = await t.call('POST', '/api/purchase-orders', {
      token: admin(),
      body: { supplier: supplierId, lines: [{ product: id, quantity: 5, unitCost: 3 }] },
    });
    expect(made.status, made.text).toBe(201);
    const order = (made.body as { purchaseOrder: unknown }).purchaseOrder as {
      _id: string;
      lines: { _id: string }[];
    };
    expect((await t.call('POST', `/api/purchase-orders/${order._id}/order`, { token: admin() })).status).toBe(
      200,
    );
    const received = await t.call('POST', `/api/purchase-orders/${order._id}/receive`, {
      token: admin(),
      body: { lines: [{ line: order.lines[0]?._id, quantity: 5 }] },
    });
    expect(received.status, received.text).toBe(200);
    expect(await values(id, 'receipt')).toEqual(['15.00']);
    expect(await worth(id)).toEqual({ stock: 15, value: '35.00', cost: '2.33' });
    // Sold one at 35.00 ÷ 15 = 2.333… → 2.33.
    await sold(t.as.salesRep, { lines: [{ productId: id, quantity: 1 }] });
    expect(await values(id, 'sale')).toEqual(['-2.33']);
    expect(await worth(id)).toEqual({ stock: 14, value: '32.67', cost: '2.33' });
    await holds([id]);
  });

  it('units back come in at what their sale took, pro rata by the cumulative rule; a write-off takes exactly that out', async () => {
    const { id } = await t.product({ stock: 0, price: 5 });
    await recordMovements(t.app.database, [{ productId: id, kind: 'receipt', quantity: 3, value: '10.00' }]);
    const sale = await sold(t.as.salesRep, { lines: [{ productId: id, quantity: 3 }] });
    expect(await values(id, 'sale')).toEqual(['-10.00']);
    // Meanwhile the average moves: 2 more at 9.00 each.
    await recordMovements(t.app.database, [{ productId: id, kind: 'receipt', quantity: 2, value: '18.00' }]);
    const refund = (quantity: number, restock: boolean) =>
      t.call('POST', `/api/sales/${sale._id}/refunds`, {
        token: t.as.admin.token,
        body: { lines: [{ order: sale.lines[0]?.order._id, quantity }], method: 'card', restock },
      });
    // One back: round(1 × 10.00 ÷ 3) = 3.33; then two more: round(3 × 10.00 ÷ 3) − 3.33 = 6.67.
    const first = await refund(1, true);
    expect(first.status, first.text).toBe(201);
    expect(await values(id, 'return')).toEqual(['3.33']);
    const second = await refund(2, false);
    expect(second.status, second.text).toBe(201);
    expect(await values(id, 'return')).toEqual(['3.33', '6.67']);
    // Written off (damaged): exactly what the return brought in, not the average.
    expect(await values(id, 'adjustment')).toEqual(['-6.67']);
    expect(await worth(id)).toEqual({ stock: 3, value: '21.33', cost: '7.11' });
    await holds([id]);
  });

  it('a gain comes in at the average, or at the cost when there is no stock', async () => {
    const { id } = await t.product({ stock: 3, cost: 1.1 });
    const adjust = (quantity: number, reason: string) =>
      t.call('POST', `/api/products/${id}/adjust`, { token: admin(), body: { quantity, reason } });
    expect((await adjust(2, 'found')).status).toBe(200);
    expect(await values(id, 'adjustment')).toEqual(['2.20']);
    expect((await adjust(-5, 'damaged')).status).toBe(200);
    expect(await worth(id)).toEqual({ stock: 0, value: '0.00', cost: '1.10' });
    expect((await adjust(4, 'found')).status).toBe(200);
    expect(await values(id, 'adjustment')).toEqual(['2.20', '-5.50', '4.40']);
    await holds([id]);
  });

  it('a cost edited while there is stock revalues it at each location; the cost answered is the one set', async () => {
    const room = (
      await t.sql<{ id: string }>(
        `insert into locations (name, kind) values ($1, 'stockroom') returning id`,
        [`Room ${tag()}`],
      )
    )[0]?.id as string;
    const { id } = await t.product({ stock: 4, cost: 2 });
    await recordMovements(t.app.database, [
      { productId: id, kind: 'receipt', quantity: 3, value: '7.00', locationId: room },
    ]);
    expect(await worth(id)).toEqual({ stock: 7, value: '15.00', cost: '2.14' });
    const current = await t.call('GET', `/api/products/${id}`, { token: admin() });
    const product = (current.body as { product: Record<string, unknown> }).product;
    const edited = await t.call('PUT', `/api/products/${id}`, {
      token: admin(),
      body: {
        name: product.name,
        description: product.description,
        price: product.price,
        stock: product.stock,
        category: (product.category as { _id: string })._id,
        supplier: (product.supplier as { _id: string })._id,
        cost: 2.5,
      },
    });
    expect(edited.status, edited.text).toBe(200);
    expect((edited.body as { product: { cost: number } }).product.cost).toBe(2.5);
    expect(await values(id, 'revaluation')).toEqual(expect.arrayContaining(['2.00', '0.50']));
    expect(await worthAt(id, main)).toEqual({ stock: 4, value: '10.00' });
    expect(await worthAt(id, room)).toEqual({ stock: 3, value: '7.50' });
    expect(await worth(id)).toEqual({ stock: 7, value: '17.50', cost: '2.50' });
    // The movements answer their value; a revaluation moves no units.
    const page = parsed(
      await t.call('GET', `/api/products/${id}/movements?page=1`, { token: admin() }),
      MovementListResponse,
    );
    expect(page.movements.filter((m) => m.kind === 'revaluation').map((m) => [m.quantity, m.value])).toEqual(
      expect.arrayContaining([
        [0, 2],
        [0, 0.5],
      ]),
    );
    await holds([id]);
  });

  it('a transfer carries the value that left: received at it, lost at it, the last unit what is left', async () => {
    const room = (
      await t.sql<{ id: string }>(
        `insert into locations (name, kind) values ($1, 'stockroom') returning id`,
        [`Room ${tag()}`],
      )
    )[0]?.id as string;
    const { id } = await t.product({ stock: 0 });
    await recordMovements(t.app.database, [{ productId: id, kind: 'receipt', quantity: 3, value: '10.00' }]);
    const call = (url: string, body?: unknown) => t.call('POST', url, { token: admin(), body });
    const draft = await call('/api/transfers', {
      from: main,
      to: room,
      lines: [{ product: id, quantity: 3 }],
    });
    expect(draft.status, draft.text).toBe(201);
    const transfer = (draft.body as { transfer: unknown }).transfer as {
      _id: string;
      lines: { _id: string }[];
    };
    expect((await call(`/api/transfers/${transfer._id}/send`)).status).toBe(200);
    expect(await values(id, 'transferOut')).toEqual(['-10.00']);
    const line = transfer.lines[0]?._id;
    expect(
      (await call(`/api/transfers/${transfer._id}/receive`, { lines: [{ line, received: 1 }] })).status,
    ).toBe(200);
    // 1 of 3: 3.33; then 1 received and 1 lost: round(3 × 10.00 ÷ 3) − 3.33 over two movements.
    expect(
      (await call(`/api/transfers/${transfer._id}/receive`, { lines: [{ line, received: 1, lost: 1 }] }))
        .status,
    ).toBe(200);
    const ins = await values(id, 'transferIn');
    expect(ins[0]).toBe('3.33');
    expect(ins.reduce((sum, v) => sum + Math.round(Number(v) * 100), 0)).toBe(1000);
    const lost = await values(id, 'transferLoss');
    expect(lost).toHaveLength(1);
    expect(await worthAt(id, room)).toEqual({
      stock: 2,
      value: ((1000 + Math.round(Number(lost[0]) * 100)) / 100).toFixed(2),
    });
    expect(await worthAt(id, main)).toEqual({ stock: 0, value: '0.00' });
    await holds([id]);
  });
});
