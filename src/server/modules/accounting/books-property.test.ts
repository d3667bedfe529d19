import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BooksCheckResponse, ProfitAndLossResponse, TrialBalanceResponse } from '../../../shared/accounting';
import { toCents } from '../../../shared/money';
import { ReturnResponse } from '../../../shared/orders';
import { PurchaseOrderResponse } from '../../../shared/purchasing';
import { SalesReportResponse } from '../../../shared/reports';
import { SaleResponse } from '../../../shared/sales';
import { RefundResponse, SessionResponse } from '../../../shared/till';
import { seededRandom } from '../../db/seed';
import { fixtures, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { locationLedgerProblems } from '../../test/location-ledger';

/**
 * DESIGN §19: random days at a shop (seeded) — till sessions opened with a float and closed over
 * or short, cash and card sales in and out of a session, refunds in cash and by card that restock
 * or write off, purchase orders received in parts at other costs, adjustments both ways, cash put
 * in and taken out — after which every check of the books check holds, the P&L's net sales and
 * cash over and short are the model's to the cent, and every value is the sum of its movements'.
 */
describe.each(targets)('the books after random days on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { poolSize: 6 });
  });
  afterAll(() => t?.close());
  const { sell } = fixtures(() => t);
  const admin = () => t.as.admin.token;
  const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token: admin(), body });

  for (const seed of [19, 1903]) {
    it(`seed ${seed}: 90 steps, then every check of the books holds and the P&L is the model's`, async () => {
      const draw = seededRandom(seed);
      const next = (below: number) => Math.floor(draw() * below);
      const today = (await t.sql<{ day: string }>('select store_today()::text as day'))[0]?.day;
      const plToday = async () =>
        parsed(
          await call('GET', `/api/accounting/profit-and-loss?from=${today}&to=${today}`),
          ProfitAndLossResponse,
        );
      const overShortOf = (pl: { expenses: { account: { code: string }; amount: number }[] }) =>
        toCents(pl.expenses.find((e) => e.account.code === '6100')?.amount ?? 0);
      const before = await plToday();
      const products = await Promise.all(
        [0, 1, 2, 3].map((i) => t.product({ stock: 8 + i * 4, price: 3.35 + i * 2.1, cost: 1.1 + i * 0.77 })),
      );
      const made = await call('POST', '/api/registers', { name: `Till ${tag()}` });
      expect(made.status, made.text).toBe(201);
      const register = (made.body as { register: { _id: string } }).register._id;
      let session: string | null = null;
      const model = { netSales: 0n, overShort: 0n };
      const seen = {
        sold: 0,
        returned: 0,
        refunded: 0,
        received: 0,
        adjusted: 0,
        cashMoved: 0,
        closed: 0,
        refused: 0,
      };
      const sold: { sale: string; order: string; left: number; cash: boolean; inSession: string | null }[] =
        [];

      for (let step = 0; step < 90; step++) {
        const product = products[next(products.length)] as { id: string; supplierId: string };
        const roll = next(20);
        if (session === null && roll < 14) {
          const opened = await call('POST', `/api/registers/${register}/open`, {
            openingFloat: next(6) * 10,
          });
          expect(opened.status, `step ${step}: ${opened.text}`).toBe(201);
          session = parsed(opened, SessionResponse).session._id;
          continue;
        }
        if (roll < 7) {
          // A sale of one or two products: cash needs a session; card now and then outside one.
          const cash = session !== null && next(2) === 0;
          const lines = [
            ...new Set([product.id, (products[next(products.length)] as { id: string }).id]),
          ].map((productId) => ({ productId, quantity: 1 + next(3) }));
          const inSession = cash || (session !== null && next(3) > 0) ? session : null;
          const answer = await sell(t.as.salesRep, {
            lines,
            payment: cash ? { method: 'cash', tendered: 500 } : { method: 'card' },
            ...(inSession ? { session: inSession } : {}),
          });
          if (answer.status !== 201) {
            expect(answer.status, `step ${step}: ${answer.text}`).toBe(409);
            seen.refused++;
            continue;
          }
          const sale = parsed(answer, SaleResponse).sale;
          seen.sold++;
          model.netSales += toCents(sale.total) - toCents(sale.tax);
          for (const line of sale.lines)
            sold.push({ sale: sale._id, order: line.order._id, left: line.quantity, cash, inSession });
        } else if (roll === 9 && next(3) === 0 && sold.some((line) => line.left > 0)) {
          // An Orders-screen return (no session, no refund): the server posts its entry.
          const open = sold.filter((line) => line.left > 0);
          const line = open[next(open.length)] as (typeof open)[number];
          const quantity = 1 + next(line.left);
          const taxBack = async () =>
            toCents(
              (
                await t.sql<{ tax: string }>('select returned_tax::text as tax from orders where id = $1', [
                  line.order,
                ])
              )[0]?.tax ?? '0',
            );
          const taxBefore = await taxBack();
          const answer = await call('POST', `/api/order/${line.order}/return`, { quantity });
          expect(answer.status, `step ${step}: ${answer.text}`).toBe(200);
          line.left -= quantity;
          seen.returned++;
          model.netSales -=
            toCents(parsed(answer, ReturnResponse).refunded) - ((await taxBack()) - taxBefore);
        } else if (roll < 10 && sold.some((line) => line.left > 0)) {
          // A refund of a unit: in cash from the open drawer, or by card; restocked or written off.
          const open = sold.filter((line) => line.left > 0);
          const line = open[next(open.length)] as (typeof open)[number];
          const cash = line.cash && session !== null && next(2) === 0;
          const answer = await t.call('POST', `/api/sales/${line.sale}/refunds`, {
            token: t.as.salesRep.token,
            body: {
              lines: [{ order: line.order, quantity: 1 }],
              method: cash ? 'cash' : line.cash ? 'cash' : 'card',
              restock: next(3) > 0,
              ...(cash || line.cash ? (session ? { session } : {}) : {}),
            },
          });
          if (answer.status !== 201) {
            expect([400, 409], `step ${step}: ${answer.text}`).toContain(answer.status);
            seen.refused++;
            continue;
          }
          const refund = parsed(answer, RefundResponse).refund;
          seen.refunded++;
          line.left--;
          model.netSales -= toCents(refund.total) - toCents(refund.tax);
        } else if (roll < 12) {
          // Goods bought at another cost, received in one or two parts.
          const quantity = 2 + next(5);
          const unitCost = (1 + next(400) / 100).toFixed(2);
          const po = await call('POST', '/api/purchase-orders', {
            supplier: product.supplierId,
            lines: [{ product: product.id, quantity, unitCost: Number(unitCost) }],
          });
          expect(po.status, `step ${step}: ${po.text}`).toBe(201);
          const order = parsed(po, PurchaseOrderResponse).purchaseOrder;
          expect((await call('POST', `/api/purchase-orders/${order._id}/order`)).status).toBe(200);
          const first = 1 + next(quantity);
          for (const part of first === quantity ? [quantity] : [first, quantity - first]) {
            const received = await call('POST', `/api/purchase-orders/${order._id}/receive`, {
              lines: [{ line: order.lines[0]?._id, quantity: part }],
            });
            expect(received.status, `step ${step}: ${received.text}`).toBe(200);
          }
          seen.received++;
        } else if (roll < 15) {
          const quantity = next(2) === 0 ? 1 + next(3) : -(1 + next(3));
          const answer = await call('POST', `/api/products/${product.id}/adjust`, {
            quantity,
            reason: quantity > 0 ? 'found' : ['damaged', 'lost', 'correction'][next(3)],
          });
          expect([200, 409], `step ${step}: ${answer.text}`).toContain(answer.status);
          if (answer.status === 200) seen.adjusted++;
        } else if (roll < 17 && session !== null) {
          const amount = next(2) === 0 ? 5 + next(20) : -(1 + next(8));
          const answer = await call('POST', `/api/register-sessions/${session}/cash`, {
            amount,
            reason: amount > 0 ? 'Change from the bank' : 'Milk for the staff room',
          });
          expect([201, 200, 409], `step ${step}: ${answer.text}`).toContain(answer.status);
          if (answer.status !== 409) seen.cashMoved++;
        } else if (session !== null) {
          // Closed with the drawer counted: right, over or short by a few cents or dollars.
          const report = await call('GET', `/api/register-sessions/${session}`);
          const expected = toCents((report.body as { report: { expectedCash: number } }).report.expectedCash);
          const off = BigInt([0, 0, 50, -50, -125, 7][next(6)] as number);
          const counted = expected + off < 0n ? 0n : expected + off;
          const closed = await call('POST', `/api/register-sessions/${session}/close`, {
            countedCash: Number(counted) / 100,
          });
          expect(closed.status, `step ${step}: ${closed.text}`).toBe(200);
          model.overShort += expected - counted;
          seen.closed++;
          session = null;
        }
      }

      const books = parsed(await call('GET', '/api/accounting/check'), BooksCheckResponse);
      expect(books.checks.filter((c) => !c.ok)).toEqual([]);
      const after = await plToday();
      // DESIGN §19: the P&L's net sales and cost of sales are §10's revenue and cost for the same
      // days (every sale, refund and return here is today's), to the cent.
      const report = parsed(
        await call('GET', `/api/reports/sales?from=${today}&to=${today}`),
        SalesReportResponse,
      );
      expect(after.netSales).toBe(report.totals.revenue);
      expect(after.costOfSales).toBe(report.totals.cost);
      // The seeds share the books: each seed's figures are what it added to them.
      expect(toCents(after.netSales) - toCents(before.netSales)).toBe(model.netSales);
      expect(overShortOf(after) - overShortOf(before)).toBe(model.overShort);
      const tb = parsed(
        await call('GET', `/api/accounting/trial-balance?from=${today}&to=${today}`),
        TrialBalanceResponse,
      );
      expect(tb.totals.debit).toBe(tb.totals.credit);
      expect(
        await locationLedgerProblems(
          t.app.database,
          products.map((p) => p.id),
        ),
      ).toEqual([]);
      // Every kind of event happened at least once, so each posting was exercised.
      expect(Object.entries(seen).filter(([key, n]) => n === 0 && key !== 'refused')).toEqual([]);
      console.log(
        `[${target.name}] books seed ${seed}: ${JSON.stringify(seen)}, net sales ${model.netSales}, over/short ${model.overShort}`,
      );
    }, 240_000);
  }
});
