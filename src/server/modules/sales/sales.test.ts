import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../../shared/common';
import { CustomerDetailResponse } from '../../../shared/customers';
import { OrderListResponse, OrderResponse } from '../../../shared/orders';
import { MAX_SALE_LINES, SaleListResponse, SaleResponse, saleNumberLabel } from '../../../shared/sales';
import { fixtures, nth } from '../../test/fixtures';
import { type Account, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';

/** The receipt number of an order taken as a sale, failing the test when it has none. */
function saleNumberOf(order: { _id: string; sale: { number: number } | null }): number {
  if (!order.sale) throw new Error(`Order ${order._id} answered no sale.`);
  return order.sale.number;
}

describe.each(targets)('sales on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const { stockOf, ledgerOf, sell, customer } = fixtures(() => t);

  it('records every line as an order with its sale movement and answers the receipt, money exact', async () => {
    const tea = await t.product({ name: 'Tea', stock: 10, price: 0.1 });
    const cups = await t.product({ name: 'Cups', stock: 5, price: 0.2 });
    const kettle = await t.product({ name: 'Kettle', stock: 2, price: 24.99 });
    const buyer = (await customer({ name: 'Ada Shopper' }))._id;
    const rep = t.as.salesRep;
    const res = await sell(rep, {
      lines: [
        { productId: tea.id, quantity: 3 },
        { productId: cups.id, quantity: 1 },
        { productId: kettle.id, quantity: 1 },
      ],
      customer: buyer,
      payment: { method: 'cash', tendered: 30 },
      // The total the screen showed, which the server's own computation must give too (a client's
      // total is checked, never taken: sale-money.test.ts, TOTAL_CHANGED).
      total: 25.49,
    });
    expect(res.status).toBe(201);
    const sale = parsed(res, SaleResponse).sale;
    const sold = (id: string, name: string, quantity: number, unitPrice: number, total: number) => ({
      order: { _id: expect.any(String) },
      product: { _id: id, name },
      quantity,
      unitPrice,
      gross: total,
      discount: 0,
      tax: 0,
      taxRate: null,
      total,
      net: total,
      returnedQuantity: 0,
      returnedTotal: 0,
      lots: [],
    });
    expect(sale).toEqual({
      _id: expect.any(String),
      location: { _id: expect.any(String), name: 'Main store' },
      number: expect.any(Number),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      store: {
        name: 'Inventory MS',
        address: '',
        phone: '',
        taxNumber: '',
        receiptFooter: '',
        currency: 'USD',
        pricesIncludeTax: false,
      },
      seller: { _id: rep.id, name: rep.name },
      customer: { _id: buyer, name: 'Ada Shopper' },
      lines: [
        sold(tea.id, 'Tea', 3, 0.1, 0.3),
        sold(cups.id, 'Cups', 1, 0.2, 0.2),
        sold(kettle.id, 'Kettle', 1, 24.99, 24.99),
      ],
      subtotal: 25.49,
      discount: 0,
      tax: 0,
      taxes: [],
      total: 25.49,
      payment: { method: 'cash', tendered: 30 },
      payments: [{ method: 'cash', amount: 25.49, tendered: 30 }],
      change: 4.51,
      session: null,
      refunds: [],
    });
    expect([await stockOf(tea.id), await stockOf(cups.id), await stockOf(kettle.id)]).toEqual([7, 4, 1]);
    // Each line is an order naming the sale and customer, and each order a sale movement.
    const orders = await t.sql<{
      id: string;
      sale_number: string;
      customer_name: string;
      kind: string;
      quantity: number;
    }>(
      `select o.id, o.sale_number::text, o.customer_name, m.kind, m.quantity
       from orders o join stock_movements m on m.order_id = o.id where o.sale_id = $1 order by o.sale_line`,
      [sale._id],
    );
    expect(orders.map((o) => [o.id, o.kind, o.quantity, Number(o.sale_number), o.customer_name])).toEqual(
      sale.lines.map((line: { order: { _id: string }; quantity: number }) => [
        line.order._id,
        'sale',
        -line.quantity,
        sale.number,
        'Ada Shopper',
      ]),
    );
    // The receipt reads the same later; the orders list shows the sale and the customer.
    const receipt = await t.call('GET', `/api/sales/${sale._id}`, { token: rep.token });
    expect(receipt.body).toEqual({ success: true, sale });
    const listed = await t.call('GET', `/api/order/${rep.id}?page=1&pageSize=5`, { token: rep.token });
    // The orders CSV names the sale and the customer too.
    const csv = await t.call('GET', `/api/order/${rep.id}?format=csv`, { token: t.as.admin.token });
    const [header, ...rows] = parseCsv(csv.text);
    expect(header?.slice(-2)).toEqual(['sale number', 'customer']);
    const line = rows.find((row) => row[0] === nth(sale.lines).order._id);
    expect(line?.slice(-2)).toEqual([saleNumberLabel(sale.number), 'Ada Shopper']);
    expect(nth(parsed(listed, OrderListResponse).orders)).toMatchObject({
      sale: { _id: sale._id, number: sale.number },
      customer: { _id: buyer, name: 'Ada Shopper' },
    });
  });

  it('adds lines of the same product together; card and other take no tendered and give no change', async () => {
    const pen = await t.product({ name: 'Pen', stock: 10, price: 1.5 });
    const res = await sell(t.as.user, {
      lines: [
        { productId: pen.id, quantity: 1 },
        { productId: pen.id, quantity: 2 },
      ],
      payment: { method: 'card' },
    });
    expect(res.status).toBe(201);
    expect(parsed(res, SaleResponse).sale.lines).toHaveLength(1);
    expect(parsed(res, SaleResponse).sale).toMatchObject({
      lines: [{ quantity: 3, total: 4.5 }],
      total: 4.5,
      customer: null,
      payment: { method: 'card', tendered: null },
      change: null,
    });
    expect(await stockOf(pen.id)).toBe(7);
    const exact = await sell(t.as.user, {
      lines: [{ productId: pen.id, quantity: 1 }],
      payment: { method: 'cash' },
    });
    expect(parsed(exact, SaleResponse).sale).toMatchObject({
      payment: { method: 'cash', tendered: 1.5 },
      change: 0,
    });
    const tendered = await sell(t.as.user, {
      lines: [{ productId: pen.id, quantity: 1 }],
      payment: { method: 'card', tendered: 5 },
    });
    expect(tendered.status).toBe(400);
    expect(parsed(tendered, ApiError).error).toMatch(/Only a cash payment takes a tendered amount/);
  });

  it('takes nothing when one line is short: 409 naming the product', async () => {
    const plenty = await t.product({ name: 'Plenty', stock: 50, price: 1 });
    const scarce = await t.product({ name: 'Scarce Widget', stock: 2, price: 1 });
    const salesBefore = (await t.sql<{ n: number }>('select count(*)::int as n from sales'))[0]?.n;
    const res = await sell(t.as.salesRep, {
      lines: [
        { productId: plenty.id, quantity: 5 },
        { productId: scarce.id, quantity: 3 },
      ],
      payment: { method: 'card' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      code: 'SHORT_AT_LOCATION',
      error: 'Not enough stock of Scarce Widget at Main store: 2 left.',
      elsewhere: [],
    });
    expect([await stockOf(plenty.id), await stockOf(scarce.id)]).toEqual([50, 2]);
    expect((await t.sql<{ n: number }>('select count(*)::int as n from sales'))[0]?.n).toBe(salesBefore);
    expect(
      await t.sql('select 1 from orders where product_id = any($1::uuid[])', [[plenty.id, scarce.id]]),
    ).toEqual([]);
    await t.sql('select 1');
    const out = await t.product({ name: 'Gone Gadget', stock: 0, price: 1 });
    const none = await sell(t.as.salesRep, {
      lines: [{ productId: out.id, quantity: 1 }],
      payment: { method: 'card' },
    });
    expect(parsed(none, ApiError).error).toBe('Gone Gadget is out of stock at Main store.');
  });

  it('refuses bad input with one sentence and stores nothing', async () => {
    const p = await t.product({ name: 'Thing', stock: 5, price: 10 });
    const line = { productId: p.id, quantity: 1 };
    const cases: [unknown, number, RegExp][] = [
      [{ lines: [], payment: { method: 'card' } }, 400, /at least one line/],
      [
        { lines: Array(MAX_SALE_LINES + 1).fill(line), payment: { method: 'card' } },
        400,
        /at most 100 lines/,
      ],
      [{ lines: [{ ...line, quantity: 0 }], payment: { method: 'card' } }, 400, /at least 1/],
      [
        { lines: [line], payment: { method: 'cheque' } },
        400,
        /Payment method must be one of cash, card, other/,
      ],
      [{ lines: [line] }, 400, /payment/i],
      [
        { lines: [line], payment: { method: 'cash', tendered: 9.99 } },
        400,
        /^Cash tendered is less than the total \(\$10\.00\)\.$/,
      ],
      [{ lines: [line], payment: { method: 'cash', tendered: 10.001 } }, 400, /at most 2 decimals/],
      [
        { lines: [{ productId: 'nope', quantity: 1 }], payment: { method: 'card' } },
        404,
        /^Product not found\.$/,
      ],
      [
        {
          lines: [line, { productId: '00000000-0000-4000-8000-000000000000', quantity: 1 }],
          payment: { method: 'card' },
        },
        404,
        /^Product not found\.$/,
      ],
      [
        { lines: [line], customer: '00000000-0000-4000-8000-000000000000', payment: { method: 'card' } },
        404,
        /^Customer not found\.$/,
      ],
      [{ lines: [line], customer: 'x', payment: { method: 'card' } }, 404, /^Customer not found\.$/],
    ];
    for (const [body, status, error] of cases) {
      const res = await sell(t.as.salesRep, body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(status);
      expect(parsed(res, ApiError).success).toBe(false);
      expect(parsed(res, ApiError).error).toMatch(error);
    }
    expect(await stockOf(p.id)).toBe(5);
    expect(await t.sql('select 1 from orders where product_id = $1', [p.id])).toEqual([]);
  });

  it('the roles that place orders and admins sell, not the superAdmin; sellers see their own receipts, admins every one', async () => {
    const p = await t.product({ stock: 20, price: 2 });
    const body = { lines: [{ productId: p.id, quantity: 1 }], payment: { method: 'card' } };
    expect((await sell(t.as.superAdmin, body)).status).toBe(403);
    const admins = await sell(t.as.admin, body);
    expect(admins.status).toBe(201);
    expect(parsed(admins, SaleResponse).sale.seller).toEqual({ _id: t.as.admin.id, name: t.as.admin.name });
    expect(await stockOf(p.id)).toBe(19);
    expect((await t.call('POST', '/api/sales', { body })).status).toBe(401);
    const mine = parsed(await sell(t.as.medicalRep, body), SaleResponse).sale;
    const theirs = await t.call('GET', `/api/sales/${mine._id}`, { token: t.as.user.token });
    expect(theirs.status).toBe(404);
    expect(
      parsed(await t.call('GET', `/api/sales/${mine._id}`, { token: t.as.admin.token }), SaleResponse).sale,
    ).toEqual(mine);
    const own = await t.call('GET', '/api/sales?pageSize=100', { token: t.as.medicalRep.token });
    expect(parsed(own, SaleListResponse).sales.map((s) => s._id)).toContain(mine._id);
    expect(parsed(own, SaleListResponse).sales.every((s) => s.seller._id === t.as.medicalRep.id)).toBe(true);
    const others = await t.call('GET', '/api/sales?pageSize=100', { token: t.as.user.token });
    expect(parsed(others, SaleListResponse).sales.map((s) => s._id)).not.toContain(mine._id);
    expect((await t.call('GET', '/api/sales/nope', { token: t.as.admin.token })).status).toBe(404);
  });

  it('two counters selling the last units: one sale wins whole, the other gets 409 and takes nothing', async () => {
    for (let round = 0; round < 5; round++) {
      const last = await t.product({ name: `Last Lamp ${round}`, stock: 3, price: 5 });
      const other = await t.product({ name: `Bulb ${round}`, stock: 10, price: 1 });
      const counterA = t.as.salesRep;
      const counterB = t.as.user;
      const [a, b] = await Promise.all([
        sell(counterA, {
          lines: [
            { productId: other.id, quantity: 2 },
            { productId: last.id, quantity: 3 },
          ],
          payment: { method: 'card' },
        }),
        sell(counterB, {
          lines: [
            { productId: last.id, quantity: 2 },
            { productId: other.id, quantity: 4 },
          ],
          payment: { method: 'card' },
        }),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([201, 409]);
      const lost = a.status === 409 ? a : b;
      expect(parsed(lost, ApiError).error).toMatch(new RegExp(`Last Lamp ${round}`));
      const won = a.status === 201 ? { lamp: 3, bulb: 2 } : { lamp: 2, bulb: 4 };
      expect(await stockOf(last.id)).toBe(3 - won.lamp);
      expect(await stockOf(other.id)).toBe(10 - won.bulb);
      for (const id of [last.id, other.id]) expect(await ledgerOf(id)).toBe(await stockOf(id));
      const lines = await t.sql<{ n: number }>(
        'select count(*)::int as n from orders where product_id = any($1::uuid[])',
        [[last.id, other.id]],
      );
      expect(lines[0]?.n).toBe(2);
    }
  });

  it('many sales at once: never oversold, receipt numbers unique and increasing', async () => {
    const p = await t.product({ name: 'Popular', stock: 12, price: 3 });
    const sellers = [t.as.user, t.as.salesRep, t.as.medicalRep];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        sell(sellers[i % 3] as Account, {
          lines: [{ productId: p.id, quantity: 1 }],
          payment: { method: 'cash', tendered: 5 },
        }),
      ),
    );
    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(12);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(18);
    expect(await stockOf(p.id)).toBe(0);
    expect(await ledgerOf(p.id)).toBe(0);
    const numbers = won.map((a) => parsed(a, SaleResponse).sale.number);
    expect(new Set(numbers).size).toBe(12);
    // Sales one after another get increasing numbers.
    const one = {
      lines: [{ productId: (await t.product({ stock: 5 })).id, quantity: 1 }],
      payment: { method: 'card' },
    };
    const first = parsed(await sell(t.as.user, one), SaleResponse).sale;
    const second = parsed(await sell(t.as.salesRep, one), SaleResponse).sale;
    expect(second.number).toBeGreaterThan(first.number);
    expect(first.number).toBeGreaterThan(Math.max(...numbers));
    expect(new Date(second.createdAt).getTime()).toBeGreaterThanOrEqual(new Date(first.createdAt).getTime());
  });

  /** Every striped counter's rows, keyed table:slot:key, with their figures as text. */
  const stripedCounters = async () => {
    const rows = await t.sql<{ k: string; v: string }>(`
      select 'product_totals:' || slot as k, (products, stock)::text as v from product_totals
      union all select 'category_stock:' || slot || ':' || category_id, (products, units, value)::text from category_stock
      union all select 'order_totals:' || slot, (orders, revenue)::text from order_totals
      union all select 'order_quarters:' || slot || ':' || quarter, orders::text from order_quarters
      union all select 'sales_days:' || slot || ':' || day, (orders, units, revenue, cost)::text from sales_days`);
    return new Map(rows.map((row) => [row.k, row.v]));
  };
  /** The slots of the striped counter rows that `write` changed, per table. */
  const slotsWritten = async (write: () => Promise<void>) => {
    const before = await stripedCounters();
    await write();
    const slots = new Map<string, Set<string>>();
    for (const [key, value] of await stripedCounters()) {
      if (before.get(key) === value) continue;
      const [table = '', slot = ''] = key.split(':');
      slots.set(table, (slots.get(table) ?? new Set()).add(slot));
    }
    return slots;
  };

  it('a sale, and a return, write one slot of each striped counter (so concurrent ones cannot cross)', async () => {
    const products = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t.product({ name: `Slot ${i}`, stock: 50, price: 2 + i })),
    );
    let saleId = '';
    const bySale = await slotsWritten(async () => {
      const res = await sell(t.as.user, {
        lines: products.map((p, i) => ({ productId: p.id, quantity: i + 1 })),
        payment: { method: 'card' },
      });
      expect(res.status).toBe(201);
      saleId = nth(parsed(res, SaleResponse).sale.lines).order._id;
    });
    expect([...bySale.keys()].sort()).toEqual([
      'category_stock',
      'order_quarters',
      'order_totals',
      'product_totals',
      'sales_days',
    ]);
    expect(new Set([...bySale.values()].flatMap((slots) => [...slots])).size).toBe(1);
    const byReturn = await slotsWritten(async () => {
      const res = await t.call('POST', `/api/order/${saleId}/return`, {
        token: t.as.admin.token,
        body: { quantity: 1 },
      });
      expect(res.status).toBe(200);
    });
    expect(byReturn.get('order_totals')?.size).toBe(1);
    expect(byReturn.get('product_totals')?.size).toBe(1);
    expect(new Set([...byReturn.values()].flatMap((slots) => [...slots])).size).toBe(1);
  });

  it('sales sharing products in every order at once: none deadlocks, all whole, counters add up', async () => {
    const products = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.product({ name: `Shared ${i}`, stock: 500, price: 1 + i })),
    );
    const sellers = [t.as.user, t.as.salesRep, t.as.medicalRep];
    // 24 sales of 5 lines, each taking its products in another order (rotated and reversed).
    const sales = Array.from({ length: 24 }, (_, i) => {
      const picked = Array.from({ length: 5 }, (_, j) => products[(i + j * 3) % 10] as { id: string });
      if (i % 2) picked.reverse();
      return picked.map((p, j) => ({ productId: p.id, quantity: 1 + ((i + j) % 3) }));
    });
    const answers = await Promise.all(
      sales.map((lines, i) => sell(sellers[i % 3] as Account, { lines, payment: { method: 'card' } })),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const ids = products.map((p) => p.id);
    let stock = 0;
    for (const id of ids) {
      const left = (await stockOf(id)) ?? -1;
      expect(await ledgerOf(id)).toBe(left);
      stock += left;
    }
    const requested = sales.flat().reduce((sum, line) => sum + line.quantity, 0);
    expect(stock).toBe(5000 - requested);
    const [sold] = await t.sql<{ units: number; lines: number }>(
      'select sum(quantity)::int as units, count(*)::int as lines from orders where product_id = any($1::uuid[])',
      [ids],
    );
    expect(sold).toEqual({ units: requested, lines: 120 });
    const [kept] = await t.sql<{ same: boolean }>(`
      select (select sum(stock) from product_totals) = (select sum(stock) from products)
         and (select sum(units) from category_stock) = (select sum(stock) from products) as same`);
    expect(kept?.same).toBe(true);
  });

  it('an Idempotency-Key makes a retried sale one sale with the same receipt', async () => {
    const p = await t.product({ stock: 10, price: 4 });
    const body = { lines: [{ productId: p.id, quantity: 2 }], payment: { method: 'cash', tendered: 10 } };
    const headers = { 'idempotency-key': `sale-${p.id}` };
    const [first, second] = await Promise.all([
      sell(t.as.user, body, headers),
      sell(t.as.user, body, headers),
    ]);
    const done = [first, second].filter((a) => a.status === 201);
    expect(done.length).toBeGreaterThanOrEqual(1);
    const third = await sell(t.as.user, body, headers);
    expect(third.status).toBe(201);
    expect(third.headers['idempotent-replay']).toBe('true');
    expect(parsed(third, SaleResponse).sale).toEqual(done[0] && parsed(done[0], SaleResponse).sale);
    expect(await stockOf(p.id)).toBe(8);
  });

  it('POST /api/order/add is a one-line sale: receipt numbers unique and increasing across it and the counter', async () => {
    const p = await t.product({ stock: 40, price: 1 });
    const order = (who: Account) =>
      t.call('POST', '/api/order/add', { token: who.token, body: { productId: p.id, quantity: 1 } });
    const counter = (who: Account) =>
      sell(who, { lines: [{ productId: p.id, quantity: 1 }], payment: { method: 'card' } });
    const numbers: number[] = [];
    for (const who of [t.as.user, t.as.salesRep, t.as.medicalRep, t.as.user]) {
      const placed = await order(who);
      expect(placed.status).toBe(201);
      expect(parsed(placed, OrderResponse).order.customer).toBeNull();
      numbers.push(saleNumberOf(parsed(placed, OrderResponse).order));
      numbers.push(parsed(await counter(who), SaleResponse).sale.number);
    }
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    // At once, both ways: never oversold, every number once; a refused order draws none.
    const q = await t.product({ stock: 10, price: 1 });
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 2
          ? t.call('POST', '/api/order/add', {
              token: t.as.salesRep.token,
              body: { productId: q.id, quantity: 1 },
            })
          : sell(t.as.user, { lines: [{ productId: q.id, quantity: 1 }], payment: { method: 'card' } }),
      ),
    );
    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(10);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(14);
    expect(await stockOf(q.id)).toBe(0);
    expect(await ledgerOf(q.id)).toBe(0);
    const drawn = won.map((a) => {
      const taken = parsed(a, z.union([SaleResponse, OrderResponse]));
      return 'sale' in taken ? taken.sale.number : saleNumberOf(taken.order);
    });
    expect(new Set(drawn).size).toBe(10);
    const [sales] = await t.sql<{ n: number; orders: number }>(
      `select count(distinct s.id)::int as n, count(o.id)::int as orders
       from sales s join orders o on o.sale_id = s.id where o.product_id = $1`,
      [q.id],
    );
    expect(sales).toEqual({ n: 10, orders: 10 });
    const after = saleNumberOf(parsed(await order(t.as.user), OrderResponse).order);
    expect(after).toBeGreaterThan(Math.max(...drawn));
  });

  it('GET /api/sales finds a sale by S-000123, 123 or the customer’s name, between from and to, paged', async () => {
    const p = await t.product({ stock: 100, price: 2.5 });
    const tag = `Q${Date.now().toString(36)}`;
    const zelda = (await customer({ name: `Zelda ${tag} Fitzgerald` }))._id;
    const rep = await t.account('salesRep', `Seller ${tag}`);
    const made = [] as { _id: string; number: number }[];
    for (let i = 0; i < 3; i++)
      made.push(
        parsed(
          await sell(rep, {
            lines: [
              { productId: p.id, quantity: 2 },
              { productId: (await t.product({ stock: 5, price: 1 })).id, quantity: 1 },
            ],
            customer: zelda,
            payment: { method: 'card' },
          }),
          SaleResponse,
        ).sale,
      );
    const list = async (who: Account, query: string) => {
      const res = await t.call('GET', `/api/sales?${query}`, { token: who.token });
      expect(res.status, res.text).toBe(200);
      return res.body as { sales: { _id: string; number: number }[]; total: number; page: number };
    };
    const [first, , last] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];
    const label = `S-${String(first.number).padStart(6, '0')}`;
    for (const search of [label, label.toLowerCase(), String(first.number), ` ${first.number} `]) {
      const found = await list(t.as.admin, `search=${encodeURIComponent(search)}`);
      expect(
        found.sales.map((s) => s._id),
        search,
      ).toEqual([first._id]);
      expect(found.total).toBe(1);
    }
    // Words of the customer's name, any case, each must match; newest first.
    const byName = await list(t.as.admin, `search=${encodeURIComponent(`fitzgerald ${tag.toLowerCase()}`)}`);
    expect(byName.sales.map((s) => s._id)).toEqual(made.map((s) => s._id).reverse());
    expect((await list(t.as.admin, `search=${encodeURIComponent(`${tag} Nobody`)}`)).total).toBe(0);
    // The rep finds their own sale by number; another rep does not.
    expect((await list(rep, `search=${first.number}`)).total).toBe(1);
    expect((await list(t.as.medicalRep, `search=${first.number}`)).total).toBe(0);
    expect((await list(t.as.medicalRep, `search=${tag}`)).total).toBe(0);
    // Paging: one a page.
    const page2 = await list(t.as.admin, `search=${tag}&page=2&pageSize=1`);
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 1 });
    expect(page2.sales.map((s) => s._id)).toEqual([made[1]?._id]);
    // Each row counts its lines and what came back of them.
    const line = nth(
      parsed(await t.call('GET', `/api/sales/${last._id}`, { token: t.as.admin.token }), SaleResponse).sale
        .lines,
    );
    const back = await t.call('POST', `/api/order/${line.order._id}/return`, {
      token: t.as.admin.token,
      body: { quantity: 1 },
    });
    expect(back.status, back.text).toBe(200);
    const newest = (await list(t.as.admin, `search=${tag}`)).sales[0];
    expect(newest).toMatchObject({
      _id: last._id,
      lineCount: 2,
      total: 6,
      returnedQuantity: 1,
      returnedTotal: 2.5,
      customer: { _id: zelda, name: `Zelda ${tag} Fitzgerald` },
      seller: { _id: rep.id, name: `Seller ${tag}` },
    });
    // from/to are days in the store's time zone (the test app's is UTC), both included: move the
    // first sale back a week.
    await t.sql(`update sales set created_at = created_at - interval '7 days' where id = $1`, [first._id]);
    const [{ today = '', weekAgo = '' } = {}] = await t.sql<{ today: string; weekAgo: string }>(
      `select (now() at time zone 'UTC')::date::text as today,
              (created_at at time zone 'UTC')::date::text as "weekAgo"
       from sales where id = $1`,
      [first._id],
    );
    const ids = async (query: string) =>
      (await list(t.as.admin, `search=${tag}&${query}`)).sales.map((s) => s._id);
    expect(await ids(`from=${today}`)).toEqual([last._id, made[1]?._id]);
    expect(await ids(`to=${weekAgo}`)).toEqual([first._id]);
    expect(await ids(`from=${weekAgo}&to=${weekAgo}`)).toEqual([first._id]);
    expect(await ids(`from=${weekAgo}&to=${today}`)).toHaveLength(3);
    const bad = await t.call('GET', `/api/sales?from=${today}&to=${weekAgo}`, { token: t.as.admin.token });
    expect(bad.status).toBe(400);
    expect(parsed(bad, ApiError).error).toMatch(/from date/);
    expect((await t.call('GET', '/api/sales?from=2025-02-30', { token: t.as.admin.token })).status).toBe(400);
  });

  it('GET /api/sales shows a rep only their own sales through every filter; an admin sees every seller’s', async () => {
    const p = await t.product({ stock: 50, price: 3 });
    const shared = (await customer({ name: `Shared ${Date.now()}` }))._id;
    const [ann, bob] = [await t.account('salesRep', 'Ann Rep'), await t.account('medicalRep', 'Bob Rep')];
    const sale = async (who: Account, withCustomer: boolean) =>
      parsed(
        await sell(who, {
          lines: [{ productId: p.id, quantity: 1 }],
          ...(withCustomer ? { customer: shared } : {}),
          payment: { method: 'card' },
        }),
        SaleResponse,
      ).sale._id;
    const annSales = [await sale(ann, true), await sale(ann, false)];
    const bobSales = [await sale(bob, true), await sale(bob, true)];
    const ids = async (who: Account, query: string) => {
      const res = await t.call('GET', `/api/sales?pageSize=100${query}`, { token: who.token });
      expect(res.status, res.text).toBe(200);
      return {
        ids: parsed(res, SaleListResponse).sales.map((s) => s._id) as string[],
        total: parsed(res, SaleListResponse).total,
      };
    };
    // Each rep, by customer or not, paged or not: only their own.
    expect(await ids(ann, `&customer=${shared}`)).toEqual({ ids: [annSales[0]], total: 1 });
    expect(await ids(bob, `&customer=${shared}`)).toEqual({ ids: [bobSales[1], bobSales[0]], total: 2 });
    expect(await ids(ann, `&customer=${shared}&page=2`)).toEqual({ ids: [], total: 1 });
    expect((await ids(ann, '')).ids).toEqual([annSales[1], annSales[0]]);
    expect((await ids(bob, '')).ids).toEqual([bobSales[1], bobSales[0]]);
    // The admin sees both reps' sales to the customer.
    expect(await ids(t.as.admin, `&customer=${shared}`)).toEqual({
      ids: [bobSales[1], bobSales[0], annSales[0]],
      total: 3,
    });
    // Receipts agree with the lists: a rep opens only their own.
    const receipt = (who: Account, id: string) => t.call('GET', `/api/sales/${id}`, { token: who.token });
    expect((await receipt(ann, annSales[0] as string)).status).toBe(200);
    expect((await receipt(ann, bobSales[0] as string)).status).toBe(404);
    expect((await receipt(bob, annSales[0] as string)).status).toBe(404);
    expect((await receipt(t.as.admin, bobSales[0] as string)).status).toBe(200);
    // The customer's page sums, for a rep, only the sales they made; for the admin, all three.
    const summary = async (who: Account) =>
      parsed(await t.call('GET', `/api/customers/${shared}`, { token: who.token }), CustomerDetailResponse)
        .summary;
    expect(await summary(ann)).toMatchObject({ sales: 1, totalSpent: 3 });
    expect(await summary(bob)).toMatchObject({ sales: 2, totalSpent: 6 });
    expect(await summary(t.as.admin)).toMatchObject({ sales: 3, totalSpent: 9 });
  });
});
