import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_HEADER } from '../../shared/audit';
import { ApiError } from '../../shared/common';
import { PRODUCT_CSV_HEADER, ProductResponse } from '../../shared/products';
import { PURCHASE_ORDER_CSV_HEADER, PurchaseOrderResponse } from '../../shared/purchasing';
import { MOVEMENT_CSV_HEADER } from '../../shared/stock';
import { movementsInsert } from '../modules/stock/movements';
import { nth, tag } from './fixtures';
import { parsed, startApp, type TestApp, targets } from './harness';
import { parseCsv } from './parse-csv';

/** The long lists answer format=csv (DESIGN §10): the whole filtered list, streamed. */
describe.each(targets)('lists as CSV on $name', (target) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    // Exports write the server zone's clock: here a zone half an hour off the hour.
    t = await startApp(target, { config: { timeZone: 'Asia/Kolkata' } });
    admin = t.as.admin.token;
  });
  afterAll(() => t?.close());

  const csv = async (url: string, token = admin) => {
    const res = await t.call('GET', url, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    return parseCsv(res.text);
  };

  it('products: every match of the search and category, in name order, across batches, with cost and reorder settings', async () => {
    const word = `Csvthing${tag()}`;
    const { categoryId, supplierId } = await t.product({ name: `${word} seed`, stock: 1 });
    // 5,100 products in one statement: more than one batch of the export.
    await t.sql(
      `insert into products (name, price, stock, category_id, supplier_id, cost, reorder_point)
       select $1 || ' ' || lpad(i::text, 5, '0'), 2.5, 0, $2, $3, case when i = 1 then 1.25 end, case when i = 1 then 7 end
       from generate_series(1, 5100) i`,
      [word, categoryId, supplierId],
    );
    await t.sql(
      'insert into products (name, price, stock, category_id, supplier_id) values ($1, 1, 0, $2, $3)',
      [`@${word} =1+2`, categoryId, supplierId],
    );
    const [header, ...rows] = await csv(`/api/products?format=csv&search=${word}&category=${categoryId}`);
    expect(header).toEqual([...PRODUCT_CSV_HEADER]);
    expect(rows).toHaveLength(5102);
    const names = rows.map((row) => row[0] as string);
    expect(names[0]).toBe(`'@${word} =1+2`);
    expect(names.slice(1, 3)).toEqual([`${word} 00001`, `${word} 00002`]);
    expect(names.at(-1)).toBe(`${word} seed`);
    // Price, cost, stock, reorder point (empty: the store's), reorder quantity, tax rate (empty: the store's).
    // …then a product on its own: no item, options or brand, and active.
    expect(rows[1]?.slice(6)).toEqual([
      '2.5',
      '1.25',
      '0',
      '7',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      'true',
    ]);
    expect(rows[2]?.slice(6)).toEqual(['2.5', '', '0', '', '', '', '', '', '', '', '', '', '', '', 'true']);
    const searched = await csv(`/api/products?format=csv&search=${word} 0510`);
    expect(searched.slice(1).map((row) => row[0])).toEqual([`${word} 00510`, `${word} 05100`]);
    // A product's own rate is named; the store's default is not written.
    const barcode = `77${Date.now()}`.slice(0, 13);
    const [rate] = await t.sql<{ id: string }>(
      `insert into tax_rates (name, rate) values ($1, 5) returning id`,
      [`Reduced ${word}`],
    );
    await t.sql('update products set tax_rate_id = $1, sku = $2, barcode = $3 where name = $4', [
      rate?.id,
      `SKU-${word}`,
      barcode,
      `${word} 00002`,
    ]);
    const [, own] = await csv(`/api/products?format=csv&search=${word} 00002`);
    expect(own?.slice(0, 3)).toEqual([`${word} 00002`, `SKU-${word}`, barcode]);
    expect(own?.[PRODUCT_CSV_HEADER.indexOf('Tax rate')]).toBe(`Reduced ${word}`);
  });

  it('exports are admin work: the products and orders CSV are refused (403) to every other role', async () => {
    for (const role of ['superAdmin', 'salesRep', 'medicalRep', 'user'] as const) {
      const me = t.as[role];
      for (const url of ['/api/products?format=csv', `/api/order/${me.id}?format=csv`]) {
        const refused = await t.call('GET', url, { token: me.token });
        expect(refused.status, `${role} ${url}`).toBe(403);
        expect(refused.body).toEqual({
          success: false,
          code: 'FORBIDDEN',
          error: 'Only an admin may export lists.',
        });
      }
      // The same lists as JSON stay theirs to read.
      expect((await t.call('GET', '/api/products?page=1', { token: me.token })).status).toBe(200);
    }
  });

  it('a product’s movements, newest first, with receipts naming their purchase order; 404 for an unknown product', async () => {
    const { id, supplierId } = await t.product({ stock: 5 });
    await t.call('POST', '/api/order/add', { token: t.as.user.token, body: { productId: id, quantity: 2 } });
    const po = await t.call('POST', '/api/purchase-orders', {
      token: admin,
      body: { supplier: supplierId, lines: [{ product: id, quantity: 4, unitCost: 1 }] },
    });
    const order = parsed(po, PurchaseOrderResponse).purchaseOrder;
    await t.call('POST', `/api/purchase-orders/${order._id}/order`, { token: admin });
    await t.call('POST', `/api/purchase-orders/${order._id}/receive`, {
      token: admin,
      body: { lines: [{ line: nth(order.lines)._id, quantity: 4 }] },
    });
    const [header, ...rows] = await csv(`/api/products/${id}/movements?format=csv`);
    expect(header).toEqual([...MOVEMENT_CSV_HEADER]);
    expect(rows.map((row) => [row[1], row[2], row[3], row[8]])).toEqual([
      ['receipt', '4', '7', order.number],
      ['sale', '-2', '3', ''],
      ['initial', '5', '5', ''],
    ]);
    const missing = await t.call(
      'GET',
      '/api/products/00000000-0000-4000-8000-000000000000/movements?format=csv',
      {
        token: admin,
      },
    );
    expect(missing.status).toBe(404);
  });

  it('purchase orders, newest first, filtered by status', async () => {
    const { id, supplierId } = await t.product();
    const made = [];
    for (const quantity of [1, 2, 3])
      made.push(
        parsed(
          await t.call('POST', '/api/purchase-orders', {
            token: admin,
            body: { supplier: supplierId, lines: [{ product: id, quantity, unitCost: 0.5 }] },
          }),
          PurchaseOrderResponse,
        ).purchaseOrder,
      );
    await t.call('POST', `/api/purchase-orders/${nth(made, 1)._id}/order`, { token: admin });
    const [header, ...rows] = await csv(`/api/purchase-orders?format=csv&supplier=${supplierId}`);
    expect(header).toEqual([...PURCHASE_ORDER_CSV_HEADER]);
    expect(rows.map((row) => [row[0], row[2], row[3]])).toEqual([
      [nth(made, 2).number, 'draft', '1.5'],
      [nth(made, 1).number, 'ordered', '1'],
      [nth(made, 0).number, 'draft', '0.5'],
    ]);
    expect(rows[1]?.[5]).toMatch(/^\d{4}-\d\d-\d\dT/);
    const drafts = await csv(`/api/purchase-orders?format=csv&supplier=${supplierId}&status=draft`);
    expect(drafts.slice(1).map((row) => row[0])).toEqual([nth(made, 2).number, nth(made, 0).number]);
  });

  /**
   * 5,012 rows, seven to each moment, every moment with microseconds (SQL over `i`): the first
   * batch of 5,000 ends inside a moment, whose other rows the next batch must still find.
   */
  const ROWS = 5012;
  const series = (from = 1, to = ROWS) => `generate_series(${from}, ${to}) i`;
  const moments = (from = 1, to = ROWS) => `from ${series(from, to)}`;
  const MOMENT = `timestamptz '2019-03-01 10:00:00.123456+00' - make_interval(secs => (i / 7) * 0.001001)`;

  it('rows that share a time to the microsecond are all exported across batches: movements, purchase orders, activity', async () => {
    const { id, supplierId } = await t.product({ stock: 0 });
    // Each movement applies itself to the stock (a trigger per row): a thousand per statement.
    for (let from = 1; from <= ROWS; from += 1000)
      await t.sql(
        movementsInsert({
          values: {
            product_id: '$1',
            kind: "'adjustment'",
            quantity: '1',
            reason: "'found'",
            note: "'moment ' || i",
            at: MOMENT,
          },
          from: series(from, Math.min(ROWS, from + 999)),
        }),
        [id],
      );
    const [held] = await t.sql<{ n: number }>(
      'select count(*)::int as n from stock_movements where product_id = $1',
      [id],
    );
    expect(held?.n).toBeGreaterThanOrEqual(ROWS);
    const movements = (await csv(`/api/products/${id}/movements?format=csv`)).slice(1);
    expect(movements).toHaveLength(held?.n ?? 0);
    expect(new Set(movements.map((row) => row[5])).size).toBe(held?.n);
    // 10:00:00.123 UTC on the server's clock, to the second, with its offset.
    expect(movements[0]?.[0]).toBe('2019-03-01T15:30:00+05:30');

    await t.sql(
      `insert into purchase_orders (supplier_id, note, created_at) select $1, 'moment ' || i, ${MOMENT} ${moments()}`,
      [supplierId],
    );
    const orders = (await csv(`/api/purchase-orders?format=csv&supplier=${supplierId}`)).slice(1);
    expect(orders).toHaveLength(ROWS);
    expect(new Set(orders.map((row) => row[0])).size).toBe(ROWS);
    expect(orders[0]?.slice(4)).toEqual(['2019-03-01T15:30:00+05:30', '', '', 'Main store']);

    const name = `Moment ${tag()}`;
    await t.sql(
      `insert into audit_log (action, entity_type, entity_name, at)
       select 'created', 'category', $1 || ' ' || i, ${MOMENT} ${moments()}`,
      [name],
    );
    const activity = (await csv('/api/audit?format=csv&entity=category&from=2019-03-01&to=2019-03-01')).slice(
      1,
    );
    expect(activity).toHaveLength(ROWS);
    expect(new Set(activity.map((row) => row[5])).size).toBe(ROWS);
    expect(activity[0]?.[0]).toBe('2019-03-01T15:30:00+05:30');
  });

  it('the activity log with its filters, changes in one cell; only for those who may read it', async () => {
    const name = `Audited ${tag()}`;
    const { categoryId, supplierId } = await t.product();
    const added = await t.call('POST', '/api/products/add', {
      token: admin,
      body: { name, price: 3, stock: 1, category: categoryId, supplier: supplierId },
    });
    await t.call('PUT', `/api/products/${parsed(added, ProductResponse).product._id}`, {
      token: admin,
      body: { name, price: 4, stock: 1, category: categoryId, supplier: supplierId },
    });
    const [header, ...rows] = await csv(`/api/audit?format=csv&entity=product&actor=${t.as.admin.id}`);
    expect(header).toEqual([...AUDIT_CSV_HEADER]);
    const mine = rows.filter((row) => row[5] === name);
    expect(mine.map((row) => [row[1], row[2], row[3], row[4]])).toEqual([
      [t.as.admin.name, 'admin', 'updated', 'product'],
      [t.as.admin.name, 'admin', 'created', 'product'],
    ]);
    expect(mine[0]?.[6]).toBe('price: 3.00 → 4.00');
    const refused = await t.call('GET', '/api/audit?format=csv', { token: t.as.salesRep.token });
    expect(refused.status).toBe(403);
    expect(parsed(refused, ApiError).error).toEqual(expect.any(String));
  });
});
