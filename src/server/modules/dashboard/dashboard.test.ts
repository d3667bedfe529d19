import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryResponse } from '../../../shared/categories';
import { DashboardResponse } from '../../../shared/dashboard';
import { OrderResponse } from '../../../shared/orders';
import { ProductResponse } from '../../../shared/products';
import { PERMISSIONS } from '../../../shared/roles';
import { SupplierResponse } from '../../../shared/suppliers';
import { runnerOf } from '../../db/connection';
import { setReportTimeZone } from '../../db/report-time-zone';
import { fixtures } from '../../test/fixtures';
import { freshPostgres, parsed, startApp, type Target, type TestApp, targets } from '../../test/harness';
import { MIGRATIONS, migrationsBefore } from '../../test/migrations-before';
import { recordMovements } from '../stock/movements';
import { DASHBOARD } from './dashboard.repository';

/** A node of EXPLAIN (FORMAT JSON). */
type PlanNode = {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
};

type Seeded = { empty: string; syrup: string; vitamin: string; bandages: string; orders: string[] };

/**
 * A small store: products at stock 0, 3, 5 and 6 once the orders are taken.
 * Cough Syrup (19.99) sells 3 in one order; Vitamin C (0.10) sells 2 + 2, one of them two days ago.
 */
async function seed(t: TestApp): Promise<Seeded> {
  const admin = t.as.admin.token;
  const category = async (formCategory: string) =>
    parsed(
      await t.call('POST', '/api/category/add', { token: admin, body: { formCategory } }),
      CategoryResponse,
    ).category._id;
  const tablets = await category('Tablets');
  const syrups = await category('Syrups');
  const supplier = parsed(
    await t.call('POST', '/api/supplier/add', { token: admin, body: { name: 'Acme' } }),
    SupplierResponse,
  ).supplier._id;
  const product = async (name: string, price: number, stock: number, categoryId: string) => {
    const res = await t.call('POST', '/api/products/add', {
      token: admin,
      body: { name, description: '', price, stock, category: categoryId, supplier },
    });
    expect(res.status).toBe(201);
    return parsed(res, ProductResponse).product._id;
  };
  const empty = await product('Empty Jar', 5, 0, tablets);
  const syrup = await product('Cough Syrup', 19.99, 6, syrups);
  const vitamin = await product('Vitamin C', 0.1, 9, tablets);
  const bandages = await product('Bandages', 3, 6, tablets);
  const order = async (token: string, productId: string, quantity: number) => {
    const res = await t.call('POST', '/api/order/add', { token, body: { productId, quantity } });
    expect(res.status).toBe(201);
    return parsed(res, OrderResponse).order._id;
  };
  const orders = [
    await order(t.as.user.token, syrup, 3),
    await order(t.as.salesRep.token, vitamin, 2),
    await order(t.as.medicalRep.token, vitamin, 2),
  ];
  await t.sql("update orders set order_date = now() - interval '2 days' where id = $1", [orders[2]]);
  return { empty, syrup, vitamin, bandages, orders };
}

describe.each(targets)('dashboard of an empty store on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  it('GET /api/dashboard answers zeros, empty lists and a message instead of a best seller', async () => {
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      totalProducts: 0,
      totalStock: 0,
      ordersToday: 0,
      revenue: 0,
      today: { sales: 0, revenue: 0, averageBasket: 0 },
      outOfStock: [],
      highestSaleProduct: { message: expect.stringMatching(/\S/) },
      toReorder: 0,
      expiringSoon: { count: 0, value: 0 },
      lowStock: [],
    });
  });

  it.each(['superAdmin', 'salesRep', 'medicalRep', 'user'] as const)(
    'GET /api/dashboard answers 403 to a %s',
    async (role) => {
      const res = await t.call('GET', '/api/dashboard', { token: t.as[role].token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, code: 'FORBIDDEN', error: expect.any(String) });
    },
  );

  it('GET /api/dashboard answers 401 without a token', async () => {
    expect((await t.call('GET', '/api/dashboard')).status).toBe(401);
  });

  it('GET /api/dashboard answers 401 to a deleted admin and to a token from before a password change', async () => {
    const gone = await t.account('admin');
    expect((await t.call('GET', '/api/dashboard', { token: gone.token })).status).toBe(200);
    await t.call('DELETE', `/api/users/${gone.id}`, { token: t.as.superAdmin.token });
    const res = await t.call('GET', '/api/dashboard', { token: gone.token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      success: false,
      code: 'SIGNED_OUT',
      error: 'Your session is no longer valid; please sign in again.',
    });
    const changed = await t.account('admin');
    await t.sql('update users set token_version = token_version + 1 where id = $1', [changed.id]);
    expect((await t.call('GET', '/api/dashboard', { token: changed.token })).status).toBe(401);
  });

  it('GET /api/dashboard answers JSON that the shared schema accepts exactly', async () => {
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(DashboardResponse.strict().parse(res.body)).toEqual(res.body);
  });
});

describe.each(targets)('dashboard of a stocked store on $name', (target) => {
  let t: TestApp;
  let data: Seeded;
  beforeAll(async () => {
    t = await startApp(target);
    data = await seed(t);
  });
  afterAll(() => t?.close());

  it('GET /api/dashboard counts products, stock, orders today and exact revenue', async () => {
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    expect(res.status).toBe(200);
    expect(Object.keys(parsed(res, DashboardResponse)).sort()).toEqual([
      'expiringSoon',
      'highestSaleProduct',
      'lowStock',
      'ordersToday',
      'outOfStock',
      'revenue',
      'success',
      'toReorder',
      'today',
      'totalProducts',
      'totalStock',
    ]);
    expect(parsed(res, DashboardResponse).totalProducts).toBe(4);
    expect(parsed(res, DashboardResponse).totalStock).toBe(0 + 3 + 5 + 6);
    // The order moved to two days ago still counts as revenue but not as today's.
    expect(parsed(res, DashboardResponse).ordersToday).toBe(2);
    // 3 × 19.99 + 4 × 0.10, summed exactly.
    expect(parsed(res, DashboardResponse).revenue).toBe(60.37);
    // Today: 3 × 19.99 + 2 × 0.10 in two sales.
    expect(parsed(res, DashboardResponse).today).toEqual({ sales: 2, revenue: 60.17, averageBasket: 30.09 });
  });

  it('GET /api/dashboard lists out-of-stock products with their category name', async () => {
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    expect(parsed(res, DashboardResponse).outOfStock).toEqual([
      { _id: data.empty, name: 'Empty Jar', category: { name: 'Tablets' } },
    ]);
  });

  it('GET /api/dashboard lists low stock as 0 < stock ≤ 5, lowest first', async () => {
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    expect(parsed(res, DashboardResponse).lowStock).toEqual([
      { _id: data.syrup, name: 'Cough Syrup', stock: 3, category: { name: 'Syrups' } },
      { _id: data.vitamin, name: 'Vitamin C', stock: 5, category: { name: 'Tablets' } },
    ]);
  });

  it('GET /api/dashboard names the product with the most units sold over all its orders', async () => {
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    expect(parsed(res, DashboardResponse).highestSaleProduct).toEqual({
      name: 'Vitamin C',
      category: 'Tablets',
      totalQuantity: 4,
    });
  });
});

describe.each(targets)(
  'dashboard with LOW_STOCK_THRESHOLD=3 and TZ=Pacific/Kiritimati on $name',
  (target) => {
    let t: TestApp;
    let data: Seeded;
    beforeAll(async () => {
      t = await startApp(target, { config: { lowStockThreshold: 3, timeZone: 'Pacific/Kiritimati' } });
      data = await seed(t);
    });
    afterAll(() => t?.close());

    it('GET /api/dashboard lists low stock up to the configured threshold', async () => {
      const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
      expect(parsed(res, DashboardResponse).lowStock).toEqual([
        { _id: data.syrup, name: 'Cough Syrup', stock: 3, category: { name: 'Syrups' } },
      ]);
    });

    it('GET /api/dashboard counts orders since midnight in the configured time zone', async () => {
      // Kiritimati is UTC+14 all year: its midnight is never the UTC one.
      const offsetMs = 14 * 3600_000;
      const local = new Date(Date.now() + offsetMs);
      const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - offsetMs;
      const [before, after] = data.orders;
      await t.sql('update orders set order_date = $2 where id = $1', [before, new Date(midnight - 60_000)]);
      await t.sql('update orders set order_date = $2 where id = $1', [after, new Date(midnight + 60_000)]);
      const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
      expect(parsed(res, DashboardResponse).ordersToday).toBe(1);
      // Of the store's day only the order after its midnight: 2 × 0.10.
      expect(parsed(res, DashboardResponse).today).toEqual({ sales: 1, revenue: 0.2, averageBasket: 0.2 });
    });
  },
);

/** The instant of the last midnight in Pacific/Kiritimati (UTC+14 all year, no daylight saving). */
function kiritimatiMidnight(): number {
  const offsetMs = 14 * 3600_000;
  const local = new Date(Date.now() + offsetMs);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - offsetMs;
}

/**
 * The days whose kept sales (sales_days, summed over its slots) differ from a straight recount of
 * the orders: each sale once (its distinct id), each order without a sale once, on the day of its
 * date in the zone the figures count in. Days with no sales on either side count as absent.
 */
const SALES_DRIFT = `
  with kept as (select day, sum(sales)::int as sales from sales_days group by day having sum(sales) <> 0),
       counted as (select (order_date at time zone (select time_zone from report_settings))::date as day,
                          (count(distinct sale_id) + count(*) filter (where sale_id is null))::int as sales
                   from orders group by 1)
  select coalesce(k.day, c.day)::text as day, k.sales as kept, c.sales as counted
  from kept k full join counted c on c.day = k.day
  where k.sales is distinct from c.sales`;

describe.each(targets)('the dashboard’s day with TZ=Pacific/Kiritimati on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { config: { timeZone: 'Pacific/Kiritimati' } });
  });
  afterAll(() => t?.close());

  const { sold } = fixtures(() => t);
  const sell = (lines: [string, number][], who = t.as.salesRep) =>
    sold(who, { lines: lines.map(([productId, quantity]) => ({ productId, quantity })) });
  const order = async (productId: string, quantity: number, token = t.as.user.token) => {
    const res = await t.call('POST', '/api/order/add', { token, body: { productId, quantity } });
    expect(res.status, res.text).toBe(201);
    return parsed(res, OrderResponse).order._id;
  };
  const giveBack = async (orderId: string, quantity: number) => {
    const res = await t.call('POST', `/api/order/${orderId}/return`, {
      token: t.as.admin.token,
      body: { quantity },
    });
    expect(res.status, res.text).toBe(200);
  };
  const dashboard = async () => {
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    expect(res.status, res.text).toBe(200);
    return parsed(res, DashboardResponse);
  };

  it('GET /api/dashboard counts a 3-line sale and a catalogue order as 2 sales today, revenue net of a return, the average basket exact, and not yesterday’s sale', async () => {
    const tea = (await t.product({ name: 'Tea', stock: 50, price: 0.11 })).id;
    const cups = (await t.product({ name: 'Cups', stock: 50, price: 1 })).id;
    const kettle = (await t.product({ name: 'Kettle', stock: 50, price: 3 })).id;
    const soap = (await t.product({ name: 'Soap', stock: 50, price: 1.99 })).id;
    // Yesterday in the store's zone: a sale of 2 lines a minute before its midnight.
    const yesterday = await sell([
      [tea, 1],
      [cups, 1],
    ]);
    await t.sql('update orders set order_date = $2 where sale_id = $1', [
      yesterday._id,
      new Date(kiritimatiMidnight() - 60_000),
    ]);
    // Today: 0.11 + 2 × 1.00 + 3.00 = 5.11 in one sale, 3 × 1.99 = 5.97 from the catalogue less 1.99 returned.
    await sell([
      [tea, 1],
      [cups, 2],
      [kettle, 1],
    ]);
    const catalogue = await order(soap, 3);
    await giveBack(catalogue, 1);

    const body = await dashboard();
    expect(body.ordersToday).toBe(2);
    // 5.11 + 3.98 = 9.09; 9.09 / 2 = 4.545, to the cent 4.55 (as a float it would round to 4.54).
    expect(body.today).toEqual({ sales: 2, revenue: 9.09, averageBasket: 4.55 });
    // Revenue stays all-time: yesterday's 1.11 too.
    expect(body.revenue).toBe(10.2);
    expect(DashboardResponse.strict().parse(body)).toEqual(body);
    expect(await t.sql(SALES_DRIFT)).toEqual([]);
  });

  it('GET /api/dashboard counts the lots holding units that expire within 30 days of the store’s today (expired ones too), value at cost', async () => {
    const before = (await dashboard()).expiringSoon;
    // The store's today, in Kiritimati (UTC+14): most of the time not the UTC one.
    const [{ today = '' } = {}] = await t.sql<{ today: string }>(
      `select (now() at time zone 'Pacific/Kiritimati')::date::text as today`,
    );
    const day = (days: number) => {
      const date = new Date(`${today}T00:00:00Z`);
      date.setUTCDate(date.getUTCDate() + days);
      return date.toISOString().slice(0, 10);
    };
    /** A lot-tracked product at `cost` whose lots get their units by the ledger. */
    const tracked = async (cost: string | null, lots: [string, string | null, number][]) => {
      const { id } = await t.product({ stock: 0 });
      await t.sql(`update products set tracking = 'lot', cost = $2 where id = $1`, [id, cost]);
      for (const [number, expiresOn, quantity] of lots) {
        const [lot] = await t.sql<{ id: string }>(
          'insert into lots (product_id, number, expires_on) values ($1, $2, $3) returning id',
          [id, number, expiresOn],
        );
        if (quantity > 0)
          await recordMovements({ query: t.sql }, [
            { productId: id, kind: 'receipt', quantity, lotId: lot?.id },
          ]);
      }
    };
    await tracked('2.50', [
      ['EXPIRED', day(-400), 3], // expired long ago: 7.50
      ['TODAY', day(0), 2], // 5.00
      ['LAST', day(30), 1], // the last day counted: 2.50
      ['LATER', day(31), 50], // a day too late
      ['NEVER', null, 40], // does not expire
      ['EMPTY', day(1), 0], // holds nothing
    ]);
    await tracked(null, [['NOCOST', day(5), 7]]); // no cost yet: counted, worth 0
    const after = (await dashboard()).expiringSoon;
    expect(after).toEqual({ count: before.count + 4, value: Number((before.value + 15).toFixed(2)) });
  });

  it('GET /api/dashboard reads the cost of each expiring lot from its own product, whatever join the estimates favour', async () => {
    // A plan made while the catalogue was small and kept by a connection after an import made it
    // ten times larger read every product for a few hundred lots (issue 34, finding 10): a hash or
    // merge join over products. Such joins are priced out here, as stale estimates can price them in.
    const [me] = await t.sql<{ version: number }>(
      'select token_version as version from users where id = $1',
      [t.as.admin.id],
    );
    const [explained] = await t.app.db.transaction(async (tx) => {
      const run = runnerOf(tx);
      await run.query('set local enable_nestloop = off');
      return run.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`explain (format json) ${DASHBOARD.text}`, [
        me?.version,
        PERMISSIONS['dashboard:read'],
        t.as.admin.id,
        null,
      ]);
    });
    const root = explained?.['QUERY PLAN'][0]?.Plan as PlanNode;
    const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
    const expiring = nodes(root).find(
      (node) =>
        node['Parent Relationship'] === 'InitPlan' &&
        nodes(node).some((inner) => inner['Relation Name'] === 'lots'),
    );
    expect(expiring).toBeDefined();
    const productReads = nodes(expiring as PlanNode).filter((node) => node['Relation Name'] === 'products');
    expect(productReads.length).toBeGreaterThan(0);
    for (const read of productReads) {
      expect(read['Node Type']).toBe('Index Scan');
      expect(read['Index Name']).toBe('products_pkey');
      expect(read['Index Cond']).toMatch(/^\(id = /);
    }
    expect(nodes(expiring as PlanNode).map((node) => node['Node Type'])).not.toContain('Hash Join');
    expect(nodes(expiring as PlanNode).map((node) => node['Node Type'])).not.toContain('Merge Join');
  });

  it('GET /api/dashboard counts a one-line sale once, as a catalogue order recorded as a sale is', async () => {
    const before = (await dashboard()).today;
    const { id } = await t.product({ stock: 10, price: 2.5 });
    await sell([[id, 2]], t.as.medicalRep);
    const after = (await dashboard()).today;
    expect(after.sales).toBe(before.sales + 1);
    expect(after.revenue).toBeCloseTo(before.revenue + 5, 9);
  });

  it('GET /api/dashboard counts revenue net of tax and of a partial return (DESIGN §12), today’s and all time', async () => {
    const before = await dashboard();
    const { id } = await t.product({ stock: 10, price: 10 });
    const sold = await sell([[id, 2]]);
    const line = sold.lines[0]?.order._id as string;
    // The line as the counter writes it with 8.875 % within the price: 20.00 paid, 1.63 of it tax.
    await t.sql("update orders set tax = 1.63, tax_rate_name = 'NYC', tax_rate = 8.875 where id = $1", [
      line,
    ]);
    let after = await dashboard();
    expect(after.today.revenue).toBeCloseTo(before.today.revenue + 18.37, 9);
    expect(after.revenue).toBeCloseTo(before.revenue + 18.37, 9);
    // One unit back: 10.00 given back, round(1.63 / 2) = 0.82 of it tax; the line keeps 10.00 − 0.81.
    await giveBack(line, 1);
    after = await dashboard();
    expect(after.today.sales).toBe(before.today.sales + 1);
    expect(after.today.revenue).toBeCloseTo(before.today.revenue + 9.19, 9);
    expect(after.revenue).toBeCloseTo(before.revenue + 9.19, 9);
    const [kept] = await t.sql<{ returned: string; tax: string }>(
      'select returned_total::text as returned, returned_tax::text as tax from orders where id = $1',
      [line],
    );
    expect(kept).toEqual({ returned: '10.00', tax: '0.82' });
    expect(await t.sql(SALES_DRIFT)).toEqual([]);
  });

  it('keeps the sales of every day equal to a recount of the orders through sales, returns, moves, deletes and a new time zone', async () => {
    const a = await t.product({ stock: 100, price: 0.35 });
    const b = await t.product({ stock: 100, price: 12.5 });
    const leaving = await t.account('salesRep');
    const big = await sell(
      [
        [a.id, 2],
        [b.id, 1],
        [a.id, 1],
      ],
      leaving,
    );
    const small = await sell([[b.id, 1]]);
    const lone = await order(a.id, 4);
    const gone = await order(b.id, 1);
    // Returns: a whole sale line (its order becomes returned), part of another, a whole catalogue order.
    await giveBack(big.lines[0]?.order._id as string, 3);
    await giveBack(small.lines[0]?.order._id as string, 1);
    await giveBack(lone, 4);
    expect(await t.sql(SALES_DRIFT)).toEqual([]);
    // A sale moved to another day (all its lines), a user and a product deleted.
    const moved = await sell([
      [a.id, 1],
      [b.id, 1],
    ]);
    await t.sql("update orders set order_date = order_date - interval '5 days' where sale_id = $1", [
      moved._id,
    ]);
    expect((await t.call('DELETE', `/api/users/${leaving.id}`, { token: t.as.admin.token })).status).toBe(
      200,
    );
    expect((await t.call('DELETE', `/api/products/${a.id}`, { token: t.as.admin.token })).status).toBe(200);
    expect(await t.sql(SALES_DRIFT)).toEqual([]);
    // No path of the app removes orders; the database may: a catalogue order and a whole sale.
    const beforeDeletes = (await dashboard()).today.sales;
    await t.sql('delete from orders where id = $1', [gone]);
    await t.sql('delete from orders where sale_id = $1', [small._id]);
    expect((await dashboard()).today.sales).toBe(beforeDeletes - 2);
    expect(await t.sql(SALES_DRIFT)).toEqual([]);
    // Recounted in another zone (UTC-10: today's early sales there may fall on another day), and back.
    expect(await setReportTimeZone(t.app.database, 'Pacific/Honolulu')).toBe(true);
    expect(await t.sql(SALES_DRIFT)).toEqual([]);
    expect(await setReportTimeZone(t.app.database, 'Pacific/Kiritimati')).toBe(true);
    expect(await t.sql(SALES_DRIFT)).toEqual([]);
    const [counted] = await t.sql<{ sales: number }>(
      `select (count(distinct sale_id) + count(*) filter (where sale_id is null))::int as sales from orders
       where (order_date at time zone 'Pacific/Kiritimati')::date = (now() at time zone 'Pacific/Kiritimati')::date`,
    );
    const body = await dashboard();
    expect(body.ordersToday).toBe(counted?.sales);
    expect(body.today.sales).toBe(counted?.sales);
  });
});

/** A database of the target migrated by `folder`: a query function, how to migrate on, and the app's config. */
async function migratedDatabase(target: Target, folder: string, dataDir: string) {
  if (target.url) {
    const fresh = await freshPostgres(target.url);
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    const db = drizzlePg({ client });
    await migratePg(db, { migrationsFolder: folder });
    return {
      query: async <T>(text: string, params: unknown[] = []) =>
        (await client.query(text, params)).rows as T[],
      migrate: (migrationsFolder: string) => migratePg(db, { migrationsFolder }),
      config: { databaseUrl: fresh.url },
      close: () => client.end(),
      drop: fresh.drop,
    };
  }
  const client = new PGlite(dataDir, { extensions: { pg_trgm } });
  const db = drizzlePglite({ client });
  await migratePglite(db, { migrationsFolder: folder });
  return {
    query: async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows,
    migrate: (migrationsFolder: string) => migratePglite(db, { migrationsFolder }),
    config: { dataDir },
    close: () => client.close(),
    drop: async () => {},
  };
}

describe.each(targets)('sales of the days before migration 0020 on $name', (target) => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('are counted from their orders by the migration (a sale once, a catalogue order once), and the dashboard reads them', async () => {
    const folder = migrationsBefore('0020_sales_of_the_day');
    const dataDir = mkdtempSync(join(tmpdir(), 'ims-data-'));
    dirs.push(folder, dataDir);
    const database = await migratedDatabase(target, folder, dataDir);
    let app: TestApp | undefined;
    try {
      const q = database.query;
      const [category] = await q<{ id: string }>("insert into categories (name) values ('Old') returning id");
      const [supplier] = await q<{ id: string }>("insert into suppliers (name) values ('Old') returning id");
      const [product] = await q<{ id: string }>(
        `insert into products (name, price, stock, category_id, supplier_id)
         values ('Old product', 2.5, 100, $1, $2) returning id`,
        [category?.id, supplier?.id],
      );
      const [seller] = await q<{ id: string }>(
        `insert into users (name, email, password_hash, role, address)
         values ('Old Seller', 'old.seller@example.com', 'x', 'salesRep', 'Old street') returning id`,
      );
      const sale = async (ago: string, lines: number) => {
        const [row] = await q<{ id: string; number: number }>(
          `insert into sales (user_id, user_name, payment_method, total, created_at)
           values ($1, 'Old Seller', 'card', $2, now() - $3::interval) returning id, number`,
          [seller?.id, (2.5 * lines).toFixed(2), ago],
        );
        for (let line = 1; line <= lines; line++)
          await orderOf(ago, row?.id ?? null, row?.number ?? null, line);
      };
      const orderOf = (ago: string, saleId: string | null, saleNumber: number | null, line: number | null) =>
        q(
          `insert into orders (user_id, product_id, quantity, unit_price, total_price, product_name, category_name,
                               user_name, user_address, order_date, sale_id, sale_number, sale_line,
                               returned_quantity, status)
           values ($1, $2, 2, 2.5, 5, 'Old product', 'Old', 'Old Seller', 'Old street', now() - $3::interval,
                   $4, $5, $6, $7, 'placed')`,
          [seller?.id, product?.id, ago, saleId, saleNumber, line, line === 2 ? 1 : 0],
        );
      // Today: a sale of 3 lines, a one-line sale and two catalogue orders; 2 days ago a sale of 2 lines.
      await sale('0 seconds', 3);
      await sale('0 seconds', 1);
      await orderOf('0 seconds', null, null, null);
      await orderOf('0 seconds', null, null, null);
      await sale('2 days', 2);
      await orderOf('2 days', null, null, null);

      await database.migrate(MIGRATIONS);

      const days = await q<{ ago: number; sales: number }>(
        `select ((now() at time zone z.zone)::date - d.day)::int as ago, sum(d.sales)::int as sales
         from sales_days d cross join (select time_zone as zone from report_settings) z
         group by d.day, z.zone order by ago`,
      );
      expect(days).toEqual([
        { ago: 0, sales: 4 },
        { ago: 2, sales: 2 },
      ]);
      expect(await q(SALES_DRIFT)).toEqual([]);
      // And the trigger counts on from there.
      await orderOf('0 seconds', null, null, null);
      expect(await q(SALES_DRIFT)).toEqual([]);
      await database.close();

      app = await startApp(target, { config: { ...database.config, timeZone: 'UTC' } });
      const body = parsed(
        await app.call('GET', '/api/dashboard', { token: app.as.admin.token }),
        DashboardResponse,
      );
      expect(body.ordersToday).toBe(5);
      // Today's 7 orders are 2 × 2.50 each, less one unit returned on the second line of the 3-line sale.
      expect(body.today).toEqual({ sales: 5, revenue: 32.5, averageBasket: 6.5 });
    } finally {
      await app?.close();
      await database.close().catch(() => {});
      await database.drop();
    }
  }, 120_000);
});
