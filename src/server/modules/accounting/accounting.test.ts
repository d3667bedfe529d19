import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountResponse,
  AccountsResponse,
  BooksCheckResponse,
  JournalEntryResponse,
  JournalResponse,
  ProfitAndLossResponse,
  TrialBalanceResponse,
} from '../../../shared/accounting';
import { ApiError } from '../../../shared/common';
import { SessionResponse } from '../../../shared/till';
import { fixtures, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { recordMovements } from '../stock/movements';

/** DESIGN §19: every event posts one balanced entry in its own transaction; the books check themselves. */
describe.each(targets)('the books on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());
  const { sold } = fixtures(() => t);
  const admin = () => t.as.admin.token;
  const get = (url: string) => t.call('GET', url, { token: admin() });
  const post = (url: string, body?: unknown) => t.call('POST', url, { token: admin(), body });

  const accounts = async () => parsed(await get('/api/accounting/accounts'), AccountsResponse).accounts;
  const balanceOf = async (code: string) => (await accounts()).find((a) => a.code === code)?.balance;
  const accountId = async (code: string) => (await accounts()).find((a) => a.code === code)?._id as string;
  const check = async () => parsed(await get('/api/accounting/check'), BooksCheckResponse);
  const expectBooksHold = async () => {
    const books = await check();
    expect(books.checks.filter((c) => !c.ok)).toEqual([]);
    expect(books.ok).toBe(true);
  };
  const entriesOf = async (source: string, sourceId: string) =>
    parsed(await get(`/api/accounting/journal?source=${source}&sourceId=${sourceId}`), JournalResponse)
      .entries;
  /** An entry's lines as [code, debit, credit], in its order. */
  const linesOf = (entry: { lines: { account: { code: string }; debit: number; credit: number }[] }) =>
    entry.lines.map((line) => [line.account.code, line.debit, line.credit]);

  it('has the default chart, each account with its balance; codes are unique; a system account stays active', async () => {
    const chart = await accounts();
    expect(chart.map((a) => a.code)).toEqual(
      expect.arrayContaining([
        '1000',
        '1050',
        '1150',
        '1300',
        '1310',
        '2100',
        '2200',
        '2300',
        '3000',
        '4000',
        '5000',
        '6950',
      ]),
    );
    expect(chart.find((a) => a.code === '1300')).toMatchObject({
      name: 'Inventory',
      type: 'asset',
      system: 'inventory',
      active: true,
    });
    const code = `7${String(Date.now()).slice(-3)}`;
    const made = await post('/api/accounting/accounts', { code, name: 'Rent', type: 'expense' });
    expect(made.status, made.text).toBe(201);
    expect(parsed(made, AccountResponse).account).toMatchObject({
      code,
      name: 'Rent',
      system: null,
      balance: 0,
    });
    const again = await post('/api/accounting/accounts', { code, name: 'Rent again', type: 'expense' });
    expect(again.status).toBe(409);
    expect(parsed(again, ApiError).code).toBe('ACCOUNT_CODE_TAKEN');
    const inventory = await accountId('1300');
    const off = await t.call('PUT', `/api/accounting/accounts/${inventory}`, {
      token: admin(),
      body: { active: false },
    });
    expect(off.status).toBe(409);
    expect(parsed(off, ApiError).code).toBe('ACCOUNT_SYSTEM');
    const rent = parsed(made, AccountResponse).account._id;
    const closed = await t.call('PUT', `/api/accounting/accounts/${rent}`, {
      token: admin(),
      body: { active: false },
    });
    expect(parsed(closed, AccountResponse).account.active).toBe(false);
    for (const body of [
      { code: '', name: 'x', type: 'expense' },
      { code: '9', name: 'x', type: 'cost' },
      { code: ['9'], name: 'x', type: 'asset' },
      { code: '9', name: 'x'.repeat(10_000), type: 'asset' },
      { code: '9', name: 'a\u0000b', type: 'asset' },
    ]) {
      const bad = await post('/api/accounting/accounts', body);
      expect(bad.status, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
  });

  it('a day at the counter: sales in cash and by card, a refund, a till closed 0.50 short — each one entry, and the books check', async () => {
    const { id: productId } = await t.product({ stock: 20, price: 10, cost: 4 });
    const made = await post('/api/registers', { name: `Till ${tag()}` });
    expect(made.status, made.text).toBe(201);
    const register = (made.body as { register: { _id: string } }).register._id;
    const opened = await post(`/api/registers/${register}/open`, { openingFloat: 50 });
    expect(opened.status, opened.text).toBe(201);
    const session = parsed(opened, SessionResponse).session._id;
    const rep = t.as.admin;
    const cash = await sold(rep, {
      lines: [{ productId, quantity: 2 }],
      payment: { method: 'cash', tendered: 50 },
      session,
    });
    const card = await sold(rep, {
      lines: [{ productId, quantity: 1 }],
      payment: { method: 'card' },
      session,
    });
    // The cash sale's entry: 20.00 into the till, 20.00 of sales, 8.00 of cost out of stock.
    const [saleEntry] = await entriesOf('sale', cash._id);
    expect(linesOf(saleEntry as never)).toEqual([
      ['1000', 20, 0],
      ['4000', 0, 20],
      ['5000', 8, 0],
      ['1300', 0, 8],
    ]);
    expect(saleEntry?.source).toMatchObject({
      kind: 'sale',
      _id: cash._id,
      number: expect.stringMatching(/\d/),
    });
    expect(saleEntry?.movements).toHaveLength(1);
    const refunded = await post(`/api/sales/${card._id}/refunds`, {
      lines: [{ order: card.lines[0]?.order._id, quantity: 1 }],
      method: 'card',
    });
    expect(refunded.status, refunded.text).toBe(201);
    const refundId = (refunded.body as { refund: { _id: string } }).refund._id;
    const [refundEntry] = await entriesOf('refund', refundId);
    expect(linesOf(refundEntry as never)).toEqual(
      expect.arrayContaining([
        ['1150', 0, 10],
        ['4100', 10, 0],
        ['1300', 4, 0],
        ['5000', 0, 4],
      ]),
    );
    // 50 float + 20 cash = 70 expected; 69.50 counted: 0.50 short.
    const closed = await post(`/api/register-sessions/${session}/close`, { countedCash: 69.5 });
    expect(closed.status, closed.text).toBe(200);
    const [closeEntry] = await entriesOf('sessionClose', session);
    expect(linesOf(closeEntry as never)).toEqual([
      ['1050', 69.5, 0],
      ['1000', 0, 70],
      ['6100', 0.5, 0],
    ]);
    await expectBooksHold();
    const today = new Date().toISOString().slice(0, 10);
    const pl = parsed(
      await get(`/api/accounting/profit-and-loss?from=${today}&to=${today}`),
      ProfitAndLossResponse,
    );
    expect(pl.expenses.find((e) => e.account.code === '6100')?.amount).toBeGreaterThanOrEqual(0.5);
    // The months: each of the range, those with nothing posted at 0, and this one's figures the P&L's.
    const yearAgo = `${Number(today.slice(0, 4)) - 1}${today.slice(4, 7)}-01`;
    const year = parsed(
      await get(`/api/accounting/profit-and-loss?from=${yearAgo}&to=${today}`),
      ProfitAndLossResponse,
    );
    expect(year.months.map((m) => m.month)).toHaveLength(13);
    expect(year.months[0]).toEqual({ month: yearAgo.slice(0, 7), netSales: 0, costOfSales: 0, netProfit: 0 });
    expect(year.months.at(-1)?.month).toBe(today.slice(0, 7));
    expect(year.months.reduce((sum, m) => sum + Math.round(m.netSales * 100), 0)).toBe(
      Math.round(year.netSales * 100),
    );
    expect(year.months.reduce((sum, m) => sum + Math.round(m.netProfit * 100), 0)).toBe(
      Math.round(year.netProfit * 100),
    );
    const tb = parsed(
      await get(`/api/accounting/trial-balance?from=${today}&to=${today}`),
      TrialBalanceResponse,
    );
    expect(tb.totals.debit).toBe(tb.totals.credit);
  });

  it('receipts, adjustments, transfers, credit and cash movements post their entries; the books still check', async () => {
    const { id, supplierId } = await t.product({ stock: 5, cost: 2 });
    const order = await post('/api/purchase-orders', {
      supplier: supplierId,
      lines: [{ product: id, quantity: 4, unitCost: 3 }],
    });
    const po = order.body as { purchaseOrder: { _id: string; lines: { _id: string }[] } };
    expect((await post(`/api/purchase-orders/${po.purchaseOrder._id}/order`)).status).toBe(200);
    const received = await post(`/api/purchase-orders/${po.purchaseOrder._id}/receive`, {
      lines: [{ line: po.purchaseOrder.lines[0]?._id, quantity: 4 }],
    });
    expect(received.status, received.text).toBe(200);
    const [receipt] = await entriesOf('receipt', po.purchaseOrder._id);
    expect(linesOf(receipt as never)).toEqual([
      ['1300', 12, 0],
      ['2100', 0, 12],
    ]);
    expect(receipt?.lines[1]?.supplier?._id).toBe(supplierId);
    expect((await post(`/api/products/${id}/adjust`, { quantity: -1, reason: 'damaged' })).status).toBe(200);
    expect((await post(`/api/products/${id}/adjust`, { quantity: 2, reason: 'found' })).status).toBe(200);
    const customer = await post('/api/customers', { name: `Ada ${tag()}` });
    const customerId = (customer.body as { customer: { _id: string } }).customer._id;
    const credit = await post(`/api/customers/${customerId}/credit`, { amount: 15, note: 'Goodwill' });
    expect(credit.status, credit.text).toBe(201);
    await expectBooksHold();
    expect(await balanceOf('2300')).toBeLessThanOrEqual(-15);
  });

  it('a manual entry balances, has two lines or more, each one side; it is reversed once; the lock date holds', async () => {
    const [cashAcc, bank] = [await accountId('1050'), await accountId('1100')];
    const today = new Date().toISOString().slice(0, 10);
    const good = {
      date: today,
      memo: 'Banked the takings',
      lines: [
        { account: bank, debit: 100 },
        { account: cashAcc, credit: 100 },
      ],
    };
    const made = await post('/api/accounting/journal', good);
    expect(made.status, made.text).toBe(201);
    const entry = parsed(made, JournalEntryResponse).entry;
    expect(entry).toMatchObject({
      number: expect.stringMatching(/^JE-\d{6}$/),
      memo: 'Banked the takings',
      source: { kind: 'manual' },
    });
    const refusals: [unknown, number, string?][] = [
      [
        {
          ...good,
          lines: [
            { account: bank, debit: 100 },
            { account: cashAcc, credit: 99.99 },
          ],
        },
        400,
        'ENTRY_UNBALANCED',
      ],
      [
        {
          ...good,
          lines: [
            { account: bank, debit: 100, credit: 100 },
            { account: cashAcc, credit: 0 },
          ],
        },
        400,
        'ENTRY_LINE_SIDE',
      ],
      [{ ...good, lines: [{ account: bank, debit: 100 }] }, 400],
      [{ ...good, memo: '' }, 400],
      [{ ...good, memo: 'x'.repeat(501) }, 400],
      [{ ...good, date: '2026-02-30' }, 400],
      [{ ...good, date: '0000-01-01' }, 400],
      [
        {
          ...good,
          lines: [
            { account: bank, debit: Number.NaN },
            { account: cashAcc, credit: 1 },
          ],
        },
        400,
      ],
      [
        {
          ...good,
          lines: [
            { account: bank, debit: -5 },
            { account: cashAcc, credit: -5 },
          ],
        },
        400,
      ],
      [
        {
          ...good,
          lines: [
            { account: bank, debit: 1e15 },
            { account: cashAcc, credit: 1e15 },
          ],
        },
        400,
      ],
      [
        {
          ...good,
          lines: [
            { account: bank, debit: 0.001 },
            { account: cashAcc, credit: 0.001 },
          ],
        },
        400,
      ],
      [
        {
          ...good,
          lines: [
            { account: '00000000-0000-4000-8000-000000000000', debit: 1 },
            { account: cashAcc, credit: 1 },
          ],
        },
        404,
      ],
      [
        {
          ...good,
          lines: [
            { account: 'nope', debit: 1 },
            { account: cashAcc, credit: 1 },
          ],
        },
        404,
      ],
      [{ ...good, lines: 'two' }, 400],
    ];
    for (const [body, status, code] of refusals) {
      const answer = await post('/api/accounting/journal', body);
      expect(answer.status, JSON.stringify(body).slice(0, 120)).toBe(status);
      if (code) expect(parsed(answer, ApiError).code).toBe(code);
    }
    const reversed = await post(`/api/accounting/journal/${entry._id}/reverse`, {});
    expect(reversed.status, reversed.text).toBe(201);
    const reversal = parsed(reversed, JournalEntryResponse).entry;
    expect(linesOf(reversal)).toEqual([
      ['1100', 0, 100],
      ['1050', 100, 0],
    ]);
    expect(reversal.reverses).toBe(entry._id);
    expect(
      parsed(await get(`/api/accounting/journal/${entry._id}`), JournalEntryResponse).entry.reversedBy,
    ).toBe(reversal._id);
    const twice = await post(`/api/accounting/journal/${entry._id}/reverse`, {});
    expect(twice.status).toBe(409);
    expect(parsed(twice, ApiError).code).toBe('ENTRY_REVERSED');
    // The lock date: earlier than today, only forward; no entry on or before it.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const lock = (lockDate: unknown) =>
      t.call('PUT', '/api/accounting/settings', { token: admin(), body: { lockDate } });
    expect((await lock(today)).status).toBe(409);
    const set = await lock(yesterday);
    expect(set.status, set.text).toBe(200);
    expect((await lock(yesterday)).status).toBe(200);
    const back = await lock(new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10));
    expect(back.status).toBe(409);
    expect(parsed(back, ApiError).code).toBe('LOCK_DATE_INVALID');
    expect((await lock(null)).status).toBe(409);
    const locked = await post('/api/accounting/journal', { ...good, date: yesterday });
    expect(locked.status).toBe(409);
    expect(parsed(locked, ApiError).code).toBe('BOOKS_LOCKED');
    expect((await post('/api/accounting/journal', good)).status).toBe(201);
    await expectBooksHold();
    // Each change of the books is in the activity log, by whom, with what changed.
    const logged = await t.sql<{
      action: string;
      entity_type: string;
      entity_name: string;
      changes: unknown;
    }>(
      `select action, entity_type, entity_name, changes from audit_log
        where entity_type in ('journalEntry', 'books') and actor_id = $1 order by at, id`,
      [t.as.admin.id],
    );
    const number = entry.number;
    expect(logged.filter((row) => row.entity_name === number).map((row) => row.action)).toEqual([
      'posted',
      'reversed',
    ]);
    expect(logged.find((row) => row.action === 'reversed')?.changes).toEqual([
      { field: 'reversedBy', new: reversal.number },
    ]);
    expect(logged.filter((row) => row.entity_type === 'books')).toEqual([
      {
        action: 'updated',
        entity_type: 'books',
        entity_name: 'Lock date',
        changes: [{ field: 'lockDate', old: null, new: yesterday }],
      },
    ]);
  });

  it('a product deleted with stock writes it off first, so its value leaves 1300 by an entry', async () => {
    const { id } = await t.product({ stock: 6, cost: 2.5 });
    const inventory = Number(await balanceOf('1300'));
    const adjustments = Number(await balanceOf('5150'));
    const gone = await t.call('DELETE', `/api/products/${id}`, { token: admin() });
    expect(gone.status, gone.text).toBe(200);
    expect(Number(await balanceOf('1300'))).toBeCloseTo(inventory - 15, 2);
    expect(Number(await balanceOf('5150'))).toBeCloseTo(adjustments + 15, 2);
    const [writeOff] = await t.sql<{ quantity: number; value: string }>(
      "select quantity, value::text as value from stock_movements where product_id = $1 and kind = 'adjustment'",
      [id],
    );
    expect(writeOff).toEqual({ quantity: -6, value: '-15.00' });
    await expectBooksHold();
  });

  it('the database refuses to change or delete an entry or an account, and an entry that does not balance', async () => {
    const problems: string[] = [];
    for (const text of [
      'update journal_entries set memo = $1',
      'delete from journal_lines where false or true',
      'delete from journal_movements',
      // A line names its account without a foreign key: an account is never deleted.
      "delete from accounts where code = '6900'",
      'truncate accounts cascade',
    ]) {
      try {
        await t.sql(text, text.includes('$1') ? ['changed'] : []);
        problems.push(`${text} went through`);
      } catch (error) {
        expect(String((error as { code?: string }).code)).toBe('IMS13');
      }
    }
    expect(problems).toEqual([]);
    const [inv] = await t.sql<{ id: string }>("select id from accounts where system = 'inventory'");
    await expect(
      t.sql(`select journal_post('manual', null, store_today(), 'off', $1::jsonb, null, null, null, null)`, [
        JSON.stringify([{ account: inv?.id, amount: '1.00' }]),
      ]),
    ).rejects.toMatchObject({ code: 'IMS12' });
    // A movement posted by two entries is refused by its key.
    const { id } = await t.product({ stock: 0, cost: 1 });
    const [moved] = await recordMovements(t.app.database, [
      { productId: id, kind: 'receipt', quantity: 1, value: '1.00' },
    ]);
    await expect(
      t.sql(
        `select journal_post('manual', null, store_today(), 'twice', '[]'::jsonb, $1::uuid[], null, null, null)`,
        [[moved?.id]],
      ),
    ).rejects.toMatchObject({ code: '23505' });
  });

  it('only admins read or keep the books', async () => {
    for (const who of [t.as.salesRep, t.as.user, t.as.medicalRep, t.as.superAdmin]) {
      expect((await t.call('GET', '/api/accounting/check', { token: who.token })).status, who.role).toBe(403);
      expect(
        (await t.call('POST', '/api/accounting/journal', { token: who.token, body: {} })).status,
        who.role,
      ).toBe(403);
    }
    expect((await t.call('GET', '/api/accounting/accounts')).status).toBe(401);
  });
});
