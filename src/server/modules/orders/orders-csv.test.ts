import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { ORDER_CSV_HEADER, OrderListResponse } from '../../../shared/orders';
import { SaleResponse } from '../../../shared/sales';
import { nth } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';

describe.each(targets)('orders as CSV on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // Exports write the server zone's clock: a zone that is not UTC, with summer time.
    t = await startApp(target, { config: { timeZone: 'Europe/Paris' } });
  });
  afterAll(() => t?.close());

  it('GET /api/order/:id?format=csv answers every order as RFC 4180 CSV, formulas defused, like the JSON list', async () => {
    const tricky = await t.product({ name: '=HYPERLINK("http://x", "Pen, blue")', stock: 50, price: 1.1 });
    const plain = await t.product({ name: 'Plain pad', stock: 50, price: 2.5 });
    for (const [id, quantity] of [
      [tricky.id, 2],
      [plain.id, 3],
      [tricky.id, 1],
    ] as const)
      await t.call('POST', '/api/order/add', {
        token: t.as.salesRep.token,
        body: { productId: id, quantity },
      });
    await t.setCost(plain.id, 0.4);
    const res = await t.call('GET', `/api/order/${t.as.admin.id}?format=csv`, { token: t.as.admin.token });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="orders.csv"');
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual([...ORDER_CSV_HEADER]);
    const json = await t.call('GET', `/api/order/${t.as.admin.id}`, { token: t.as.admin.token });
    expect(rows.map((row) => row[0])).toEqual(
      parsed(json, OrderListResponse).orders.map((order) => order._id),
    );
    const first = rows[0] as string[];
    expect(first.slice(2, 16)).toEqual([
      `'=HYPERLINK("http://x", "Pen, blue")`,
      expect.stringMatching(/^Category /),
      t.as.salesRep.name,
      '1',
      '1.1',
      '',
      '1.1',
      '0',
      '0',
      '',
      '1.1',
      '0',
      '0',
      'placed',
    ]);
    expect(res.text).toContain(`"'=HYPERLINK(""http://x"", ""Pen, blue"")"`);
    expect(first[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/);
    expect(Date.parse(first[1] as string)).toBe(
      Math.floor(Date.parse(nth(parsed(json, OrderListResponse).orders).orderDate) / 1000) * 1000,
    );
  });

  it('writes the date with the server zone’s offset and the sale number as on the receipt (S-000725)', async () => {
    const { id } = await t.product({ name: 'Receipt roll', stock: 10, price: 3 });
    const sold = await t.call('POST', '/api/sales', {
      token: t.as.salesRep.token,
      body: { lines: [{ productId: id, quantity: 1 }], payment: { method: 'cash', tendered: 5 }, total: 3 },
    });
    expect(sold.status).toBe(201);
    await t.sql('update sales set number = 725 where id = $1', [parsed(sold, SaleResponse).sale._id]);
    await t.sql(
      `update orders set sale_number = 725, order_date = '2026-11-25T14:04:05.678Z' where sale_id = $1`,
      [parsed(sold, SaleResponse).sale._id],
    );
    const { id: summer } = await t.product({ name: 'Receipt ink', stock: 10, price: 3 });
    await t.call('POST', '/api/order/add', {
      token: t.as.salesRep.token,
      body: { productId: summer, quantity: 1 },
    });
    // An order from before catalogue orders were sales has no receipt number: an empty cell.
    await t.sql(
      `update orders set order_date = '2026-07-01T10:00:00Z', sale_id = null, sale_number = null, sale_line = null
       where product_id = $1`,
      [summer],
    );
    const res = await t.call('GET', `/api/order/${t.as.admin.id}?format=csv&search=receipt&sort=date`, {
      token: t.as.admin.token,
    });
    const rows = parseCsv(res.text).slice(1);
    const at = ORDER_CSV_HEADER.indexOf('sale number');
    expect(rows.map((row) => [row[1], row[2], row[at]])).toEqual([
      ['2026-07-01T12:00:00+02:00', 'Receipt ink', ''],
      ['2026-11-25T15:04:05+01:00', 'Receipt roll', 'S-000725'],
    ]);
  });

  it('an admin’s CSV of one user holds only their orders; search and oldest-first are kept', async () => {
    const { id } = await t.product({ name: 'Searchable stapler', stock: 20 });
    await t.call('POST', '/api/order/add', { token: t.as.user.token, body: { productId: id, quantity: 1 } });
    await t.call('POST', '/api/order/add', {
      token: t.as.salesRep.token,
      body: { productId: id, quantity: 2 },
    });
    const own = await t.call('GET', `/api/order/${t.as.user.id}?format=csv`, { token: t.as.admin.token });
    const rows = parseCsv(own.text).slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row[4]))).toEqual(new Set([t.as.user.name]));
    const searched = await t.call('GET', `/api/order/${t.as.admin.id}?format=csv&search=stapler&sort=date`, {
      token: t.as.admin.token,
    });
    const found = parseCsv(searched.text).slice(1);
    expect(found.map((row) => [row[4], row[5]])).toEqual([
      [t.as.user.name, '1'],
      [t.as.salesRep.name, '2'],
    ]);
  });

  it('a large export arrives whole, in order, across batches', async () => {
    const { id } = await t.product({ name: 'Bulk item', stock: 0 });
    // 12,345 orders written directly (the export reads them; how they came does not matter).
    await t.sql(
      `insert into orders (user_id, product_id, quantity, unit_price, total_price, product_name, category_name,
                           user_name, user_address, order_date)
       select $1, $2, 1 + i % 3, 2, 2 * (1 + i % 3), 'Bulk item', 'Bulk', 'Bulk buyer', '',
              now() - make_interval(secs => i)
       from generate_series(1, 12345) i`,
      [t.as.medicalRep.id, id],
    );
    const res = await t.call('GET', `/api/order/${t.as.medicalRep.id}?format=csv`, {
      token: t.as.admin.token,
    });
    const rows = parseCsv(res.text).slice(1);
    expect(rows).toHaveLength(12345);
    expect(new Set(rows.map((row) => row[0])).size).toBe(12345);
    const dates = rows.map((row) => row[1] as string);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('orders that share a date to the microsecond are all exported, across batches, both ways', async () => {
    const { id } = await t.product({ name: 'Same moment item', stock: 0 });
    // 11,000 orders, seven to each moment, every moment with microseconds: a batch of 5,000 ends
    // inside a moment, whose other orders the next batch must still find.
    await t.sql(
      `insert into orders (user_id, product_id, quantity, unit_price, total_price, product_name, category_name,
                           user_name, user_address, order_date)
       select $1, $2, 1, 2, 2, 'Same moment item', 'Moments', 'Moment buyer', '',
              timestamptz '2019-03-01 10:00:00.123456+00' - make_interval(secs => (i / 7) * 0.001001)
       from generate_series(1, 11000) i`,
      [t.as.user.id, id],
    );
    for (const sort of ['', '&sort=date']) {
      const res = await t.call('GET', `/api/order/${t.as.user.id}?format=csv&search=moment${sort}`, {
        token: t.as.admin.token,
      });
      const rows = parseCsv(res.text).slice(1);
      expect(rows).toHaveLength(11000);
      expect(new Set(rows.map((row) => row[0])).size).toBe(11000);
      expect(rows[0]?.[1]).toBe(sort ? '2019-03-01T10:59:58+01:00' : '2019-03-01T11:00:00+01:00');
    }
  });

  it('format other than json or csv is a 400', async () => {
    const res = await t.call('GET', `/api/order/${t.as.admin.id}?format=xml`, { token: t.as.admin.token });
    expect(res.status).toBe(400);
    expect(parsed(res, ApiError).error).toContain('format must be json or csv.');
  });
});
