import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryResponse } from '../../../shared/categories';
import { ApiError } from '../../../shared/common';
import { OrderResponse } from '../../../shared/orders';
import { ProductResponse } from '../../../shared/products';
import {
  CategoryReportResponse,
  NeverSoldResponse,
  ProductReportResponse,
  type ProductReportSort,
  REPORT_CSV_HEADERS,
  SalesReportResponse,
  StaffReportResponse,
  StockReportResponse,
} from '../../../shared/reports';
import { SupplierResponse } from '../../../shared/suppliers';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/connection';
import { setReportTimeZone } from '../../db/report-time-zone';
import { seededRandom } from '../../db/seed';
import { nth, tag } from '../../test/fixtures';
import { type Answer, freshPostgres, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';
import { resolveRange, todayIn } from './reports.range';
import { neverSold, topProducts } from './reports.repository';

describe('report ranges', () => {
  it('default to the 30 days up to today, fill a missing end, and cut a lone from at today', () => {
    const today = '2025-03-10';
    expect(resolveRange({}, today)).toEqual({ from: '2025-02-09', to: today });
    expect(resolveRange({ to: '2025-01-31' }, today)).toEqual({ from: '2025-01-02', to: '2025-01-31' });
    expect(resolveRange({ from: '2025-01-01' }, today)).toEqual({ from: '2025-01-01', to: '2025-01-30' });
    expect(resolveRange({ from: '2025-03-01' }, today)).toEqual({ from: '2025-03-01', to: today });
    expect(resolveRange({ from: '2025-04-01' }, today)).toEqual({ from: '2025-04-01', to: '2025-04-01' });
    expect(resolveRange({ from: '2024-02-01', to: '2024-02-29' }, today)).toEqual({
      from: '2024-02-01',
      to: '2024-02-29',
    });
    expect(resolveRange({ to: '0001-01-05' }, today)).toEqual({ from: '0001-01-01', to: '0001-01-05' });
    expect(resolveRange({ from: '9999-12-20' }, today)).toEqual({ from: '9999-12-20', to: '9999-12-20' });
    expect(resolveRange({ from: '9999-12-20' }, '9999-12-25')).toEqual({
      from: '9999-12-20',
      to: '9999-12-25',
    });
  });

  it('name today in the server time zone', () => {
    const now = new Date('2025-03-10T23:30:00Z');
    expect(todayIn('UTC', now)).toBe('2025-03-10');
    expect(todayIn('Asia/Tokyo', now)).toBe('2025-03-11');
    expect(todayIn('America/Los_Angeles', now)).toBe('2025-03-10');
  });
});

describe.each(targets)('reports on $name', (target) => {
  let t: TestApp;
  let admin: string;
  /** The story's store: what each product and person is, once it is set up. */
  const store = {
    categories: {} as Record<'alpha' | 'beta' | 'gamma', string>,
    products: {} as Record<'anvil' | 'bolt' | 'chisel' | 'drill' | 'epoxy', string>,
    temp: { id: '', name: '' },
  };

  const get = (url: string, token = admin) => t.call('GET', url, { token });
  const csv = async (url: string) => {
    const res = await get(url);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    return parseCsv(res.text);
  };

  async function post(path: string, body: unknown, token = admin) {
    const res = await t.call('POST', path, { token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res;
  }

  /** An order through the API, then dated `at` (the triggers move its figures to that day). */
  async function order(token: string, productId: string, quantity: number, at: string): Promise<string> {
    const placed = await post('/api/order/add', { productId, quantity }, token);
    const id = parsed(placed, OrderResponse).order._id;
    await t.sql('update orders set order_date = $2 where id = $1', [id, at]);
    return id;
  }

  /**
   * The story (UTC, the test server's zone), all through the API:
   * - Alpha: Anvil (price 10, cost 6), Chisel (price 3, cost 4.25: sold below cost);
   *   =Beta: =Bolt (price 5.50, no cost); Gamma: Drill (price 2, cost 1, never sold), Epoxy
   *   (price 8, cost 5, sold by a temporary rep, then deleted, and so is the rep).
   * - 2021-03-30: rep buys 3 Anvils (1 comes back) and 2 Bolts. 2021-04-01: temp buys 2 Epoxy.
   *   2021-04-02: rep buys 4 Chisels; user buys 1 Anvil, and 5 Bolts that all come back.
   */
  beforeAll(async () => {
    t = await startApp(target);
    admin = t.as.admin.token;
    const category = async (name: string) =>
      parsed(await post('/api/category/add', { formCategory: name, formDescription: '' }), CategoryResponse)
        .category._id;
    store.categories = {
      alpha: await category('Alpha'),
      beta: await category('=Beta'),
      gamma: await category('Gamma'),
    };
    const supplier = parsed(await post('/api/supplier/add', { name: 'Story supplier' }), SupplierResponse)
      .supplier._id;
    const product = async (
      name: string,
      category: string,
      price: number,
      cost: number | null,
      stock: number,
    ) =>
      parsed(
        await post('/api/products/add', {
          name,
          description: '',
          price,
          cost,
          stock,
          category,
          supplier,
        }),
        ProductResponse,
      ).product._id;
    const { alpha, beta, gamma } = store.categories;
    store.products = {
      anvil: await product('Anvil', alpha, 10, 6, 20),
      bolt: await product('=Bolt', beta, 5.5, null, 20),
      chisel: await product('Chisel', alpha, 3, 4.25, 20),
      drill: await product('Drill', gamma, 2, 1, 7),
      epoxy: await product('Epoxy', gamma, 8, 5, 10),
    };
    const temp = await t.account('salesRep', 'Temporary rep');
    store.temp = { id: temp.id, name: temp.name };
    const { anvil, bolt, chisel, epoxy } = store.products;
    const rep = t.as.salesRep.token;
    const user = t.as.user.token;
    const anvils = await order(rep, anvil, 3, '2021-03-30T10:00:00Z');
    await post(`/api/order/${anvils}/return`, { quantity: 1 });
    await order(rep, bolt, 2, '2021-03-30T12:00:00Z');
    await order(temp.token, epoxy, 2, '2021-04-01T11:00:00Z');
    await order(rep, chisel, 4, '2021-04-02T09:00:00Z');
    await order(user, anvil, 1, '2021-04-02T15:00:00Z');
    const bolts = await order(user, bolt, 5, '2021-04-02T16:00:00Z');
    await post(`/api/order/${bolts}/return`, { quantity: 5 });
    expect((await t.call('DELETE', `/api/products/${epoxy}`, { token: admin })).status).toBe(200);
    expect((await t.call('DELETE', `/api/users/${temp.id}`, { token: admin })).status).toBe(200);
  });
  afterAll(() => t?.close());

  const zero = { orders: 0, units: 0, revenue: 0, cost: 0, margin: 0, discount: 0, tax: 0 };
  const story = '/api/reports/sales?from=2021-03-30&to=2021-04-02';

  describe('dates', () => {
    const routes = [
      '/api/reports/sales',
      '/api/reports/products',
      '/api/reports/products/never-sold',
      '/api/reports/categories',
      '/api/reports/staff',
      '/api/reports/customers',
      '/api/reports/tax',
      '/api/audit',
    ];
    const notDays = [
      ['2024-13-01', 'That date does not exist.'],
      ['2024-02-30', 'That date does not exist.'],
      ['2023-02-29', 'That date does not exist.'],
      ['2024/01/15', 'Dates look like 2025-01-31.'],
      ['20240115', 'Dates look like 2025-01-31.'],
      ['2024-1-5', 'Dates look like 2025-01-31.'],
      ['yesterday', 'Dates look like 2025-01-31.'],
      ['0000-01-01', 'Dates must be between 1900 and 9999.'],
      ['1899-12-31', 'Dates must be between 1900 and 9999.'],
      ['+10000-01-01', 'Dates look like 2025-01-31.'],
    ];

    it.each(routes)(
      '%s refuses from and to that are not calendar days with a 400 sentence, never a 500',
      async (route) => {
        for (const [day, sentence] of notDays)
          for (const query of [
            `from=${day}&to=2026-11-25`,
            `from=${day}`,
            `to=${day}`,
            `from=2024-01-01&to=${day}`,
          ]) {
            const res = await get(`${route}?${query}`);
            expect(res.status, `${route}?${query}: ${res.text}`).toBe(400);
            expect(parsed(res, ApiError).success).toBe(false);
            expect(parsed(res, ApiError).error, query).toContain(sentence);
          }
        const twice = await get(`${route}?from=2024-01-01&from=2024-01-02`);
        expect(twice.status, twice.text).toBe(400);
        expect(parsed(twice, ApiError).error).toBe('from: Dates must be text.');
      },
    );

    it('the first and the last years a date may name are reports like any other', async () => {
      for (const query of [
        'from=1900-01-01&to=1900-12-31',
        'from=9999-01-01&to=9999-12-31',
        'to=1900-01-05',
        'from=9999-12-20',
      ]) {
        const res = await get(`/api/reports/sales?${query}&groupBy=month`);
        expect(res.status, `${query}: ${res.text}`).toBe(200);
        expect(parsed(res, SalesReportResponse).totals.orders).toBe(0);
      }
      const audit = await get('/api/audit?from=1900-01-01&to=9999-12-31');
      expect(audit.status, audit.text).toBe(200);
    });
  });

  describe('sales', () => {
    it('GET /api/reports/sales answers every day of the range with its figures, net of returns', async () => {
      const res = await get(story);
      expect(res.status, res.text).toBe(200);
      expect(SalesReportResponse.parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        success: true,
        from: '2021-03-30',
        to: '2021-04-02',
        groupBy: 'day',
        periods: [
          {
            start: '2021-03-30',
            orders: 2,
            units: 4,
            revenue: 31,
            cost: 12,
            margin: 19,
            discount: 0,
            tax: 0,
          },
          { start: '2021-03-31', ...zero },
          // The deleted product's and the deleted rep's sale still counts.
          { start: '2021-04-01', orders: 1, units: 2, revenue: 16, cost: 10, margin: 6, discount: 0, tax: 0 },
          // The wholly returned order counts nothing; the one sold below cost takes margin away.
          {
            start: '2021-04-02',
            orders: 2,
            units: 5,
            revenue: 22,
            cost: 23,
            margin: -1,
            discount: 0,
            tax: 0,
          },
        ],
        totals: { orders: 5, units: 11, revenue: 69, cost: 45, margin: 24, discount: 0, tax: 0 },
      });
    });

    it('groups by month across a month boundary, each period named by its first day in the range', async () => {
      const res = await get(`${story}&groupBy=month`);
      expect(parsed(res, SalesReportResponse).periods).toEqual([
        { start: '2021-03-30', orders: 2, units: 4, revenue: 31, cost: 12, margin: 19, discount: 0, tax: 0 },
        { start: '2021-04-01', orders: 3, units: 7, revenue: 38, cost: 33, margin: 5, discount: 0, tax: 0 },
      ]);
      expect(parsed(res, SalesReportResponse).totals).toEqual({
        orders: 5,
        units: 11,
        revenue: 69,
        cost: 45,
        margin: 24,
        discount: 0,
        tax: 0,
      });
    });

    it('groups by ISO week (from Monday), the first one cut at a from in mid-week', async () => {
      const res = await get('/api/reports/sales?from=2021-03-31&to=2021-04-07&groupBy=week');
      expect(parsed(res, SalesReportResponse).periods).toEqual([
        { start: '2021-03-31', orders: 3, units: 7, revenue: 38, cost: 33, margin: 5, discount: 0, tax: 0 },
        { start: '2021-04-05', ...zero },
      ]);
      const whole = await get('/api/reports/sales?from=2021-03-29&to=2021-04-04&groupBy=week');
      expect(parsed(whole, SalesReportResponse).periods).toEqual([
        { start: '2021-03-29', orders: 5, units: 11, revenue: 69, cost: 45, margin: 24, discount: 0, tax: 0 },
      ]);
    });

    it('a range of one day answers that day', async () => {
      const res = await get('/api/reports/sales?from=2021-04-01&to=2021-04-01&groupBy=month');
      expect(parsed(res, SalesReportResponse).periods).toEqual([
        { start: '2021-04-01', orders: 1, units: 2, revenue: 16, cost: 10, margin: 6, discount: 0, tax: 0 },
      ]);
    });

    it('a range without sales answers every period with zeros', async () => {
      const res = await get('/api/reports/sales?from=2019-05-01&to=2019-05-03');
      expect(parsed(res, SalesReportResponse).periods).toEqual(
        ['2019-05-01', '2019-05-02', '2019-05-03'].map((start) => ({ start, ...zero })),
      );
      expect(parsed(res, SalesReportResponse).totals).toEqual(zero);
    });

    it('covers 3 years exactly, and refuses one day more', async () => {
      const res = await get('/api/reports/sales?from=2020-01-01&to=2022-12-31&groupBy=month');
      expect(res.status, res.text).toBe(200);
      expect(parsed(res, SalesReportResponse).periods).toHaveLength(36);
      const days = await get('/api/reports/sales?from=2020-01-01&to=2022-12-31');
      expect(parsed(days, SalesReportResponse).periods).toHaveLength(1096);
      const more = await get('/api/reports/sales?from=2020-01-01&to=2023-01-01');
      expect(more.status).toBe(400);
      expect(more.body).toEqual({
        success: false,
        code: 'VALIDATION',
        error: 'A report covers at most 3 years.',
        details: [{ path: '', message: 'A report covers at most 3 years.' }],
      });
    });

    it('without a range answers the 30 days up to today in the server time zone', async () => {
      const today = todayIn('UTC');
      const res = await get('/api/reports/sales');
      expect(res.status).toBe(200);
      expect(parsed(res, SalesReportResponse).to).toBe(today);
      expect(parsed(res, SalesReportResponse).periods).toHaveLength(30);
      expect(parsed(res, SalesReportResponse).from).toBe(nth(parsed(res, SalesReportResponse).periods).start);
      const from = await get('/api/reports/sales?from=2021-03-30');
      expect([parsed(from, SalesReportResponse).from, parsed(from, SalesReportResponse).to]).toEqual([
        '2021-03-30',
        '2021-04-28',
      ]);
      expect(parsed(from, SalesReportResponse).totals.revenue).toBe(69);
      const to = await get('/api/reports/sales?to=2021-04-02&groupBy=month');
      expect([parsed(to, SalesReportResponse).from, parsed(to, SalesReportResponse).to]).toEqual([
        '2021-03-04',
        '2021-04-02',
      ]);
      expect(parsed(to, SalesReportResponse).totals.revenue).toBe(69);
    });

    it.each([
      ['from after to', 'from=2021-04-02&to=2021-04-01', 'The from date must be on or before the to date.'],
      ['a date that does not exist', 'from=2021-02-30&to=2021-03-01', 'That date does not exist.'],
      ['a date in another form', 'to=02/04/2021', 'Dates look like 2025-01-31.'],
      ['an unknown grouping', 'groupBy=year', 'groupBy must be day, week or month.'],
      ['an unknown format', 'format=xlsx', 'format must be json or csv.'],
    ])('refuses %s with 400', async (_label, query, sentence) => {
      const res = await get(`/api/reports/sales?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: expect.stringContaining(sentence) });
    });
  });

  describe('products', () => {
    const top = async (query: string) => {
      const res = await get(`/api/reports/products?from=2021-03-30&to=2021-04-02&${query}`);
      expect(res.status, res.text).toBe(200);
      expect(ProductReportResponse.parse(res.body)).toEqual(res.body);
      return parsed(res, ProductReportResponse).products.map((p) => [p.product.name, p] as const);
    };

    it('GET /api/reports/products ranks by revenue, units or margin; a deleted product is left out', async () => {
      const { anvil, bolt, chisel } = store.products;
      const anvil$ = {
        product: { _id: anvil, name: 'Anvil' },
        item: null,
        category: { name: 'Alpha' },
        units: 3,
        revenue: 30,
        margin: 12,
      };
      const chisel$ = {
        product: { _id: chisel, name: 'Chisel' },
        item: null,
        category: { name: 'Alpha' },
        units: 4,
        revenue: 12,
        margin: -5,
      };
      const bolt$ = {
        product: { _id: bolt, name: '=Bolt' },
        item: null,
        category: { name: '=Beta' },
        units: 2,
        revenue: 11,
        margin: 11,
      };
      const res = await get('/api/reports/products?from=2021-03-30&to=2021-04-02');
      expect(res.body).toEqual({
        success: true,
        from: '2021-03-30',
        to: '2021-04-02',
        sort: 'revenue',
        products: [anvil$, chisel$, bolt$],
      });
      expect((await top('sort=units')).map(([name]) => name)).toEqual(['Chisel', 'Anvil', '=Bolt']);
      expect((await top('sort=margin')).map(([name]) => name)).toEqual(['Anvil', '=Bolt', 'Chisel']);
      expect((await top('sort=revenue&limit=2')).map(([name]) => name)).toEqual(['Anvil', 'Chisel']);
      const none = await get('/api/reports/products?from=2019-01-01&to=2019-01-31');
      expect(parsed(none, ProductReportResponse).products).toEqual([]);
    });

    it.each([
      ['a limit over 100', 'limit=101', 'limit must be at most 100.'],
      ['a limit of 0', 'limit=0', 'limit must be at least 1.'],
      ['an unknown sort', 'sort=name', 'sort must be revenue, units or margin.'],
      ['from after to', 'from=2021-04-02&to=2021-04-01', 'The from date must be on or before the to date.'],
    ])('refuses %s with 400', async (_label, query, sentence) => {
      const res = await get(`/api/reports/products?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: expect.stringContaining(sentence) });
    });
  });

  describe('never sold', () => {
    /** Today's products that sold no unit (net) in the range, by name: counted from the orders. */
    const counted = (from: string, to: string) =>
      t.sql<{ id: string }>(
        `select p.id from products p
         where not exists (select 1 from orders o where o.product_id = p.id and o.quantity > o.returned_quantity
                             and (o.order_date at time zone 'UTC')::date between $1::date and $2::date)
         order by lower(p.name), p.id`,
        [from, to],
      );

    it('GET /api/reports/products/never-sold lists products without a net sale in the range, paged', async () => {
      const res = await get('/api/reports/products/never-sold?from=2021-03-30&to=2021-04-02&pageSize=100');
      expect(res.status, res.text).toBe(200);
      expect(NeverSoldResponse.parse(res.body)).toEqual(res.body);
      const ids = parsed(res, NeverSoldResponse).products.map((p: { _id: string }) => p._id);
      const { anvil, bolt, chisel, drill } = store.products;
      expect(ids).toContain(drill);
      expect(ids).not.toContain(anvil);
      expect(ids).not.toContain(chisel);
      expect(ids).not.toContain(bolt);
      expect(parsed(res, NeverSoldResponse).products.find((p: { _id: string }) => p._id === drill)).toEqual({
        _id: drill,
        name: 'Drill',
        stock: 7,
        category: { name: 'Gamma' },
      });
      const expected = await counted('2021-03-30', '2021-04-02');
      expect(parsed(res, NeverSoldResponse).total).toBe(expected.length);
      expect(ids).toEqual(expected.map((row) => row.id).slice(0, 100));
      // The bolts sold on 04-02 all came back: on that day alone, =Bolt never sold.
      const day = await get('/api/reports/products/never-sold?from=2021-04-02&to=2021-04-02&pageSize=100');
      const dayIds = parsed(day, NeverSoldResponse).products.map((p: { _id: string }) => p._id);
      expect(dayIds).toContain(bolt);
      expect(dayIds).not.toContain(anvil);
    });

    it('pages in name order and counts every match', async () => {
      const [{ n } = { n: 0 }] = await t.sql<{ n: number }>('select count(*)::int as n from products');
      const page = await get(
        '/api/reports/products/never-sold?from=2019-01-01&to=2019-01-31&page=2&pageSize=2',
      );
      expect(parsed(page, NeverSoldResponse).total).toBe(n);
      expect([parsed(page, NeverSoldResponse).page, parsed(page, NeverSoldResponse).pageSize]).toEqual([
        2, 2,
      ]);
      const all = await counted('2019-01-01', '2019-01-31');
      expect(parsed(page, NeverSoldResponse).products.map((p: { _id: string }) => p._id)).toEqual(
        all.slice(2, 4).map((r) => r.id),
      );
      const past = await get(
        `/api/reports/products/never-sold?from=2019-01-01&to=2019-01-31&page=${n}&pageSize=100`,
      );
      expect(past.body).toMatchObject({ products: [], total: n });
    });

    it('answers what the orders say for ranges read by last day, by days, and with sales after them', async () => {
      // Some products of their own, sold on several days, one of them with a sale that came back.
      const made = await Promise.all([1, 2, 3].map(() => t.product({ stock: 50, name: `Never ${tag()}` })));
      const [a, b, c] = made.map((p) => p.id) as [string, string, string];
      await order(t.as.user.token, a, 1, '2021-06-01T10:00:00Z');
      await order(t.as.user.token, a, 1, '2021-06-20T10:00:00Z');
      await order(t.as.user.token, b, 2, '2021-06-10T10:00:00Z');
      const back = await order(t.as.user.token, c, 2, '2021-06-15T10:00:00Z');
      await post(`/api/order/${back}/return`, { quantity: 2 });
      await order(t.as.user.token, c, 1, '2021-06-25T10:00:00Z');
      for (const [from, to] of [
        ['2021-06-01', '2021-06-30'],
        ['2021-06-02', '2021-06-19'],
        ['2021-06-11', '2021-06-16'],
        ['2021-06-15', '2021-06-15'],
        ['2021-06-21', '2024-06-20'],
        ['2000-01-01', '2002-12-31'],
      ] as const) {
        const expected = (await counted(from, to)).map((row) => row.id);
        const rows = await csv(`/api/reports/products/never-sold?from=${from}&to=${to}&format=csv`);
        expect(rows[0]).toEqual([...REPORT_CSV_HEADERS.neverSold]);
        expect(
          rows.slice(1).map((row) => row[0]),
          `${from} to ${to}`,
        ).toEqual(expected);
        const page = await get(`/api/reports/products/never-sold?from=${from}&to=${to}&pageSize=5`);
        expect(parsed(page, NeverSoldResponse).total, `${from} to ${to}`).toBe(expected.length);
        expect(parsed(page, NeverSoldResponse).products.map((p: { _id: string }) => p._id)).toEqual(
          expected.slice(0, 5),
        );
        for (const how of ['lastDay', 'days'] as const)
          for (const window of [
            { limit: 5, offset: 0 },
            { limit: 3, offset: 4 },
          ]) {
            const answer = await neverSold(t.app.database, { from, to }, window, how);
            expect(answer.total, `${from} to ${to} ${how}`).toBe(expected.length);
            expect(answer.products.map((p) => p._id)).toEqual(
              expected.slice(window.offset, window.offset + window.limit),
            );
          }
      }
    });
  });

  describe('categories', () => {
    it('GET /api/reports/categories answers the snapshot categories with their share of the revenue', async () => {
      const res = await get('/api/reports/categories?from=2021-03-30&to=2021-04-02');
      expect(res.status, res.text).toBe(200);
      expect(CategoryReportResponse.parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        success: true,
        from: '2021-03-30',
        to: '2021-04-02',
        categories: [
          { name: 'Alpha', units: 7, revenue: 42, margin: 7, share: 0.6087 },
          // Epoxy is gone, its sale stays with the category it was sold under.
          { name: 'Gamma', units: 2, revenue: 16, margin: 6, share: 0.2319 },
          { name: '=Beta', units: 2, revenue: 11, margin: 11, share: 0.1594 },
        ],
      });
      const none = await get('/api/reports/categories?from=2019-01-01&to=2019-01-02');
      expect(parsed(none, CategoryReportResponse).categories).toEqual([]);
    });
  });

  describe('staff', () => {
    it('GET /api/reports/staff answers who sold what, most revenue first; a removed person has no user', async () => {
      const res = await get('/api/reports/staff?from=2021-03-30&to=2021-04-02');
      expect(res.status, res.text).toBe(200);
      expect(StaffReportResponse.parse(res.body)).toEqual(res.body);
      const { salesRep, user } = t.as;
      expect(parsed(res, StaffReportResponse).staff).toEqual([
        {
          user: { _id: salesRep.id, name: salesRep.name, role: 'salesRep' },
          orders: 3,
          units: 8,
          revenue: 43,
        },
        { user: null, orders: 1, units: 2, revenue: 16 },
        // Their wholly returned order is not counted.
        { user: { _id: user.id, name: user.name, role: 'user' }, orders: 1, units: 1, revenue: 10 },
      ]);
    });
  });

  describe('stock', () => {
    it('GET /api/reports/stock values each category’s stock at cost, and the whole', async () => {
      const res = await get('/api/reports/stock');
      expect(res.status, res.text).toBe(200);
      expect(StockReportResponse.parse(res.body)).toEqual(res.body);
      const mine = parsed(res, StockReportResponse).categories.filter((c: { name: string }) =>
        ['Alpha', '=Beta', 'Gamma'].includes(c.name),
      );
      expect(mine).toEqual([
        // 17 anvils at 6 and 16 chisels at 4.25.
        { name: 'Alpha', products: 2, units: 33, value: 170 },
        { name: 'Gamma', products: 1, units: 7, value: 7 },
        // =Bolt has no cost: its stock is worth 0.
        { name: '=Beta', products: 1, units: 18, value: 0 },
      ]);
      const [whole] = await t.sql<{ products: number; units: number; value: string }>(
        'select count(*)::int as products, sum(stock)::int as units, sum(stock * coalesce(cost, 0))::text as value from products',
      );
      expect(parsed(res, StockReportResponse).totals).toEqual({
        products: whole?.products,
        units: whole?.units,
        value: Number(whole?.value),
      });
      const values = parsed(res, StockReportResponse).categories.map((c: { value: number }) => c.value);
      expect(values).toEqual([...values].sort((x, y) => y - x));
    });
  });

  describe('CSV', () => {
    it('the sales report as CSV: a header, then a plain row per period', async () => {
      const rows = await csv(`${story}&groupBy=month&format=csv`);
      expect(rows).toEqual([
        [...REPORT_CSV_HEADERS.sales],
        ['2021-03-30', '2', '4', '31', '12', '19', '0', '0'],
        ['2021-04-01', '3', '7', '38', '33', '5', '0', '0'],
      ]);
      const res = await get(`${story}&format=csv`);
      expect(res.headers['content-disposition']).toBe(
        'attachment; filename="sales-by-day-2021-03-30-to-2021-04-02.csv"',
      );
    });

    it('the products report as CSV, a name starting with = defused', async () => {
      const { anvil, bolt, chisel } = store.products;
      expect(await csv('/api/reports/products?from=2021-03-30&to=2021-04-02&sort=margin&format=csv')).toEqual(
        [
          [...REPORT_CSV_HEADERS.products],
          [anvil, 'Anvil', 'Alpha', '3', '30', '12'],
          [bolt, "'=Bolt", "'=Beta", '2', '11', '11'],
          [chisel, 'Chisel', 'Alpha', '4', '12', '-5'],
        ],
      );
    });

    it('the categories, staff and stock reports as CSV', async () => {
      expect(await csv('/api/reports/categories?from=2021-03-30&to=2021-04-02&format=csv')).toEqual([
        [...REPORT_CSV_HEADERS.categories],
        ['Alpha', '7', '42', '7', '0.6087'],
        ['Gamma', '2', '16', '6', '0.2319'],
        ["'=Beta", '2', '11', '11', '0.1594'],
      ]);
      const { salesRep, user } = t.as;
      expect(await csv('/api/reports/staff?from=2021-03-30&to=2021-04-02&format=csv')).toEqual([
        [...REPORT_CSV_HEADERS.staff],
        [salesRep.id, salesRep.name, 'salesRep', '3', '8', '43'],
        ['', 'Staff since removed', '', '1', '2', '16'],
        [user.id, user.name, 'user', '1', '1', '10'],
      ]);
      const stock = await csv('/api/reports/stock?format=csv');
      expect(stock[0]).toEqual([...REPORT_CSV_HEADERS.stock]);
      expect(stock).toContainEqual(["'=Beta", '1', '18', '0']);
      expect(stock).toContainEqual(['Alpha', '2', '33', '170']);
    });

    it('never-sold as CSV holds every match, not a page', async () => {
      const [{ n } = { n: 0 }] = await t.sql<{ n: number }>('select count(*)::int as n from products');
      const rows = await csv(
        '/api/reports/products/never-sold?from=2019-01-01&to=2019-01-31&pageSize=1&format=csv',
      );
      expect(rows).toHaveLength(n + 1);
      const { drill } = store.products;
      expect(rows).toContainEqual([drill, 'Drill', 'Gamma', '7']);
    });
  });

  describe('the products walk', () => {
    /**
     * 60 pairs of twin products (same price, cost and orders, so they tie; names that do not sort
     * like their ids), some sold below cost, in three categories; 1,600 orders over January and
     * February 2020 by two people, some partly and some wholly returned. Inserted in one statement.
     */
    beforeAll(async () => {
      const random = seededRandom(13);
      const categories = await Promise.all(
        [1, 2, 3].map(
          async (i) =>
            (
              await t.sql<{ id: string }>('insert into categories (name) values ($1) returning id', [
                `Walk category ${i} ${tag()}`,
              ])
            )[0]?.id as string,
        ),
      );
      const [supplier] = await t.sql<{ id: string }>(
        "insert into suppliers (name) values ('Walk') returning id",
      );
      const twins: Array<[string, string]> = [];
      for (let i = 0; i < 60; i++) {
        const price = [1, 2.5, 4, 9.99, 20][i % 5] as number;
        const cost = i % 7 === 0 ? price * 1.5 : i % 3 === 0 ? null : price * 0.6;
        const made = await t.sql<{ id: string }>(
          `insert into products (name, price, cost, stock, category_id, supplier_id)
           select n, $1, round($2::numeric, 2), 0, $3, $4 from unnest($5::text[]) n returning id`,
          [
            price,
            cost,
            categories[i % 3],
            supplier?.id,
            [`Walk ${String(99 - i).padStart(2, '0')} b`, `Walk ${String(99 - i).padStart(2, '0')} a`],
          ],
        );
        twins.push([made[0]?.id as string, made[1]?.id as string]);
      }
      const orders: Array<[string, number, number, string, string, boolean]> = [];
      for (let i = 0; i < 800; i++) {
        const [first, second] = twins[Math.floor(random() * random() * twins.length)] as [string, string];
        const quantity = 1 + Math.floor(random() * 5);
        const roll = random();
        const returned = roll < 0.1 ? quantity : roll < 0.25 ? Math.floor(quantity / 2) : 0;
        const at = new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 60 * 86_400_000)).toISOString();
        const who = random() < 0.5 ? t.as.salesRep.id : t.as.user.id;
        // A third of the sales taxed at 8 % on top of the price (DESIGN §12): revenue is their net.
        for (const product of [first, second])
          orders.push([product, quantity, returned, at, who, i % 3 === 0]);
      }
      await t.sql(
        `insert into orders (user_id, product_id, quantity, returned_quantity, status, unit_price, unit_cost,
                             total_price, tax, tax_rate_name, tax_rate, returned_total, returned_tax,
                             product_name, category_name, user_name, user_address, order_date)
         select o.who, p.id, o.quantity, o.returned,
                case when o.returned = o.quantity then 'returned' else 'placed' end,
                p.price, p.cost, m.gross + m.tax, m.tax, case when o.taxed then 'Walk tax' end,
                case when o.taxed then 8 end, round((m.gross + m.tax) * o.returned / o.quantity, 2),
                round(m.tax * o.returned / o.quantity, 2), p.name, c.name, 'Walker', '', o.at
         from unnest($1::uuid[], $2::int[], $3::int[], $4::timestamptz[], $5::uuid[], $6::bool[])
                as o(product, quantity, returned, at, who, taxed)
         join products p on p.id = o.product join categories c on c.id = p.category_id
         cross join lateral (select p.price * o.quantity as gross,
                                    case when o.taxed then round(p.price * o.quantity * 0.08, 2) else 0 end as tax) m`,
        [
          orders.map((o) => o[0]),
          orders.map((o) => o[1]),
          orders.map((o) => o[2]),
          orders.map((o) => o[3]),
          orders.map((o) => o[4]),
          orders.map((o) => o[5]),
        ],
      );
    });

    /** What a plain GROUP BY over the orders answers. */
    const grouped = async (from: string, to: string, sort: ProductReportSort, limit: number) => {
      const ranked = { revenue: 'sum(o.revenue)', units: 'sum(o.units)', margin: 'sum(o.revenue - o.cost)' }[
        sort
      ];
      const rows = await t.sql<{
        id: string;
        name: string;
        category: string;
        units: number;
        revenue: string;
        margin: string;
      }>(
        `select p.id, p.name, c.name as category, sum(o.units)::int as units, sum(o.revenue)::text as revenue,
                sum(o.revenue - o.cost)::text as margin
         from (select product_id, quantity - returned_quantity as units,
                      (total_price - tax) - (returned_total - returned_tax) as revenue,
                      (quantity - returned_quantity) * coalesce(unit_cost, 0) as cost
               from orders where (order_date at time zone 'UTC')::date between $1::date and $2::date) o
         join products p on p.id = o.product_id join categories c on c.id = p.category_id
         group by p.id, p.name, c.name having sum(o.units) > 0
         order by ${ranked} desc, lower(p.name), p.id limit $3`,
        [from, to, limit],
      );
      return rows.map((row) => ({
        product: { _id: row.id, name: row.name },
        item: null,
        category: { name: row.category },
        units: row.units,
        revenue: Number(row.revenue),
        margin: Number(row.margin),
      }));
    };

    it.each([
      ['2020-01-01', '2020-02-29', true],
      ['2020-01-01', '2020-01-31', true],
      ['2020-02-10', '2020-02-16', true],
      ['2020-01-15', '2020-01-15', true],
      ['2020-01-20', '2020-02-05', true],
      ['2019-12-01', '2019-12-31', true],
      ['2019-12-20', '2020-02-10', false],
    ])('answers exactly what a GROUP BY over the orders answers, %s to %s', async (from, to, twoMonths) => {
      const ways = twoMonths
        ? (['allTime', 'twoMonths', 'days', 'auto'] as const)
        : (['allTime', 'days', 'auto'] as const);
      for (const sort of ['revenue', 'units', 'margin'] as const)
        for (const limit of [1, 7, 100]) {
          const expected = await grouped(from, to, sort, limit);
          for (const how of ways)
            expect(
              await topProducts(t.app.database, { from, to }, sort, limit, how),
              `${sort} ${limit} ${how}`,
            ).toEqual(expected);
        }
      if (!twoMonths)
        await expect(topProducts(t.app.database, { from, to }, 'units', 7, 'twoMonths')).rejects.toThrow();
    });

    it('ties are broken by name', async () => {
      const res = await get('/api/reports/products?from=2020-01-01&to=2020-02-29&sort=units&limit=4');
      const [first, second] = parsed(res, ProductReportResponse).products as Array<{
        product: { name: string };
        units: number;
      }>;
      expect(first?.units).toBe(second?.units);
      expect(first?.product.name.replace(/ [ab]$/, '')).toBe(second?.product.name.replace(/ [ab]$/, ''));
      expect(first?.product.name.endsWith(' a')).toBe(true);
    });

    it('the walk settles before reading every product when the range holds their sales', async () => {
      const reads: number[] = [];
      const database = t.app.database;
      const counting: typeof database = {
        ...database,
        run: (statement, params) => {
          if (statement.name.startsWith('reports_products_walk')) reads.push(params[2] as number);
          return database.run(statement, params);
        },
      };
      const range = { from: '2020-01-01', to: '2020-02-29' };
      const answer = await topProducts(counting, range, 'revenue', 7, 'allTime');
      expect(answer).toEqual(await grouped(range.from, range.to, 'revenue', 7));
      const [{ n } = { n: 0 }] = await t.sql<{ n: number }>('select count(*)::int as n from product_sales');
      expect(Math.max(...reads)).toBeLessThan(n);
    });

    it('a range within two months running walks those two months, whatever its share of all sales', async () => {
      const ran: string[] = [];
      const database = t.app.database;
      const naming: typeof database = {
        ...database,
        run: (statement, params) => {
          ran.push(statement.name);
          return database.run(statement, params);
        },
      };
      for (const [from, to] of [
        ['2020-01-20', '2020-02-05'],
        ['2020-02-03', '2020-02-09'],
      ] as const) {
        ran.length = 0;
        const answer = await topProducts(naming, { from, to }, 'margin', 7);
        expect(answer).toEqual(await grouped(from, to, 'margin', 7));
        expect(ran).toContain('reports_products_walk_twoMonths_margin');
        expect(ran.filter((name) => name.startsWith('reports_products_summed'))).toEqual([]);
      }
    });

    /** Today's figures of the orders by category, as the categories report answers them. */
    const categoriesOf = async (from: string, to: string) =>
      (
        await t.sql<{ name: string; units: number; revenue: string; margin: string; share: string }>(
          `select category_name as name, sum(units)::int as units, sum(revenue)::text as revenue,
                  sum(revenue - cost)::text as margin,
                  coalesce(round(sum(revenue) / nullif(sum(sum(revenue)) over (), 0), 4), 0)::text as share
           from (select category_name, quantity - returned_quantity as units,
                        (total_price - tax) - (returned_total - returned_tax) as revenue,
                        (quantity - returned_quantity) * coalesce(unit_cost, 0) as cost
                 from orders where (order_date at time zone 'UTC')::date between $1::date and $2::date) o
           group by category_name having sum(units) > 0
           order by sum(revenue) desc, category_name`,
          [from, to],
        )
      ).map((row) => ({
        name: row.name,
        units: row.units,
        revenue: Number(row.revenue),
        margin: Number(row.margin),
        share: Number(row.share),
      }));

    /** The same by who placed the orders (null: staff since deleted). */
    const staffOf = async (from: string, to: string) =>
      (
        await t.sql<{
          id: string | null;
          name: string;
          role: string;
          orders: number;
          units: number;
          revenue: string;
        }>(
          `select u.id, u.name, u.role, o.orders, o.units, o.revenue::text as revenue
           from (select user_id, sum((status = 'placed')::int)::int as orders,
                        sum(quantity - returned_quantity)::int as units,
                        sum((total_price - tax) - (returned_total - returned_tax)) as revenue
                 from orders where (order_date at time zone 'UTC')::date between $1::date and $2::date
                 group by user_id having sum(quantity - returned_quantity) > 0) o
           left join users u on u.id = o.user_id
           order by o.revenue desc, u.name nulls last, u.id`,
          [from, to],
        )
      ).map((row) => ({
        user: row.id ? { _id: row.id, name: row.name, role: row.role } : null,
        orders: row.orders,
        units: row.units,
        revenue: Number(row.revenue),
      }));

    it.each([
      ['exactly two whole months', '2020-01-01', '2020-02-29'],
      ['one whole month', '2020-02-01', '2020-02-29'],
      ['starting and ending mid-month', '2020-01-15', '2020-02-10'],
      ['whole months between two partial ones', '2019-12-15', '2021-04-01'],
      ['days inside one month', '2020-02-05', '2020-02-20'],
      ['a last day of a month to a first day', '2020-01-31', '2020-03-01'],
      ['one day', '2020-01-31', '2020-01-31'],
    ])(
      'categories and staff over %s answer what a GROUP BY over the orders answers',
      async (_label, from, to) => {
        const categories = await get(`/api/reports/categories?from=${from}&to=${to}`);
        expect(categories.status, categories.text).toBe(200);
        expect(parsed(categories, CategoryReportResponse).categories).toEqual(await categoriesOf(from, to));
        const staff = await get(`/api/reports/staff?from=${from}&to=${to}`);
        expect(staff.status, staff.text).toBe(200);
        expect(parsed(staff, StaffReportResponse).staff).toEqual(await staffOf(from, to));
        expect(parsed(staff, StaffReportResponse).staff.length).toBeGreaterThan(0);
      },
    );
  });
});

describe.each(targets)('report days on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  it('a server started in another time zone recounts the days: an order near midnight moves to the next day', async () => {
    const { id } = await t.product({ stock: 5, price: 4 });
    const placed = await t.call('POST', '/api/order/add', {
      token: t.as.user.token,
      body: { productId: id, quantity: 2 },
    });
    await t.sql("update orders set order_date = '2021-06-15T23:30:00Z' where id = $1", [
      parsed(placed, OrderResponse).order._id,
    ]);
    const daysOf = async (call: (url: string) => Promise<Answer>) =>
      parsed(await call('/api/reports/sales?from=2021-06-15&to=2021-06-16'), SalesReportResponse).periods.map(
        (p) => [p.start, p.units],
      );
    const viaFirst = (url: string) => t.call('GET', url, { token: t.as.admin.token });
    expect(await daysOf(viaFirst)).toEqual([
      ['2021-06-15', 2],
      ['2021-06-16', 0],
    ]);

    // The same database, a server with TZ=Asia/Tokyo (UTC+9): 23:30 UTC is 08:30 the next day.
    const tokyo = await buildApp({
      config: { ...t.app.config, timeZone: 'Asia/Tokyo' },
      database: t.app.database,
    });
    await tokyo.ready();
    const viaTokyo = async (url: string) => {
      const res = await tokyo.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${t.as.admin.token}` },
      });
      return { status: res.statusCode, body: res.json(), headers: res.headers, text: res.body };
    };
    expect(await daysOf(viaTokyo)).toEqual([
      ['2021-06-15', 0],
      ['2021-06-16', 2],
    ]);
    const staff = await viaTokyo('/api/reports/staff?from=2021-06-16&to=2021-06-16');
    expect((staff.body as unknown as { staff: unknown[] }).staff).toHaveLength(1);
    // The months are recounted too: an order on the last evening of June (UTC) is July's in Tokyo.
    const late = await t.call('POST', '/api/order/add', {
      token: t.as.user.token,
      body: { productId: id, quantity: 1 },
    });
    await t.sql("update orders set order_date = '2021-06-30T23:30:00Z' where id = $1", [
      parsed(late, OrderResponse).order._id,
    ]);
    const unitsByMonth = async () =>
      Promise.all(
        [
          ['2021-06-01', '2021-06-30'],
          ['2021-07-01', '2021-07-31'],
        ].map(async ([from, to]) => {
          const answer = (await viaTokyo(`/api/reports/staff?from=${from}&to=${to}`)).body as unknown as {
            staff: Array<{ units: number }>;
          };
          return answer.staff.reduce((sum, row) => sum + row.units, 0);
        }),
      );
    expect(await unitsByMonth()).toEqual([2, 1]);
    await setReportTimeZone(t.app.database, 'UTC');
    expect(await unitsByMonth()).toEqual([3, 0]);
    await setReportTimeZone(t.app.database, 'Asia/Tokyo');
    expect(await unitsByMonth()).toEqual([2, 1]);
    // Orders placed from now on count in Tokyo's days too.
    const [row] = await t.sql<{ zone: string }>('select time_zone as zone from report_settings');
    expect(row?.zone).toBe('Asia/Tokyo');
    // Started again in the same zone: nothing to recount.
    expect(await setReportTimeZone(t.app.database, 'Asia/Tokyo')).toBe(false);
  });

  it('of several servers starting at once in a new zone, one recounts', async () => {
    const changed = await Promise.all([
      setReportTimeZone(t.app.database, 'America/New_York'),
      setReportTimeZone(t.app.database, 'America/New_York'),
      setReportTimeZone(t.app.database, 'America/New_York'),
    ]);
    expect(changed.filter(Boolean)).toHaveLength(1);
    await setReportTimeZone(t.app.database, 'UTC');
  });

  it('refuses a time zone the database does not know, and keeps the one it had', async () => {
    const zone = async () =>
      (await t.sql<{ zone: string }>('select time_zone as zone from report_settings'))[0]?.zone;
    const before = await zone();
    await expect(setReportTimeZone(t.app.database, 'Mars/Olympus_Mons')).rejects.toThrow();
    expect(await zone()).toBe(before);
  });
});

describe.each(targets.filter((target) => target.url))(
  'report days on $name with short time limits',
  (target) => {
    it('the recount runs on a connection of its own, past the pool’s statement time limit', async () => {
      const made = await freshPostgres(target.url as string);
      // Migrations run on that connection too: they pass under a 1 ms limit.
      const database = await openDatabase({ databaseUrl: made.url, dataDir: '', statementTimeoutMs: 1 });
      try {
        await expect(database.query('select pg_sleep(0.05)')).rejects.toThrow();
        await database.withoutTimeLimits((runner) =>
          runner.query(
            `with c as (insert into categories (name) values ('Limits') returning id),
                s as (insert into suppliers (name) values ('Limits') returning id),
                p as (insert into products (name, price, stock, category_id, supplier_id)
                      select 'Limits', 2, 0, c.id, s.id from c, s returning id)
           insert into orders (product_id, quantity, unit_price, total_price, product_name, category_name,
                               user_name, user_address, order_date)
           select p.id, 1, 2, 2, 'Limits', 'Limits', 'Someone', '', now() - make_interval(hours => n)
           from p, generate_series(1, 5000) n`,
          ),
        );
        // On the pool, the recount would be stopped.
        await expect(database.query('select sales_days_rebuild()')).rejects.toThrow(/timeout/);
        expect(await setReportTimeZone(database, 'Asia/Tokyo')).toBe(true);
        const [row] = await database.withoutTimeLimits((runner) =>
          runner.query<{ units: number }>('select sum(units)::int as units from sales_days'),
        );
        expect(row?.units).toBe(5000);
      } finally {
        await database.close();
        await made.drop();
      }
    });
  },
);
