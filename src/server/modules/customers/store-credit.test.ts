import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { CustomerDetailResponse } from '../../../shared/customers';
import { SaleResponse } from '../../../shared/sales';
import { CreditAdjustmentResponse, CreditResponse } from '../../../shared/till';
import { fixtures } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

describe.each(targets)('store credit on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const { customer } = fixtures(() => t);
  const adjust = (
    id: string,
    body: unknown,
    token = t.as.admin.token,
    headers: Record<string, string> = {},
  ) => t.call('POST', `/api/customers/${id}/credit`, { token, body, headers });
  const history = (id: string, query = '', token = t.as.salesRep.token) =>
    t.call('GET', `/api/customers/${id}/credit${query}`, { token });

  it('an admin gives and takes credit with a note: entries newest first with the balance after each, audited', async () => {
    const ada = await customer();
    const empty = await history(ada._id);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ success: true, balance: 0, entries: [], total: 0, page: 1, pageSize: 20 });

    const given = await adjust(ada._id, { amount: 12.5, note: '  Broken kettle  ' });
    expect(given.status).toBe(201);
    expect(given.body).toEqual({
      success: true,
      balance: 12.5,
      entry: {
        _id: expect.any(String),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        amount: 12.5,
        kind: 'adjustment',
        sale: null,
        refund: null,
        user: { _id: t.as.admin.id, name: t.as.admin.name },
        note: 'Broken kettle',
        balanceAfter: 12.5,
      },
    });
    const taken = await adjust(ada._id, { amount: -2.25, note: 'Given in error' });
    expect(taken.status).toBe(201);
    expect(parsed(taken, CreditAdjustmentResponse).balance).toBe(10.25);

    const tooMuch = await adjust(ada._id, { amount: -10.26, note: 'Too much' });
    expect(tooMuch.status).toBe(409);
    expect(parsed(tooMuch, ApiError).error).toBe(`${ada.name} has $10.25 of store credit.`);

    const listed = await history(ada._id);
    expect(listed.body).toMatchObject({ balance: 10.25, total: 2 });
    expect(
      parsed(listed, CreditResponse).entries.map(
        (e: { amount: number; balanceAfter: number; note: string }) => e,
      ),
    ).toEqual([parsed(taken, CreditAdjustmentResponse).entry, parsed(given, CreditAdjustmentResponse).entry]);
    const paged = await history(ada._id, '?page=2&pageSize=1');
    expect(paged.body).toMatchObject({ balance: 10.25, total: 2, page: 2, pageSize: 1 });
    expect(parsed(paged, CreditResponse).entries).toEqual([parsed(given, CreditAdjustmentResponse).entry]);

    const detail = await t.call('GET', `/api/customers/${ada._id}`, { token: t.as.salesRep.token });
    expect(parsed(detail, CustomerDetailResponse).summary.creditBalance).toBe(10.25);

    const log = await t.sql<{ action: string; changes: unknown }>(
      "select action, changes from audit_log where entity_type = 'customer' and entity_id = $1 and action = 'creditAdjusted' order by at",
      [ada._id],
    );
    expect(log).toEqual([
      {
        action: 'creditAdjusted',
        changes: [
          { field: 'amount', new: 12.5 },
          { field: 'note', new: 'Broken kettle' },
          { field: 'creditBalance', old: 0, new: 12.5 },
        ],
      },
      {
        action: 'creditAdjusted',
        changes: [
          { field: 'amount', new: -2.25 },
          { field: 'note', new: 'Given in error' },
          { field: 'creditBalance', old: 12.5, new: 10.25 },
        ],
      },
    ]);
  });

  it('entries name the sale that spent the credit; the seller who made it is the entry’s user', async () => {
    const bo = await customer();
    await adjust(bo._id, { amount: 20, note: 'Return without receipt' });
    const p = await t.product({ stock: 5, price: 7 });
    const sold = await t.call('POST', '/api/sales', {
      token: t.as.salesRep.token,
      body: {
        lines: [{ productId: p.id, quantity: 1 }],
        customer: bo._id,
        payments: [{ method: 'storeCredit', amount: 7 }],
      },
    });
    expect(sold.status).toBe(201);
    const listed = await history(bo._id);
    expect(parsed(listed, CreditResponse).balance).toBe(13);
    expect(parsed(listed, CreditResponse).entries[0]).toEqual({
      _id: expect.any(String),
      at: expect.any(String),
      amount: -7,
      kind: 'sale',
      sale: { _id: parsed(sold, SaleResponse).sale._id, number: parsed(sold, SaleResponse).sale.number },
      refund: null,
      user: { _id: t.as.salesRep.id, name: t.as.salesRep.name },
      note: '',
      balanceAfter: 13,
    });
  });

  it('selling roles and admins read credit; only admins adjust it; unknown ids are 404s', async () => {
    const cy = await customer();
    for (const role of ['admin', 'salesRep', 'medicalRep', 'user'] as const)
      expect((await history(cy._id, '', t.as[role].token)).status, role).toBe(200);
    expect((await history(cy._id, '', t.as.superAdmin.token)).status).toBe(403);
    expect((await t.call('GET', `/api/customers/${cy._id}/credit`)).status).toBe(401);
    for (const role of ['salesRep', 'medicalRep', 'user', 'superAdmin'] as const)
      expect((await adjust(cy._id, { amount: 5, note: 'x' }, t.as[role].token)).status, role).toBe(403);
    expect(
      (await t.call('POST', `/api/customers/${cy._id}/credit`, { body: { amount: 5, note: 'x' } })).status,
    ).toBe(401);
    for (const id of ['nope', randomUUID(), 'x'.repeat(100)]) {
      const read = await history(id);
      expect(read.status, id).toBe(404);
      expect(parsed(read, ApiError).error).toBe('Customer not found.');
      const write = await adjust(id, { amount: 5, note: 'x' });
      expect(write.status, id).toBe(404);
      expect(parsed(write, ApiError).error).toBe('Customer not found.');
    }
    expect(parsed(await history(cy._id), CreditResponse).balance).toBe(0);
  });

  it('refuses bad adjustments and bad pages with one sentence, changing nothing', async () => {
    const di = await customer();
    const cases: [unknown, RegExp][] = [
      [{ amount: '5', note: 'x' }, /The amount must be a number\./],
      [{ amount: 0, note: 'x' }, /The amount must not be 0\./],
      [{ amount: 1.005, note: 'x' }, /The amount has at most 2 decimals\./],
      [{ amount: 1e12, note: 'x' }, /The amount is too large\./],
      [{ amount: -1e12, note: 'x' }, /The amount is too large\./],
      [{ amount: [5], note: 'x' }, /The amount must be a number\./],
      [{ amount: null, note: 'x' }, /The amount must be a number\./],
      [{ amount: 5 }, /note/i],
      [{ amount: 5, note: '   ' }, /A note is required/],
      [{ amount: 5, note: 'a\u0000b' }, /NUL/],
      [{ amount: 5, note: 'x'.repeat(501) }, /at most 500/],
      [{ amount: 5, note: ['x'] }, /note/i],
      [[5, 'x'], /.+/],
    ];
    for (const [body, error] of cases) {
      const res = await adjust(di._id, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(parsed(res, ApiError).error).toMatch(error);
    }
    // Far beyond what the schema allows, the body is refused before it is read.
    const huge = await adjust(di._id, { amount: 5, note: 'x'.repeat(10_000) });
    expect(huge.status).toBe(413);
    expect(parsed(huge, ApiError).error).toEqual(expect.any(String));
    for (const query of ['?page=0', '?page=abc', '?pageSize=1000', '?pageSize=-1', '?page=1.5']) {
      const res = await history(di._id, query);
      expect(res.status, query).toBe(400);
      expect(parsed(res, ApiError).error).toEqual(expect.any(String));
    }
    const [row] = await t.sql<{ n: number; b: string }>(
      `select (select count(*)::int from store_credit_entries where customer_id = $1) as n,
              (select credit_balance::text from customers where id = $1) as b`,
      [di._id],
    );
    expect(row).toEqual({ n: 0, b: '0.00' });
  });

  it('an adjustment with an Idempotency-Key is made once', async () => {
    const ed = await customer();
    const key = { 'idempotency-key': randomUUID() };
    const first = await adjust(ed._id, { amount: 3, note: 'Once' }, t.as.admin.token, key);
    const again = await adjust(ed._id, { amount: 3, note: 'Once' }, t.as.admin.token, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await history(ed._id)).body).toMatchObject({ balance: 3, total: 1 });
  });

  it('takes racing at once never go below 0', async () => {
    const fi = await customer();
    await adjust(fi._id, { amount: 10, note: 'Start' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => adjust(fi._id, { amount: -3, note: 'Take' })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    for (const lost of answers.filter((answer) => answer.status !== 201)) {
      expect(lost.status).toBe(409);
      expect(parsed(lost, ApiError).error).toBe(`${fi.name} has $1.00 of store credit.`);
    }
    expect(parsed(await history(fi._id), CreditResponse).balance).toBe(1);
  });

  it('a customer who still has credit is not deleted; at 0 they are, with their entries', async () => {
    const gu = await customer();
    await adjust(gu._id, { amount: 4.5, note: 'Goodwill' });
    const kept = await t.call('DELETE', `/api/customers/${gu._id}`, { token: t.as.admin.token });
    expect(kept.status).toBe(409);
    expect(parsed(kept, ApiError).error).toBe(`${gu.name} still has $4.50 of store credit.`);
    expect(parsed(await history(gu._id), CreditResponse).balance).toBe(4.5);
    await adjust(gu._id, { amount: -4.5, note: 'Paid out' });
    const gone = await t.call('DELETE', `/api/customers/${gu._id}`, { token: t.as.admin.token });
    expect(gone.status).toBe(200);
    expect((await history(gu._id)).status).toBe(404);
    const [left] = await t.sql<{ n: number }>(
      'select count(*)::int as n from store_credit_entries where customer_id = $1',
      [gu._id],
    );
    expect(left?.n).toBe(0);
  });
});
