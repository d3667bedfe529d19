import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { CustomerResponse } from '../../../shared/customers';
import { centsNumber, toCents } from '../../../shared/money';
import type { Role } from '../../../shared/roles';
import type { Sale } from '../../../shared/sales';
import {
  CashMovementResponse,
  CreditAdjustmentResponse,
  CreditResponse,
  type Refund,
  RefundResponse,
  RegisterResponse,
  SessionResponse,
} from '../../../shared/till';
import { fixtures, type SaleBody } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

/**
 * A day at one till (issue 22 item 5): sales paid in cash with change, split, with store credit
 * and by card with a discount; refunds to cash, card and store credit; cash put in and taken out;
 * a sale outside any drawer and one in another session. The session's X and Z reports equal the
 * sums of what the calls answered, computed here apart from the server; the close records the
 * count 0.50 short; a closed session takes nothing more; the audit log has the day.
 */
describe.each(targets)('a day at the till on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());
  const { sold, taxRate, storeSettings } = fixtures(() => t);

  const as = (role: Role) => t.as[role].token;
  /** The body of a call that must answer `status`, as `schema` describes it. */
  const ok = async <S extends ZodType>(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    body: unknown,
    role: Role,
    status: number,
    schema: S,
  ) => {
    const res = await t.call(method, url, { token: as(role), body });
    expect(res.status, `${method} ${url}: ${res.text}`).toBe(status);
    return parsed(res, schema);
  };

  it('the session’s reports are the sums of its sales, refunds and cash movements, to the cent', async () => {
    // The store taxes at 8.875 % on top of its prices.
    const standard = await taxRate({ name: 'Standard', rate: 8.875 });
    await storeSettings({ defaultTaxRate: standard._id, pricesIncludeTax: false });
    const pens = await t.product({ name: 'Pens', stock: 50, price: 10 });
    const pads = await t.product({ name: 'Pads', stock: 50, price: 7.5 });
    const { customer } = await ok(
      'POST',
      '/api/customers',
      { name: 'Rita Regular' },
      'salesRep',
      201,
      CustomerResponse,
    );
    await ok(
      'POST',
      `/api/customers/${customer._id}/credit`,
      { amount: 30, note: 'Goodwill' },
      'admin',
      201,
      CreditAdjustmentResponse,
    );

    const { register } = await ok(
      'POST',
      '/api/registers',
      { name: 'Front till' },
      'admin',
      201,
      RegisterResponse,
    );
    const { session } = await ok(
      'POST',
      `/api/registers/${register._id}/open`,
      { openingFloat: 200 },
      'salesRep',
      201,
      SessionResponse,
    );
    const other = await ok('POST', '/api/registers', { name: 'Back till' }, 'admin', 201, RegisterResponse);
    const otherSession = (
      await ok(
        'POST',
        `/api/registers/${other.register._id}/open`,
        { openingFloat: 10 },
        'user',
        201,
        SessionResponse,
      )
    ).session;

    const sell = (body: SaleBody, role: Role = 'salesRep') => sold(t.as[role], body);
    const inSession = { session: session._id };
    const cashSale = await sell({
      lines: [{ productId: pens.id, quantity: 2 }],
      payments: [{ method: 'cash', amount: 50 }],
      ...inSession,
    });
    const splitSale = await sell(
      {
        lines: [{ productId: pads.id, quantity: 3 }],
        payments: [
          { method: 'card', amount: 10 },
          { method: 'cash', amount: 20 },
        ],
        ...inSession,
      },
      'user',
    );
    const creditSale = await sell({
      lines: [{ productId: pens.id, quantity: 1 }],
      customer: customer._id,
      payments: [{ method: 'storeCredit', amount: 10.89 }],
      ...inSession,
    });
    const cardSale = await sell({
      lines: [{ productId: pads.id, quantity: 2, discount: { type: 'percent', value: 5 } }],
      discount: { type: 'amount', value: 0.5 },
      payment: { method: 'card' },
      ...inSession,
    });
    // Neither of these counts in the session: no drawer, and another drawer.
    await sell({ lines: [{ productId: pens.id, quantity: 1 }], payment: { method: 'cash', tendered: 20 } });
    await sell({
      lines: [{ productId: pens.id, quantity: 1 }],
      payment: { method: 'cash' },
      session: otherSession._id,
    });
    const sales = [cashSale, splitSale, creditSale, cardSale];
    expect(cashSale.change).toBe(centsNumber(toCents(50) - toCents(cashSale.total)));
    expect(splitSale.payment.method).toBe('split');

    const refund = async (
      sale: Sale,
      quantity: number,
      method: string,
      withSession: boolean,
    ): Promise<Refund> =>
      (
        await ok(
          'POST',
          `/api/sales/${sale._id}/refunds`,
          {
            lines: [{ order: sale.lines[0]?.order._id, quantity }],
            method,
            ...(withSession ? { session: session._id } : {}),
          },
          'salesRep',
          201,
          RefundResponse,
        )
      ).refund;
    const refunds = [
      await refund(cashSale, 1, 'cash', true),
      await refund(cardSale, 1, 'card', true),
      await refund(creditSale, 1, 'storeCredit', true),
    ];
    // A refund naming no session belongs to no drawer.
    const elsewhere = await refund(splitSale, 1, 'card', false);

    const move = (amount: number, reason: string) =>
      ok(
        'POST',
        `/api/register-sessions/${session._id}/cash`,
        { amount, reason },
        'salesRep',
        201,
        CashMovementResponse,
      );
    await move(50, 'Change from the bank');
    await move(-12.5, 'Window cleaner');

    // The report, computed here from what the calls answered.
    const sum = (values: readonly bigint[]) => values.reduce((a, b) => a + b, 0n);
    const paidBy = (method: string) =>
      sum(
        sales.flatMap((sale) =>
          sale.payments.filter((p) => p.method === method).map((p) => toCents(p.amount)),
        ),
      );
    const refundedBy = (method: string) =>
      sum(refunds.filter((r) => r.method === method).map((r) => toCents(r.total)));
    const methods = ['cash', 'card', 'other', 'storeCredit'] as const;
    const expectedCash = toCents(200) + paidBy('cash') - refundedBy('cash') + toCents(50) - toCents(12.5);
    const taxBack = sum(refunds.map((r) => toCents(r.tax)));
    const netBack = sum(refunds.map((r) => toCents(r.total) - toCents(r.tax)));
    const report = {
      sales: { count: 4, total: centsNumber(sum(sales.map((s) => toCents(s.total)))) },
      refunds: { count: 3, total: centsNumber(sum(refunds.map((r) => toCents(r.total)))) },
      payments: methods.map((method) => ({
        method,
        in: centsNumber(paidBy(method)),
        out: centsNumber(refundedBy(method)),
      })),
      cashIn: 50,
      cashOut: 12.5,
      expectedCash: centsNumber(expectedCash),
      countedCash: null,
      difference: null,
      discount: centsNumber(sum(sales.map((s) => toCents(s.discount)))),
      taxes: [
        {
          name: 'Standard',
          rate: 8.875,
          base: centsNumber(sum(sales.map((s) => toCents(s.total) - toCents(s.tax))) - netBack),
          tax: centsNumber(sum(sales.map((s) => toCents(s.tax))) - taxBack),
        },
      ],
    };
    // The payments of every sale add up to its total; cash alone gave change.
    for (const sale of sales)
      expect(sum(sale.payments.map((p) => toCents(p.amount)))).toBe(toCents(sale.total));
    expect(elsewhere.session).toBeNull();

    const x = SessionResponse.parse(
      await ok('GET', `/api/register-sessions/${session._id}`, undefined, 'admin', 200, SessionResponse),
    );
    expect(x.report).toEqual(report);
    // Cash taken: 50 handed over less the change, 20 of the split less its change.
    expect(report.payments[0]?.in).toBe(
      centsNumber(toCents(cashSale.total) + toCents(splitSale.total) - toCents(10)),
    );

    // Closed with a count 0.50 short: recorded, not refused.
    const counted = centsNumber(expectedCash - 50n);
    const z = SessionResponse.parse(
      await ok(
        'POST',
        `/api/register-sessions/${session._id}/close`,
        { countedCash: counted, note: 'Counted twice' },
        'user',
        200,
        SessionResponse,
      ),
    );
    expect(z.report).toEqual({ ...report, countedCash: counted, difference: -0.5 });
    expect(z.session).toMatchObject({ status: 'closed', countedCash: counted, note: 'Counted twice' });
    const again = SessionResponse.parse(
      await ok('GET', `/api/register-sessions/${session._id}`, undefined, 'salesRep', 200, SessionResponse),
    );
    expect(again.report).toEqual(z.report);

    // A closed session takes no sale, cash refund or cash movement.
    for (const [url, body] of [
      [
        '/api/sales',
        { lines: [{ productId: pens.id, quantity: 1 }], payment: { method: 'cash' }, ...inSession },
      ],
      [
        `/api/sales/${splitSale._id}/refunds`,
        { lines: [{ order: splitSale.lines[0]?.order._id, quantity: 1 }], method: 'cash', ...inSession },
      ],
      [`/api/register-sessions/${session._id}/cash`, { amount: 5, reason: 'Late float' }],
    ] as const) {
      const refused = await t.call('POST', url, { token: as('salesRep'), body });
      expect(refused.status, refused.text).toBe(409);
    }
    expect(
      SessionResponse.parse(
        await ok('GET', `/api/register-sessions/${session._id}`, undefined, 'admin', 200, SessionResponse),
      ).report,
    ).toEqual(z.report);

    // The customer's credit: 30 given, 10.89 spent, the refunded unit back.
    const credit = await ok(
      'GET',
      `/api/customers/${customer._id}/credit`,
      undefined,
      'salesRep',
      200,
      CreditResponse,
    );
    expect(credit.balance).toBe(
      centsNumber(toCents(30) - toCents(creditSale.total) + toCents(refunds[2]?.total ?? 0)),
    );

    // The day in the audit log: opened, two cash movements, closed.
    const audit = await t.sql<{ action: string; actor_name: string }>(
      `select action, actor_name from audit_log where entity_type = 'registerSession' and entity_id = $1 order by at`,
      [session._id],
    );
    expect(audit.map((row) => row.action)).toEqual(['opened', 'cashMoved', 'cashMoved', 'closed']);
    expect(audit[3]?.actor_name).toBe(t.as.user.name);
  });
});
