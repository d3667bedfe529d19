import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, targets } from '../../test/harness';

describe.each(targets)('customers on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const create = (body: unknown, token = t.as.salesRep.token) =>
    t.call('POST', '/api/customers', { token, body });

  it('staff create customers (trimmed, blanks default), and bad input stores nothing', async () => {
    const res = await create({ name: '  Grace Buyer ', phone: '+1 555 0101', email: 'GRACE@Example.com' });
    expect(res.status).toBe(201);
    expect(res.body.customer).toEqual({
      _id: expect.any(String),
      name: 'Grace Buyer',
      phone: '+1 555 0101',
      email: 'grace@example.com',
      address: '',
      note: '',
      createdAt: expect.stringMatching(/^\d{4}-/),
    });
    const before = (await t.sql<{ n: number }>('select count(*)::int as n from customers'))[0]?.n;
    for (const [body, error] of [
      [{ name: '   ' }, /Customer name is required/],
      [{ name: 'X', email: 'not-an-email' }, /valid email/],
      [{ name: 'X', phone: 'x'.repeat(51) }, /at most 50/],
      [{ name: 'X', note: 'a\u0000b' }, /NUL/],
    ] as const) {
      const bad = await create(body);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(error);
    }
    expect((await t.sql<{ n: number }>('select count(*)::int as n from customers'))[0]?.n).toBe(before);
  });

  it('lists by name, a page at a time; search matches every word in the name, phone or email', async () => {
    const tag = `k${Date.now().toString(36)}`;
    for (const [name, phone, email] of [
      [`Zed ${tag} Adams`, '0700 111', `zed@${tag}.test`],
      [`Amy ${tag} Brown`, '0700 222', 'amy@mail.test'],
      [`Bob Other`, `0999 ${tag}`, 'bob@mail.test'],
    ])
      await create({ name, phone, email });
    const all = await t.call('GET', `/api/customers?search=${tag}&pageSize=2`, { token: t.as.user.token });
    expect(all.body).toMatchObject({ success: true, total: 3, page: 1, pageSize: 2 });
    expect(all.body.customers.map((c: { name: string }) => c.name)).toEqual([
      `Amy ${tag} Brown`,
      'Bob Other',
    ]);
    const second = await t.call('GET', `/api/customers?search=${tag}&pageSize=2&page=2`, {
      token: t.as.user.token,
    });
    expect(second.body.customers.map((c: { name: string }) => c.name)).toEqual([`Zed ${tag} Adams`]);
    const byEmail = await t.call('GET', `/api/customers?search=zed@${tag}`, { token: t.as.admin.token });
    expect(byEmail.body.customers.map((c: { name: string }) => c.name)).toEqual([`Zed ${tag} Adams`]);
    const twoWords = await t.call('GET', `/api/customers?search=${tag} brown`, { token: t.as.admin.token });
    expect(twoWords.body.total).toBe(1);
    const wildcard = await t.call('GET', `/api/customers?search=${tag}%25`, { token: t.as.admin.token });
    expect(wildcard.body.total).toBe(0);
    expect((await t.call('GET', '/api/customers?pageSize=101', { token: t.as.admin.token })).status).toBe(
      400,
    );
  });

  it('a customer page sums their sales net of returns; orders keep the name after an edit or a delete', async () => {
    const buyer = (await create({ name: 'Net Buyer' })).body.customer;
    const fresh = await t.call('GET', `/api/customers/${buyer._id}`, { token: t.as.user.token });
    expect(fresh.body.summary).toEqual({ sales: 0, totalSpent: 0, lastPurchaseAt: null });
    const a = await t.product({ stock: 20, price: 0.1 });
    const b = await t.product({ stock: 20, price: 0.2 });
    const sale = async (lines: { productId: string; quantity: number }[]) =>
      (
        await t.call('POST', '/api/sales', {
          token: t.as.salesRep.token,
          body: { lines, customer: buyer._id, payment: { method: 'card' } },
        })
      ).body.sale;
    const first = await sale([
      { productId: a.id, quantity: 3 },
      { productId: b.id, quantity: 1 },
    ]);
    const second = await sale([{ productId: b.id, quantity: 2 }]);
    // 0.3 + 0.2 + 0.4 = 0.9; then 1 of the 3 at 0.10 comes back: 0.8.
    const returned = await t.call('POST', `/api/order/${first.lines[0].order._id}/return`, {
      token: t.as.admin.token,
      body: { quantity: 1 },
    });
    expect(returned.status).toBe(200);
    for (const who of ['salesRep', 'admin'] as const) {
      const page = await t.call('GET', `/api/customers/${buyer._id}`, { token: t.as[who].token });
      expect(page.body).toEqual({
        success: true,
        customer: buyer,
        summary: { sales: 2, totalSpent: 0.8, lastPurchaseAt: second.createdAt },
      });
    }
    // Another seller's page counts only the sales they made: none.
    const other = await t.call('GET', `/api/customers/${buyer._id}`, { token: t.as.medicalRep.token });
    expect(other.body.summary).toEqual({ sales: 0, totalSpent: 0, lastPurchaseAt: null });
    const sales = await t.call('GET', `/api/sales?customer=${buyer._id}`, { token: t.as.salesRep.token });
    expect(sales.body).toMatchObject({ total: 2, page: 1 });
    expect(sales.body.sales.map((s: { _id: string; lineCount: number }) => [s._id, s.lineCount])).toEqual([
      [second._id, 1],
      [first._id, 2],
    ]);

    // Only admins edit and delete.
    const edit = { name: 'Net Buyer Renamed', phone: '123' };
    expect(
      (await t.call('PUT', `/api/customers/${buyer._id}`, { token: t.as.salesRep.token, body: edit })).status,
    ).toBe(403);
    const edited = await t.call('PUT', `/api/customers/${buyer._id}`, {
      token: t.as.admin.token,
      body: edit,
    });
    expect(edited.body.customer).toMatchObject({ name: 'Net Buyer Renamed', phone: '123', email: '' });
    expect((await t.call('DELETE', `/api/customers/${buyer._id}`, { token: t.as.user.token })).status).toBe(
      403,
    );
    const deleted = await t.call('DELETE', `/api/customers/${buyer._id}`, { token: t.as.admin.token });
    expect(deleted.body).toEqual({ success: true, message: 'Customer deleted.' });
    expect((await t.call('GET', `/api/customers/${buyer._id}`, { token: t.as.admin.token })).status).toBe(
      404,
    );
    // The sale and its orders keep the name they were sold under.
    const receipt = await t.call('GET', `/api/sales/${first._id}`, { token: t.as.admin.token });
    expect(receipt.body.sale.customer).toEqual({ _id: null, name: 'Net Buyer' });
    const orders = await t.sql<{ customer_id: string | null; customer_name: string }>(
      'select customer_id, customer_name from orders where sale_id = $1',
      [first._id],
    );
    expect(orders).toEqual([
      { customer_id: null, customer_name: 'Net Buyer' },
      { customer_id: null, customer_name: 'Net Buyer' },
    ]);
    // Each change is in the activity log.
    const log = await t.sql<{ action: string }>(
      "select action from audit_log where entity_type = 'customer' and entity_id = $1 order by at",
      [buyer._id],
    );
    expect(log.map((row) => row.action)).toEqual(['created', 'updated', 'deleted']);
    // Unknown ids are 404s.
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      expect((await t.call('GET', `/api/customers/${id}`, { token: t.as.admin.token })).status).toBe(404);
      expect(
        (await t.call('PUT', `/api/customers/${id}`, { token: t.as.admin.token, body: edit })).status,
      ).toBe(404);
      expect((await t.call('DELETE', `/api/customers/${id}`, { token: t.as.admin.token })).status).toBe(404);
    }
  });
});
