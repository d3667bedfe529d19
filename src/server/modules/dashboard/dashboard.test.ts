import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardResponse } from '../../../shared/dashboard';
import { startApp, type TestApp, targets } from '../../test/harness';

type Seeded = { empty: string; syrup: string; vitamin: string; bandages: string; orders: string[] };

/**
 * A small store: products at stock 0, 3, 5 and 6 once the orders are taken.
 * Cough Syrup (19.99) sells 3 in one order; Vitamin C (0.10) sells 2 + 2, one of them two days ago.
 */
async function seed(t: TestApp): Promise<Seeded> {
  const admin = t.as.admin.token;
  const category = async (formCategory: string) =>
    (await t.call('POST', '/api/category/add', { token: admin, body: { formCategory } })).body.category._id;
  const tablets = await category('Tablets');
  const syrups = await category('Syrups');
  const supplier = (await t.call('POST', '/api/supplier/add', { token: admin, body: { name: 'Acme' } })).body
    .supplier._id;
  const product = async (name: string, price: number, stock: number, categoryId: string) => {
    const res = await t.call('POST', '/api/products/add', {
      token: admin,
      body: { name, description: '', price, stock, category: categoryId, supplier },
    });
    expect(res.status).toBe(201);
    return res.body.product._id as string;
  };
  const empty = await product('Empty Jar', 5, 0, tablets);
  const syrup = await product('Cough Syrup', 19.99, 6, syrups);
  const vitamin = await product('Vitamin C', 0.1, 9, tablets);
  const bandages = await product('Bandages', 3, 6, tablets);
  const order = async (token: string, productId: string, quantity: number) => {
    const res = await t.call('POST', '/api/order/add', { token, body: { productId, quantity } });
    expect(res.status).toBe(201);
    return res.body.order._id as string;
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
      outOfStock: [],
      highestSaleProduct: { message: expect.stringMatching(/\S/) },
      toReorder: 0,
      lowStock: [],
    });
  });

  it.each(['superAdmin', 'salesRep', 'medicalRep', 'user'] as const)(
    'GET /api/dashboard answers 403 to a %s',
    async (role) => {
      const res = await t.call('GET', '/api/dashboard', { token: t.as[role].token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, error: expect.any(String) });
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
    expect(Object.keys(res.body).sort()).toEqual([
      'highestSaleProduct',
      'lowStock',
      'ordersToday',
      'outOfStock',
      'revenue',
      'success',
      'toReorder',
      'totalProducts',
      'totalStock',
    ]);
    expect(res.body.totalProducts).toBe(4);
    expect(res.body.totalStock).toBe(0 + 3 + 5 + 6);
    // The order moved to two days ago still counts as revenue but not as today's.
    expect(res.body.ordersToday).toBe(2);
    // 3 × 19.99 + 4 × 0.10, summed exactly.
    expect(res.body.revenue).toBe(60.37);
  });

  it('GET /api/dashboard lists out-of-stock products with their category name', async () => {
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    expect(res.body.outOfStock).toEqual([
      { _id: data.empty, name: 'Empty Jar', category: { name: 'Tablets' } },
    ]);
  });

  it('GET /api/dashboard lists low stock as 0 < stock ≤ 5, lowest first', async () => {
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    expect(res.body.lowStock).toEqual([
      { _id: data.syrup, name: 'Cough Syrup', stock: 3, category: { name: 'Syrups' } },
      { _id: data.vitamin, name: 'Vitamin C', stock: 5, category: { name: 'Tablets' } },
    ]);
  });

  it('GET /api/dashboard names the product with the most units sold over all its orders', async () => {
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    expect(res.body.highestSaleProduct).toEqual({ name: 'Vitamin C', category: 'Tablets', totalQuantity: 4 });
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
      expect(res.body.lowStock).toEqual([
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
      expect(res.body.ordersToday).toBe(1);
    });
  },
);
