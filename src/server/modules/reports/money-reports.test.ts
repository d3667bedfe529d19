import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { CustomerResponse } from '../../../shared/customers';
import { DashboardResponse } from '../../../shared/dashboard';
import {
  CategoryReportResponse,
  CustomerReportResponse,
  ProductReportResponse,
  REPORT_CSV_HEADERS,
  SalesReportResponse,
  StaffReportResponse,
  TaxReportResponse,
} from '../../../shared/reports';
import { SaleResponse } from '../../../shared/sales';
import { setReportTimeZone } from '../../db/report-time-zone';
import { nth } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';

/**
 * Reports of money at the counter (DESIGN §12): revenue net of tax, of discounts and of returns, the
 * sales report's discount and tax, and the tax report by rate. The lines are written in SQL as the
 * sale writes them (the counter's sale with discounts is built apart); a return gives back the
 * line's money pro rata, cents exact.
 */

type Line = {
  quantity: number;
  total: string;
  discount?: string;
  tax?: string;
  rate?: [name: string, percent: string];
};

describe.each(targets)('money in the reports on $name', (target) => {
  let t: TestApp;
  let admin: string;
  let productId: string;
  const ids: Record<string, string> = {};

  const get = (url: string) => t.call('GET', url, { token: admin });

  /** Lines of one sale (one statement) at `at`, of the product at 10.00 costing 3.00, by the rep. */
  async function sell(at: string, lines: Record<string, Line>, customer?: { id: string; name: string }) {
    const names = Object.keys(lines);
    const rows = await t.sql<{ id: string; total: string }>(
      `insert into orders (product_id, user_id, quantity, unit_price, unit_cost, total_price, discount, tax,
                           tax_rate_name, tax_rate, product_name, category_name, user_name, user_address,
                           order_date, customer_id, customer_name)
       select p.id, $3::uuid, l.quantity, p.price, p.cost, l.total, l.discount, l.tax, l.name, l.rate, p.name,
              c.name, 'Rep', '', $2::timestamptz, $5::uuid, $6::text
       from products p join categories c on c.id = p.category_id,
            jsonb_to_recordset($4::jsonb) as l(quantity int, total numeric, discount numeric, tax numeric,
                                               name text, rate numeric)
       where p.id = $1 returning id, total_price::text as total`,
      [
        productId,
        at,
        t.as.salesRep.id,
        JSON.stringify(
          names.map((name) => {
            const line = lines[name] as Line;
            return {
              quantity: line.quantity,
              total: line.total,
              discount: line.discount ?? '0',
              tax: line.tax ?? '0',
              name: line.rate?.[0] ?? null,
              rate: line.rate?.[1] ?? null,
            };
          }),
        ),
        customer?.id ?? null,
        customer?.name ?? null,
      ],
    );
    // The lines of a sale here differ in their totals: each is found by its own.
    for (const name of names) ids[name] = rows.find((row) => row.total === lines[name]?.total)?.id as string;
  }

  /**
   * Brings the line's units returned to `units`, giving back round(total × units / quantity), tax
   * and the discount's share alike, as a return writes them.
   */
  const giveBack = (name: string, units: number) =>
    t.sql(
      `update orders set returned_quantity = $2::int,
              returned_total = round(total_price * $2::int / quantity, 2),
              returned_tax = round(tax * $2::int / quantity, 2),
              returned_discount = round(discount * $2::int / quantity, 2),
              status = case when $2::int = quantity then 'returned' else 'placed' end
       where id = $1`,
      [ids[name], units],
    );

  /**
   * 2022-05-02, one sale to Carla: A 3 units, 3.00 off, 9 % on top (27.00 + 2.43); B 2 units, 8.875 %
   * within the price (20.00 of which 1.63 tax); C 1 unit, 0.50 off, no rate. 2022-05-03: D 4 units,
   * 4.00 off, 9 % (36.00 + 3.24), all returned; E 2 units as sold before taxes, 1 returned (10.00
   * back); F 1 unit at an exempt 0 % rate. A's first unit comes back: 9.81 given back, 0.81 of it tax.
   */
  beforeAll(async () => {
    t = await startApp(target);
    admin = t.as.admin.token;
    productId = (await t.product({ name: 'Widget', stock: 100, price: 10 })).id;
    await t.setCost(productId, 3);
    const carla = await t.call('POST', '/api/customers', { token: t.as.user.token, body: { name: 'Carla' } });
    expect(carla.status, carla.text).toBe(201);
    await sell(
      '2022-05-02T12:00:00Z',
      {
        a: { quantity: 3, total: '29.43', discount: '3.00', tax: '2.43', rate: ['Standard', '9'] },
        b: { quantity: 2, total: '20.00', tax: '1.63', rate: ['NYC', '8.875'] },
        c: { quantity: 1, total: '9.50', discount: '0.50' },
      },
      { id: parsed(carla, CustomerResponse).customer._id, name: 'Carla' },
    );
    await sell('2022-05-03T10:00:00Z', {
      d: { quantity: 4, total: '39.24', discount: '4.00', tax: '3.24', rate: ['Standard', '9'] },
      e: { quantity: 2, total: '20.00' },
      f: { quantity: 1, total: '10.00', rate: ['Exempt', '0'] },
    });
    await giveBack('a', 1);
    await giveBack('d', 4);
    // Before taxes a return gave back its units at the unit price (migration 0023's backfill).
    await t.sql(
      "update orders set returned_quantity = 1, returned_total = 10, status = 'placed' where id = $1",
      [ids.e],
    );
  });
  afterAll(() => t?.close());

  const range = 'from=2022-05-02&to=2022-05-03';

  it('GET /api/reports/sales answers revenue net of tax, discounts and returns, and the discount and tax beside it', async () => {
    const res = await get(`/api/reports/sales?${range}`);
    expect(res.status, res.text).toBe(200);
    expect(SalesReportResponse.parse(res.body)).toEqual(res.body);
    expect(parsed(res, SalesReportResponse).periods).toEqual([
      // A keeps 2 units: 27.00 − 9.00 net; B 18.37; C 9.50. A partly returned line keeps its discount
      // less its returned units' share, pro rata as its money (3.00 − 1.00), C its 0.50. Tax 1.62 + 1.63.
      {
        start: '2022-05-02',
        orders: 3,
        units: 5,
        revenue: 45.87,
        cost: 15,
        margin: 30.87,
        discount: 2.5,
        tax: 3.25,
      },
      // D came back whole: nothing of it counts, its discount neither. E keeps 1 unit, F 1.
      { start: '2022-05-03', orders: 2, units: 2, revenue: 20, cost: 6, margin: 14, discount: 0, tax: 0 },
    ]);
    expect(parsed(res, SalesReportResponse).totals).toEqual({
      orders: 5,
      units: 7,
      revenue: 65.87,
      cost: 21,
      margin: 44.87,
      discount: 2.5,
      tax: 3.25,
    });
  });

  it('GET /api/reports/tax sums each rate over the range, net of returns, sales before taxes under no rate', async () => {
    const res = await get(`/api/reports/tax?${range}`);
    expect(res.status, res.text).toBe(200);
    expect(TaxReportResponse.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({
      success: true,
      from: '2022-05-02',
      to: '2022-05-03',
      rates: [
        { name: '', rate: 0, base: 19.5, tax: 0 },
        { name: 'Exempt', rate: 0, base: 10, tax: 0 },
        { name: 'NYC', rate: 8.875, base: 18.37, tax: 1.63 },
        { name: 'Standard', rate: 9, base: 18, tax: 1.62 },
      ],
      totals: { base: 65.87, tax: 3.25 },
    });
    // The base is the revenue: the two reports agree.
    const sales = await get(`/api/reports/sales?${range}`);
    expect(parsed(res, TaxReportResponse).totals).toEqual({
      base: parsed(sales, SalesReportResponse).totals.revenue,
      tax: parsed(sales, SalesReportResponse).totals.tax,
    });
    // One day: D came back whole, so its rate sold nothing that day and is left out.
    const day = await get('/api/reports/tax?from=2022-05-03&to=2022-05-03');
    expect(parsed(day, TaxReportResponse).rates).toEqual([
      { name: '', rate: 0, base: 10, tax: 0 },
      { name: 'Exempt', rate: 0, base: 10, tax: 0 },
    ]);
    expect(parsed(day, TaxReportResponse).totals).toEqual({ base: 20, tax: 0 });
    const none = await get('/api/reports/tax?from=2019-01-01&to=2019-01-31');
    expect(none.body).toMatchObject({ rates: [], totals: { base: 0, tax: 0 } });
  });

  it('a later return takes its net and tax away from its rate', async () => {
    await giveBack('b', 1);
    const res = await get(`/api/reports/tax?${range}`);
    // B gives back round(20.00 / 2) = 10.00, of which round(1.63 / 2) = 0.82 tax: it keeps 9.19 + 0.81.
    expect(parsed(res, TaxReportResponse).rates).toContainEqual({
      name: 'NYC',
      rate: 8.875,
      base: 9.19,
      tax: 0.81,
    });
    expect(parsed(res, TaxReportResponse).totals).toEqual({ base: 56.69, tax: 2.43 });
    await giveBack('b', 0);
    expect(parsed(await get(`/api/reports/tax?${range}`), TaxReportResponse).totals).toEqual({
      base: 65.87,
      tax: 3.25,
    });
  });

  it('the CSVs hold what the JSON answers', async () => {
    const tax = await get(`/api/reports/tax?${range}`);
    const taxCsv = await get(`/api/reports/tax?${range}&format=csv`);
    expect(taxCsv.status, taxCsv.text).toBe(200);
    expect(taxCsv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(taxCsv.headers['content-disposition']).toBe(
      'attachment; filename="tax-2022-05-02-to-2022-05-03.csv"',
    );
    expect(parseCsv(taxCsv.text)).toEqual([
      [...REPORT_CSV_HEADERS.tax],
      ...parsed(tax, TaxReportResponse).rates.map((r) => [r.name, r.rate, r.base, r.tax].map(String)),
    ]);
    expect(parseCsv(taxCsv.text)[3]).toEqual(['NYC', '8.875', '18.37', '1.63']);
    const sales = await get(`/api/reports/sales?${range}&groupBy=month`);
    const salesCsv = await get(`/api/reports/sales?${range}&groupBy=month&format=csv`);
    expect(parseCsv(salesCsv.text)).toEqual([
      [...REPORT_CSV_HEADERS.sales],
      ...parsed(sales, SalesReportResponse).periods.map((p: Record<string, number | string>) =>
        REPORT_CSV_HEADERS.sales.map((column) => String(p[column === 'period start' ? 'start' : column])),
      ),
    ]);
    expect(parseCsv(salesCsv.text)[1]).toEqual([
      '2022-05-02',
      '5',
      '7',
      '65.87',
      '21',
      '44.87',
      '2.5',
      '3.25',
    ]);
  });

  it('products, categories, staff and customers count the net revenue, margin net − cost', async () => {
    const products = await get(`/api/reports/products?${range}`);
    expect(parsed(products, ProductReportResponse).products).toEqual([
      expect.objectContaining({
        product: { _id: productId, name: 'Widget' },
        units: 7,
        revenue: 65.87,
        margin: 44.87,
      }),
    ]);
    const categories = await get(`/api/reports/categories?${range}`);
    expect(parsed(categories, CategoryReportResponse).categories).toEqual([
      expect.objectContaining({ units: 7, revenue: 65.87, margin: 44.87, share: 1 }),
    ]);
    const staff = await get(`/api/reports/staff?${range}`);
    expect(parsed(staff, StaffReportResponse).staff).toEqual([
      { user: expect.objectContaining({ _id: t.as.salesRep.id }), orders: 5, units: 7, revenue: 65.87 },
    ]);
    const customers = await get(`/api/reports/customers?${range}`);
    expect(parsed(customers, CustomerReportResponse).customers).toEqual([
      // Written without a sales row, so no sale is counted: its units and revenue are.
      expect.objectContaining({
        customer: expect.objectContaining({ name: 'Carla' }),
        units: 5,
        revenue: 45.87,
      }),
    ]);
  });

  it('the dashboard’s revenue is net too, and so is today’s', async () => {
    await sell(new Date().toISOString(), {
      today: { quantity: 1, total: '10.90', tax: '0.90', rate: ['Standard', '9'] },
    });
    const res = await get('/api/dashboard');
    expect(res.status, res.text).toBe(200);
    expect(parsed(res, DashboardResponse).revenue).toBe(75.87);
    expect(parsed(res, DashboardResponse).today).toEqual({ sales: 1, revenue: 10, averageBasket: 10 });
  });

  describe('bad ranges', () => {
    const long = 'x'.repeat(10_000);
    it.each([
      ['a date that does not exist', 'from=2024-02-30&to=2024-03-01', 'That date does not exist.'],
      ['year 0', 'from=0000-01-01&to=2024-03-01', 'Dates must be between 1900 and 9999.'],
      ['from after to', 'from=2022-05-03&to=2022-05-02', 'The from date must be on or before the to date.'],
      ['more than 3 years', 'from=2020-01-01&to=2023-01-01', 'A report covers at most 3 years.'],
      ['10,000 characters', `from=${long}`, 'Dates look like 2025-01-31.'],
      ['a NUL', 'to=2022-05-02%00', 'Text must not contain NUL characters'],
      ['an array', 'from=2022-05-01&from=2022-05-02', 'from: Dates must be text.'],
      ['an unknown format', 'format=xlsx', 'format must be json or csv.'],
    ])('GET /api/reports/tax refuses %s with 400 and one sentence', async (_label, query, sentence) => {
      for (const format of ['', '&format=csv']) {
        if (format && query.startsWith('format')) continue;
        const res = await get(`/api/reports/tax?${query}${format}`);
        expect(res.status, `${query}: ${res.text}`).toBe(400);
        expect(parsed(res, ApiError).success).toBe(false);
        expect(parsed(res, ApiError).error).toContain(sentence);
      }
    });
  });
});

describe.each(targets)('a discount net of returns on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  it('returning 1 of 3 units of a line 13.52 off leaves 9.01 of its discount in the sales report, kept and recounted', async () => {
    const { id } = await t.product({ stock: 10, price: 22.53 });
    const admin = t.as.admin.token;
    const today = async () => {
      const res = await t.call('GET', '/api/reports/sales?groupBy=month', { token: admin });
      expect(res.status, res.text).toBe(200);
      return parsed(res, SalesReportResponse).totals.discount;
    };
    const before = await today();
    // 3 × 22.53 = 67.59, 20 % off: 13.518, so 13.52.
    const sold = await t.call('POST', '/api/sales', {
      token: admin,
      body: {
        lines: [{ productId: id, quantity: 3, discount: { type: 'percent', value: 20 } }],
        payment: { method: 'card' },
      },
    });
    expect(sold.status, sold.text).toBe(201);
    expect(parsed(sold, SaleResponse).sale.discount).toBe(13.52);
    const order = nth(parsed(sold, SaleResponse).sale.lines).order._id;
    const back = (quantity: number) =>
      t.call('POST', `/api/order/${order}/return`, { token: admin, body: { quantity } });
    const added = async () => Math.round(((await today()) - before) * 100) / 100;
    expect(await added()).toBe(13.52);
    expect((await back(1)).status).toBe(200);
    // round(13.52 × 1 / 3) = 4.51 goes with the unit, as its money does.
    expect(await added()).toBe(9.01);
    // The recount of every day (a new zone) counts it the same way.
    expect(await setReportTimeZone(t.app.database, 'Pacific/Kiritimati')).toBe(true);
    expect(await setReportTimeZone(t.app.database, 'UTC')).toBe(true);
    expect(await added()).toBe(9.01);
    expect((await back(1)).status).toBe(200);
    // round(13.52 × 2 / 3) = 9.01 in all: 4.51 is left, and the last unit takes it.
    expect(await added()).toBe(4.51);
    expect((await back(1)).status).toBe(200);
    expect(await added()).toBe(0);
  });
});

describe.each(targets)('the tax report across a change of time zone on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  it('the recount in a new zone moves an evening sale’s net, tax and discount to its day there', async () => {
    const { id } = await t.product({ stock: 10, price: 10 });
    await t.sql(
      `insert into orders (product_id, quantity, unit_price, total_price, discount, tax, tax_rate_name, tax_rate,
                           product_name, category_name, user_name, user_address, order_date)
       values ($1, 2, 10, 19.62, 2.00, 1.62, 'Standard', 9, 'Widget', 'Tools', 'Rep', '', '2022-06-15T23:30:00Z')`,
      [id],
    );
    const admin = t.as.admin.token;
    const day = async (d: string) => {
      const tax = await t.call('GET', `/api/reports/tax?from=${d}&to=${d}`, { token: admin });
      const sales = await t.call('GET', `/api/reports/sales?from=${d}&to=${d}`, { token: admin });
      return {
        rates: parsed(tax, TaxReportResponse).rates,
        discount: parsed(sales, SalesReportResponse).totals.discount,
        tax: parsed(sales, SalesReportResponse).totals.tax,
      };
    };
    const sold = { rates: [{ name: 'Standard', rate: 9, base: 18, tax: 1.62 }], discount: 2, tax: 1.62 };
    const nothing = { rates: [], discount: 0, tax: 0 };
    expect(await day('2022-06-15')).toEqual(sold);
    expect(await day('2022-06-16')).toEqual(nothing);
    // Tokyo (UTC+9): 23:30 UTC is 08:30 the next day.
    expect(await setReportTimeZone(t.app.database, 'Asia/Tokyo')).toBe(true);
    expect(await day('2022-06-15')).toEqual(nothing);
    expect(await day('2022-06-16')).toEqual(sold);
    expect(await setReportTimeZone(t.app.database, 'UTC')).toBe(true);
    expect(await day('2022-06-15')).toEqual(sold);
  });
});
