import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { ORDER_SORTS, Order, OrderListResponse, OrderResponse } from '../../../shared/orders';
import { SaleResponse } from '../../../shared/sales';
import { fixtures, nth } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

describe.each(targets)('orders on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const { stockOf } = fixtures(() => t);

  it('POST /api/order/add takes the stock and answers the order, a one-line sale, with the server price', async () => {
    const { id } = await t.product({ name: 'Bandage', stock: 10, price: 19.99 });
    const rep = t.as.salesRep;
    const res = await t.call('POST', '/api/order/add', {
      token: rep.token,
      body: { productId: id, quantity: 3, total: 0.01, price: 0.01, stock: 999 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      order: {
        _id: expect.any(String),
        location: { _id: expect.any(String), name: 'Main store' },
        user: { _id: rep.id, name: rep.name, address: `${rep.name} street 1` },
        product: { _id: id, name: 'Bandage', category: { name: expect.stringMatching(/^Category /) } },
        quantity: 3,
        unitPrice: 19.99,
        totalPrice: 59.97,
        discount: 0,
        tax: 0,
        taxRate: null,
        netTotal: 59.97,
        returnedTotal: 0,
        orderDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        status: 'placed',
        returnedQuantity: 0,
        sale: { _id: expect.any(String), number: expect.any(Number) },
        customer: null,
        lots: [],
      },
    });
    // The sale's receipt has the one line, sold by the rep, paid "other".
    const receipt = await t.call('GET', `/api/sales/${parsed(res, OrderResponse).order.sale?._id}`, {
      token: rep.token,
    });
    expect(receipt.status).toBe(200);
    expect(parsed(receipt, SaleResponse).sale).toMatchObject({
      number: parsed(res, OrderResponse).order.sale?.number,
      seller: { _id: rep.id, name: rep.name },
      customer: null,
      total: 59.97,
      payment: { method: 'other', tendered: null },
      createdAt: parsed(res, OrderResponse).order.orderDate,
      lines: [
        {
          order: { _id: parsed(res, OrderResponse).order._id },
          product: { _id: id, name: 'Bandage' },
          quantity: 3,
          unitPrice: 19.99,
          total: 59.97,
          returnedQuantity: 0,
        },
      ],
    });
    // A rep does not read costs (costs:read): the order has no unitCost at all.
    expect(parsed(res, OrderResponse).order).not.toHaveProperty('unitCost');
    expect(await stockOf(id)).toBe(7);
    // The stock was taken by the order's sale movement.
    const moved = await t.sql(
      'select kind, quantity, stock_after, user_id from stock_movements where order_id = $1',
      [parsed(res, OrderResponse).order._id],
    );
    expect(moved).toEqual([{ kind: 'sale', quantity: -3, stock_after: 7, user_id: rep.id }]);
  });

  it('every ordering role may order; admin and superAdmin may not', async () => {
    const { id } = await t.product({ stock: 100 });
    for (const role of ['user', 'salesRep', 'medicalRep'] as const) {
      const res = await t.call('POST', '/api/order/add', {
        token: t.as[role].token,
        body: { productId: id, quantity: 1 },
      });
      expect(res.status).toBe(201);
    }
    for (const role of ['admin', 'superAdmin'] as const) {
      const res = await t.call('POST', '/api/order/add', {
        token: t.as[role].token,
        body: { productId: id, quantity: 1 },
      });
      expect(res.status).toBe(403);
    }
    expect(await stockOf(id)).toBe(97);
  });

  it('the order statement refuses, taking no stock, a deleted user, an old token and a role that may not order', async () => {
    const { id } = await t.product({ stock: 10 });
    const order = (token: string) =>
      t.call('POST', '/api/order/add', { token, body: { productId: id, quantity: 1 } });
    const gone = await t.account('user');
    expect((await order(gone.token)).status).toBe(201);
    await t.call('DELETE', `/api/users/${gone.id}`, { token: t.as.superAdmin.token });
    const deleted = await order(gone.token);
    expect(deleted.status).toBe(401);
    expect(deleted.body).toEqual({
      success: false,
      code: 'SIGNED_OUT',
      error: 'Your session is no longer valid; please sign in again.',
    });
    const changed = await t.account('salesRep');
    await t.sql('update users set token_version = token_version + 1 where id = $1', [changed.id]);
    expect((await order(changed.token)).status).toBe(401);
    const promoted = await t.account('medicalRep');
    await t.sql("update users set role = 'admin' where id = $1", [promoted.id]);
    const refused = await order(promoted.token);
    expect(refused.status).toBe(403);
    expect(parsed(refused, ApiError).error).toBe('Your role is not allowed to do that.');
    expect(await stockOf(id)).toBe(9);
    expect(await t.sql('select 1 from orders where product_id = $1', [id])).toHaveLength(1);
  });

  it('POST /api/order/add refuses more than the stock with 409 and leaves the stock unchanged', async () => {
    const { id } = await t.product({ stock: 2 });
    const res = await t.call('POST', '/api/order/add', {
      token: t.as.user.token,
      body: { productId: id, quantity: 3 },
    });
    expect(res.status).toBe(409);
    // DESIGN §17: short at the seller's location, named with the product, and where else it is.
    expect(res.body).toEqual({
      success: false,
      code: 'SHORT_AT_LOCATION',
      error: expect.stringMatching(/^Not enough stock of .* at Main store: 2 left\.$/),
      elsewhere: [],
    });
    expect(await stockOf(id)).toBe(2);
    const [count] = await t.sql<{ n: number }>(
      'select count(*)::int as n from orders where product_id = $1',
      [id],
    );
    expect(count?.n).toBe(0);
  });

  it('an order may take the last unit, and the next one is refused', async () => {
    const { id } = await t.product({ stock: 1 });
    const body = { productId: id, quantity: 1 };
    expect((await t.call('POST', '/api/order/add', { token: t.as.user.token, body })).status).toBe(201);
    expect((await t.call('POST', '/api/order/add', { token: t.as.user.token, body })).status).toBe(409);
    expect(await stockOf(id)).toBe(0);
  });

  it.each([
    ['quantity 0', 0],
    ['quantity 1.5', 1.5],
    ['quantity "2"', '2'],
    ['a negative quantity', -4],
    ['a missing quantity', undefined],
  ])('POST /api/order/add refuses %s with 400', async (_label, quantity) => {
    const { id } = await t.product({ stock: 5 });
    const res = await t.call('POST', '/api/order/add', {
      token: t.as.user.token,
      body: { productId: id, quantity },
    });
    expect(res.status).toBe(400);
    expect(parsed(res, ApiError).success).toBe(false);
    expect(typeof parsed(res, ApiError).error).toBe('string');
    expect(await stockOf(id)).toBe(5);
  });

  it('POST /api/order/add answers 404 for a malformed or unknown product id', async () => {
    for (const productId of ['abc', '00000000-0000-4000-8000-000000000000']) {
      const res = await t.call('POST', '/api/order/add', {
        token: t.as.user.token,
        body: { productId, quantity: 1 },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Product not found.' });
    }
  });

  it('the order keeps its snapshot after the product is renamed, then deleted, and the user deleted', async () => {
    const { id, categoryId, supplierId } = await t.product({ name: 'Original name', stock: 5, price: 2.5 });
    const buyer = await t.account('medicalRep', 'Dr Snapshot');
    const placed = await t.call('POST', '/api/order/add', {
      token: buyer.token,
      body: { productId: id, quantity: 2 },
    });
    expect(placed.status).toBe(201);
    const before = parsed(placed, OrderResponse).order;

    const renamed = await t.call('PUT', `/api/products/${id}`, {
      token: t.as.admin.token,
      body: {
        name: 'New name',
        description: '',
        price: 99,
        stock: 5,
        category: categoryId,
        supplier: supplierId,
      },
    });
    expect(renamed.status).toBe(200);
    const all = async () =>
      parsed(
        await t.call('GET', `/api/order/${t.as.admin.id}`, { token: t.as.admin.token }),
        OrderListResponse,
      ).orders.find((o: { _id: string }) => o._id === before._id);
    expect(await all()).toMatchObject({ product: { name: 'Original name' }, unitPrice: 2.5, totalPrice: 5 });

    expect((await t.call('DELETE', `/api/products/${id}`, { token: t.as.admin.token })).status).toBe(200);
    expect(await all()).toMatchObject({ product: { _id: null, name: 'Original name' }, totalPrice: 5 });

    expect((await t.call('DELETE', `/api/users/${buyer.id}`, { token: t.as.admin.token })).status).toBe(200);
    expect(await all()).toMatchObject({
      user: { _id: null, name: 'Dr Snapshot', address: 'Dr Snapshot street 1' },
      product: { name: 'Original name', category: before.product.category },
      quantity: 2,
      totalPrice: 5,
    });
  });

  it('GET /api/order/:userId gives others only their own orders, newest first, and an admin every order', async () => {
    const { id } = await t.product({ stock: 50 });
    const a = await t.account('user');
    const b = await t.account('salesRep');
    for (const [who, quantity] of [
      [a, 1],
      [b, 2],
      [a, 3],
    ] as const) {
      await t.call('POST', '/api/order/add', { token: who.token, body: { productId: id, quantity } });
    }
    const mine = await t.call('GET', `/api/order/${a.id}`, { token: a.token });
    expect(mine.status).toBe(200);
    expect(parsed(mine, OrderListResponse).orders.map((o) => o.quantity)).toEqual([3, 1]);
    const dates = parsed(mine, OrderListResponse).orders.map((o) => Date.parse(o.orderDate));
    expect(nth(dates, 0)).toBeGreaterThanOrEqual(nth(dates, 1));

    expect((await t.call('GET', `/api/order/${b.id}`, { token: a.token })).status).toBe(403);
    expect((await t.call('GET', '/api/order/not-an-id', { token: a.token })).status).toBe(404);

    const every = await t.call('GET', `/api/order/${t.as.admin.id}`, { token: t.as.admin.token });
    const ours = parsed(every, OrderListResponse).orders.filter((o) => o.product._id === id);
    expect(ours).toHaveLength(3);
    const oneUser = await t.call('GET', `/api/order/${b.id}`, { token: t.as.admin.token });
    expect(parsed(oneUser, OrderListResponse).orders.map((o) => o.user._id)).toEqual([b.id]);
  });

  it('200 concurrent orders against stock 50: exactly 50 succeed, stock ends at 0, 50 order rows', async () => {
    const { id } = await t.product({ stock: 50, price: 1 });
    const buyers = await Promise.all([t.account('user'), t.account('salesRep'), t.account('medicalRep')]);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.call('POST', '/api/order/add', {
          token: buyers[i % buyers.length]?.token,
          body: { productId: id, quantity: 1 },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    const accepted = statuses.filter((s) => s === 201).length;
    const refused = statuses.filter((s) => s === 409).length;
    console.log(`[${target.name}] concurrent orders: ${accepted} accepted, ${refused} refused with 409`);
    expect(accepted).toBe(50);
    expect(refused).toBe(150);
    expect(await stockOf(id)).toBe(0);
    const [rows] = await t.sql<{ n: number; units: number }>(
      'select count(*)::int as n, coalesce(sum(quantity), 0)::int as units from orders where product_id = $1',
      [id],
    );
    expect(rows).toEqual({ n: 50, units: 50 });
  });

  it('the unpaged orders list streams in keyset batches: chunked, held to the schema, the same as a paged walk both ways', async () => {
    const buyer = await t.account('salesRep');
    const { id } = await t.product({ name: 'Streamed order item', stock: 0 });
    // 1,234 orders, seven to each moment to the microsecond, so batches end inside a moment.
    await t.sql(
      `insert into orders (user_id, product_id, quantity, unit_price, unit_cost, total_price, product_name,
                           category_name, user_name, user_address, order_date)
       select $1, $2, 1, 2, 0.75, 2, 'Streamed order item', 'Bulk', $3, '',
              timestamptz '2020-01-01 10:00:00.123456+00' + make_interval(secs => (i / 7) * 0.001001)
       from generate_series(1, 1234) i`,
      [buyer.id, id, buyer.name],
    );
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const get = async (path: string, token: string) => {
      const res = await fetch(`${address}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      return JSON.parse(await res.text());
    };
    for (const sort of ORDER_SORTS) {
      const whole = await get(`/api/order/${buyer.id}?sort=${sort}`, t.as.admin.token);
      expect(OrderListResponse.strict().parse(whole)).toEqual(whole);
      for (const order of whole.orders) expect(Order.strict().parse(order)).toEqual(order);
      expect(whole.total).toBe(1234);
      expect(new Set(whole.orders.map((o: Order) => o._id)).size).toBe(1234);
      const walked: Order[] = [];
      for (let page = 1; walked.length < whole.total; page++) {
        const one = await t.call('GET', `/api/order/${buyer.id}?sort=${sort}&page=${page}&pageSize=100`, {
          token: t.as.admin.token,
        });
        expect(parsed(one, OrderListResponse).orders.length, `${sort} page ${page}`).toBeGreaterThan(0);
        walked.push(...parsed(one, OrderListResponse).orders);
      }
      expect(
        whole.orders.map((o: Order) => o._id),
        sort,
      ).toEqual(walked.map((o) => o._id));
      expect(whole.orders).toEqual(walked);
    }
    // The admin's orders carry their cost; the rep's own list does not (costs:read).
    const own = await get(`/api/order/${buyer.id}`, buyer.token);
    expect(own.total).toBe(1234);
    expect(own.orders.some((o: object) => 'unitCost' in o)).toBe(false);
    expect((await get(`/api/order/${buyer.id}`, t.as.admin.token)).orders[0].unitCost).toBe(0.75);
  });
});
