import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { SaleResponse, saleNumberLabel } from '../../../shared/sales';
import { RefundResponse, refundNumberLabel, SessionResponse } from '../../../shared/till';
import { fixtures, nth, tag } from '../../test/fixtures';
import { type Account, parsed, startApp, type TestApp, targets } from '../../test/harness';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** DESIGN §13, refunds at the counter: find a receipt by number, refund its lines, read the refund. */
describe.each(targets)('refunds at the counter on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { poolSize: 12 });
  });
  afterAll(() => t?.close());

  const { sold: sell, stockOf, ledgerOf, taxRate, customer } = fixtures(() => t);
  const refund = (who: Account, saleId: string, body: unknown, headers: Record<string, string> = {}) =>
    t.call('POST', `/api/sales/${saleId}/refunds`, { token: who.token, body, headers });
  const orderOf = async (id: string) =>
    (
      await t.sql<{
        returned_quantity: number;
        returned_total: string;
        returned_tax: string;
        status: string;
      }>(
        `select returned_quantity, returned_total::text as returned_total, returned_tax::text as returned_tax,
                status from orders where id = $1`,
        [id],
      )
    )[0];
  const refundCount = async (saleId: string) =>
    (await t.sql<{ n: number }>('select count(*)::int as n from refunds where sale_id = $1', [saleId]))[0]?.n;
  /**
   * An open session on a register of its own (one open session per register). Opening a session
   * and selling into one are other endpoints' work; here the rows are written as they would.
   */
  const openSession = async (openingFloat: string) => {
    const [register] = await t.sql<{ id: string }>('insert into registers (name) values ($1) returning id', [
      `Till ${tag()}`,
    ]);
    const [session] = await t.sql<{ id: string; number: string }>(
      `insert into register_sessions (register_id, opened_by_id, opened_by_name, opening_float)
       values ($1, $2, 'Opener', $3) returning id, number::text`,
      [register?.id, t.as.salesRep.id, openingFloat],
    );
    return { _id: session?.id as string, number: Number(session?.number) };
  };
  const closeSession = (id: string) =>
    t.sql(
      `update register_sessions set status = 'closed', closed_at = now(), counted_cash = 0, expected_cash = 0
       where id = $1`,
      [id],
    );
  const saleInSession = (saleId: string, sessionId: string) =>
    t.sql('update sales set session_id = $2 where id = $1', [saleId, sessionId]);

  it('a whole sale refunded unit by unit gives back exactly what was paid: 9.67, 9.66, 9.67, the tax likewise', async () => {
    const pen = await t.product({ name: `Pen ${tag()}`, stock: 10, price: 10 });
    const ink = await t.product({ name: `Ink ${tag()}`, stock: 10, price: 3.33 });
    await t.sql('update products set tax_rate_id = $2 where id = $1', [
      ink.id,
      (await taxRate({ rate: 20 }))._id,
    ]);
    const sale = await sell(t.as.user, {
      lines: [
        { productId: pen.id, quantity: 3, discount: { type: 'amount', value: 1 } },
        { productId: ink.id, quantity: 3 },
      ],
      payment: { method: 'card' },
    });
    const [penLine, inkLine] = [nth(sale.lines, 0), nth(sale.lines, 1)];
    expect(penLine).toMatchObject({ total: 29, tax: 0 });
    expect(inkLine).toMatchObject({ total: 11.99, tax: 2 });
    expect(sale.total).toBe(40.99);

    const given = [];
    for (let i = 0; i < 3; i++) {
      // A clerk other than the seller refunds: any staff member refunds any sale.
      const res = await refund(t.as.salesRep, sale._id, {
        lines: [
          { order: inkLine.order._id, quantity: 1 },
          { order: penLine.order._id, quantity: 1 },
        ],
        method: 'card',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      given.push(parsed(res, RefundResponse).refund);
    }
    // Lines in receipt order, each by the pro-rata rule; the last unit takes what is left.
    expect(given.map((r) => r.lines.map((l: { amount: number }) => l.amount))).toEqual([
      [9.67, 4],
      [9.66, 3.99],
      [9.67, 4],
    ]);
    expect(given.map((r) => r.lines.map((l: { tax: number }) => l.tax))).toEqual([
      [0, 0.67],
      [0, 0.66],
      [0, 0.67],
    ]);
    expect(given.map((r) => r.total)).toEqual([13.67, 13.65, 13.67]);
    expect(given.map((r) => r.tax)).toEqual([0.67, 0.66, 0.67]);
    expect(Math.round(given.reduce((sum, r) => sum + r.total * 100, 0))).toBe(4099);
    expect(await orderOf(penLine.order._id)).toEqual({
      returned_quantity: 3,
      returned_total: '29.00',
      returned_tax: '0.00',
      status: 'returned',
    });
    expect(await orderOf(inkLine.order._id)).toEqual({
      returned_quantity: 3,
      returned_total: '11.99',
      returned_tax: '2.00',
      status: 'returned',
    });

    const first = nth(given);
    expect(first).toMatchObject({
      number: expect.any(Number),
      sale: { _id: sale._id, number: sale.number },
      session: null,
      method: 'card',
      restock: true,
      reason: '',
      customer: null,
      user: { _id: t.as.salesRep.id, name: t.as.salesRep.name },
      lines: [
        {
          order: { _id: penLine.order._id },
          product: { _id: pen.id, name: penLine.product.name },
          quantity: 1,
        },
        {
          order: { _id: inkLine.order._id },
          product: { _id: ink.id, name: inkLine.product.name },
          quantity: 1,
        },
      ],
    });
    expect(nth(given, 1).number).toBeGreaterThan(first.number);

    // Every unit is back: one more is refused, naming the product.
    const more = await refund(t.as.salesRep, sale._id, {
      lines: [{ order: penLine.order._id, quantity: 1 }],
      method: 'card',
    });
    expect(more.status).toBe(409);
    expect(parsed(more, ApiError).error).toBe(
      `Every unit of ${penLine.product.name} was already given back.`,
    );

    // Restocked: the units are back, each movement a return naming its refund.
    expect(await stockOf(pen.id)).toBe(10);
    expect(await ledgerOf(pen.id)).toBe(10);
    const movements = await t.sql<{
      kind: string;
      quantity: number;
      reason: string;
      note: string;
      refund_id: string;
    }>(
      `select kind, quantity, reason, note, refund_id from stock_movements
       where product_id = $1 and kind = 'return' order by at`,
      [pen.id],
    );
    expect(movements).toEqual(
      given.map((r) => ({
        kind: 'return',
        quantity: 1,
        reason: 'returned',
        note: `Refund ${refundNumberLabel(r.number)}`,
        refund_id: r._id,
      })),
    );

    // The receipt lists its refunds; the refund's own receipt reads the same as its answer.
    const receipt = await t.call('GET', `/api/sales/${sale._id}`, { token: t.as.admin.token });
    expect(parsed(receipt, SaleResponse).sale.refunds).toEqual(
      given.map((r) => ({
        _id: r._id,
        number: r.number,
        total: r.total,
        method: 'card',
        createdAt: r.createdAt,
      })),
    );
    expect(nth(parsed(receipt, SaleResponse).sale.lines)).toMatchObject({
      returnedQuantity: 3,
      returnedTotal: 29,
    });
    const read = await t.call('GET', `/api/refunds/${first._id}`, { token: t.as.medicalRep.token });
    expect(read.status).toBe(200);
    expect(parsed(read, RefundResponse).refund).toEqual(first);

    // One audit entry per refund.
    const [audit] = await t.sql<{
      action: string;
      entity_type: string;
      entity_name: string;
      changes: unknown;
    }>('select action, entity_type, entity_name, changes from audit_log where entity_id = $1', [first._id]);
    expect(audit).toEqual({
      action: 'refunded',
      entity_type: 'refund',
      entity_name: refundNumberLabel(first.number),
      changes: [
        { field: 'sale', new: saleNumberLabel(sale.number) },
        { field: 'total', new: 13.67 },
        { field: 'method', new: 'card' },
        { field: 'restock', new: true },
      ],
    });
  });

  it('refunds part of a line; lines naming one order add up; more than is left is a 409 naming what is left', async () => {
    const kettle = await t.product({ name: `Kettle ${tag()}`, stock: 9, price: 20 });
    const sale = await sell(t.as.salesRep, {
      lines: [{ productId: kettle.id, quantity: 5 }],
      payment: { method: 'other' },
    });
    const order = nth(sale.lines).order._id;
    const two = await refund(t.as.salesRep, sale._id, {
      lines: [
        { order, quantity: 2 },
        { order, quantity: 2 },
      ],
      method: 'other',
      reason: '  Did not fit  ',
    });
    expect(two.status).toBe(201);
    expect(parsed(two, RefundResponse).refund).toMatchObject({
      total: 80,
      reason: 'Did not fit',
      lines: [{ order: { _id: order }, quantity: 4, amount: 80, tax: 0 }],
    });
    expect(await orderOf(order)).toMatchObject({ returned_quantity: 4, status: 'placed' });
    const tooMany = await refund(t.as.salesRep, sale._id, {
      lines: [{ order, quantity: 2 }],
      method: 'other',
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body).toEqual({
      success: false,
      code: 'RETURN_TOO_MANY',
      error: `Only 1 of ${nth(sale.lines).product.name} can still be refunded.`,
    });
    expect(await orderOf(order)).toMatchObject({ returned_quantity: 4 });
    const last = await refund(t.as.salesRep, sale._id, { lines: [{ order, quantity: 1 }], method: 'other' });
    expect(last.status).toBe(201);
    expect(await orderOf(order)).toEqual({
      returned_quantity: 5,
      returned_total: '100.00',
      returned_tax: '0.00',
      status: 'returned',
    });
    expect(await stockOf(kettle.id)).toBe(9);
    const [movement] = await t.sql<{ note: string }>(
      "select note from stock_movements where refund_id = $1 and kind = 'return'",
      [parsed(two, RefundResponse).refund._id],
    );
    expect(movement?.note).toBe(
      `Refund ${refundNumberLabel(parsed(two, RefundResponse).refund.number)}: Did not fit`,
    );
  });

  it('racing refunds never give back more than was sold: 8 one-unit refunds of 5 units, exactly 5 succeed', async () => {
    const cup = await t.product({ name: `Cup ${tag()}`, stock: 5, price: 3.33 });
    const saucer = await t.product({ name: `Saucer ${tag()}`, stock: 5, price: 1 });
    const sale = await sell(t.as.salesRep, {
      lines: [
        { productId: cup.id, quantity: 5 },
        { productId: saucer.id, quantity: 5 },
      ],
      payment: { method: 'card' },
    });
    const [cupOrder, saucerOrder] = [nth(sale.lines, 0).order._id, nth(sale.lines, 1).order._id];
    // Half the refunds name the lines in one order, half in the other: they lock in one order.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, at) =>
        refund(t.as.salesRep, sale._id, {
          lines:
            at % 2 === 0
              ? [
                  { order: cupOrder, quantity: 1 },
                  { order: saucerOrder, quantity: 1 },
                ]
              : [
                  { order: saucerOrder, quantity: 1 },
                  { order: cupOrder, quantity: 1 },
                ],
          method: 'card',
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(parsed(refused, ApiError).error).toMatch(
        /^Every unit of (Cup|Saucer) .* was already given back\.$/,
      );
    expect(await orderOf(cupOrder)).toEqual({
      returned_quantity: 5,
      returned_total: '16.65',
      returned_tax: '0.00',
      status: 'returned',
    });
    expect(await orderOf(saucerOrder)).toMatchObject({ returned_quantity: 5, returned_total: '5.00' });
    const [sum] = await t.sql<{ total: string; n: number }>(
      'select sum(total)::text as total, count(*)::int as n from refunds where sale_id = $1',
      [sale._id],
    );
    expect(sum).toEqual({ total: '21.65', n: 5 });
    for (const product of [cup, saucer]) {
      expect(await stockOf(product.id)).toBe(5);
      expect(await ledgerOf(product.id)).toBe(5);
    }
  });

  it('refunds, returns and sales of the same products at once: none fails, stock = Σ movements', async () => {
    const salt = await t.product({ name: `Salt ${tag()}`, stock: 40, price: 2 });
    const pepper = await t.product({ name: `Pepper ${tag()}`, stock: 40, price: 3 });
    const both = (first: string, second: string) => ({
      lines: [
        { productId: first, quantity: 2 },
        { productId: second, quantity: 2 },
      ],
      payment: { method: 'card' as const },
    });
    const sold = [];
    for (let i = 0; i < 6; i++) sold.push(await sell(t.as.salesRep, both(salt.id, pepper.id)));
    const lineOrders = (sale: { lines: { order: { _id: string } }[] }) =>
      sale.lines.map((line) => line.order._id);
    const work = [
      ...sold.slice(0, 3).map((sale, at) => {
        const ids = lineOrders(sale);
        const lines = ids.map((order) => ({ order, quantity: 1 }));
        return refund(t.as.salesRep, sale._id, { lines: at % 2 ? lines.reverse() : lines, method: 'card' });
      }),
      ...sold
        .slice(3)
        .flatMap((sale) =>
          lineOrders(sale).map((order) =>
            t.call('POST', `/api/order/${order}/return`, { token: t.as.admin.token, body: { quantity: 1 } }),
          ),
        ),
      ...Array.from({ length: 4 }, (_, at) =>
        t.call('POST', '/api/sales', {
          token: t.as.user.token,
          body: at % 2 ? both(pepper.id, salt.id) : both(salt.id, pepper.id),
        }),
      ),
    ];
    const answers = await Promise.all(work);
    expect(answers.map((a) => a.status).filter((status) => status >= 300)).toEqual([]);
    // 40 − 6 sales × 2 + 3 refunds × 1 + 3 returns × 1 − 4 sales × 2 = 26.
    for (const product of [salt, pepper]) {
      expect(await stockOf(product.id)).toBe(26);
      expect(await ledgerOf(product.id)).toBe(26);
    }
  });

  it('restock false writes the return and then a damaged adjustment of the same units, both naming the refund', async () => {
    const vase = await t.product({ name: `Vase ${tag()}`, stock: 4, price: 12.5 });
    const sale = await sell(t.as.salesRep, {
      lines: [{ productId: vase.id, quantity: 3 }],
      payment: { method: 'card' },
    });
    expect(await stockOf(vase.id)).toBe(1);
    const res = await refund(t.as.salesRep, sale._id, {
      lines: [{ order: nth(sale.lines).order._id, quantity: 2 }],
      method: 'card',
      restock: false,
      reason: 'Broken',
    });
    expect(res.status).toBe(201);
    expect(parsed(res, RefundResponse).refund).toMatchObject({ restock: false, total: 25 });
    const label = refundNumberLabel(parsed(res, RefundResponse).refund.number);
    const movements = await t.sql<{
      kind: string;
      quantity: number;
      reason: string;
      stock_after: number;
      note: string;
      order_id: string;
    }>(
      `select kind, quantity, reason, stock_after, note, order_id from stock_movements
       where refund_id = $1 order by at`,
      [parsed(res, RefundResponse).refund._id],
    );
    expect(movements).toEqual([
      {
        kind: 'return',
        quantity: 2,
        reason: 'returned',
        stock_after: 3,
        note: `Refund ${label}: Broken`,
        order_id: nth(sale.lines).order._id,
      },
      {
        kind: 'adjustment',
        quantity: -2,
        reason: 'damaged',
        stock_after: 1,
        note: `Refund ${label}: written off`,
        order_id: nth(sale.lines).order._id,
      },
    ]);
    expect(await stockOf(vase.id)).toBe(1);
    expect(await ledgerOf(vase.id)).toBe(1);
    // The money comes back all the same.
    expect(await orderOf(nth(sale.lines).order._id)).toMatchObject({
      returned_quantity: 2,
      returned_total: '25.00',
    });
  });

  it('storeCredit gives the sale’s customer credit (an entry naming the refund); without a customer 400', async () => {
    const book = await t.product({ name: `Book ${tag()}`, stock: 5, price: 7.25 });
    const buyer = (await customer({ name: `Reader ${tag()}` }))._id;
    const sale = await sell(t.as.salesRep, {
      lines: [{ productId: book.id, quantity: 2 }],
      customer: buyer,
      payment: { method: 'card' },
    });
    const res = await refund(t.as.user, sale._id, {
      lines: [{ order: nth(sale.lines).order._id, quantity: 2 }],
      method: 'storeCredit',
    });
    expect(res.status).toBe(201);
    expect(parsed(res, RefundResponse).refund).toMatchObject({
      method: 'storeCredit',
      total: 14.5,
      customer: { _id: buyer },
    });
    const entries = await t.sql<{
      amount: string;
      kind: string;
      refund_id: string;
      sale_id: string;
      balance_after: string;
    }>(
      `select amount::text as amount, kind, refund_id, sale_id, balance_after::text as balance_after
       from store_credit_entries where customer_id = $1`,
      [buyer],
    );
    expect(entries).toEqual([
      {
        amount: '14.50',
        kind: 'refund',
        refund_id: parsed(res, RefundResponse).refund._id,
        sale_id: sale._id,
        balance_after: '14.50',
      },
    ]);
    const [balance] = await t.sql<{ credit_balance: string }>(
      'select credit_balance::text as credit_balance from customers where id = $1',
      [buyer],
    );
    expect(balance?.credit_balance).toBe('14.50');

    const anonymous = await sell(t.as.salesRep, {
      lines: [{ productId: book.id, quantity: 1 }],
      payment: { method: 'card' },
    });
    const refused = await refund(t.as.salesRep, anonymous._id, {
      lines: [{ order: nth(anonymous.lines).order._id, quantity: 1 }],
      method: 'storeCredit',
    });
    expect(refused.status).toBe(400);
    expect(parsed(refused, ApiError).error).toBe(
      'A store credit refund needs the sale’s customer; this sale has none.',
    );
    expect(await orderOf(nth(anonymous.lines).order._id)).toMatchObject({ returned_quantity: 0 });
  });

  it('cash comes out of an open session’s drawer: none 400, unknown 404, closed 409, short 409', async () => {
    const lamp = await t.product({ name: `Lamp ${tag()}`, stock: 10, price: 30 });
    const sale = await sell(t.as.salesRep, {
      lines: [{ productId: lamp.id, quantity: 3 }],
      payment: { method: 'cash', tendered: 100 },
    });
    const order = nth(sale.lines).order._id;
    const one = { lines: [{ order, quantity: 1 }], method: 'cash' };

    const none = await refund(t.as.salesRep, sale._id, one);
    expect(none.status).toBe(400);
    expect(parsed(none, ApiError).error).toBe('A cash refund needs an open till session.');
    const unknown = await refund(t.as.salesRep, sale._id, { ...one, session: UNKNOWN });
    expect(unknown.status).toBe(404);
    expect(parsed(unknown, ApiError).error).toBe('Till session not found.');
    const closed = await openSession('100');
    await closeSession(closed._id);
    const late = await refund(t.as.salesRep, sale._id, { ...one, session: closed._id });
    expect(late.status).toBe(409);
    expect(parsed(late, ApiError).error).toBe(`Till session #${closed.number} is closed.`);

    // The drawer: its float 20.00, and the sale is not (yet) one of its sales.
    const session = await openSession('20');
    const short = await refund(t.as.salesRep, sale._id, { ...one, session: session._id });
    expect(short.status).toBe(409);
    expect(parsed(short, ApiError).error).toBe('The drawer holds only $20.00.');
    expect(await orderOf(order)).toMatchObject({ returned_quantity: 0, returned_total: '0.00' });

    // Its cash sale (90.00 net of change), cash put in (5.00) and taken out (−10.00) count too.
    await saleInSession(sale._id, session._id);
    await t.sql(
      `insert into cash_movements (session_id, amount, reason, user_name)
       values ($1, 5, 'Coins', 'Clerk'), ($1, -10, 'Lunch', 'Clerk')`,
      [session._id],
    );
    const paid = await refund(t.as.salesRep, sale._id, {
      lines: [{ order, quantity: 2 }],
      method: 'cash',
      session: session._id,
    });
    expect(paid.status).toBe(201);
    expect(parsed(paid, RefundResponse).refund).toMatchObject({
      total: 60,
      method: 'cash',
      session: session,
    });
    // 20 + 90 + 5 − 10 − 60 = 45 left: the last 30.00 fits, but not twice over.
    const third = await refund(t.as.salesRep, sale._id, { ...one, session: session._id });
    expect(third.status).toBe(201);
    const other = await sell(t.as.salesRep, {
      lines: [{ productId: lamp.id, quantity: 1 }],
      payment: { method: 'cash' },
    });
    const empty = await refund(t.as.salesRep, other._id, {
      lines: [{ order: nth(other.lines).order._id, quantity: 1 }],
      method: 'cash',
      session: session._id,
    });
    expect(empty.status).toBe(409);
    expect(parsed(empty, ApiError).error).toBe('The drawer holds only $15.00.');

    // A card refund may name a session (recorded) or none.
    const carded = await sell(t.as.salesRep, {
      lines: [{ productId: lamp.id, quantity: 2 }],
      payment: { method: 'card' },
    });
    const withSession = await refund(t.as.salesRep, carded._id, {
      lines: [{ order: nth(carded.lines).order._id, quantity: 1 }],
      method: 'card',
      session: session._id,
    });
    expect(withSession.status).toBe(201);
    expect(parsed(withSession, RefundResponse).refund.session).toEqual(session);
    const [recorded] = await t.sql<{ session_id: string }>('select session_id from refunds where id = $1', [
      parsed(withSession, RefundResponse).refund._id,
    ]);
    expect(recorded?.session_id).toBe(session._id);
    const closedCard = await refund(t.as.salesRep, carded._id, {
      lines: [{ order: nth(carded.lines).order._id, quantity: 1 }],
      method: 'card',
      session: closed._id,
    });
    expect(closedCard.status).toBe(409);
  });

  it('a product or customer deleted since the sale: the refund keeps the snapshot, no stock movement, no store credit', async () => {
    const gone = await t.product({ name: `Gone ${tag()}`, stock: 4, price: 5 });
    const buyer = (await customer({ name: `Leaver ${tag()}` }))._id;
    const sale = await sell(t.as.salesRep, {
      lines: [{ productId: gone.id, quantity: 2 }],
      customer: buyer,
      payment: { method: 'card' },
    });
    const name = nth(sale.lines).product.name;
    expect((await t.call('DELETE', `/api/products/${gone.id}`, { token: t.as.admin.token })).status).toBe(
      200,
    );
    expect((await t.call('DELETE', `/api/customers/${buyer}`, { token: t.as.admin.token })).status).toBe(200);
    const line = { order: nth(sale.lines).order._id, quantity: 1 };
    const credit = await refund(t.as.salesRep, sale._id, { lines: [line], method: 'storeCredit' });
    expect(credit.status).toBe(400);
    const res = await refund(t.as.salesRep, sale._id, { lines: [line], method: 'card', restock: false });
    expect(res.status).toBe(201);
    expect(parsed(res, RefundResponse).refund).toMatchObject({
      total: 5,
      lines: [{ product: { _id: null, name }, quantity: 1, amount: 5 }],
      customer: { _id: null, name: expect.stringMatching(/^Leaver /) },
    });
    expect(
      await t.sql('select 1 from stock_movements where refund_id = $1', [
        parsed(res, RefundResponse).refund._id,
      ]),
    ).toEqual([]);
  });

  it('two cash refunds of different sales racing for one drawer: the session lock lets only what it holds out', async () => {
    const clock = await t.product({ name: `Clock ${tag()}`, stock: 6, price: 30 });
    const session = await openSession('30');
    const sales = [];
    for (let i = 0; i < 4; i++)
      sales.push(
        await sell(t.as.salesRep, {
          lines: [{ productId: clock.id, quantity: 1 }],
          payment: { method: 'cash' },
        }),
      );
    const answers = await Promise.all(
      sales.map((sale) =>
        refund(t.as.salesRep, sale._id, {
          lines: [{ order: nth(sale.lines).order._id, quantity: 1 }],
          method: 'cash',
          session: session._id,
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(parsed(refused, ApiError).error).toBe('The drawer holds only $0.00.');
    const [paid] = await t.sql<{ total: string }>(
      "select coalesce(sum(total), 0)::text as total from refunds where session_id = $1 and method = 'cash'",
      [session._id],
    );
    expect(paid?.total).toBe('30.00');
  });

  it('the method must be one the sale was paid with, or store credit: 400 naming the allowed ones', async () => {
    const mug = await t.product({ name: `Mug ${tag()}`, stock: 5, price: 4 });
    const sale = await sell(t.as.salesRep, {
      lines: [{ productId: mug.id, quantity: 1 }],
      payment: { method: 'card' },
    });
    const session = await openSession('100');
    for (const method of ['cash', 'other']) {
      const res = await refund(t.as.salesRep, sale._id, {
        lines: [{ order: nth(sale.lines).order._id, quantity: 1 }],
        method,
        session: session._id,
      });
      expect(res.status).toBe(400);
      expect(parsed(res, ApiError).error).toBe('This sale can be refunded by card, storeCredit only.');
    }
    expect(await refundCount(sale._id)).toBe(0);
  });

  it('lines must be orders of this sale: another sale’s, an unknown or a malformed order is a 404, nothing written', async () => {
    const tin = await t.product({ name: `Tin ${tag()}`, stock: 9, price: 2 });
    const mine = await sell(t.as.salesRep, {
      lines: [{ productId: tin.id, quantity: 2 }],
      payment: { method: 'card' },
    });
    const theirs = await sell(t.as.user, {
      lines: [{ productId: tin.id, quantity: 2 }],
      payment: { method: 'card' },
    });
    const ownLine = { order: nth(mine.lines).order._id, quantity: 1 };
    for (const order of [nth(theirs.lines).order._id, UNKNOWN, 'not-an-id']) {
      const res = await refund(t.as.salesRep, mine._id, {
        lines: [ownLine, { order, quantity: 1 }],
        method: 'card',
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        success: false,
        code: 'NOT_FOUND',
        error: 'Every line must be an order of this sale.',
      });
    }
    expect(await orderOf(nth(mine.lines).order._id)).toMatchObject({ returned_quantity: 0 });
    expect(await orderOf(nth(theirs.lines).order._id)).toMatchObject({ returned_quantity: 0 });
    expect(await refundCount(mine._id)).toBe(0);
    expect(await stockOf(tin.id)).toBe(5);
  });

  it('a cash refund gives back at most the cash the sale took, less the cash refunded already (409 naming what is left); the rest goes by card or to store credit', async () => {
    const bowl = await t.product({ name: `Bowl ${tag()}`, stock: 10, price: 2.5 });
    const cup = await t.product({ name: `Cup ${tag()}`, stock: 10, price: 2.5 });
    const buyer = (await customer({ name: `Cash Back ${tag()}` }))._id;
    // 10.00: 6.00 by card, 5.00 cash handed over and 1.00 change, so the sale took 4.00 in cash.
    const sale = await sell(t.as.salesRep, {
      lines: [
        { productId: bowl.id, quantity: 2 },
        { productId: cup.id, quantity: 2 },
      ],
      customer: buyer,
      payments: [
        { method: 'card', amount: 6 },
        { method: 'cash', amount: 5 },
      ],
    });
    expect(sale.change).toBe(1);
    const session = await openSession('100');
    const [bowls, cups] = [nth(sale.lines, 0).order._id, nth(sale.lines, 1).order._id];
    const back = (order: string, quantity: number, method = 'cash') =>
      refund(t.as.salesRep, sale._id, { lines: [{ order, quantity }], method, session: session._id });

    const all = await back(bowls, 2);
    expect(all.status).toBe(409);
    expect(parsed(all, ApiError).error).toBe(
      'At most $4.00 more of this sale can be refunded in cash; refund the rest by card or as store credit.',
    );
    expect(await orderOf(bowls)).toMatchObject({ returned_quantity: 0 });
    expect((await back(bowls, 1)).status).toBe(201);
    const second = await back(cups, 1);
    expect(second.status).toBe(409);
    expect(parsed(second, ApiError).error).toBe(
      'At most $1.50 more of this sale can be refunded in cash; refund the rest by card or as store credit.',
    );
    expect((await back(cups, 1, 'card')).status).toBe(201);
    expect((await back(bowls, 1, 'storeCredit')).status).toBe(201);
    const [given] = await t.sql<{ cash: string }>(
      `select coalesce(sum(total), 0)::text as cash from refunds where sale_id = $1 and method = 'cash'`,
      [sale._id],
    );
    expect(given?.cash).toBe('2.50');
  });

  it('two cash refunds of one split sale racing on different lines never give back more cash than it took', async () => {
    const bowl = await t.product({ name: `Bowl ${tag()}`, stock: 10, price: 2.5 });
    const cup = await t.product({ name: `Cup ${tag()}`, stock: 10, price: 2.5 });
    const sale = await sell(t.as.salesRep, {
      lines: [
        { productId: bowl.id, quantity: 1 },
        { productId: cup.id, quantity: 1 },
      ],
      payments: [
        { method: 'card', amount: 1 },
        { method: 'cash', amount: 4 },
      ],
    });
    // Each at a till of its own, so no session lock puts them in turn: only the sale's own.
    const sessions = [await openSession('100'), await openSession('100')];
    const answers = await Promise.all(
      sale.lines.map((line: { order: { _id: string } }, at: number) =>
        refund(t.as.salesRep, sale._id, {
          lines: [{ order: line.order._id, quantity: 1 }],
          method: 'cash',
          session: sessions[at]?._id,
        }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    expect(parsed(nth(answers.filter((res) => res.status === 409)), ApiError).error).toBe(
      'At most $1.50 more of this sale can be refunded in cash; refund the rest by card.',
    );
    const [given] = await t.sql<{ cash: string }>(
      `select coalesce(sum(total), 0)::text as cash from refunds where sale_id = $1 and method = 'cash'`,
      [sale._id],
    );
    expect(given?.cash).toBe('2.50');
  });

  it('GET /api/sales/by-number finds any sale by S-000123, s123, 000123 or 123; anything else is 404', async () => {
    const jar = await t.product({ name: `Jar ${tag()}`, stock: 5, price: 6 });
    // Made by the user: the rep cannot read it by id, but finds it by number to refund it.
    const sale = await sell(t.as.user, {
      lines: [{ productId: jar.id, quantity: 1 }],
      payment: { method: 'card' },
    });
    const byId = await t.call('GET', `/api/sales/${sale._id}`, { token: t.as.salesRep.token });
    expect(byId.status).toBe(404);
    const label = saleNumberLabel(sale.number);
    for (const form of [label, label.toLowerCase(), `s${sale.number}`, label.slice(2), String(sale.number)]) {
      const res = await t.call('GET', `/api/sales/by-number/${encodeURIComponent(form)}`, {
        token: t.as.salesRep.token,
      });
      expect(res.status, form).toBe(200);
      expect(parsed(res, SaleResponse).sale).toMatchObject({
        _id: sale._id,
        number: sale.number,
        total: 6,
        refunds: [],
      });
    }
    const unknownNumber = (await t.sql<{ n: string }>('select (max(number) + 1000)::text as n from sales'))[0]
      ?.n;
    for (const form of [unknownNumber, 'S-', 'abc', '12abc', '-5', '1.5', '9'.repeat(20), '%20']) {
      const res = await t.call('GET', `/api/sales/by-number/${form}`, { token: t.as.salesRep.token });
      expect(res.status, form).toBe(404);
      expect(res.body, form).toEqual({ success: false, code: 'NOT_FOUND', error: 'Sale not found.' });
    }
    // Longer than any path parameter: no route takes it, still a 404 in the error shape.
    const long = await t.call('GET', `/api/sales/by-number/${'1'.repeat(1000)}`, {
      token: t.as.salesRep.token,
    });
    expect(long.status).toBe(404);
    expect(parsed(long, ApiError).success).toBe(false);
    const nul = await t.call('GET', '/api/sales/by-number/12%00', { token: t.as.salesRep.token });
    expect(nul.status).toBe(400);
    expect(parsed(nul, ApiError).success).toBe(false);
    // The static segment wins over /sales/:id, which still answers receipts by id.
    const own = await t.call('GET', `/api/sales/${sale._id}`, { token: t.as.user.token });
    expect(own.status).toBe(200);
    expect((await t.call('GET', '/api/sales/by-number', { token: t.as.admin.token })).status).toBe(404);
    const forbidden = await t.call('GET', `/api/sales/by-number/${sale.number}`, {
      token: t.as.superAdmin.token,
    });
    expect(forbidden.status).toBe(403);
    expect((await t.call('GET', `/api/sales/by-number/${sale.number}`)).status).toBe(401);
  });

  it('by-number answers another seller’s sale without its customer (admins and the seller see them)', async () => {
    const jar = await t.product({ name: `Jar ${tag()}`, stock: 5, price: 6 });
    const ada = (await customer({ name: `Ada Private ${tag()}` }))._id;
    const seller = await t.account('salesRep');
    const sale = await sell(seller, {
      lines: [{ productId: jar.id, quantity: 1 }],
      customer: ada,
      payment: { method: 'card' },
    });
    const read = async (who: Account) =>
      parsed(await t.call('GET', `/api/sales/by-number/${sale.number}`, { token: who.token }), SaleResponse)
        .sale;
    for (const who of [seller, t.as.admin])
      expect((await read(who)).customer).toEqual({ _id: ada, name: expect.stringMatching(/^Ada Private /) });
    for (const who of [t.as.salesRep, t.as.medicalRep, t.as.user]) {
      const theirs = await read(who);
      expect(theirs).toMatchObject({ _id: sale._id, number: sale.number, total: 6 });
      expect(theirs.customer, who.role).toBeNull();
      expect(JSON.stringify(theirs)).not.toContain('Ada Private');
    }
  });

  it('a user looks up at most 60 receipt numbers an hour, found or not; then 429 with a sentence, others unaffected', async () => {
    const jar = await t.product({ name: `Jar ${tag()}`, stock: 5, price: 6 });
    const sale = await sell(t.as.salesRep, {
      lines: [{ productId: jar.id, quantity: 1 }],
      payment: { method: 'card' },
    });
    const walker = await t.account('user');
    const look = (who: Account, number: number) =>
      t.call('GET', `/api/sales/by-number/${number}`, { token: who.token });
    for (let i = 0; i < 60; i++) {
      const res = await look(walker, i % 2 ? sale.number : sale.number + 100_000 + i);
      expect(res.status, `look-up ${i + 1}`).toBe(i % 2 ? 200 : 404);
    }
    const over = await look(walker, sale.number);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      success: false,
      code: 'TOO_MANY_REQUESTS',
      error: 'You may look up at most 60 receipts an hour; try again in 60 minutes.',
    });
    expect((await look(await t.account('user'), sale.number)).status).toBe(200);
  });

  it('refuses bad input with 4xx and one sentence, never a 500, and writes nothing', async () => {
    const box = await t.product({ name: `Box ${tag()}`, stock: 5, price: 5 });
    const sale = await sell(t.as.salesRep, {
      lines: [{ productId: box.id, quantity: 2 }],
      payment: { method: 'card' },
    });
    const order = nth(sale.lines).order._id;
    const line = { order, quantity: 1 };
    const cases: [unknown, number, RegExp][] = [
      [{ lines: [{ order, quantity: '1' }], method: 'card' }, 400, /Quantity must be a number/],
      [{ lines: [{ order, quantity: 0 }], method: 'card' }, 400, /at least 1/],
      [{ lines: [{ order, quantity: -1 }], method: 'card' }, 400, /at least 1/],
      [{ lines: [{ order, quantity: 1.5 }], method: 'card' }, 400, /whole number/],
      [{ lines: [{ order, quantity: 1e12 }], method: 'card' }, 400, /too large/],
      [{ lines: [{ order, quantity: [1] }], method: 'card' }, 400, /Quantity must be a number/],
      [
        { lines: [{ order, quantity: 3 }], method: 'card' },
        409,
        /^Only 2 of Box .* can still be refunded\.$/,
      ],
      [{ lines: [], method: 'card' }, 400, /at least one line/],
      [{ lines: Array(101).fill(line), method: 'card' }, 400, /at most 100 lines/],
      [{ lines: line, method: 'card' }, 400, /lines must be a list/],
      [{ lines: 'all', method: 'card' }, 400, /lines must be a list/],
      [{ lines: [line] }, 400, /Refund method must be one of/],
      [{ lines: [line], method: 'bitcoin' }, 400, /Refund method must be one of/],
      [{ lines: [line], method: ['card'] }, 400, /Refund method must be one of/],
      [{ lines: [line], method: 'card', restock: 'yes' }, 400, /restock must be true or false/],
      [{ lines: [line], method: 'card', restock: [true] }, 400, /restock must be true or false/],
      [{ lines: [line], method: 'card', reason: 'x'.repeat(10_000) }, 400, /at most 200 characters/],
      [{ lines: [line], method: 'card', reason: 'Bro\u0000ken' }, 400, /NUL/],
      [{ lines: [line], method: 'card', reason: ['Broken'] }, 400, /Must be text/],
      [{ lines: [line], method: 'card', session: 'nope' }, 404, /^Till session not found\.$/],
      [{ lines: [line], method: 'card', session: [UNKNOWN] }, 400, /./],
      [{ lines: [line], method: 'card', session: UNKNOWN }, 404, /^Till session not found\.$/],
      [{ lines: [{ order: ['x'], quantity: 1 }], method: 'card' }, 400, /./],
      [{ lines: [{ order: 'x'.repeat(10_000), quantity: 1 }], method: 'card' }, 400, /./],
    ];
    for (const [body, status, error] of cases) {
      const res = await refund(t.as.salesRep, sale._id, body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(status);
      expect(parsed(res, ApiError).success).toBe(false);
      expect(parsed(res, ApiError).error).toMatch(error);
    }
    for (const saleId of ['not-a-sale', UNKNOWN, 'x'.repeat(90)]) {
      const res = await refund(t.as.salesRep, saleId, { lines: [line], method: 'card' });
      expect(res.status, saleId).toBe(404);
      expect(parsed(res, ApiError).error).toBe('Sale not found.');
    }
    const raw = await t.call('POST', `/api/sales/${sale._id}/refunds`, {
      token: t.as.salesRep.token,
      body: '[1, 2]',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    expect(await refundCount(sale._id)).toBe(0);
    expect(await orderOf(order)).toMatchObject({ returned_quantity: 0 });
    expect(await stockOf(box.id)).toBe(3);
    for (const id of ['not-an-id', UNKNOWN]) {
      const res = await t.call('GET', `/api/refunds/${id}`, { token: t.as.salesRep.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Refund not found.' });
    }
  });

  it('staff refund and read refunds; the superAdmin gets 403 and nobody without a token', async () => {
    const pad = await t.product({ name: `Pad ${tag()}`, stock: 10, price: 1 });
    const sale = await sell(t.as.admin, {
      lines: [{ productId: pad.id, quantity: 5 }],
      payment: { method: 'card' },
    });
    const body = { lines: [{ order: nth(sale.lines).order._id, quantity: 1 }], method: 'card' };
    const made: string[] = [];
    for (const role of ['admin', 'salesRep', 'medicalRep', 'user'] as const) {
      const res = await refund(t.as[role], sale._id, body);
      expect(res.status, role).toBe(201);
      made.push(parsed(res, RefundResponse).refund._id);
    }
    const boss = await refund(t.as.superAdmin, sale._id, body);
    expect(boss.status).toBe(403);
    expect(parsed(boss, ApiError).success).toBe(false);
    expect((await t.call('POST', `/api/sales/${sale._id}/refunds`, { body })).status).toBe(401);
    for (const role of ['admin', 'salesRep', 'medicalRep', 'user'] as const) {
      const res = await t.call('GET', `/api/refunds/${made[0]}`, { token: t.as[role].token });
      expect(res.status, role).toBe(200);
    }
    expect((await t.call('GET', `/api/refunds/${made[0]}`, { token: t.as.superAdmin.token })).status).toBe(
      403,
    );
    expect(await orderOf(nth(sale.lines).order._id)).toMatchObject({ returned_quantity: 4 });
  });

  it('an Idempotency-Key makes a retried refund one refund with the same answer', async () => {
    const cap = await t.product({ name: `Cap ${tag()}`, stock: 5, price: 8 });
    const sale = await sell(t.as.salesRep, {
      lines: [{ productId: cap.id, quantity: 3 }],
      payment: { method: 'card' },
    });
    const body = { lines: [{ order: nth(sale.lines).order._id, quantity: 1 }], method: 'card' };
    const key = `refund-${tag()}`;
    const [a, b] = await Promise.all([
      refund(t.as.salesRep, sale._id, body, { 'idempotency-key': key }),
      refund(t.as.salesRep, sale._id, body, { 'idempotency-key': key }),
    ]);
    const c = await refund(t.as.salesRep, sale._id, body, { 'idempotency-key': key });
    const done = [a, b, c].filter((answer) => answer.status === 201);
    expect(done.length).toBeGreaterThanOrEqual(2);
    for (const answer of done)
      expect(parsed(answer, RefundResponse).refund._id).toBe(parsed(nth(done), RefundResponse).refund._id);
    expect(c.headers['idempotent-replay']).toBe('true');
    expect(await refundCount(sale._id)).toBe(1);
    expect(await orderOf(nth(sale.lines).order._id)).toMatchObject({ returned_quantity: 1 });
    const other = await refund(
      t.as.salesRep,
      sale._id,
      { ...body, method: 'storeCredit' },
      { 'idempotency-key': key },
    );
    expect(other.status).toBe(409);
  });
  it('cash refunds and cash sales of the same products in one session, all at once: none deadlocks, the drawer adds up', async () => {
    const products = await Promise.all(Array.from({ length: 3 }, () => t.product({ stock: 200, price: 4 })));
    const session = await openSession('500.00');
    const lines = (i: number) =>
      (i % 2 === 0 ? products : [...products].reverse()).map((p) => ({ productId: p.id, quantity: 2 }));
    const sold = [];
    for (let i = 0; i < 8; i += 1)
      sold.push(
        await sell(t.as.salesRep, { lines: lines(i), payment: { method: 'cash' }, session: session._id }),
      );
    const deadlocks = async () =>
      target.name === 'postgres'
        ? Number(
            (
              await t.sql<{ n: string }>(
                'select deadlocks::text as n from pg_stat_database where datname = current_database()',
              )
            )[0]?.n,
          )
        : 0;
    const before = await deadlocks();
    const answers = await Promise.all([
      ...sold.map((sale: { _id: string; lines: Array<{ order: { _id: string } }> }) =>
        refund(t.as.user, sale._id, {
          lines: sale.lines.map((line) => ({ order: line.order._id, quantity: 1 })),
          method: 'cash',
          session: session._id,
        }),
      ),
      ...Array.from({ length: 8 }, (_, i) =>
        t.call('POST', '/api/sales', {
          token: t.as.medicalRep.token,
          body: { lines: lines(i + 1), payment: { method: 'cash' }, session: session._id },
        }),
      ),
    ]);
    expect(
      answers.map((answer) => answer.status),
      JSON.stringify(answers.map((a) => a.body)),
    ).toEqual([...Array(8).fill(201), ...Array(8).fill(201)]);
    expect(await deadlocks()).toBe(before);
    for (const p of products) expect(await stockOf(p.id)).toBe(await ledgerOf(p.id));
    // 16 sales of 3 lines × 2 units at 4.00 in, 8 refunds of 3 units out.
    const report = await t.call('GET', `/api/register-sessions/${session._id}`, { token: t.as.admin.token });
    expect(parsed(report, SessionResponse).report).toMatchObject({
      sales: { count: 16, total: 384 },
      refunds: { count: 8, total: 96 },
      expectedCash: 500 + 384 - 96,
    });
  });
});
