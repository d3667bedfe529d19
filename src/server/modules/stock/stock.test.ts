import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { DashboardResponse } from '../../../shared/dashboard';
import { OrderListResponse, OrderResponse, ReturnResponse } from '../../../shared/orders';
import { ProductResponse } from '../../../shared/products';
import { MovementListResponse, MovementResponse, StockCheckResponse } from '../../../shared/stock';
import { fixtures, nth, tag } from '../../test/fixtures';
import { type Account, parsed, startApp, type TestApp, targets } from '../../test/harness';

describe.each(targets)('stock ledger on $name', (target) => {
  let t: TestApp;
  let admin: Account;
  beforeAll(async () => {
    t = await startApp(target);
    admin = t.as.admin;
  });
  afterAll(() => t?.close());

  const { stockOf, ledgerOf } = fixtures(() => t);
  const movementsOf = (id: string) =>
    t.sql<{ kind: string; quantity: number; stock_after: number; reason: string | null; note: string }>(
      'select kind, quantity, stock_after, reason, note from stock_movements where product_id = $1 order by at, id',
      [id],
    );
  const order = (token: string, productId: string, quantity: number, key?: string) =>
    t.call('POST', '/api/order/add', {
      token,
      body: { productId, quantity },
      headers: key ? { 'idempotency-key': key } : {},
    });

  describe('every stock change is a movement', () => {
    it('a product created through the API gets an initial movement naming who created it', async () => {
      const { categoryId, supplierId } = await t.product();
      const res = await t.call('POST', '/api/products/add', {
        token: admin.token,
        body: { name: `Ledger ${tag()}`, price: 2, stock: 12, category: categoryId, supplier: supplierId },
      });
      expect(res.status).toBe(201);
      const id = parsed(res, ProductResponse).product._id;
      expect(parsed(res, ProductResponse).product.stock).toBe(12);
      const rows = await t.sql(
        'select kind, quantity, stock_after, user_id from stock_movements where product_id = $1',
        [id],
      );
      expect(rows).toEqual([{ kind: 'initial', quantity: 12, stock_after: 12, user_id: admin.id }]);
    });

    it('the database refuses to change stock any other way, and to change or remove a movement', async () => {
      const { id } = await t.product({ stock: 5 });
      await expect(t.sql('update products set stock = 50 where id = $1', [id])).rejects.toThrow(
        /only through stock movements/,
      );
      await expect(
        t.sql('update stock_movements set quantity = 50 where product_id = $1', [id]),
      ).rejects.toThrow(/append-only/);
      await expect(t.sql('delete from stock_movements where product_id = $1', [id])).rejects.toThrow(
        /append-only/,
      );
      await expect(t.sql('truncate stock_movements')).rejects.toThrow(/append-only/);
      expect(await stockOf(id)).toBe(5);
      expect(await ledgerOf(id)).toBe(5);
      // Other fields still change as usual.
      await t.sql("update products set name = 'Renamed directly' where id = $1", [id]);
    });

    it('deleting a product keeps its movements, the stock it still held written off first', async () => {
      const { id } = await t.product({ stock: 4 });
      await order(t.as.user.token, id, 1);
      expect((await t.call('DELETE', `/api/products/${id}`, { token: admin.token })).status).toBe(200);
      const kept = await movementsOf(id);
      expect(kept.map((m) => [m.kind, m.quantity])).toEqual([
        ['initial', 4],
        ['sale', -1],
        ['adjustment', -3],
      ]);
      expect(kept.at(-1)).toMatchObject({
        reason: 'correction',
        note: 'Written off: the product was deleted',
      });
    });
  });

  describe('POST /api/products/:id/adjust', () => {
    it('adds or takes a signed quantity with its reason and note, and answers the product and the movement', async () => {
      const { id } = await t.product({ stock: 10 });
      const res = await t.call('POST', `/api/products/${id}/adjust`, {
        token: admin.token,
        body: { quantity: -3, reason: 'damaged', note: 'Dropped a box' },
      });
      expect(res.status).toBe(200);
      const body = MovementResponse.strict().parse(res.body);
      expect(body.product.stock).toBe(7);
      expect(body.movement).toMatchObject({
        kind: 'adjustment',
        quantity: -3,
        stockAfter: 7,
        reason: 'damaged',
        note: 'Dropped a box',
        user: { _id: admin.id, name: admin.name },
      });
      const up = await t.call('POST', `/api/products/${id}/adjust`, {
        token: admin.token,
        body: { quantity: 20, reason: 'received' },
      });
      expect(parsed(up, MovementResponse).movement.stockAfter).toBe(27);
      expect(await stockOf(id)).toBe(27);
      expect(await ledgerOf(id)).toBe(27);
      // Each is in the activity log, in the same transaction.
      const entries = await t.sql<{ action: string; changes: unknown }>(
        "select action, changes from audit_log where entity_id = $1 and action = 'stockAdjusted' order by at, id",
        [id],
      );
      expect(entries).toEqual([
        {
          action: 'stockAdjusted',
          changes: [
            { field: 'stock', old: 10, new: 7 },
            { field: 'location', new: 'Main store' },
            { field: 'reason', new: 'damaged' },
            { field: 'note', new: 'Dropped a box' },
          ],
        },
        {
          action: 'stockAdjusted',
          changes: [
            { field: 'stock', old: 7, new: 27 },
            { field: 'location', new: 'Main store' },
            { field: 'reason', new: 'received' },
          ],
        },
      ]);
    });

    it('refuses going below zero with 409 naming the product and the location, and writes nothing', async () => {
      const { id } = await t.product({ stock: 2 });
      const res = await t.call('POST', `/api/products/${id}/adjust`, {
        token: admin.token,
        body: { quantity: -3, reason: 'lost' },
      });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        success: false,
        code: 'SHORT_AT_LOCATION',
        error: expect.stringMatching(/^Not enough stock of .+ at Main store: 2 left\.$/),
        elsewhere: [],
      });
      expect(await movementsOf(id)).toHaveLength(1);
      expect(await stockOf(id)).toBe(2);
    });

    it.each([
      ['a zero quantity', { quantity: 0, reason: 'found' }],
      ['a fraction', { quantity: 1.5, reason: 'found' }],
      ['more than a million', { quantity: 1_000_001, reason: 'found' }],
      ['an unknown reason', { quantity: 1, reason: 'stolen' }],
      ['no reason', { quantity: 1 }],
      ['a 501-character note', { quantity: 1, reason: 'found', note: 'n'.repeat(501) }],
    ])('refuses %s with 400', async (_label, body) => {
      const { id } = await t.product({ stock: 2 });
      const res = await t.call('POST', `/api/products/${id}/adjust`, { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(await movementsOf(id)).toHaveLength(1);
    });

    it('answers 404 for an unknown or malformed product', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
        const res = await t.call('POST', `/api/products/${id}/adjust`, {
          token: admin.token,
          body: { quantity: 1, reason: 'found' },
        });
        expect(res.status).toBe(404);
      }
    });
  });

  describe('POST /api/products/:id/count', () => {
    it('sets the stock to what was counted as a movement of the difference, a zero difference too', async () => {
      const { id } = await t.product({ stock: 10 });
      const res = await t.call('POST', `/api/products/${id}/count`, {
        token: admin.token,
        body: { counted: 7, note: 'Shelf count' },
      });
      expect(res.status).toBe(200);
      expect(parsed(res, MovementResponse).movement).toMatchObject({
        kind: 'count',
        quantity: -3,
        stockAfter: 7,
        note: 'Shelf count',
      });
      const same = await t.call('POST', `/api/products/${id}/count`, {
        token: admin.token,
        body: { counted: 7 },
      });
      expect(parsed(same, MovementResponse).movement).toMatchObject({
        kind: 'count',
        quantity: 0,
        stockAfter: 7,
      });
      expect(await ledgerOf(id)).toBe(7);
      expect((await movementsOf(id)).map((m) => m.quantity)).toEqual([10, -3, 0]);
    });

    it('refuses a negative count with 400', async () => {
      const { id } = await t.product({ stock: 1 });
      const res = await t.call('POST', `/api/products/${id}/count`, {
        token: admin.token,
        body: { counted: -1 },
      });
      expect(res.status).toBe(400);
    });
  });

  describe('GET /api/products/:id/movements', () => {
    it('pages a product’s movements newest first, with the order of each sale and its receipt number', async () => {
      const { id } = await t.product({ stock: 30 });
      const placed = [];
      for (let i = 0; i < 3; i++)
        placed.push(parsed(await order(t.as.salesRep.token, id, i + 1), OrderResponse).order);
      await t.call('POST', `/api/products/${id}/adjust`, {
        token: admin.token,
        body: { quantity: 2, reason: 'found' },
      });
      const first = await t.call('GET', `/api/products/${id}/movements?page=1&pageSize=3`, {
        token: admin.token,
      });
      expect(first.status).toBe(200);
      const page = MovementListResponse.strict().parse(first.body);
      expect(page.total).toBe(5);
      expect(page.movements.map((m) => [m.kind, m.quantity, m.stockAfter])).toEqual([
        ['adjustment', 2, 26],
        ['sale', -3, 24],
        ['sale', -2, 27],
      ]);
      expect(page.movements[1]?.order).toEqual({ _id: nth(placed, 2)._id, sale: nth(placed, 2).sale });
      expect(nth(placed, 2).sale).toEqual({ _id: expect.any(String), number: expect.any(Number) });
      expect(page.movements[1]?.user).toEqual({ _id: t.as.salesRep.id, name: t.as.salesRep.name });
      const second = await t.call('GET', `/api/products/${id}/movements?page=2&pageSize=3`, {
        token: admin.token,
      });
      expect(parsed(second, MovementListResponse).movements.map((m) => m.kind)).toEqual(['sale', 'initial']);
    });

    it('answers 404 for a product that never existed, and only admins may read it', async () => {
      const res = await t.call('GET', '/api/products/00000000-0000-4000-8000-000000000000/movements', {
        token: admin.token,
      });
      expect(res.status).toBe(404);
      const { id } = await t.product();
      expect((await t.call('GET', `/api/products/${id}/movements`, { token: t.as.user.token })).status).toBe(
        403,
      );
    });
  });

  describe('GET /api/stock/check', () => {
    it('finds every product agreeing with its history, and names one that does not', async () => {
      const res = await t.call('GET', '/api/stock/check', { token: admin.token });
      expect(res.status).toBe(200);
      const body = StockCheckResponse.strict().parse(res.body);
      const [products] = await t.sql<{ n: number }>('select count(*)::int as n from products');
      expect(body.checked).toBe(products?.n);
      expect(body.mismatches).toEqual([]);

      // A change made behind the ledger's back (its guard switched off) is found.
      const { id } = await t.product({ name: `Tampered ${tag()}`, stock: 5 });
      await t.sql('alter table products disable trigger products_stock_from_ledger');
      try {
        await t.sql('update products set stock = 9 where id = $1', [id]);
      } finally {
        await t.sql('alter table products enable trigger products_stock_from_ledger');
      }
      const after = await t.call('GET', '/api/stock/check', { token: admin.token });
      expect(parsed(after, StockCheckResponse).mismatches).toEqual([
        {
          product: { _id: id, name: expect.stringMatching(/^Tampered /) },
          stock: 9,
          ledger: 5,
          locations: 5,
        },
      ]);
      await t.sql('alter table products disable trigger products_stock_from_ledger');
      try {
        await t.sql('update products set stock = 5 where id = $1', [id]);
      } finally {
        await t.sql('alter table products enable trigger products_stock_from_ledger');
      }
    });
  });

  describe('PUT /api/products/:id with expectedStock', () => {
    const edit = async (id: string, change: Record<string, unknown>) => {
      const [row] = await t.sql<{ name: string; category_id: string; supplier_id: string; price: string }>(
        'select name, category_id, supplier_id, price from products where id = $1',
        [id],
      );
      return t.call('PUT', `/api/products/${id}`, {
        token: admin.token,
        body: {
          name: row?.name,
          price: Number(row?.price),
          category: row?.category_id,
          supplier: row?.supplier_id,
          ...change,
        },
      });
    };

    it('a form opened before three sales saves its price without bringing the sold units back', async () => {
      const { id } = await t.product({ stock: 50 });
      for (let i = 0; i < 3; i++) await order(t.as.user.token, id, 1);
      const res = await edit(id, { price: 12.5, stock: 50, expectedStock: 50 });
      expect(res.status).toBe(200);
      expect(parsed(res, ProductResponse).product).toMatchObject({ price: 12.5, stock: 47 });
      expect(await ledgerOf(id)).toBe(47);
    });

    it('a stock changed in a form whose stock moved meanwhile is refused with 409, and nothing is saved', async () => {
      const { id } = await t.product({ stock: 50, price: 3 });
      await order(t.as.user.token, id, 4);
      const res = await edit(id, { price: 9, stock: 60, expectedStock: 50 });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        success: false,
        code: 'STOCK_CHANGED',
        error: 'Stock changed from 50 to 46 while you were editing',
        stock: 46,
      });
      expect(await stockOf(id)).toBe(46);
      const [row] = await t.sql<{ price: string }>('select price from products where id = $1', [id]);
      expect(row?.price).toBe('3.00');
    });

    it('a stock changed in a form whose stock did not move is a count movement', async () => {
      const { id } = await t.product({ stock: 20 });
      const res = await edit(id, { stock: 25, expectedStock: 20 });
      expect(res.status).toBe(200);
      expect(parsed(res, ProductResponse).product.stock).toBe(25);
      expect((await movementsOf(id)).at(-1)).toMatchObject({ kind: 'count', quantity: 5, stock_after: 25 });
    });

    it('without expectedStock a different stock is a count movement, and the same stock none', async () => {
      const { id } = await t.product({ stock: 8 });
      expect((await edit(id, { stock: 8 })).status).toBe(200);
      expect(await movementsOf(id)).toHaveLength(1);
      expect(parsed(await edit(id, { stock: 3 }), ProductResponse).product.stock).toBe(3);
      expect((await movementsOf(id)).at(-1)).toMatchObject({ kind: 'count', quantity: -5 });
    });
  });

  describe('POST /api/order/:id/return', () => {
    it('takes units back to stock, grows returnedQuantity, and marks the order returned when all came back', async () => {
      const { id } = await t.product({ stock: 10, price: 4 });
      const placed = parsed(await order(t.as.medicalRep.token, id, 3), OrderResponse).order;
      const part = await t.call('POST', `/api/order/${placed._id}/return`, {
        token: admin.token,
        body: { quantity: 2, reason: 'Wrong size' },
      });
      expect(part.status).toBe(200);
      expect(parsed(part, ReturnResponse).order).toMatchObject({
        _id: placed._id,
        status: 'placed',
        returnedQuantity: 2,
        quantity: 3,
      });
      expect(await stockOf(id)).toBe(9);
      expect((await movementsOf(id)).at(-1)).toMatchObject({
        kind: 'return',
        quantity: 2,
        stock_after: 9,
        reason: 'returned',
        note: 'Wrong size',
      });
      const rest = await t.call('POST', `/api/order/${placed._id}/return`, {
        token: admin.token,
        body: { quantity: 1 },
      });
      expect(parsed(rest, ReturnResponse).order).toMatchObject({ status: 'returned', returnedQuantity: 3 });
      const more = await t.call('POST', `/api/order/${placed._id}/return`, {
        token: admin.token,
        body: { quantity: 1 },
      });
      expect(more.status).toBe(409);
      expect(parsed(more, ApiError).error).toBe('Every unit of this order was already returned.');
      expect(await stockOf(id)).toBe(10);
      // The orders list shows it.
      const list = await t.call('GET', `/api/order/${t.as.medicalRep.id}`, { token: t.as.medicalRep.token });
      expect(parsed(list, OrderListResponse).orders.find((o) => o._id === placed._id)).toMatchObject({
        status: 'returned',
        returnedQuantity: 3,
      });
    });

    it('refuses more than remains with 409 naming what remains, an unknown order with 404, and non-admins with 403', async () => {
      const { id } = await t.product({ stock: 10 });
      const placed = parsed(await order(t.as.user.token, id, 2), OrderResponse).order;
      const res = await t.call('POST', `/api/order/${placed._id}/return`, {
        token: admin.token,
        body: { quantity: 3 },
      });
      expect(res.status).toBe(409);
      expect(parsed(res, ApiError).error).toBe('Only 2 of this order can still be returned.');
      expect(
        (
          await t.call('POST', '/api/order/00000000-0000-4000-8000-000000000000/return', {
            token: admin.token,
            body: { quantity: 1 },
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await t.call('POST', `/api/order/${placed._id}/return`, {
            token: t.as.user.token,
            body: { quantity: 1 },
          })
        ).status,
      ).toBe(403);
      expect(await stockOf(id)).toBe(8);
    });

    it('the dashboard counts revenue and the best seller net of returns, and orders today as placed', async () => {
      const fresh = await startApp(target);
      try {
        const { id } = await fresh.product({ name: 'Net seller', stock: 20, price: 2.5 });
        const { id: other } = await fresh.product({ name: 'Steady seller', stock: 20, price: 1 });
        const a = parsed(
          await fresh.call('POST', '/api/order/add', {
            token: fresh.as.user.token,
            body: { productId: id, quantity: 6 },
          }),
          OrderResponse,
        ).order;
        await fresh.call('POST', '/api/order/add', {
          token: fresh.as.user.token,
          body: { productId: other, quantity: 4 },
        });
        await fresh.call('POST', `/api/order/${a._id}/return`, {
          token: fresh.as.admin.token,
          body: { quantity: 3 },
        });
        const dash = parsed(
          await fresh.call('GET', '/api/dashboard', { token: fresh.as.admin.token }),
          DashboardResponse,
        );
        expect(dash.revenue).toBe(3 * 2.5 + 4);
        expect(dash.ordersToday).toBe(2);
        expect(dash.highestSaleProduct).toMatchObject({ name: 'Steady seller', totalQuantity: 4 });
        expect(dash.totalStock).toBe(20 - 3 + 20 - 4);
      } finally {
        await fresh.close();
      }
    });

    it('parallel returns never give back more than was sold', async () => {
      const { id } = await t.product({ stock: 10 });
      const placed = parsed(await order(t.as.user.token, id, 5), OrderResponse).order;
      const results = await Promise.all(
        Array.from({ length: 12 }, () =>
          t.call('POST', `/api/order/${placed._id}/return`, { token: admin.token, body: { quantity: 1 } }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(5);
      expect(results.filter((r) => r.status === 409)).toHaveLength(7);
      expect(await stockOf(id)).toBe(10);
      expect(await ledgerOf(id)).toBe(10);
    });
  });

  describe('Idempotency-Key', () => {
    it('the same key twice places one order and answers the first answer again', async () => {
      const { id } = await t.product({ stock: 10 });
      const key = `order-${tag()}`;
      const first = await order(t.as.user.token, id, 2, key);
      const again = await order(t.as.user.token, id, 2, key);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(await stockOf(id)).toBe(8);
      expect(await t.sql('select 1 from orders where product_id = $1', [id])).toHaveLength(1);
    });

    it('parallel retries with one key place one order', async () => {
      const { id } = await t.product({ stock: 100 });
      const key = `burst-${tag()}`;
      const results = await Promise.all(
        Array.from({ length: 10 }, () => order(t.as.salesRep.token, id, 1, key)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
      expect(new Set(results.map((r) => parsed(r, OrderResponse).order._id)).size).toBe(1);
      expect(await stockOf(id)).toBe(99);
    });

    it('a refusal is replayed too, and a key reused for a different request is a 409', async () => {
      const { id } = await t.product({ stock: 1 });
      const key = `refused-${tag()}`;
      const refused = await order(t.as.user.token, id, 5, key);
      expect(refused.status).toBe(409);
      const again = await order(t.as.user.token, id, 5, key);
      expect(again.status).toBe(409);
      expect(again.body).toEqual(refused.body);
      const other = await order(t.as.user.token, id, 1, key);
      expect(other.status).toBe(409);
      expect(parsed(other, ApiError).error).toBe(
        'This Idempotency-Key was already used for a different request.',
      );
      expect(await stockOf(id)).toBe(1);
    });

    it('keys belong to their user, and a bad key is a 400', async () => {
      const { id } = await t.product({ stock: 10 });
      const key = `shared-${tag()}`;
      expect((await order(t.as.user.token, id, 1, key)).status).toBe(201);
      expect((await order(t.as.salesRep.token, id, 1, key)).status).toBe(201);
      expect(await stockOf(id)).toBe(8);
      for (const bad of ['has space', 'x'.repeat(201), 'é']) {
        const res = await order(t.as.user.token, id, 1, bad);
        expect(res.status, bad).toBe(400);
      }
      expect(await stockOf(id)).toBe(8);
    });

    it('adjustments, counts and returns happen once per key', async () => {
      const { id } = await t.product({ stock: 10 });
      const adjust = () =>
        t.call('POST', `/api/products/${id}/adjust`, {
          token: admin.token,
          body: { quantity: 5, reason: 'received' },
          headers: { 'idempotency-key': `adjust-${id}` },
        });
      expect(parsed(await adjust(), MovementResponse).movement.stockAfter).toBe(15);
      expect(parsed(await adjust(), MovementResponse).movement.stockAfter).toBe(15);
      const count = () =>
        t.call('POST', `/api/products/${id}/count`, {
          token: admin.token,
          body: { counted: 12 },
          headers: { 'idempotency-key': `count-${id}` },
        });
      const [c1, c2] = [await count(), await count()];
      expect(c2.body).toEqual(c1.body);
      const placed = parsed(await order(t.as.user.token, id, 4), OrderResponse).order;
      const give = () =>
        t.call('POST', `/api/order/${placed._id}/return`, {
          token: admin.token,
          body: { quantity: 1 },
          headers: { 'idempotency-key': `return-${placed._id}` },
        });
      await Promise.all([give(), give(), give()]);
      expect(await stockOf(id)).toBe(9);
      expect((await movementsOf(id)).map((m) => m.kind)).toEqual([
        'initial',
        'adjustment',
        'count',
        'sale',
        'return',
      ]);
    });
  });

  it('200 concurrent orders, adjustments, counts and returns on one product end with stock = sum of movements ≥ 0', async () => {
    const { id } = await t.product({ stock: 40 });
    const placedIds: string[] = [];
    for (let i = 0; i < 10; i++)
      placedIds.push(parsed(await order(t.as.user.token, id, 1), OrderResponse).order._id);
    const tokens = [t.as.user.token, t.as.salesRep.token, t.as.medicalRep.token];
    const ops = Array.from({ length: 200 }, (_, i) => {
      switch (i % 5) {
        case 0:
        case 1:
          return order(tokens[i % 3] as string, id, 1 + (i % 3));
        case 2:
          return t.call('POST', `/api/products/${id}/adjust`, {
            token: admin.token,
            body: { quantity: i % 2 === 0 ? 3 : -4, reason: i % 2 === 0 ? 'found' : 'damaged' },
          });
        case 3:
          return i % 20 === 3
            ? t.call('POST', `/api/products/${id}/count`, { token: admin.token, body: { counted: 25 } })
            : order(tokens[i % 3] as string, id, 2);
        default:
          return t.call('POST', `/api/order/${placedIds[i % 10]}/return`, {
            token: admin.token,
            body: { quantity: 1 },
          });
      }
    });
    const results = await Promise.all(ops);
    const statuses = results.map((r) => r.status);
    expect(
      statuses.every((s) => s === 200 || s === 201 || s === 409),
      JSON.stringify(statuses),
    ).toBe(true);
    const stock = await stockOf(id);
    expect(stock).toBeGreaterThanOrEqual(0);
    expect(stock).toBe(await ledgerOf(id));
    const [last] = await t.sql<{ stock_after: number }>(
      'select stock_after from stock_movements where product_id = $1 order by at desc, id desc limit 1',
      [id],
    );
    const returned = await t.sql<{ n: number }>(
      'select coalesce(sum(returned_quantity), 0)::int as n from orders where id = any($1::uuid[])',
      [placedIds],
    );
    expect(returned[0]?.n).toBeLessThanOrEqual(10);
    console.log(
      `[${target.name}] 200 mixed operations: ${statuses.filter((s) => s < 300).length} done, ${statuses.filter((s) => s === 409).length} refused with 409; stock ${stock} = sum of movements; last stock after ${last?.stock_after}`,
    );
  });
});
