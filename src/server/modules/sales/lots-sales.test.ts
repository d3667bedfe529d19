import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../../shared/common';
import { OrderListResponse, OrderResponse, ReturnResponse } from '../../../shared/orders';
import { SaleResponse } from '../../../shared/sales';
import { RefundResponse } from '../../../shared/till';
import { businessError } from '../../lib/errors';
import { fixtures, nth, tag } from '../../test/fixtures';
import { type Account, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { lotLedgerOf } from '../../test/lot-ledger';
import { recordMovements } from '../stock/movements';

type LotSpec = { number: string; expiresOn: string | null; quantity: number };

/**
 * DESIGN §15, sales take first-expiry-first-out (decision 0031), through the API: a sale or an
 * order of a lot-tracked product takes its earliest unexpired lots, one movement per lot, never an
 * expired unit (409 "Only N of <product> unexpired in stock." before anything is written), answers the lots it
 * took on the order, the receipt and every order list; returns and refunds at the counter go back
 * to those lots; racing sales never take a lot below 0.
 */
describe.each(targets)('sales of lot-tracked products on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { poolSize: 12 });
  });
  afterAll(async () => t?.close());
  const { sell, stockOf } = fixtures(() => t);

  /** Today in the report zone, as the trigger judges expiry, shifted by `days`. */
  const day = async (days: number) =>
    (
      await t.sql<{ d: string }>(
        `select (((now() at time zone (select time_zone from report_settings))::date) + $1::int)::text as d`,
        [days],
      )
    )[0]?.d as string;

  /** A lot-tracked product at 0 with the given lots, each filled by a receipt movement naming it. */
  async function tracked(name: string, lots: LotSpec[], price = 2.5) {
    const named = `${name} ${tag()}`;
    const { id } = await t.product({ name: named, stock: 0, price });
    await t.sql(`update products set tracking = 'lot' where id = $1`, [id]);
    const ids: Record<string, string> = {};
    for (const lot of lots) {
      const [row] = await t.sql<{ id: string }>(
        `insert into lots (product_id, number, expires_on) values ($1, $2, $3) returning id`,
        [id, lot.number, lot.expiresOn],
      );
      ids[lot.number] = row?.id as string;
      await recordMovements({ query: t.sql }, [
        { productId: id, kind: 'receipt', quantity: lot.quantity, lotId: row?.id },
      ]);
    }
    return { id, name: named, lots: ids };
  }
  const lotQuantities = async (productId: string) =>
    Object.fromEntries(
      (
        await t.sql<{ number: string; quantity: number }>(
          `select number, quantity from lots where product_id = $1 order by number`,
          [productId],
        )
      ).map((row) => [row.number, row.quantity]),
    );
  /** Every lot = Σ its movements ≥ 0, and the product = Σ its lots = Σ its movements. */
  async function ledgerHolds(productId: string) {
    const row = await lotLedgerOf(t.sql, productId);
    expect(row).toMatchObject({
      stock: row?.lots,
      lots: row?.ledger,
      ledger: row?.stock,
      bad: 0,
      negative: 0,
    });
    return row?.stock;
  }
  /** An order's movements of a kind, by lot number. */
  const movementsOf = async (orderId: string, kind: string) =>
    (
      await t.sql<{ number: string | null; quantity: number }>(
        `select l.number, m.quantity from stock_movements m left join lots l on l.id = m.lot_id
         where m.order_id = $1 and m.kind = $2 order by l.number`,
        [orderId, kind],
      )
    ).map((row) => [row.number, row.quantity]);
  const order = (who: Account, productId: string, quantity: number) =>
    t.call('POST', '/api/order/add', { token: who.token, body: { productId, quantity } });
  const salesCount = async () =>
    (await t.sql<{ n: number }>('select count(*)::int as n from sales'))[0]?.n as number;
  const lotName = (id: string, number: string, expiresOn: string | null) => ({ _id: id, number, expiresOn });

  it('POST /api/sales takes the earliest unexpired lots first across two lots, one movement per lot, and the receipt names them', async () => {
    const [soon, late] = [await day(5), await day(60)];
    const pills = await tracked('Pills', [
      { number: 'LATE', expiresOn: late, quantity: 10 },
      { number: 'NONE', expiresOn: null, quantity: 5 },
      { number: 'SOON', expiresOn: soon, quantity: 3 },
      { number: 'GONE', expiresOn: await day(-1), quantity: 4 },
    ]);
    const gauze = await t.product({ name: `Gauze ${tag()}`, stock: 4, price: 1 });
    const res = await sell(t.as.salesRep, {
      lines: [
        { productId: gauze.id, quantity: 1 },
        { productId: pills.id, quantity: 5 },
      ],
      payment: { method: 'card' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { lines: soldLines } = parsed(res, SaleResponse).sale;
    const gauzeLine = nth(soldLines, 0);
    const pillsLine = nth(soldLines, 1);
    expect(gauzeLine.lots).toEqual([]);
    expect(pillsLine.lots).toEqual([
      { lot: lotName(pills.lots.SOON as string, 'SOON', soon), quantity: 3 },
      { lot: lotName(pills.lots.LATE as string, 'LATE', late), quantity: 2 },
    ]);
    expect(await movementsOf(pillsLine.order._id, 'sale')).toEqual([
      ['LATE', -2],
      ['SOON', -3],
    ]);
    expect(await movementsOf(gauzeLine.order._id, 'sale')).toEqual([[null, -1]]);
    expect(await lotQuantities(pills.id)).toEqual({ GONE: 4, LATE: 8, NONE: 5, SOON: 0 });
    expect(await ledgerHolds(pills.id)).toBe(17);
    // The receipt read back says the same.
    const receipt = await t.call('GET', `/api/sales/${parsed(res, SaleResponse).sale._id}`, {
      token: t.as.salesRep.token,
    });
    expect(receipt.status).toBe(200);
    expect(parsed(receipt, SaleResponse).sale.lines.map((line: { lots: unknown }) => line.lots)).toEqual([
      [],
      pillsLine.lots,
    ]);
    // And so does the counter's look-up by number.
    const byNumber = await t.call('GET', `/api/sales/by-number/${parsed(res, SaleResponse).sale.number}`, {
      token: t.as.salesRep.token,
    });
    expect(nth(parsed(byNumber, SaleResponse).sale.lines, 1).lots).toEqual(pillsLine.lots);
  });

  it('an expired lot is never taken: 409 "Only N of <product> unexpired in stock." on both routes, before anything is written', async () => {
    const syrup = await tracked('Syrup', [
      { number: 'OLD', expiresOn: await day(-1), quantity: 10 },
      { number: 'NEW', expiresOn: await day(0), quantity: 2 },
    ]);
    const plain = await t.product({ name: `Plain ${tag()}`, stock: 10 });
    const short = `Only 2 of ${syrup.name} unexpired in stock.`;
    const before = await salesCount();
    // A cart has many lines: the refusal names the line that is short, wherever it stands.
    const refusedSale = await sell(t.as.salesRep, {
      lines: [
        { productId: plain.id, quantity: 1 },
        { productId: syrup.id, quantity: 3 },
      ],
      payment: { method: 'card' },
    });
    expect(refusedSale.status).toBe(409);
    expect(refusedSale.body).toEqual({ success: false, code: 'UNEXPIRED_SHORT', error: short });
    const refusedOrder = await order(t.as.salesRep, syrup.id, 3);
    expect(refusedOrder.status).toBe(409);
    expect(refusedOrder.body).toEqual({ success: false, code: 'UNEXPIRED_SHORT', error: short });
    // Nor found at the counter: an admin overriding stock is refused the same way.
    const overridden = await sell(t.as.admin, {
      lines: [{ productId: syrup.id, quantity: 3, overrideStock: true }],
      payment: { method: 'card' },
    });
    expect(overridden.status).toBe(409);
    expect(parsed(overridden, ApiError).error).toBe(short);
    expect(await salesCount()).toBe(before);
    expect(await lotQuantities(syrup.id)).toEqual({ NEW: 2, OLD: 10 });
    expect(await stockOf(plain.id)).toBe(10);

    // The trigger refuses in the very same sentence (a sale the cart's read could not see coming).
    let ledgerRefusal: string | undefined;
    try {
      await recordMovements({ query: t.sql }, [{ productId: syrup.id, kind: 'sale', quantity: -3 }]);
    } catch (error) {
      ledgerRefusal = businessError(error)?.message;
    }
    expect(ledgerRefusal).toBe(parsed(refusedSale, ApiError).error);

    // Two units are there to sell (expiring today is not expired); then none, in the same words.
    const two = await order(t.as.salesRep, syrup.id, 2);
    expect(two.status).toBe(201);
    expect(parsed(two, OrderResponse).order.lots).toEqual([
      { lot: lotName(syrup.lots.NEW as string, 'NEW', await day(0)), quantity: 2 },
    ]);
    const none = await sell(t.as.salesRep, {
      lines: [{ productId: syrup.id, quantity: 1 }],
      payment: { method: 'card' },
    });
    expect(none.status).toBe(409);
    expect(parsed(none, ApiError).error).toBe(`Only 0 of ${syrup.name} unexpired in stock.`);
    expect(await lotQuantities(syrup.id)).toEqual({ NEW: 0, OLD: 10 });
    expect(await ledgerHolds(syrup.id)).toBe(10);
    // The refusals drew no receipt number: the next sale's follows the last one written.
    const fine = await t.product({ stock: 1 });
    const next = await sell(t.as.salesRep, {
      lines: [{ productId: fine.id, quantity: 1 }],
      payment: { method: 'card' },
    });
    const [last] = await t.sql<{ n: string }>(`select max(number)::text as n from sales where id <> $1`, [
      parsed(next, SaleResponse).sale._id,
    ]);
    expect(parsed(next, SaleResponse).sale.number).toBe(Number(last?.n) + 1);
  });

  it('an untracked product short of stock keeps its own sentences', async () => {
    const pen = await t.product({ name: `Pen ${tag()}`, stock: 1 });
    const sale = await sell(t.as.salesRep, {
      lines: [{ productId: pen.id, quantity: 2 }],
      payment: { method: 'card' },
    });
    expect(parsed(sale, ApiError).error).toMatch(/^Not enough stock of Pen .* at Main store: 1 left\.$/);
    // DESIGN §17: the catalogue's order says the same sentence, at the seller's location.
    expect(parsed(await order(t.as.salesRep, pen.id, 2), ApiError).error).toMatch(
      /^Not enough stock of Pen .* at Main store: 1 left\.$/,
    );
  });

  it('POST /api/order/add answers the lots it took, and every order list carries them ([] without lots)', async () => {
    const [a, b] = [await day(10), await day(20)];
    const drops = await tracked('Drops', [
      { number: 'A', expiresOn: a, quantity: 2 },
      { number: 'B', expiresOn: b, quantity: 5 },
    ]);
    const plain = await t.product({ name: `Plain ${tag()}`, stock: 5 });
    const seller = await t.account('salesRep');
    const placed = await order(seller, drops.id, 3);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const lots = [
      { lot: lotName(drops.lots.A as string, 'A', a), quantity: 2 },
      { lot: lotName(drops.lots.B as string, 'B', b), quantity: 1 },
    ];
    expect(parsed(placed, OrderResponse).order.lots).toEqual(lots);
    const other = await order(seller, plain.id, 1);
    expect(parsed(other, OrderResponse).order.lots).toEqual([]);

    const listed = async (who: Account, userId: string, query: string) => {
      const res = await t.call('GET', `/api/order/${userId}${query}`, { token: who.token });
      expect(res.status).toBe(200);
      const byId = new Map<string, unknown>(
        parsed(res, OrderListResponse).orders.map((o) => [o._id, o.lots]),
      );
      return [
        byId.get(parsed(placed, OrderResponse).order._id),
        byId.get(parsed(other, OrderResponse).order._id),
      ];
    };
    for (const query of ['?page=1&pageSize=10', '']) {
      // A seller's own, the admin's view of that seller, and the admin's every order.
      expect(await listed(seller, seller.id, query)).toEqual([lots, []]);
      expect(await listed(t.as.admin, seller.id, query)).toEqual([lots, []]);
    }
    const everyone = await t.call(
      'GET',
      `/api/order/${t.as.admin.id}?search=${encodeURIComponent('Drops')}`,
      {
        token: t.as.admin.token,
      },
    );
    const mine = parsed(everyone, OrderListResponse).orders.find(
      (o) => o._id === parsed(placed, OrderResponse).order._id,
    );
    expect(mine?.lots).toEqual(lots);
    expect(parsed(everyone, OrderListResponse).orders.every((o) => Array.isArray(o.lots))).toBe(true);
  });

  it('POST /api/order/:id/return sends units back to the lots the order took from, a partial then a full return', async () => {
    const [a, b] = [await day(10), await day(20)];
    const cream = await tracked('Cream', [
      { number: 'A', expiresOn: a, quantity: 2 },
      { number: 'B', expiresOn: b, quantity: 5 },
    ]);
    const placed = await order(t.as.salesRep, cream.id, 4);
    expect(placed.status).toBe(201);
    const id = parsed(placed, OrderResponse).order._id;
    expect(await lotQuantities(cream.id)).toEqual({ A: 0, B: 3 });
    const back = (quantity: number) =>
      t.call('POST', `/api/order/${id}/return`, { token: t.as.admin.token, body: { quantity } });
    const partial = await back(3);
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    // The latest expiry first: B gave 2 and takes 2 back, A gave 2 and takes 1.
    expect(await lotQuantities(cream.id)).toEqual({ A: 1, B: 5 });
    expect(await movementsOf(id, 'return')).toEqual([
      ['A', 1],
      ['B', 2],
    ]);
    // The order still names what it took.
    expect(parsed(partial, ReturnResponse).order.lots).toEqual([
      { lot: lotName(cream.lots.A as string, 'A', a), quantity: 2 },
      { lot: lotName(cream.lots.B as string, 'B', b), quantity: 2 },
    ]);
    await ledgerHolds(cream.id);
    const full = await back(1);
    expect(full.status).toBe(200);
    expect(parsed(full, ReturnResponse).order).toMatchObject({ status: 'returned', returnedQuantity: 4 });
    expect(await lotQuantities(cream.id)).toEqual({ A: 2, B: 5 });
    expect(await ledgerHolds(cream.id)).toBe(7);
    expect((await back(1)).status).toBe(409);
  });

  it("the counter's refunds send units back to the order's lots, and restock false writes them off from there", async () => {
    const [a, b] = [await day(3), await day(30)];
    const balm = await tracked('Balm', [
      { number: 'A', expiresOn: a, quantity: 3 },
      { number: 'B', expiresOn: b, quantity: 4 },
    ]);
    const sold = await sell(t.as.salesRep, {
      lines: [{ productId: balm.id, quantity: 5 }],
      payment: { method: 'card' },
    });
    expect(sold.status).toBe(201);
    const orderId = nth(parsed(sold, SaleResponse).sale.lines).order._id;
    expect(await lotQuantities(balm.id)).toEqual({ A: 0, B: 2 });
    const refund = (quantity: number, restock: boolean) =>
      t.call('POST', `/api/sales/${parsed(sold, SaleResponse).sale._id}/refunds`, {
        token: t.as.salesRep.token,
        body: { lines: [{ order: orderId, quantity }], method: 'card', restock },
      });
    // The latest expiry first: B gave 2 and takes 1 back.
    const partial = await refund(1, true);
    expect(partial.status, JSON.stringify(partial.body)).toBe(201);
    expect(await lotQuantities(balm.id)).toEqual({ A: 0, B: 3 });
    await ledgerHolds(balm.id);
    // Damaged: back to the lots (B's last unit, then A), then written off from each, one per lot.
    const damaged = await refund(3, false);
    expect(damaged.status, JSON.stringify(damaged.body)).toBe(201);
    const moves = await t.sql<{ kind: string; number: string; quantity: number; reason: string }>(
      `select m.kind, l.number, m.quantity, m.reason from stock_movements m join lots l on l.id = m.lot_id
       where m.refund_id = $1 order by m.kind desc, l.number`,
      [parsed(damaged, RefundResponse).refund._id],
    );
    expect(moves).toEqual([
      { kind: 'return', number: 'A', quantity: 2, reason: 'returned' },
      { kind: 'return', number: 'B', quantity: 1, reason: 'returned' },
      { kind: 'adjustment', number: 'A', quantity: -2, reason: 'damaged' },
      { kind: 'adjustment', number: 'B', quantity: -1, reason: 'damaged' },
    ]);
    expect(await lotQuantities(balm.id)).toEqual({ A: 0, B: 3 });
    expect(await ledgerHolds(balm.id)).toBe(3);
    // The last unit: back to A, the one lot with units still out.
    expect((await refund(1, true)).status).toBe(201);
    expect(await lotQuantities(balm.id)).toEqual({ A: 1, B: 3 });
    expect(await ledgerHolds(balm.id)).toBe(4);
    const receipt = await t.call('GET', `/api/sales/${parsed(sold, SaleResponse).sale._id}`, {
      token: t.as.salesRep.token,
    });
    expect(nth(parsed(receipt, SaleResponse).sale.lines)).toMatchObject({ returnedQuantity: 5 });
  });

  it('30 sales racing for two small lots: exactly 15 go through, both lots end at 0, never below', async () => {
    // Beside an expired lot, which none of them may take.
    const tablets = await tracked('Tablets', [
      { number: 'TEN', expiresOn: await day(30), quantity: 10 },
      { number: 'FIVE', expiresOn: await day(90), quantity: 5 },
      { number: 'OLD', expiresOn: await day(-3), quantity: 4 },
    ]);
    const sellers = await Promise.all([t.account('salesRep'), t.account('user')]);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0
          ? sell(sellers[0], { lines: [{ productId: tablets.id, quantity: 1 }], payment: { method: 'card' } })
          : order(sellers[1], tablets.id, 1),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(15);
    expect(statuses.filter((status) => status === 409)).toHaveLength(15);
    for (const res of answers.filter((r) => r.status === 409))
      expect(parsed(res, ApiError).error).toMatch(/^Only \d+ of Tablets \w+ unexpired in stock\.$/);
    expect(await lotQuantities(tablets.id)).toEqual({ FIVE: 0, OLD: 4, TEN: 0 });
    expect(await ledgerHolds(tablets.id)).toBe(4);
    // Each order's lots add up to its one unit, and the database agrees with every answer.
    const answered = answers
      .filter((r) => r.status === 201)
      .map((r) => {
        const taken = parsed(r, z.union([OrderResponse, SaleResponse]));
        if ('order' in taken) return taken.order;
        const line = nth(taken.sale.lines);
        return { _id: line.order._id, ...line };
      });
    for (const placed of answered) {
      expect(placed.lots.reduce((sum, lot) => sum + lot.quantity, 0)).toBe(1);
      expect(await movementsOf(placed._id, 'sale')).toEqual([[nth(placed.lots).lot.number, -1]]);
    }
    const taken = answered.flatMap((placed) => placed.lots.map((lot) => lot.lot.number));
    expect(taken.filter((number) => number === 'TEN')).toHaveLength(10);
    expect(taken.filter((number) => number === 'FIVE')).toHaveLength(5);
    const [orders] = await t.sql<{ n: number; units: number }>(
      `select count(*)::int as n, sum(quantity)::int as units from orders where product_id = $1`,
      [tablets.id],
    );
    expect(orders).toEqual({ n: 15, units: 15 });
    // Every refusal came from the cart's read, before the sale drew its number: no gaps.
    const numbers = (
      await t.sql<{ n: string }>(
        `select s.number::text as n from sales s join orders o on o.sale_id = s.id
         where o.product_id = $1 order by s.number`,
        [tablets.id],
      )
    ).map((row) => Number(row.n));
    expect(numbers).toHaveLength(15);
    expect((numbers.at(-1) ?? 0) - (numbers[0] ?? 0)).toBe(14);
  });

  it('hostile quantities for a lot-tracked product are a 400 with one sentence, never a 500', async () => {
    const gel = await tracked('Gel', [{ number: 'G', expiresOn: await day(10), quantity: 3 }]);
    const hostile: unknown[] = [
      0,
      -1,
      1.5,
      Number.NaN,
      'NaN',
      1e12,
      2 ** 31,
      [1],
      null,
      'x'.repeat(10_000),
      '\u0000',
    ];
    for (const quantity of hostile) {
      for (const res of [
        await t.call('POST', '/api/order/add', {
          token: t.as.salesRep.token,
          body: { productId: gel.id, quantity },
        }),
        await sell(t.as.salesRep, { lines: [{ productId: gel.id, quantity }], payment: { method: 'card' } }),
      ]) {
        // 413 for a body above the route's limit, 400 for the rest.
        expect([400, 413], `${JSON.stringify(quantity).slice(0, 40)}: ${res.text}`).toContain(res.status);
        expect(parsed(res, ApiError).error).toMatch(/^[^\n]+\.$/);
      }
    }
    expect(await lotQuantities(gel.id)).toEqual({ G: 3 });
    await ledgerHolds(gel.id);
  });
});
