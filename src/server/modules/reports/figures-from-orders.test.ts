import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType, z } from 'zod';
import { ApiError } from '../../../shared/common';
import { CustomerResponse } from '../../../shared/customers';
import { DashboardResponse } from '../../../shared/dashboard';
import {
  CategoryReportResponse,
  CustomerReportResponse,
  NeverSoldResponse,
  ProductReportResponse,
  REPORT_CSV_HEADERS,
  SalesReportResponse,
  StaffReportResponse,
  StockByLocationResponse,
  StockReportResponse,
  TaxReportResponse,
} from '../../../shared/reports';
import { nth } from '../../test/fixtures';
import { type Answer, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';
import { recordMovements } from '../stock/movements';

/**
 * The reports and the dashboard of one location (DESIGN §17): counted from the orders whose stock
 * left from it (figures-from-orders.ts). While the store has one location, its figures are the
 * kept store-wide figures to the cent; with two, the two locations' figures add up to the store's,
 * sales, returns, discounts and taxes alike. The orders are written in SQL as a sale writes them
 * (as money-reports.test.ts does), each at its location.
 */

type Line = {
  quantity: number;
  total: string;
  discount?: string;
  tax?: string;
  rate?: [name: string, percent: string];
};

/** Money as integer cents, so that sums are exact. */
const cents = (value: number) => Math.round(value * 100);

/** The answer without the location it names: what the store-wide answer holds. */
function withoutLocation(body: unknown): unknown {
  const { location: _location, stockValue: _stockValue, ...rest } = body as Record<string, unknown>;
  return rest;
}

describe.each(targets)('reports and the dashboard by location on $name', (target) => {
  let t: TestApp;
  let admin: string;
  let main: string;
  let second: string;
  let widget: string;
  let gadget: string;
  let carla: string;
  const ids: Record<string, string> = {};

  const get = (url: string) => t.call('GET', url, { token: admin });
  const range = 'from=2022-05-02&to=2022-05-04';

  /** Lines of one sale (one statement) at `at`, of `product`, by the rep, taking from `location`. */
  async function sell(
    location: string,
    product: string,
    at: string,
    lines: Record<string, Line>,
    customer?: { id: string; name: string },
  ) {
    const names = Object.keys(lines);
    const rows = await t.sql<{ id: string; total: string }>(
      `insert into orders (product_id, user_id, quantity, unit_price, unit_cost, total_price, discount, tax,
                           tax_rate_name, tax_rate, product_name, category_name, user_name, user_address,
                           order_date, customer_id, customer_name, location_id)
       select p.id, $3::uuid, l.quantity, p.price, p.cost, l.total, l.discount, l.tax, l.name, l.rate, p.name,
              c.name, 'Rep', '', $2::timestamptz, $5::uuid, $6::text, $7::uuid
       from products p join categories c on c.id = p.category_id,
            jsonb_to_recordset($4::jsonb) as l(quantity int, total numeric, discount numeric, tax numeric,
                                               name text, rate numeric)
       where p.id = $1 returning id, total_price::text as total`,
      [
        product,
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
        location,
      ],
    );
    for (const name of names) ids[name] = rows.find((row) => row.total === lines[name]?.total)?.id as string;
  }

  /** Brings the line's units returned to `units`, its money, tax and discount back pro rata. */
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

  /** Every report's URL over the range (and the stock's), `location` added when given. */
  const reportUrls = (location?: string) => {
    const at = location ? `&location=${location}` : '';
    return [
      `/api/reports/sales?${range}&groupBy=day${at}`,
      `/api/reports/sales?${range}&groupBy=week${at}`,
      `/api/reports/sales?${range}&groupBy=month${at}`,
      `/api/reports/products?${range}&sort=revenue${at}`,
      `/api/reports/products?${range}&sort=units${at}`,
      `/api/reports/products?${range}&sort=margin${at}`,
      `/api/reports/items?${range}&sort=revenue${at}`,
      `/api/reports/items?${range}&sort=units${at}`,
      `/api/reports/items?${range}&sort=margin${at}`,
      `/api/reports/products/never-sold?${range}${at}`,
      `/api/reports/categories?${range}${at}`,
      `/api/reports/staff?${range}${at}`,
      `/api/reports/customers?${range}${at}`,
      `/api/reports/tax?${range}${at}`,
      `/api/reports/stock?format=json${at}`,
    ];
  };

  /**
   * The store's one location holds everything at first. 2022-05-02: one sale to Carla of widgets
   * (A 3 units, 3.00 off, 9 % on top; B 2 units, 8.875 % within the price; C 1 unit 0.50 off);
   * 2022-05-03: D 4 units 9 %, all returned; E 2 units of gadgets, one returned; A's first unit
   * comes back. And one sale today.
   */
  beforeAll(async () => {
    t = await startApp(target);
    admin = t.as.admin.token;
    widget = (await t.product({ name: 'Widget', stock: 100, price: 10 })).id;
    gadget = (await t.product({ name: 'Gadget', stock: 40, price: 10 })).id;
    await t.setCost(widget, 3);
    await t.setCost(gadget, 2.5);
    // The locations' own routes are another branch's: the second shop is written as they would.
    main = nth(await t.sql<{ id: string }>("select id from locations where name = 'Main store'")).id;
    second = nth(
      await t.sql<{ id: string }>(
        "insert into locations (name, kind) values ('Second shop', 'store') returning id",
      ),
    ).id;
    const customer = await t.call('POST', '/api/customers', {
      token: t.as.user.token,
      body: { name: 'Carla' },
    });
    expect(customer.status, customer.text).toBe(201);
    carla = parsed(customer, CustomerResponse).customer._id;
    await sell(
      main,
      widget,
      '2022-05-02T12:00:00Z',
      {
        a: { quantity: 3, total: '29.43', discount: '3.00', tax: '2.43', rate: ['Standard', '9'] },
        b: { quantity: 2, total: '20.00', tax: '1.63', rate: ['NYC', '8.875'] },
        c: { quantity: 1, total: '9.50', discount: '0.50' },
      },
      { id: carla, name: 'Carla' },
    );
    await sell(main, widget, '2022-05-03T10:00:00Z', {
      d: { quantity: 4, total: '39.24', discount: '4.00', tax: '3.24', rate: ['Standard', '9'] },
    });
    await sell(main, gadget, '2022-05-03T11:00:00Z', {
      e: { quantity: 2, total: '21.80', tax: '1.80', rate: ['Standard', '9'] },
    });
    await sell(main, widget, new Date().toISOString(), {
      today: { quantity: 1, total: '10.90', tax: '0.90', rate: ['Standard', '9'] },
    });
    await giveBack('a', 1);
    await giveBack('d', 4);
    await giveBack('e', 1);
  });
  afterAll(() => t?.close());

  it('with one location, every report at it answers the kept store-wide figures to the cent', async () => {
    for (const url of reportUrls()) {
      const store = await get(url);
      const at = await get(`${url}&location=${main}`);
      expect(store.status, store.text).toBe(200);
      expect(at.status, at.text).toBe(200);
      expect(withoutLocation(at.body), url).toEqual(store.body);
      expect((at.body as { location?: unknown }).location).toEqual({ _id: main, name: 'Main store' });
    }
    // The sales report is not all zeros: the comparison judged figures.
    const sales = parsed(await get(`/api/reports/sales?${range}&location=${main}`), SalesReportResponse);
    expect(sales.totals).toEqual({
      orders: 4,
      units: 6,
      revenue: 55.87,
      cost: 17.5,
      margin: 38.37,
      discount: 2.5,
      tax: 4.15,
    });
  });

  it('with one location, the dashboard at it answers the store-wide dashboard, and its stock value', async () => {
    const store = parsed(await get('/api/dashboard'), DashboardResponse);
    const res = await get(`/api/dashboard?location=${main}`);
    expect(res.status, res.text).toBe(200);
    const at = parsed(res, DashboardResponse);
    expect(withoutLocation(at)).toEqual(store);
    expect(at.location).toEqual({ _id: main, name: 'Main store' });
    expect(at.today).toEqual({ sales: 1, revenue: 10, averageBasket: 10 });
    expect(at.stockValue).toEqual({ products: 2, units: 140, value: 400 });
  });

  describe('with a second location', () => {
    /**
     * 12 widgets and 10 gadgets move to the second shop (a transfer sent and received), which then
     * sells: 2022-05-02 F 2 widgets 9 % with 1.00 off to Carla; 2022-05-04 G 5 gadgets 8.875 %
     * within the price, 2 returned; H 1 widget as sold before taxes; and one sale today.
     */
    beforeAll(async () => {
      await recordMovements(t.app.database, [
        { productId: widget, kind: 'transferOut', quantity: -12, locationId: main },
        { productId: gadget, kind: 'transferOut', quantity: -10, locationId: main },
      ]);
      await recordMovements(t.app.database, [
        { productId: widget, kind: 'transferIn', quantity: 12, locationId: second },
        { productId: gadget, kind: 'transferIn', quantity: 10, locationId: second },
      ]);
      await sell(
        second,
        widget,
        '2022-05-02T15:00:00Z',
        { f: { quantity: 2, total: '20.71', discount: '1.00', tax: '1.71', rate: ['Standard', '9'] } },
        { id: carla, name: 'Carla' },
      );
      await sell(second, gadget, '2022-05-04T09:00:00Z', {
        g: { quantity: 5, total: '50.00', tax: '4.08', rate: ['NYC', '8.875'] },
      });
      await sell(second, widget, '2022-05-04T09:30:00Z', { h: { quantity: 1, total: '10.00' } });
      await sell(second, gadget, new Date().toISOString(), {
        today2: { quantity: 2, total: '21.80', tax: '1.80', rate: ['Standard', '9'] },
      });
      await giveBack('g', 2);
    });

    /** The store's report and each location's, parsed. */
    async function threeOf<S extends ZodType>(
      url: string,
      schema: S,
    ): Promise<[z.output<S>, z.output<S>, z.output<S>]> {
      const answers = await Promise.all([
        get(url),
        get(`${url}&location=${main}`),
        get(`${url}&location=${second}`),
      ]);
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      const [store, atMain, atSecond] = answers.map((answer) => parsed(answer, schema));
      return [store, atMain, atSecond] as [z.output<S>, z.output<S>, z.output<S>];
    }

    /** Σ over the two locations' rows, by key, of each figure, in cents for money: the store's. */
    function expectAddsUp<R>(
      rows: R[][],
      key: (row: R) => string,
      figures: Record<string, (row: R) => number>,
    ) {
      const [store, ...places] = rows as [R[], ...R[][]];
      const sums = new Map<string, Record<string, number>>();
      for (const place of places)
        for (const row of place) {
          const sum = sums.get(key(row)) ?? {};
          for (const [name, of] of Object.entries(figures)) sum[name] = (sum[name] ?? 0) + cents(of(row));
          sums.set(key(row), sum);
        }
      const wanted = new Map(
        store.map((row) => [
          key(row),
          Object.fromEntries(Object.entries(figures).map(([name, of]) => [name, cents(of(row))])),
        ]),
      );
      expect(Object.fromEntries(sums)).toEqual(Object.fromEntries(wanted));
    }

    it('the sales report: each period and the totals of the two add up to the store’s', async () => {
      for (const groupBy of ['day', 'week', 'month']) {
        const [store, atMain, atSecond] = await threeOf(
          `/api/reports/sales?${range}&groupBy=${groupBy}`,
          SalesReportResponse,
        );
        const figures = {
          orders: (f: { orders: number }) => f.orders / 100,
          units: (f: { units: number }) => f.units / 100,
          revenue: (f: { revenue: number }) => f.revenue,
          cost: (f: { cost: number }) => f.cost,
          margin: (f: { margin: number }) => f.margin,
          discount: (f: { discount: number }) => f.discount,
          tax: (f: { tax: number }) => f.tax,
        };
        expectAddsUp([store.periods, atMain.periods, atSecond.periods], (p) => p.start, figures);
        expectAddsUp([[store.totals], [atMain.totals], [atSecond.totals]], () => 'totals', figures);
      }
      const atSecond = parsed(
        await get(`/api/reports/sales?${range}&location=${second}`),
        SalesReportResponse,
      );
      // F 19.00 net (1.71 tax, 1.00 off); G keeps 3 of 5: (50.00 − 4.08) − (20.00 − 1.63) = 27.55 net,
      // 2.45 tax; H 10.00 as sold before taxes.
      expect(atSecond.totals).toEqual({
        orders: 3,
        units: 6,
        revenue: 56.55,
        cost: 16.5,
        margin: 40.05,
        discount: 1,
        tax: 4.16,
      });
    });

    it('the tax, categories, staff, customers and products reports add up to the store’s', async () => {
      const [taxStore, taxMain, taxSecond] = await threeOf(`/api/reports/tax?${range}`, TaxReportResponse);
      expectAddsUp([taxStore.rates, taxMain.rates, taxSecond.rates], (r) => `${r.name}@${r.rate}`, {
        base: (r) => r.base,
        tax: (r) => r.tax,
      });
      expect(cents(taxMain.totals.tax) + cents(taxSecond.totals.tax)).toBe(cents(taxStore.totals.tax));
      const [catStore, catMain, catSecond] = await threeOf(
        `/api/reports/categories?${range}`,
        CategoryReportResponse,
      );
      expectAddsUp([catStore.categories, catMain.categories, catSecond.categories], (c) => c.name, {
        units: (c) => c.units,
        revenue: (c) => c.revenue,
        margin: (c) => c.margin,
      });
      const [staffStore, staffMain, staffSecond] = await threeOf(
        `/api/reports/staff?${range}`,
        StaffReportResponse,
      );
      expectAddsUp([staffStore.staff, staffMain.staff, staffSecond.staff], (s) => s.user?._id ?? '', {
        orders: (s) => s.orders,
        units: (s) => s.units,
        revenue: (s) => s.revenue,
      });
      const [cStore, cMain, cSecond] = await threeOf(
        `/api/reports/customers?${range}`,
        CustomerReportResponse,
      );
      expectAddsUp([cStore.customers, cMain.customers, cSecond.customers], (c) => c.customer?._id ?? '', {
        sales: (c) => c.sales,
        units: (c) => c.units,
        revenue: (c) => c.revenue,
      });
      // Lines written without a sale count no sale, as the kept figures count them (distinct sales).
      expect(cSecond.customers).toEqual([
        { customer: { _id: carla, name: 'Carla' }, sales: 0, units: 2, revenue: 19 },
      ]);
      const [pStore, pMain, pSecond] = await threeOf(`/api/reports/products?${range}`, ProductReportResponse);
      expectAddsUp([pStore.products, pMain.products, pSecond.products], (p) => p.product._id, {
        units: (p) => p.units,
        revenue: (p) => p.revenue,
        margin: (p) => p.margin,
      });
    });

    it('never sold: a product sold only elsewhere is never sold at a location, with its stock there', async () => {
      const early = 'from=2022-05-03&to=2022-05-03';
      const atSecond = parsed(
        await get(`/api/reports/products/never-sold?${early}&location=${second}`),
        NeverSoldResponse,
      );
      expect(atSecond.products.map((p) => [p.name, p.stock])).toEqual([
        ['Gadget', 10],
        ['Widget', 12],
      ]);
      expect(atSecond.total).toBe(2);
      const atMain = parsed(
        await get(`/api/reports/products/never-sold?${early}&location=${main}`),
        NeverSoldResponse,
      );
      // At the main store D came back whole that day: its widgets count as never sold there.
      expect(atMain.products.map((p) => [p.name, p.stock])).toEqual([['Widget', 88]]);
      expect(atMain.total).toBe(1);
      const paged = parsed(
        await get(`/api/reports/products/never-sold?${early}&location=${second}&page=2&pageSize=1`),
        NeverSoldResponse,
      );
      expect(paged.products.map((p) => p.name)).toEqual(['Widget']);
      expect(paged.total).toBe(2);
    });

    it('stock value by location: each location’s units and value at cost, adding up to the store’s', async () => {
      const res = await get('/api/reports/stock/locations');
      expect(res.status, res.text).toBe(200);
      const all = parsed(res, StockByLocationResponse);
      // Main: 88 widgets × 3.00 + 30 gadgets × 2.50; Second: 12 × 3.00 + 10 × 2.50.
      expect(all.locations).toEqual([
        { location: { _id: main, name: 'Main store' }, active: true, products: 2, units: 118, value: 339 },
        { location: { _id: second, name: 'Second shop' }, active: true, products: 2, units: 22, value: 61 },
      ]);
      const store = parsed(await get('/api/reports/stock'), StockReportResponse);
      expect(all.totals).toEqual({ products: 4, units: store.totals.units, value: store.totals.value });
      const one = parsed(
        await get(`/api/reports/stock/locations?location=${second}`),
        StockByLocationResponse,
      );
      expect(one.locations).toEqual([nth(all.locations, 1)]);
      expect(one.totals).toEqual({ products: 2, units: 22, value: 61 });
      const [, stockMain, stockSecond] = await threeOf('/api/reports/stock?format=json', StockReportResponse);
      expect(stockMain.totals.units + stockSecond.totals.units).toBe(store.totals.units);
      expect(cents(stockMain.totals.value) + cents(stockSecond.totals.value)).toBe(cents(store.totals.value));
    });

    it('the dashboard at each location: today’s sales, stock and its value add up to the store’s', async () => {
      const store = parsed(await get('/api/dashboard'), DashboardResponse);
      const atMain = parsed(await get(`/api/dashboard?location=${main}`), DashboardResponse);
      const atSecond = parsed(await get(`/api/dashboard?location=${second}`), DashboardResponse);
      expect(atSecond.today).toEqual({ sales: 1, revenue: 20, averageBasket: 20 });
      expect(atMain.today.sales + atSecond.today.sales).toBe(store.today.sales);
      expect(cents(atMain.today.revenue) + cents(atSecond.today.revenue)).toBe(cents(store.today.revenue));
      expect(cents(atMain.revenue) + cents(atSecond.revenue)).toBe(cents(store.revenue));
      expect(atMain.totalStock + atSecond.totalStock).toBe(store.totalStock);
      expect(atSecond.stockValue).toEqual({ products: 2, units: 22, value: 61 });
      expect(atSecond.highestSaleProduct).toEqual({
        name: 'Gadget',
        category: expect.any(String),
        totalQuantity: 5,
      });
    });

    it('low and out of stock at a location judge its stock by the reorder point in force there', async () => {
      // The second shop's own reorder point for widgets (12 held there): low there only.
      await t.sql('update location_stock set reorder_point = 15 where product_id = $1 and location_id = $2', [
        widget,
        second,
      ]);
      const atSecond = parsed(await get(`/api/dashboard?location=${second}`), DashboardResponse);
      expect(atSecond.lowStock.map((p) => [p.name, p.stock])).toEqual([['Widget', 12]]);
      expect(atSecond.outOfStock).toEqual([]);
      expect(atSecond.toReorder).toBe(1);
      const atMain = parsed(await get(`/api/dashboard?location=${main}`), DashboardResponse);
      expect(atMain.lowStock).toEqual([]);
      const store = parsed(await get('/api/dashboard'), DashboardResponse);
      expect(store.lowStock).toEqual([]);
    });

    it('a report’s CSV at a location answers that location’s rows, and its file says where', async () => {
      const res = await get(`/api/reports/sales?${range}&location=${second}&format=csv`);
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(String(res.headers['content-disposition'])).toContain(
        `sales-by-day-at-${second}-2022-05-02-to-2022-05-04.csv`,
      );
      const rows = parseCsv(res.text);
      expect(nth(rows)).toEqual([...REPORT_CSV_HEADERS.sales]);
      expect(rows.slice(1)).toEqual([
        ['2022-05-02', '1', '2', '19', '6', '13', '1', '1.71'],
        ['2022-05-03', '0', '0', '0', '0', '0', '0', '0'],
        ['2022-05-04', '2', '4', '37.55', '10.5', '27.05', '0', '2.45'],
      ]);
      const stock = await get(`/api/reports/stock/locations?format=csv`);
      expect(parseCsv(stock.text)).toEqual([
        [...REPORT_CSV_HEADERS.stockByLocation],
        [main, 'Main store', '2', '118', '339'],
        [second, 'Second shop', '2', '22', '61'],
      ]);
      const tax = parseCsv((await get(`/api/reports/tax?${range}&location=${second}&format=csv`)).text);
      expect(tax.slice(1)).toEqual([
        ['', '0', '10', '0'],
        ['NYC', '8.875', '27.55', '2.45'],
        ['Standard', '9', '19', '1.71'],
      ]);
    });
  });

  describe('bad input', () => {
    const urls = [
      '/api/reports/sales',
      '/api/reports/stock',
      '/api/reports/stock/locations',
      '/api/dashboard',
    ];
    const expectRefused = (res: Answer, status: number) => {
      expect(res.status, res.text).toBe(status);
      expect(parsed(res, ApiError).error).toMatch(/\.$/);
    };

    it.each(urls)(
      '%s answers 404 for a location that is not one, 400 for an array or 10,000 characters',
      async (url) => {
        expectRefused(await get(`${url}?location=not-an-id`), 404);
        expectRefused(await get(`${url}?location=00000000-0000-4000-8000-000000000000`), 404);
        expectRefused(await get(`${url}?location=%00`), 400);
        expectRefused(await get(`${url}?location=${main}%00`), 400);
        expectRefused(await get(`${url}?location=${main}&location=${second}`), 400);
        expectRefused(await get(`${url}?location=${'x'.repeat(10_000)}`), 400);
        expectRefused(await get(`${url}?location=`), 400);
      },
    );

    it('every report answers 404 for an unknown location, CSV too', async () => {
      for (const url of reportUrls('00000000-0000-4000-8000-000000000000'))
        expectRefused(await get(url), 404);
      expectRefused(await get(`/api/reports/tax?${range}&format=csv&location=nope`), 404);
    });

    it('an inactive location still has its reports', async () => {
      const closed = nth(
        await t.sql<{ id: string }>(
          "insert into locations (name, kind, active) values ('Closed', 'store', false) returning id",
        ),
      ).id;
      const sales = await get(`/api/reports/sales?${range}&location=${closed}`);
      expect(parsed(sales, SalesReportResponse).totals.orders).toBe(0);
      expect((await get(`/api/dashboard?location=${closed}`)).status).toBe(200);
    });

    it('the permissions are unchanged: 403 to the other roles, 401 without a token, before the location', async () => {
      for (const role of ['salesRep', 'medicalRep', 'user', 'superAdmin'] as const) {
        const token = t.as[role].token;
        for (const url of [
          `/api/reports/sales?location=${main}`,
          `/api/dashboard?location=${main}`,
          '/api/dashboard?location=nope',
          '/api/reports/stock/locations',
        ])
          expect((await t.call('GET', url, { token })).status, `${role} ${url}`).toBe(403);
      }
      expect((await t.call('GET', `/api/dashboard?location=${main}`)).status).toBe(401);
      expect((await t.call('GET', `/api/reports/tax?location=${main}`)).status).toBe(401);
    });
  });
});
