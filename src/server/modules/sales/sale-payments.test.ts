import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { SaleListResponse, SaleResponse } from '../../../shared/sales';
import { CreditResponse } from '../../../shared/till';
import { runnerOf } from '../../db/connection';
import { fixtures, nth, tag } from '../../test/fixtures';
import { type Account, parsed, startApp, type TestApp, targets } from '../../test/harness';

describe.each(targets)(
  'sales paid by split payments, in a till session, with store credit on $name',
  (target) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp(target);
    });
    afterAll(() => t?.close());

    const { sell, customer } = fixtures(() => t);
    /** Gives a customer store credit the way an admin does. */
    const credit = async (id: string, amount: number) => {
      const res = await t.call('POST', `/api/customers/${id}/credit`, {
        token: t.as.admin.token,
        body: { amount, note: 'Goodwill' },
      });
      expect(res.status).toBe(201);
    };
    const balanceOf = async (id: string) =>
      (await t.sql<{ b: string }>('select credit_balance::text as b from customers where id = $1', [id]))[0]
        ?.b;
    let tills = 0;
    /** An open session on a register of its own (the endpoints that open one are another module's). */
    const openSession = async () => {
      tills += 1;
      const [register] = await t.sql<{ id: string }>(
        'insert into registers (name) values ($1) returning id',
        [`Counter ${tills} ${randomUUID().slice(0, 8)}`],
      );
      const [session] = await t.sql<{ id: string; number: string }>(
        `insert into register_sessions (register_id, opened_by_id, opened_by_name, opening_float)
       values ($1, $2, $3, 50) returning id, number::text`,
        [register?.id, t.as.salesRep.id, t.as.salesRep.name],
      );
      return { id: session?.id as string, number: Number(session?.number) };
    };
    /** Closes a session as the close will: directly, since its endpoint is another module's. */
    const closeSession = (id: string) =>
      t.sql(
        `update register_sessions set status = 'closed', counted_cash = 0, expected_cash = 0, closed_at = now()
       where id = $1`,
        [id],
      );
    const paymentsOf = (saleId: string) =>
      t.sql<{ n: number; method: string; amount: string; tendered: string | null }>(
        'select n, method, amount::text as amount, tendered::text as tendered from sale_payments where sale_id = $1 order by n',
        [saleId],
      );
    const saleRow = async (saleId: string) =>
      (
        await t.sql<{
          payment_method: string;
          tendered: string | null;
          change: string | null;
          session_id: string | null;
        }>(
          'select payment_method, tendered::text as tendered, change::text as change, session_id from sales where id = $1',
          [saleId],
        )
      )[0];

    it('cash and card split: the change comes from the cash, every payment kept in order, listed as split', async () => {
      const p = await t.product({ name: 'Split Lamp', stock: 5, price: 25.49 });
      const session = await openSession();
      const res = await sell(t.as.salesRep, {
        lines: [{ productId: p.id, quantity: 1 }],
        payments: [
          { method: 'card', amount: 10 },
          { method: 'cash', amount: 20 },
        ],
        session: session.id,
      });
      expect(res.status).toBe(201);
      const sale = parsed(res, SaleResponse).sale;
      expect(sale).toMatchObject({
        total: 25.49,
        payment: { method: 'split', tendered: 20 },
        payments: [
          { method: 'card', amount: 10, tendered: null },
          { method: 'cash', amount: 15.49, tendered: 20 },
        ],
        change: 4.51,
        session: { _id: session.id, number: session.number },
      });
      expect(await paymentsOf(sale._id)).toEqual([
        { n: 1, method: 'card', amount: '10.00', tendered: null },
        { n: 2, method: 'cash', amount: '15.49', tendered: '20.00' },
      ]);
      expect(await saleRow(sale._id)).toEqual({
        payment_method: 'split',
        tendered: '20.00',
        change: '4.51',
        session_id: session.id,
      });
      const receipt = await t.call('GET', `/api/sales/${sale._id}`, { token: t.as.salesRep.token });
      expect(receipt.status).toBe(200);
      expect(parsed(receipt, SaleResponse).sale).toEqual(sale);
      const listed = await t.call('GET', `/api/sales?search=${sale.number}`, { token: t.as.admin.token });
      expect(parsed(listed, SaleListResponse).sales).toHaveLength(1);
      expect(nth(parsed(listed, SaleListResponse).sales)).toMatchObject({
        _id: sale._id,
        payment: { method: 'split', tendered: 20 },
        change: 4.51,
      });
    });

    it('card and card exact: no cash, no change, no tendered', async () => {
      const p = await t.product({ stock: 5, price: 12.5 });
      const res = await sell(t.as.user, {
        lines: [{ productId: p.id, quantity: 2 }],
        payments: [
          { method: 'card', amount: 20 },
          { method: 'card', amount: 5 },
        ],
      });
      expect(res.status).toBe(201);
      expect(parsed(res, SaleResponse).sale).toMatchObject({
        total: 25,
        payment: { method: 'split', tendered: null },
        payments: [
          { method: 'card', amount: 20, tendered: null },
          { method: 'card', amount: 5, tendered: null },
        ],
        change: null,
        session: null,
      });
      expect(await saleRow(parsed(res, SaleResponse).sale._id)).toEqual({
        payment_method: 'split',
        tendered: null,
        change: null,
        session_id: null,
      });
    });

    it('one payment in the list is that method; the single payment of §11 is one payment', async () => {
      const p = await t.product({ stock: 20, price: 3.3 });
      const one = await sell(t.as.user, {
        lines: [{ productId: p.id, quantity: 1 }],
        payments: [{ method: 'cash', amount: 5 }],
      });
      expect(one.status).toBe(201);
      expect(parsed(one, SaleResponse).sale).toMatchObject({
        payment: { method: 'cash', tendered: 5 },
        payments: [{ method: 'cash', amount: 3.3, tendered: 5 }],
        change: 1.7,
      });
      const single = await sell(t.as.user, {
        lines: [{ productId: p.id, quantity: 1 }],
        payment: { method: 'cash', tendered: 4 },
      });
      expect(parsed(single, SaleResponse).sale).toMatchObject({
        payment: { method: 'cash', tendered: 4 },
        payments: [{ method: 'cash', amount: 3.3, tendered: 4 }],
        change: 0.7,
      });
      expect(await paymentsOf(parsed(single, SaleResponse).sale._id)).toEqual([
        { n: 1, method: 'cash', amount: '3.30', tendered: '4.00' },
      ]);
      const exact = await sell(t.as.user, {
        lines: [{ productId: p.id, quantity: 1 }],
        payment: { method: 'cash' },
      });
      expect(parsed(exact, SaleResponse).sale).toMatchObject({
        payment: { method: 'cash', tendered: 3.3 },
        payments: [{ method: 'cash', amount: 3.3, tendered: 3.3 }],
        change: 0,
      });
      const card = await sell(t.as.user, {
        lines: [{ productId: p.id, quantity: 1 }],
        payment: { method: 'card' },
      });
      expect(parsed(card, SaleResponse).sale).toMatchObject({
        payment: { method: 'card', tendered: null },
        payments: [{ method: 'card', amount: 3.3, tendered: null }],
        change: null,
      });
    });

    it('refuses payments that break the rules, with one sentence, taking nothing', async () => {
      const p = await t.product({ name: 'Rules Kettle', stock: 5, price: 10 });
      const line = [{ productId: p.id, quantity: 1 }];
      const cases: [unknown, number, string | RegExp][] = [
        [
          { lines: line, payments: [{ method: 'card', amount: 10.01 }] },
          400,
          'Payments other than cash may not add up to more than the total ($10.00).',
        ],
        [
          {
            lines: line,
            payments: [
              { method: 'other', amount: 6 },
              { method: 'card', amount: 5 },
              { method: 'cash', amount: 1 },
            ],
          },
          400,
          'Payments other than cash may not add up to more than the total ($10.00).',
        ],
        [
          {
            lines: line,
            payments: [
              { method: 'card', amount: 4 },
              { method: 'cash', amount: 5.99 },
            ],
          },
          400,
          'The payments are $0.01 short of the total ($10.00).',
        ],
        [
          { lines: line, payment: { method: 'cash', tendered: 9.99 } },
          400,
          'Cash tendered is less than the total ($10.00).',
        ],
        [
          { lines: line, payments: Array.from({ length: 11 }, () => ({ method: 'card', amount: 1 })) },
          400,
          'A sale has at most 10 payments.',
        ],
        [
          { lines: line, payment: { method: 'card' }, payments: [{ method: 'card', amount: 10 }] },
          400,
          'A sale is paid by payment or by payments, one of the two.',
        ],
        [{ lines: line }, 400, 'A sale is paid by payment or by payments, one of the two.'],
        [{ lines: line, payments: [] }, 400, 'A sale needs at least one payment.'],
        [{ lines: line, payments: 'card' }, 400, 'payments must be a list.'],
        [{ lines: line, payments: [{ method: 'cheque', amount: 10 }] }, 400, /Payment method must be one of/],
        [
          { lines: line, payments: [{ method: 'card', amount: '10' }] },
          400,
          'A payment amount must be a number.',
        ],
        [
          { lines: line, payments: [{ method: 'card', amount: -1 }] },
          400,
          'A payment amount must be 0 or more.',
        ],
        [
          { lines: line, payments: [{ method: 'card', amount: 1e12 }] },
          400,
          'A payment amount is too large.',
        ],
        [
          { lines: line, payments: [{ method: 'card', amount: 9.999 }] },
          400,
          'A payment amount has at most 2 decimals.',
        ],
        [
          { lines: line, payments: [{ method: 'card', amount: [10] }] },
          400,
          'A payment amount must be a number.',
        ],
        [{ lines: line, payments: [{ method: 'card\u0000', amount: 10 }] }, 400, /NUL characters/],
        [
          { lines: line, payments: [{ method: 'x'.repeat(10_000), amount: 10 }] },
          400,
          /Payment method must be one of/,
        ],
        [{ lines: line, payment: { method: 'card' }, session: 'nope' }, 404, 'Session not found.'],
        [{ lines: line, payment: { method: 'card' }, session: randomUUID() }, 404, 'Session not found.'],
        [{ lines: line, payment: { method: 'card' }, session: 'x'.repeat(10_000) }, 400, /session/i],
        [{ lines: line, payment: { method: 'card' }, session: ['a'] }, 400, /session/i],
      ];
      for (const [body, status, error] of cases) {
        const res = await sell(t.as.salesRep, body);
        expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(status);
        // A schema's refusal starts with the path of the field it refuses.
        if (typeof error === 'string')
          expect(parsed(res, ApiError).error.replace(/^[\w.]+: /, '')).toBe(error);
        else expect(parsed(res, ApiError).error).toMatch(error);
      }
      const [row] = await t.sql<{ stock: number }>('select stock from products where id = $1', [p.id]);
      expect(row?.stock).toBe(5);
      const [orders] = await t.sql<{ n: number }>(
        'select count(*)::int as n from orders where product_id = $1',
        [p.id],
      );
      expect(orders?.n).toBe(0);
    });

    it('names the amounts of its refusals in the store’s currency, as the sale read it', async () => {
      const p = await t.product({ name: 'Euro Kettle', stock: 5, price: 1234.5 });
      const line = [{ productId: p.id, quantity: 1 }];
      await t.sql(`update store_settings set currency = 'EUR' where id = 1`);
      try {
        const short = await sell(t.as.salesRep, {
          lines: line,
          payments: [
            { method: 'card', amount: 1000 },
            { method: 'cash', amount: 234 },
          ],
        });
        expect(short.status).toBe(400);
        expect(parsed(short, ApiError).error).toBe('The payments are €0.50 short of the total (€1,234.50).');
        const tendered = await sell(t.as.salesRep, { lines: line, payment: { method: 'cash', tendered: 1 } });
        expect(parsed(tendered, ApiError).error).toBe('Cash tendered is less than the total (€1,234.50).');
      } finally {
        await t.sql(`update store_settings set currency = 'USD' where id = 1`);
      }
    });

    it('a sale names an open session; a closed one is a 409 and takes nothing', async () => {
      const p = await t.product({ stock: 5, price: 2 });
      const session = await openSession();
      const open = await sell(t.as.salesRep, {
        lines: [{ productId: p.id, quantity: 1 }],
        payment: { method: 'cash', tendered: 5 },
        session: session.id,
      });
      expect(open.status).toBe(201);
      expect(parsed(open, SaleResponse).sale.session).toEqual({ _id: session.id, number: session.number });
      await closeSession(session.id);
      const closed = await sell(t.as.salesRep, {
        lines: [{ productId: p.id, quantity: 1 }],
        payment: { method: 'cash', tendered: 5 },
        session: session.id,
      });
      expect(closed.status).toBe(409);
      expect(parsed(closed, ApiError).error).toBe('This till session is closed.');
      const [row] = await t.sql<{ stock: number; n: number }>(
        'select stock, (select count(*)::int from sales where session_id = $2) as n from products where id = $1',
        [p.id, session.id],
      );
      expect(row).toEqual({ stock: 4, n: 1 });
    });

    it('a sale racing a close never lands in the closed session', async () => {
      for (let round = 0; round < 3; round++) {
        const p = await t.product({ stock: 100, price: 1 });
        const session = await openSession();
        const sales = Array.from({ length: 8 }, () =>
          sell(t.as.salesRep, {
            lines: [{ productId: p.id, quantity: 1 }],
            payment: { method: 'card' },
            session: session.id,
          }),
        );
        // The close as its endpoint will make it: lock the session, count what it holds, close it.
        const close = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 3 * round));
          return t.app.db.transaction(async (tx) => {
            const run = runnerOf(tx);
            await run.query('select id from register_sessions where id = $1 for update', [session.id]);
            const [counted] = await run.query<{ n: number }>(
              'select count(*)::int as n from sales where session_id = $1',
              [session.id],
            );
            await run.query(
              `update register_sessions set status = 'closed', counted_cash = 0, expected_cash = 0,
               closed_at = now() where id = $1`,
              [session.id],
            );
            return counted?.n ?? -1;
          });
        })();
        const [answers, countedAtClose] = await Promise.all([Promise.all(sales), close]);
        for (const answer of answers) {
          expect([201, 409]).toContain(answer.status);
          if (answer.status === 409)
            expect(parsed(answer, ApiError).error).toBe('This till session is closed.');
        }
        const won = answers.filter((answer) => answer.status === 201).length;
        const [inSession] = await t.sql<{ n: number }>(
          'select count(*)::int as n from sales where session_id = $1',
          [session.id],
        );
        // Every sale in the session was there when the close counted it: none landed after.
        expect(inSession?.n).toBe(won);
        expect(countedAtClose).toBe(won);
      }
    });

    it('store credit: needs the customer, at most their balance (409 naming it), spent as a sale entry', async () => {
      const p = await t.product({ stock: 10, price: 8 });
      const ada = (await customer({ name: `Ada Credit ${tag()}` }))._id;
      const line = [{ productId: p.id, quantity: 1 }];
      const nobody = await sell(t.as.salesRep, {
        lines: line,
        payments: [{ method: 'storeCredit', amount: 8 }],
      });
      expect(nobody.status).toBe(400);
      expect(parsed(nobody, ApiError).error).toBe("Paying with store credit needs the sale's customer.");
      const single = await sell(t.as.salesRep, { lines: line, payment: { method: 'storeCredit' } });
      expect(single.status).toBe(400);
      expect(parsed(single, ApiError).error).toBe("Paying with store credit needs the sale's customer.");
      const none = await sell(t.as.salesRep, {
        lines: line,
        customer: ada,
        payments: [{ method: 'storeCredit', amount: 8 }],
      });
      expect(none.status).toBe(409);
      expect(parsed(none, ApiError).error).toMatch(/^Ada Credit \w+ has \$0\.00 of store credit\.$/);
      await credit(ada, 5);
      const tooMuch = await sell(t.as.salesRep, {
        lines: line,
        customer: ada,
        payment: { method: 'storeCredit' },
      });
      expect(tooMuch.status).toBe(409);
      expect(parsed(tooMuch, ApiError).error).toMatch(/ has \$5\.00 of store credit\.$/);
      const split = await sell(t.as.salesRep, {
        lines: line,
        customer: ada,
        payments: [
          { method: 'storeCredit', amount: 5 },
          { method: 'cash', amount: 10 },
        ],
      });
      expect(split.status).toBe(201);
      expect(parsed(split, SaleResponse).sale).toMatchObject({
        payment: { method: 'split', tendered: 10 },
        payments: [
          { method: 'storeCredit', amount: 5, tendered: null },
          { method: 'cash', amount: 3, tendered: 10 },
        ],
        change: 7,
      });
      expect(await balanceOf(ada)).toBe('0.00');
      const history = await t.call('GET', `/api/customers/${ada}/credit`, { token: t.as.salesRep.token });
      expect(history.body).toMatchObject({ balance: 0, total: 2 });
      expect(nth(parsed(history, CreditResponse).entries)).toMatchObject({
        amount: -5,
        kind: 'sale',
        sale: { _id: parsed(split, SaleResponse).sale._id, number: parsed(split, SaleResponse).sale.number },
        refund: null,
        user: { _id: t.as.salesRep.id, name: t.as.salesRep.name },
        balanceAfter: 0,
      });
      await credit(ada, 8);
      const whole = await sell(t.as.salesRep, {
        lines: line,
        customer: ada,
        payment: { method: 'storeCredit' },
      });
      expect(whole.status).toBe(201);
      expect(parsed(whole, SaleResponse).sale).toMatchObject({
        payment: { method: 'storeCredit', tendered: null },
        payments: [{ method: 'storeCredit', amount: 8, tendered: null }],
        change: null,
      });
      expect(await balanceOf(ada)).toBe('0.00');
    });

    it('ten sales racing on one customer’s credit never take it below 0', async () => {
      const p = await t.product({ stock: 50, price: 10 });
      const bea = (await customer({ name: `Bea Race ${tag()}` }))._id;
      await credit(bea, 35);
      const sellers = [t.as.salesRep, t.as.user, t.as.medicalRep, t.as.admin];
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          sell(sellers[i % sellers.length] as Account, {
            lines: [{ productId: p.id, quantity: 1 }],
            customer: bea,
            payments: [{ method: 'storeCredit', amount: 10 }],
          }),
        ),
      );
      const won = answers.filter((answer) => answer.status === 201);
      expect(won).toHaveLength(3);
      for (const lost of answers.filter((answer) => answer.status !== 201)) {
        expect(lost.status).toBe(409);
        expect(parsed(lost, ApiError).error).toMatch(
          /^Bea Race \w+ has \$(5|15|25|35)\.00 of store credit\.$/,
        );
      }
      expect(await balanceOf(bea)).toBe('5.00');
      const entries = await t.sql<{ amount: string; balance_after: string }>(
        `select amount::text as amount, balance_after::text as balance_after from store_credit_entries
       where customer_id = $1 order by store_credit_entries.balance_after desc`,
        [bea],
      );
      expect(entries).toEqual([
        { amount: '35.00', balance_after: '35.00' },
        { amount: '-10.00', balance_after: '25.00' },
        { amount: '-10.00', balance_after: '15.00' },
        { amount: '-10.00', balance_after: '5.00' },
      ]);
      const [stock] = await t.sql<{ stock: number }>('select stock from products where id = $1', [p.id]);
      expect(stock?.stock).toBe(47);
    });

    it('sales of one customer sharing products in every order at once: none deadlocks, credit exact', async () => {
      const products = await Promise.all(
        Array.from({ length: 4 }, () => t.product({ stock: 100, price: 5 })),
      );
      const dee = (await customer({ name: `Dee Locks ${tag()}` }))._id;
      await credit(dee, 100);
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
      const sellers = [t.as.salesRep, t.as.user, t.as.medicalRep, t.as.admin];
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => {
          // Each sale names a different subset, in a different order.
          const chosen = products.filter((_, at) => (i + at) % 3 !== 0);
          const lines = (i % 2 === 0 ? chosen : [...chosen].reverse()).map((p) => ({
            productId: p.id,
            quantity: 1,
          }));
          return sell(sellers[i % sellers.length] as Account, {
            lines,
            customer: dee,
            payments: [
              { method: 'storeCredit', amount: 1 },
              { method: 'card', amount: lines.length * 5 - 1 },
            ],
          });
        }),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(201));
      expect(await balanceOf(dee)).toBe('88.00');
      expect(await deadlocks()).toBe(before);
    });

    it('a sale paid with store credit and an Idempotency-Key is spent once', async () => {
      const p = await t.product({ stock: 10, price: 4 });
      const cy = (await customer({ name: `Cy Once ${tag()}` }))._id;
      await credit(cy, 10);
      const body = {
        lines: [{ productId: p.id, quantity: 1 }],
        customer: cy,
        payment: { method: 'storeCredit' },
      };
      const key = { 'idempotency-key': randomUUID() };
      const first = await sell(t.as.salesRep, body, key);
      const again = await sell(t.as.salesRep, body, key);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(parsed(again, SaleResponse).sale._id).toBe(parsed(first, SaleResponse).sale._id);
      expect(await balanceOf(cy)).toBe('6.00');
    });
  },
);
