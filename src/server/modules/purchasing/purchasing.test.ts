import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { DashboardResponse } from '../../../shared/dashboard';
import { OrderResponse } from '../../../shared/orders';
import { ProductResponse } from '../../../shared/products';
import {
  DraftPurchaseOrdersResponse,
  PurchaseOrderListResponse,
  PurchaseOrderResponse,
  ReorderSuggestionsResponse,
} from '../../../shared/purchasing';
import { MovementListResponse } from '../../../shared/stock';
import { setLowStockThreshold } from '../../db/low-stock-threshold';
import { nth, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

type Item = {
  stock?: number;
  reorderPoint?: number | null;
  reorderQuantity?: number | null;
  cost?: string | null;
};

describe.each(targets)('purchasing on $name', (target) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    // The store's threshold is 5 (testConfig).
    t = await startApp(target);
    admin = t.as.admin.token;
  });
  afterAll(() => t?.close());

  const newSupplier = async () =>
    (
      await t.sql<{ id: string }>('insert into suppliers (name) values ($1) returning id', [
        `Supplier ${tag()}`,
      ])
    )[0]?.id as string;

  /** A product of `supplier` (a new one when not given) with its reorder settings and cost set. */
  const item = async (values: Item & { supplier?: string; name?: string } = {}) => {
    const made = await t.product({ stock: values.stock ?? 10, name: values.name ?? `Item ${tag()}` });
    const supplier = values.supplier ?? made.supplierId;
    await t.sql(
      'update products set supplier_id = $2, reorder_point = $3, reorder_quantity = $4 where id = $1',
      [made.id, supplier, values.reorderPoint ?? null, values.reorderQuantity ?? null],
    );
    if (values.cost) await t.setCost(made.id, Number(values.cost));
    return { id: made.id, supplier, categoryId: made.categoryId };
  };
  const product = async (id: string) =>
    (
      await t.sql<{ stock: number; cost: string | null }>(
        'select stock, cost::text as cost from products where id = $1',
        [id],
      )
    )[0];
  const ledgerHolds = async () =>
    (
      await t.sql<{ n: number }>(`
        select count(*)::int as n from products p
        left join (select product_id, sum(quantity) as total from stock_movements group by product_id) l
          on l.product_id = p.id
        where p.stock <> coalesce(l.total, 0)`)
    )[0]?.n === 0;

  /** Products whose kept on order differs from a recount of open purchase order lines. */
  const onOrderDrift = () =>
    t.sql(`
      select s.product_id from product_stock s
      left join (select l.product_id, sum(l.quantity - l.received)::int as units
                 from purchase_order_lines l join purchase_orders o on o.id = l.purchase_order_id
                 where o.status in ('ordered', 'partially_received') group by l.product_id) l
        on l.product_id = s.product_id
      where s.on_order <> coalesce(l.units, 0)`);

  const create = (body: unknown, headers: Record<string, string> = {}) =>
    t.call('POST', '/api/purchase-orders', { token: admin, body, headers });
  const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
    t.call('POST', path, { token: admin, body, headers });

  /** An ordered purchase order of `lines` [product, quantity, unit cost] from `supplier`. */
  const ordered = async (supplier: string, lines: Array<[string, number, number]>) => {
    const res = await create({
      supplier,
      lines: lines.map(([product, quantity, unitCost]) => ({ product, quantity, unitCost })),
    });
    expect(res.status).toBe(201);
    const id = parsed(res, PurchaseOrderResponse).purchaseOrder._id as string;
    expect((await post(`/api/purchase-orders/${id}/order`)).status).toBe(200);
    return parsed(res, PurchaseOrderResponse).purchaseOrder as PurchaseOrderResponse['purchaseOrder'];
  };

  describe('products carry cost and reorder settings', () => {
    it('POST and PUT /api/products keep cost, reorder point and quantity; left out, an edit keeps them', async () => {
      const { categoryId, supplier } = await item();
      const base = { name: `Costed ${tag()}`, price: 5, stock: 8, category: categoryId, supplier };
      const added = await t.call('POST', '/api/products/add', {
        token: admin,
        body: { ...base, cost: 2.35, reorderPoint: 12, reorderQuantity: 30 },
      });
      expect(added.status).toBe(201);
      expect(parsed(added, ProductResponse).product).toMatchObject({
        cost: 2.35,
        reorderPoint: 12,
        reorderPointFromStore: false,
        reorderQuantity: 30,
      });
      const id = parsed(added, ProductResponse).product._id;
      // An old client that does not send them leaves them alone.
      const kept = await t.call('PUT', `/api/products/${id}`, { token: admin, body: { ...base, price: 6 } });
      expect(parsed(kept, ProductResponse).product).toMatchObject({
        price: 6,
        cost: 2.35,
        reorderPoint: 12,
        reorderQuantity: 30,
      });
      // null clears them: the store's reorder point (5) is then in force.
      const cleared = await t.call('PUT', `/api/products/${id}`, {
        token: admin,
        body: { ...base, cost: null, reorderPoint: null, reorderQuantity: null },
      });
      expect(parsed(cleared, ProductResponse).product).toMatchObject({
        cost: null,
        reorderPoint: 5,
        reorderPointFromStore: true,
        reorderQuantity: null,
      });
    });

    it.each([
      [{ cost: -1 }, 'Unit cost must be 0 or more.'],
      [{ cost: 1.234 }, 'Unit cost must have at most 2 decimals.'],
      [{ reorderPoint: -1 }, 'Reorder point must be 0 or more.'],
      [{ reorderPoint: 2.5 }, 'Reorder point must be a whole number.'],
      [{ reorderQuantity: 0 }, 'Reorder quantity must be at least 1.'],
    ])('POST /api/products/add refuses %o with 400 and stores nothing', async (extra, message) => {
      const { categoryId, supplier } = await item();
      const name = `Refused ${tag()}`;
      const res = await t.call('POST', '/api/products/add', {
        token: admin,
        body: { name, price: 5, stock: 8, category: categoryId, supplier, ...extra },
      });
      expect(res.status).toBe(400);
      expect(parsed(res, ApiError).error).toContain(message);
      expect(await t.sql('select 1 from products where name = $1', [name])).toEqual([]);
    });

    it('low stock on the dashboard follows each product’s own reorder point, and the store’s for the rest', async () => {
      const own = await item({ stock: 15, reorderPoint: 20 });
      const under = await item({ stock: 3, reorderPoint: 2 });
      const store = await item({ stock: 4 });
      const above = await item({ stock: 6 });
      const res = await t.call('GET', '/api/dashboard', { token: admin });
      const body = DashboardResponse.parse(res.body);
      const low = new Set(body.lowStock.map((row) => row._id));
      expect(low.has(own.id)).toBe(true);
      expect(low.has(store.id)).toBe(true);
      expect(low.has(under.id)).toBe(false);
      expect(low.has(above.id)).toBe(false);
      // The list is in stock order.
      const stocks = body.lowStock.map((row) => row.stock);
      expect(stocks).toEqual([...stocks].sort((a, b) => a - b));
      const listed = await t.call('GET', `/api/products/${own.id}`, { token: admin });
      expect(parsed(listed, ProductResponse).product).toMatchObject({
        stock: 15,
        reorderPoint: 20,
        reorderPointFromStore: false,
      });
    });

    it('an order keeps the product’s cost at the moment of sale', async () => {
      const { id } = await item({ stock: 10, cost: '1.40' });
      const sold = await t.call('POST', '/api/order/add', {
        token: t.as.salesRep.token,
        body: { productId: id, quantity: 2 },
      });
      expect(sold.status).toBe(201);
      // The rep's answer carries no cost (costs:read is the admin's); the order keeps it.
      expect(parsed(sold, OrderResponse).order).not.toHaveProperty('unitCost');
      await t.sql('update products set cost = 9 where id = $1', [id]);
      const [row] = await t.sql<{ unit_cost: string }>('select unit_cost::text from orders where id = $1', [
        parsed(sold, OrderResponse).order._id,
      ]);
      expect(row?.unit_cost).toBe('1.40');
    });
  });

  describe('purchase orders', () => {
    it('POST /api/purchase-orders drafts one with a human number, increasing, and an exact total', async () => {
      const a = await item({ cost: '0.10' });
      const b = await item({ supplier: a.supplier });
      const first = await create({
        supplier: a.supplier,
        lines: [
          { product: a.id, quantity: 3, unitCost: 0.1 },
          { product: b.id, quantity: 1, unitCost: 0.2 },
        ],
        note: 'Before Friday',
      });
      expect(first.status).toBe(201);
      const order = PurchaseOrderResponse.parse(first.body).purchaseOrder;
      expect(order).toMatchObject({
        status: 'draft',
        note: 'Before Friday',
        total: 0.5,
        orderedAt: null,
        receivedAt: null,
        supplier: { _id: a.supplier },
      });
      expect(order.number).toMatch(/^PO-\d{6,}$/);
      expect(
        order.lines.map((line) => [line.product._id, line.quantity, line.received, line.unitCost]),
      ).toEqual([
        [a.id, 3, 0, 0.1],
        [b.id, 1, 0, 0.2],
      ]);
      const second = await create({
        supplier: a.supplier,
        lines: [{ product: a.id, quantity: 1, unitCost: 1 }],
      });
      expect(Number(parsed(second, PurchaseOrderResponse).purchaseOrder.number.slice(3))).toBeGreaterThan(
        Number(order.number.slice(3)),
      );
      const read = await t.call('GET', `/api/purchase-orders/${order._id}`, { token: admin });
      expect(parsed(read, PurchaseOrderResponse).purchaseOrder).toEqual(order);
    });

    it('numbers stay unique when many purchase orders are drafted at once', async () => {
      const a = await item();
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          create({ supplier: a.supplier, lines: [{ product: a.id, quantity: 1, unitCost: 1 }] }),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(12).fill(201));
      const numbers = answers.map((res) => parsed(res, PurchaseOrderResponse).purchaseOrder.number);
      expect(new Set(numbers).size).toBe(12);
    });

    it.each([
      ['an unknown supplier', 'supplier', 'Choose an existing supplier.'],
      ['an unknown product', 'product', 'Choose existing products for every line.'],
      ['a product twice', 'twice', 'Each product may appear once on a purchase order.'],
      ['no lines', 'empty', 'Add at least one line.'],
      ['a negative unit cost', 'cost', 'Unit cost must be 0 or more.'],
    ])('POST /api/purchase-orders refuses %s with 400 and stores nothing', async (_label, kind, message) => {
      const a = await item();
      const before = (await t.sql<{ n: number }>('select count(*)::int as n from purchase_orders'))[0]?.n;
      const line = { product: a.id, quantity: 2, unitCost: 1 };
      const body = {
        supplier: kind === 'supplier' ? '00000000-0000-4000-8000-000000000000' : a.supplier,
        lines:
          kind === 'product'
            ? [{ ...line, product: '00000000-0000-4000-8000-000000000000' }]
            : kind === 'twice'
              ? [line, line]
              : kind === 'empty'
                ? []
                : kind === 'cost'
                  ? [{ ...line, unitCost: -1 }]
                  : [line],
      };
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(parsed(res, ApiError).error).toContain(message);
      expect((await t.sql<{ n: number }>('select count(*)::int as n from purchase_orders'))[0]?.n).toBe(
        before,
      );
    });

    it('PUT changes a draft only; ordering moves it on once; a cancelled one cannot be ordered', async () => {
      const a = await item();
      const b = await item({ supplier: a.supplier });
      const draft = parsed(
        await create({ supplier: a.supplier, lines: [{ product: a.id, quantity: 2, unitCost: 1 }] }),
        PurchaseOrderResponse,
      ).purchaseOrder;
      const changed = await t.call('PUT', `/api/purchase-orders/${draft._id}`, {
        token: admin,
        body: {
          supplier: a.supplier,
          lines: [{ product: b.id, quantity: 7, unitCost: 1.25 }],
          note: 'changed',
        },
      });
      expect(changed.status).toBe(200);
      expect(parsed(changed, PurchaseOrderResponse).purchaseOrder).toMatchObject({
        number: draft.number,
        note: 'changed',
        total: 8.75,
      });
      expect(parsed(changed, PurchaseOrderResponse).purchaseOrder.lines).toHaveLength(1);
      const orderedRes = await post(`/api/purchase-orders/${draft._id}/order`);
      expect(parsed(orderedRes, PurchaseOrderResponse).purchaseOrder).toMatchObject({
        status: 'ordered',
        orderedAt: expect.any(String),
      });
      const again = await post(`/api/purchase-orders/${draft._id}/order`);
      expect(again.status).toBe(409);
      expect(parsed(again, ApiError).error).toBe(
        `${draft.number} is ordered; only a draft can be marked ordered.`,
      );
      const late = await t.call('PUT', `/api/purchase-orders/${draft._id}`, {
        token: admin,
        body: { supplier: a.supplier, lines: [{ product: a.id, quantity: 1, unitCost: 1 }] },
      });
      expect(late.status).toBe(409);
      expect(parsed(late, ApiError).error).toBe(`${draft.number} is ordered; only a draft can be changed.`);
      const other = parsed(
        await create({ supplier: a.supplier, lines: [{ product: a.id, quantity: 1, unitCost: 1 }] }),
        PurchaseOrderResponse,
      ).purchaseOrder;
      expect(
        parsed(await post(`/api/purchase-orders/${other._id}/cancel`), PurchaseOrderResponse).purchaseOrder
          .status,
      ).toBe('cancelled');
      expect((await post(`/api/purchase-orders/${other._id}/order`)).status).toBe(409);
      expect((await t.call('GET', '/api/purchase-orders/nope', { token: admin })).status).toBe(404);
      expect((await post('/api/purchase-orders/00000000-0000-4000-8000-000000000000/order')).status).toBe(
        404,
      );
    });

    it('receiving adds stock by receipt movements naming the order and averages the cost, in two parts', async () => {
      // 10 on hand at 2.00; 5 arrive at 3.00 → (20 + 15) / 15 = 2.333… → 2.33; then 5 more at
      // 3.00 → (2.33 × 15 + 15) / 20 = 2.4975 → 2.50.
      const a = await item({ stock: 10, cost: '2.00' });
      const b = await item({ stock: 0, supplier: a.supplier });
      const order = await ordered(a.supplier, [
        [a.id, 10, 3],
        [b.id, 4, 1.5],
      ]);
      const [lineA, lineB] = order.lines.map((line) => line._id);
      const half = await post(`/api/purchase-orders/${order._id}/receive`, {
        lines: [{ line: lineA, quantity: 5 }],
      });
      expect(half.status).toBe(200);
      expect(parsed(half, PurchaseOrderResponse).purchaseOrder).toMatchObject({
        status: 'partially_received',
        receivedAt: null,
      });
      expect(
        parsed(half, PurchaseOrderResponse).purchaseOrder.lines.map(
          (line: { received: number }) => line.received,
        ),
      ).toEqual([5, 0]);
      expect(await product(a.id)).toEqual({ stock: 15, cost: '2.33' });
      const movements = await t.call('GET', `/api/products/${a.id}/movements?page=1`, { token: admin });
      const receipt = MovementListResponse.parse(movements.body).movements[0];
      expect(receipt).toMatchObject({
        kind: 'receipt',
        quantity: 5,
        stockAfter: 15,
        purchaseOrder: { _id: order._id, number: order.number },
      });
      const rest = await post(`/api/purchase-orders/${order._id}/receive`, {
        lines: [
          { line: lineA, quantity: 5 },
          { line: lineB, quantity: 4 },
        ],
      });
      expect(parsed(rest, PurchaseOrderResponse).purchaseOrder).toMatchObject({
        status: 'received',
        receivedAt: expect.any(String),
      });
      expect(await product(a.id)).toEqual({ stock: 20, cost: '2.50' });
      // A product without a cost takes the cost received.
      expect(await product(b.id)).toEqual({ stock: 4, cost: '1.50' });
      expect(await ledgerHolds()).toBe(true);
      const receiptRows = await t.sql('select product_id from stock_movements where purchase_order_id = $1', [
        order._id,
      ]);
      expect(receiptRows).toHaveLength(3);
    });

    it('over-receipt, a draft, a received order and a foreign line are refused and change nothing', async () => {
      const a = await item({ stock: 1 });
      const order = await ordered(a.supplier, [[a.id, 3, 1]]);
      const line = order.lines[0]?._id as string;
      const over = await post(`/api/purchase-orders/${order._id}/receive`, {
        lines: [{ line, quantity: 4 }],
      });
      expect(over.status).toBe(409);
      expect(parsed(over, ApiError).error).toBe(
        `Only 3 of ${order.lines[0]?.product.name} are left to receive on ${order.number}, not 4.`,
      );
      const foreign = await ordered(a.supplier, [[a.id, 1, 1]]);
      const wrong = await post(`/api/purchase-orders/${order._id}/receive`, {
        lines: [{ line: foreign.lines[0]?._id, quantity: 1 }],
      });
      expect(wrong.status).toBe(400);
      const twice = await post(`/api/purchase-orders/${order._id}/receive`, {
        lines: [
          { line, quantity: 1 },
          { line, quantity: 1 },
        ],
      });
      expect(twice.status).toBe(400);
      expect(await product(a.id)).toMatchObject({ stock: 1 });
      expect(
        (await post(`/api/purchase-orders/${order._id}/receive`, { lines: [{ line, quantity: 3 }] })).status,
      ).toBe(200);
      const full = await post(`/api/purchase-orders/${order._id}/receive`, {
        lines: [{ line, quantity: 1 }],
      });
      expect(full.status).toBe(409);
      expect(parsed(full, ApiError).error).toBe(
        `${order.number} is received; only an ordered purchase order can be received.`,
      );
      const draft = parsed(
        await create({ supplier: a.supplier, lines: [{ product: a.id, quantity: 1, unitCost: 1 }] }),
        PurchaseOrderResponse,
      ).purchaseOrder;
      const early = await post(`/api/purchase-orders/${draft._id}/receive`, {
        lines: [{ line: nth(draft.lines)._id, quantity: 1 }],
      });
      expect(early.status).toBe(409);
      expect(await product(a.id)).toMatchObject({ stock: 4 });
    });

    it('a receipt retried with the same Idempotency-Key is received once', async () => {
      const a = await item({ stock: 0 });
      const order = await ordered(a.supplier, [[a.id, 10, 1]]);
      const body = { lines: [{ line: order.lines[0]?._id, quantity: 4 }] };
      const headers = { 'idempotency-key': `receive-${tag()}` };
      const answers = await Promise.all(
        [0, 1, 2].map(() => post(`/api/purchase-orders/${order._id}/receive`, body, headers)),
      );
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
      expect(await product(a.id)).toMatchObject({ stock: 4 });
      const again = await post(`/api/purchase-orders/${order._id}/receive`, body, headers);
      expect(nth(parsed(again, PurchaseOrderResponse).purchaseOrder.lines).received).toBe(4);
      expect(await product(a.id)).toMatchObject({ stock: 4 });
    });

    it('two admins receiving the same lines at once never receive more than ordered', async () => {
      const a = await item({ stock: 2, cost: '1.00' });
      const b = await item({ stock: 0, supplier: a.supplier });
      const order = await ordered(a.supplier, [
        [a.id, 6, 1],
        [b.id, 6, 1],
      ]);
      const lines = order.lines.map((line) => ({ line: line._id, quantity: 4 }));
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => post(`/api/purchase-orders/${order._id}/receive`, { lines })),
      );
      const statuses = answers.map((res) => res.status).sort();
      // 4 of 6 fit once; the second receipt of 4 would pass 6.
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      expect(await product(a.id)).toMatchObject({ stock: 6 });
      expect(await product(b.id)).toMatchObject({ stock: 4 });
      const read = await t.call('GET', `/api/purchase-orders/${order._id}`, { token: admin });
      expect(
        parsed(read, PurchaseOrderResponse).purchaseOrder.lines.map(
          (line: { received: number }) => line.received,
        ),
      ).toEqual([4, 4]);
      expect(await ledgerHolds()).toBe(true);
    });

    it('cancel: a draft or ordered one is cancelled, a partly received one closed, a received one refused', async () => {
      const a = await item({ stock: 0 });
      const draft = parsed(
        await create({ supplier: a.supplier, lines: [{ product: a.id, quantity: 1, unitCost: 1 }] }),
        PurchaseOrderResponse,
      ).purchaseOrder;
      expect(
        parsed(await post(`/api/purchase-orders/${draft._id}/cancel`), PurchaseOrderResponse).purchaseOrder
          .status,
      ).toBe('cancelled');
      const sent = await ordered(a.supplier, [[a.id, 5, 1]]);
      expect(
        parsed(await post(`/api/purchase-orders/${sent._id}/cancel`), PurchaseOrderResponse).purchaseOrder
          .status,
      ).toBe('cancelled');
      const part = await ordered(a.supplier, [[a.id, 5, 1]]);
      await post(`/api/purchase-orders/${part._id}/receive`, {
        lines: [{ line: part.lines[0]?._id, quantity: 2 }],
      });
      const closed = await post(`/api/purchase-orders/${part._id}/cancel`);
      expect(parsed(closed, PurchaseOrderResponse).purchaseOrder).toMatchObject({ status: 'closed' });
      const again = await post(`/api/purchase-orders/${part._id}/cancel`);
      expect(again.status).toBe(409);
      expect(parsed(again, ApiError).error).toBe(
        `${part.number} is closed already; nothing is left to cancel.`,
      );
      expect(await product(a.id)).toMatchObject({ stock: 2 });
      const actions = await t.sql<{ action: string }>(
        "select action from audit_log where entity_type = 'purchaseOrder' and entity_id = $1 order by at, id",
        [part._id],
      );
      expect(actions.map((row) => row.action)).toEqual(['created', 'ordered', 'received', 'closed']);
    });

    it('GET /api/purchase-orders pages newest first and filters by status and supplier', async () => {
      const a = await item();
      const made: string[] = [];
      for (let i = 0; i < 3; i++)
        made.push(
          parsed(
            await create({ supplier: a.supplier, lines: [{ product: a.id, quantity: 1, unitCost: 2 }] }),
            PurchaseOrderResponse,
          ).purchaseOrder._id,
        );
      await post(`/api/purchase-orders/${made[1]}/order`);
      const page = await t.call('GET', `/api/purchase-orders?supplier=${a.supplier}&pageSize=2`, {
        token: admin,
      });
      const body = PurchaseOrderListResponse.parse(page.body);
      expect(body.total).toBe(3);
      expect(body.purchaseOrders.map((row) => row._id)).toEqual([made[2], made[1]]);
      expect(body.purchaseOrders[0]).toMatchObject({
        total: 2,
        status: 'draft',
        supplier: { _id: a.supplier },
      });
      const drafts = await t.call('GET', `/api/purchase-orders?supplier=${a.supplier}&status=draft`, {
        token: admin,
      });
      expect(
        parsed(drafts, PurchaseOrderListResponse).purchaseOrders.map((row: { _id: string }) => row._id),
      ).toEqual([made[2], made[0]]);
      const bad = await t.call('GET', '/api/purchase-orders?status=lost', { token: admin });
      expect(bad.status).toBe(400);
      const none = await t.call('GET', '/api/purchase-orders?supplier=nope', { token: admin });
      expect(none.body).toMatchObject({ purchaseOrders: [], total: 0 });
    });

    it('a product or supplier on a purchase order cannot be deleted (409 naming it)', async () => {
      const a = await item();
      const other = await newSupplier();
      const order = parsed(
        await create({ supplier: other, lines: [{ product: a.id, quantity: 1, unitCost: 1 }] }),
        PurchaseOrderResponse,
      ).purchaseOrder;
      const product = await t.call('DELETE', `/api/products/${a.id}`, { token: admin });
      expect(product.status).toBe(409);
      expect(parsed(product, ApiError).error).toContain(`is on purchase order ${order.number}`);
      const supplier = await t.call('DELETE', `/api/supplier/${other}`, { token: admin });
      expect(supplier.status).toBe(409);
      expect(parsed(supplier, ApiError).error).toContain(`supplier of purchase order ${order.number}`);
      expect(await t.sql('select 1 from products where id = $1', [a.id])).toHaveLength(1);
      expect(await t.sql('select 1 from suppliers where id = $1', [other])).toHaveLength(1);
    });
  });

  describe('reorder suggestions', () => {
    const suggestionsFor = async (supplier: string) => {
      const res = await t.call('GET', '/api/reorder-suggestions', { token: admin });
      expect(res.status).toBe(200);
      // Built by the database: held to the shared schema here.
      const body = ReorderSuggestionsResponse.strict().parse(res.body);
      return body.suppliers.find((group) => group.supplier._id === supplier)?.lines ?? [];
    };

    it('list products whose stock and what is on order are at or below the reorder point, with the quantity to order', async () => {
      const supplier = await newSupplier();
      const computed = await item({ supplier, name: `A ${tag()}`, stock: 4, reorderPoint: 10, cost: '1.25' });
      const fixed = await item({
        supplier,
        name: `B ${tag()}`,
        stock: 0,
        reorderPoint: 3,
        reorderQuantity: 25,
      });
      const store = await item({ supplier, name: `C ${tag()}`, stock: 5 });
      const covered = await item({ supplier, name: `D ${tag()}`, stock: 2, reorderPoint: 10 });
      const partly = await item({ supplier, name: `E ${tag()}`, stock: 2, reorderPoint: 10 });
      await item({ supplier, name: `F ${tag()}`, stock: 11, reorderPoint: 10 });
      await ordered(supplier, [
        [covered.id, 9, 1],
        [partly.id, 3, 1],
      ]);
      const lines = await suggestionsFor(supplier);
      expect(
        lines.map((line) => [
          line.product._id,
          line.stock,
          line.onOrder,
          line.reorderPoint,
          line.suggested,
          line.unitCost,
        ]),
      ).toEqual([
        [computed.id, 4, 0, 10, 16, 1.25],
        [fixed.id, 0, 0, 3, 25, 0],
        [store.id, 5, 0, 5, 5, 0],
        [partly.id, 2, 3, 10, 15, 0],
      ]);
    });

    it('on order leaves out what was received, closed or cancelled', async () => {
      const supplier = await newSupplier();
      const a = await item({ supplier, stock: 1, reorderPoint: 10 });
      const order = await ordered(supplier, [[a.id, 6, 1]]);
      expect((await suggestionsFor(supplier))[0]).toMatchObject({ stock: 1, onOrder: 6 });
      await post(`/api/purchase-orders/${order._id}/receive`, {
        lines: [{ line: order.lines[0]?._id, quantity: 2 }],
      });
      expect((await suggestionsFor(supplier))[0]).toMatchObject({ stock: 3, onOrder: 4 });
      await post(`/api/purchase-orders/${order._id}/cancel`);
      expect((await suggestionsFor(supplier))[0]).toMatchObject({ stock: 3, onOrder: 0, suggested: 17 });
    });

    it('on order kept per product equals a recount after every kind of change, concurrent receipts too', async () => {
      const supplier = await newSupplier();
      const a = await item({ supplier, stock: 1, reorderPoint: 10 });
      const b = await item({ supplier, stock: 1, reorderPoint: 10 });
      const first = await ordered(supplier, [
        [a.id, 8, 1],
        [b.id, 5, 1],
      ]);
      const second = await ordered(supplier, [[a.id, 4, 1]]);
      expect(await onOrderDrift()).toEqual([]);
      await Promise.all([
        post(`/api/purchase-orders/${first._id}/receive`, {
          lines: [{ line: first.lines[0]?._id, quantity: 3 }],
        }),
        post(`/api/purchase-orders/${second._id}/receive`, {
          lines: [{ line: second.lines[0]?._id, quantity: 4 }],
        }),
        post(`/api/purchase-orders/${first._id}/receive`, {
          lines: [{ line: first.lines[1]?._id, quantity: 5 }],
        }),
      ]);
      expect(await onOrderDrift()).toEqual([]);
      await post(`/api/purchase-orders/${first._id}/cancel`);
      expect(await onOrderDrift()).toEqual([]);
      const [kept] = await t.sql<{ on_order: number }>(
        'select on_order from product_stock where product_id = $1',
        [a.id],
      );
      expect(kept?.on_order).toBe(0);
      const draft = parsed(
        await create({ supplier, lines: [{ product: b.id, quantity: 6, unitCost: 1 }] }),
        PurchaseOrderResponse,
      ).purchaseOrder;
      await t.call('PUT', `/api/purchase-orders/${draft._id}`, {
        token: admin,
        body: { supplier, lines: [{ product: b.id, quantity: 7, unitCost: 1 }] },
      });
      await post(`/api/purchase-orders/${draft._id}/order`);
      const [bKept] = await t.sql<{ on_order: number }>(
        'select on_order from product_stock where product_id = $1',
        [b.id],
      );
      expect(bKept?.on_order).toBe(7);
      expect(await onOrderDrift()).toEqual([]);
    });

    it("product_stock's copies and the kept count of products to reorder equal a recount after sales, receipts, edits, deletes and a new threshold", async () => {
      /**
       * Products whose product_stock row is not a copy of the product (the reorder point in force
       * with `threshold`), and the kept count beside a recount from products and open lines.
       */
      const drift = async (threshold: number) => {
        const rows = await t.sql<{ id: string }>(
          `select p.id from products p join product_stock s on s.product_id = p.id
           where (s.stock, s.name, s.name_key, s.reorder_point, s.reorder_at, s.category_id, s.supplier_id,
                  s.cost, s.reorder_quantity)
                 is distinct from (p.stock, p.name, lower(p.name), p.reorder_point, coalesce(p.reorder_point, $1),
                                   p.category_id, p.supplier_id, p.cost, p.reorder_quantity)`,
          [threshold],
        );
        const [counts] = await t.sql<{ kept: number; recounted: number }>(
          `select (select sum(to_reorder)::int from product_totals) as kept,
                  (select count(*)::int from products p
                   left join (select l.product_id, sum(l.quantity - l.received) as units
                              from purchase_order_lines l join purchase_orders o on o.id = l.purchase_order_id
                              where o.status in ('ordered', 'partially_received') group by l.product_id) l
                     on l.product_id = p.id
                   where p.stock + coalesce(l.units, 0) <= coalesce(p.reorder_point, $1)) as recounted`,
          [threshold],
        );
        const dashboard = DashboardResponse.parse(
          (await t.call('GET', '/api/dashboard', { token: admin })).body,
        );
        return { rows, kept: counts?.kept, dashboard: dashboard.toReorder, recounted: counts?.recounted };
      };
      const holds = async (threshold: number) => {
        const found = await drift(threshold);
        expect(found.rows).toEqual([]);
        expect(found.kept).toBe(found.recounted);
        expect(found.dashboard).toBe(found.recounted);
        return found.recounted as number;
      };
      const sell = (productId: string, quantity: number) =>
        t.call('POST', '/api/order/add', { token: t.as.salesRep.token, body: { productId, quantity } });

      const start = await holds(5);
      const supplier = await newSupplier();
      const onStore = await item({ supplier, stock: 7 });
      const own = await item({ supplier, stock: 12, reorderPoint: 10, cost: '2.00' });
      const shared = await item({ supplier, stock: 40, reorderPoint: 30 });
      const other = await item({ supplier, stock: 6, reorderPoint: 2 });
      expect(await holds(5)).toBe(start);

      // Sales across the line, some racing for one product.
      expect((await sell(onStore.id, 2)).status).toBe(201);
      expect((await sell(own.id, 2)).status).toBe(201);
      const raced = await Promise.all([
        ...Array.from({ length: 6 }, () => sell(shared.id, 2)),
        sell(other.id, 1),
        sell(own.id, 1),
      ]);
      expect(raced.map((res) => res.status)).toEqual(Array(8).fill(201));
      expect(await holds(5)).toBe(start + 3);

      // On order takes a product out; receiving and cancelling move it.
      const order = await ordered(supplier, [
        [own.id, 5, 1.5],
        [shared.id, 3, 1],
      ]);
      expect(await holds(5)).toBe(start + 1);
      expect(
        (
          await post(`/api/purchase-orders/${order._id}/receive`, {
            lines: [{ line: order.lines[0]?._id, quantity: 2 }],
          })
        ).status,
      ).toBe(200);
      expect(await holds(5)).toBe(start + 1);
      expect((await post(`/api/purchase-orders/${order._id}/cancel`)).status).toBe(200);
      expect(await holds(5)).toBe(start + 2);

      // Edits: a reorder point of its own and back to the store's, a new name, cost, category.
      const edit = async (id: string, changes: Record<string, unknown>) => {
        const [row] = await t.sql<{ name: string; category_id: string; stock: number }>(
          'select name, category_id, stock from products where id = $1',
          [id],
        );
        const res = await t.call('PUT', `/api/products/${id}`, {
          token: admin,
          body: {
            name: row?.name,
            description: '',
            price: 5,
            stock: row?.stock,
            category: row?.category_id,
            supplier,
            ...changes,
          },
        });
        expect(res.status, res.text).toBe(200);
      };
      await edit(other.id, { reorderPoint: 20, name: `Renamed ${tag()}`, cost: 3.5 });
      await edit(onStore.id, { reorderPoint: 1, reorderQuantity: 12, category: own.categoryId });
      expect(await holds(5)).toBe(start + 2);
      await edit(onStore.id, { reorderPoint: null });
      expect(await holds(5)).toBe(start + 3);

      // A product deleted while it is to reorder leaves the count.
      const gone = await item({ supplier, stock: 1 });
      expect(await holds(5)).toBe(start + 4);
      expect((await t.call('DELETE', `/api/products/${gone.id}`, { token: admin })).status).toBe(200);
      expect(await holds(5)).toBe(start + 3);

      // A new threshold (as a server started with another LOW_STOCK_THRESHOLD sets it), once.
      const between = await item({ supplier, stock: 7 });
      expect(await holds(5)).toBe(start + 3);
      try {
        expect(await setLowStockThreshold(t.app.database, 8)).toBe(true);
        expect(await setLowStockThreshold(t.app.database, 8)).toBe(false);
        const moved = await holds(8);
        expect(moved).toBeGreaterThan(start + 3);
        expect((await sell(between.id, 1)).status).toBe(201);
        expect(await holds(8)).toBe(moved);
      } finally {
        await setLowStockThreshold(t.app.database, 5);
      }
      expect(await holds(5)).toBe(start + 3);
    });

    it('the dashboard counts the products to reorder', async () => {
      const count = async () =>
        DashboardResponse.parse((await t.call('GET', '/api/dashboard', { token: admin })).body).toReorder;
      const before = await count();
      const supplier = await newSupplier();
      await item({ supplier, stock: 0, reorderPoint: 1 });
      await item({ supplier, stock: 7, reorderPoint: 7 });
      await item({ supplier, stock: 8, reorderPoint: 7 });
      expect(await count()).toBe(before + 2);
    });

    it('POST /api/reorder-suggestions/draft drafts one purchase order per supplier, with chosen quantities', async () => {
      const first = await newSupplier();
      const second = await newSupplier();
      const a = await item({ supplier: first, name: `A ${tag()}`, stock: 1, reorderPoint: 4, cost: '2.00' });
      const b = await item({ supplier: first, name: `B ${tag()}`, stock: 1, reorderPoint: 4 });
      const c = await item({ supplier: second, stock: 0, reorderPoint: 2 });
      const res = await post('/api/reorder-suggestions/draft', {
        supplier: first,
        quantities: { [b.id]: 0, [a.id]: 9 },
      });
      expect(res.status).toBe(201);
      const drafts = DraftPurchaseOrdersResponse.parse(res.body).purchaseOrders;
      expect(drafts).toHaveLength(1);
      expect(drafts[0]).toMatchObject({ status: 'draft', supplier: { _id: first }, total: 18 });
      expect(drafts[0]?.lines.map((line) => [line.product._id, line.quantity, line.unitCost])).toEqual([
        [a.id, 9, 2],
      ]);
      const both = DraftPurchaseOrdersResponse.parse((await post('/api/reorder-suggestions/draft', {})).body);
      const mine = both.purchaseOrders.filter((order) => [first, second].includes(order.supplier._id));
      // The first supplier has its draft already: left out and named; the second is drafted.
      expect(
        mine.map((order) => [
          order.supplier._id,
          order.lines.map((line) => [line.product._id, line.quantity]),
        ]),
      ).toEqual([[second, [[c.id, 4]]]]);
      expect(both.existingDrafts.filter((found) => found.supplier._id === first)).toEqual([
        {
          supplier: { _id: first, name: expect.any(String) },
          draft: { _id: drafts[0]?._id, number: drafts[0]?.number },
        },
      ]);
      const unknown = await post('/api/reorder-suggestions/draft', {
        supplier: '00000000-0000-4000-8000-000000000000',
      });
      expect(unknown.status).toBe(404);
      const negative = await post('/api/reorder-suggestions/draft', { quantities: { [a.id]: -1 } });
      expect(negative.status).toBe(400);
    });

    /** The supplier's group in the suggestions (held to the shared schema). */
    const groupOf = async (supplier: string) => {
      const res = await t.call('GET', '/api/reorder-suggestions', { token: admin });
      expect(res.status).toBe(200);
      return ReorderSuggestionsResponse.strict()
        .parse(res.body)
        .suppliers.find((group) => group.supplier._id === supplier);
    };
    const draftsOf = async (supplier: string) =>
      (
        await t.sql<{ id: string }>(
          "select id from purchase_orders where supplier_id = $1 and status = 'draft' order by number",
          [supplier],
        )
      ).map((row) => row.id);

    it('drafting for a supplier twice makes one draft: the second is a 409 naming it, and the suggestions show it', async () => {
      const supplier = await newSupplier();
      const a = await item({ supplier, stock: 1, reorderPoint: 4 });
      expect((await groupOf(supplier))?.draft).toBeNull();
      const first = await post('/api/reorder-suggestions/draft', { supplier }, { 'Idempotency-Key': tag() });
      expect(first.status).toBe(201);
      const draft = DraftPurchaseOrdersResponse.parse(first.body).purchaseOrders[0];
      expect(draft?.lines.map((line) => line.product._id)).toEqual([a.id]);
      expect((await groupOf(supplier))?.draft).toEqual({ _id: draft?._id, number: draft?.number });
      const again = await post('/api/reorder-suggestions/draft', { supplier }, { 'Idempotency-Key': tag() });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        success: false,
        code: 'DRAFT_EXISTS',
        error: expect.stringMatching(
          new RegExp(`^Supplier .+ already has a draft purchase order, ${draft?.number}: open it`),
        ),
        existing: { _id: draft?._id, name: draft?.number },
      });
      // Without a key too.
      expect((await post('/api/reorder-suggestions/draft', { supplier })).status).toBe(409);
      expect(await draftsOf(supplier)).toEqual([draft?._id]);
    });

    it('two drafts for one supplier at once (a double click, two tabs) make one draft', async () => {
      const supplier = await newSupplier();
      await item({ supplier, stock: 0, reorderPoint: 3 });
      await item({ supplier, stock: 1, reorderPoint: 3 });
      const answers = await Promise.all([
        post('/api/reorder-suggestions/draft', { supplier }, { 'Idempotency-Key': tag() }),
        post('/api/reorder-suggestions/draft', { supplier }, { 'Idempotency-Key': tag() }),
        post('/api/reorder-suggestions/draft', { supplier }),
        post('/api/reorder-suggestions/draft', {}),
      ]);
      const statuses = answers.slice(0, 3).map((res) => res.status);
      expect([...statuses].sort()).toEqual(statuses.includes(201) ? [201, 409, 409] : [409, 409, 409]);
      expect(await draftsOf(supplier)).toHaveLength(1);
      // The call for every supplier either drafted it (then the three were refused) or left it out.
      const all = DraftPurchaseOrdersResponse.parse(answers[3]?.body);
      const drafted = all.purchaseOrders.some((order) => order.supplier._id === supplier);
      const leftOut = all.existingDrafts.some((found) => found.supplier._id === supplier);
      expect(drafted !== leftOut).toBe(true);
      expect(drafted).toBe(!statuses.includes(201));
    });

    it('a draft that was ordered or cancelled no longer holds a new draft back', async () => {
      const supplier = await newSupplier();
      const a = await item({ supplier, stock: 0, reorderPoint: 10 });
      // Ordering 1 leaves the product to reorder.
      const first = await post('/api/reorder-suggestions/draft', { supplier, quantities: { [a.id]: 1 } });
      const firstDraft = DraftPurchaseOrdersResponse.parse(first.body).purchaseOrders[0];
      expect((await post(`/api/purchase-orders/${firstDraft?._id}/order`)).status).toBe(200);
      expect((await groupOf(supplier))?.draft).toBeNull();
      const second = await post('/api/reorder-suggestions/draft', { supplier });
      expect(second.status).toBe(201);
      const secondDraft = DraftPurchaseOrdersResponse.parse(second.body).purchaseOrders[0];
      expect((secondDraft?.number ?? '') > (firstDraft?.number ?? '')).toBe(true);
      expect((await post(`/api/purchase-orders/${secondDraft?._id}/cancel`)).status).toBe(200);
      expect((await groupOf(supplier))?.draft).toBeNull();
      const third = await post('/api/reorder-suggestions/draft', { supplier });
      expect(third.status).toBe(201);
      const thirdDraft = DraftPurchaseOrdersResponse.parse(third.body).purchaseOrders[0];
      expect(await draftsOf(supplier)).toEqual([thirdDraft?._id]);
      expect((await groupOf(supplier))?.draft).toEqual({ _id: thirdDraft?._id, number: thirdDraft?.number });
    });

    it('a draft made by hand counts too, and the suggestions name the newest draft', async () => {
      const supplier = await newSupplier();
      const a = await item({ supplier, stock: 0, reorderPoint: 2 });
      const line = { product: a.id, quantity: 1, unitCost: 1 };
      const older = parsed(await create({ supplier, lines: [line] }), PurchaseOrderResponse).purchaseOrder;
      const newer = parsed(await create({ supplier, lines: [line] }), PurchaseOrderResponse).purchaseOrder;
      expect((await groupOf(supplier))?.draft).toEqual({ _id: newer._id, number: newer.number });
      const refused = await post('/api/reorder-suggestions/draft', { supplier });
      expect(refused.status).toBe(409);
      expect(parsed(refused, ApiError).existing).toEqual({ _id: newer._id, name: newer.number });
      expect(await draftsOf(supplier)).toEqual([older._id, newer._id]);
    });
  });
});
