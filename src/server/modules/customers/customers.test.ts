import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { CustomerDetailResponse, CustomerListResponse, CustomerResponse } from '../../../shared/customers';
import { SaleListResponse, SaleResponse } from '../../../shared/sales';
import { fixtures, nth } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

describe.each(targets)('customers on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());
  const { sold } = fixtures(() => t);

  const create = (body: unknown, token = t.as.salesRep.token) =>
    t.call('POST', '/api/customers', { token, body });

  it('staff create customers (trimmed, blanks default), and bad input stores nothing', async () => {
    const res = await create({ name: '  Grace Buyer ', phone: '+1 555 0101', email: 'GRACE@Example.com' });
    expect(res.status).toBe(201);
    expect(parsed(res, CustomerResponse).customer).toEqual({
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
      expect(parsed(bad, ApiError).error).toMatch(error);
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
    expect(parsed(all, CustomerListResponse).customers.map((c: { name: string }) => c.name)).toEqual([
      `Amy ${tag} Brown`,
      'Bob Other',
    ]);
    const second = await t.call('GET', `/api/customers?search=${tag}&pageSize=2&page=2`, {
      token: t.as.user.token,
    });
    expect(parsed(second, CustomerListResponse).customers.map((c: { name: string }) => c.name)).toEqual([
      `Zed ${tag} Adams`,
    ]);
    const byEmail = await t.call('GET', `/api/customers?search=zed@${tag}`, { token: t.as.admin.token });
    expect(parsed(byEmail, CustomerListResponse).customers.map((c: { name: string }) => c.name)).toEqual([
      `Zed ${tag} Adams`,
    ]);
    const twoWords = await t.call('GET', `/api/customers?search=${tag} brown`, { token: t.as.admin.token });
    expect(parsed(twoWords, CustomerListResponse).total).toBe(1);
    const wildcard = await t.call('GET', `/api/customers?search=${tag}%25`, { token: t.as.admin.token });
    expect(parsed(wildcard, CustomerListResponse).total).toBe(0);
    expect((await t.call('GET', '/api/customers?pageSize=101', { token: t.as.admin.token })).status).toBe(
      400,
    );
  });

  it('a customer page sums their sales net of returns; orders keep the name after an edit or a delete', async () => {
    const buyer = parsed(await create({ name: 'Net Buyer' }), CustomerResponse).customer;
    const fresh = await t.call('GET', `/api/customers/${buyer._id}`, { token: t.as.user.token });
    expect(parsed(fresh, CustomerDetailResponse).summary).toEqual({
      sales: 0,
      totalSpent: 0,
      lastPurchaseAt: null,
      creditBalance: 0,
    });
    const a = await t.product({ stock: 20, price: 0.1 });
    const b = await t.product({ stock: 20, price: 0.2 });
    const sale = (lines: { productId: string; quantity: number }[]) =>
      sold(t.as.salesRep, { lines, customer: buyer._id });
    const first = await sale([
      { productId: a.id, quantity: 3 },
      { productId: b.id, quantity: 1 },
    ]);
    const second = await sale([{ productId: b.id, quantity: 2 }]);
    // 0.3 + 0.2 + 0.4 = 0.9; then 1 of the 3 at 0.10 comes back: 0.8.
    const returned = await t.call('POST', `/api/order/${nth(first.lines).order._id}/return`, {
      token: t.as.admin.token,
      body: { quantity: 1 },
    });
    expect(returned.status).toBe(200);
    for (const who of ['salesRep', 'admin'] as const) {
      const page = await t.call('GET', `/api/customers/${buyer._id}`, { token: t.as[who].token });
      expect(page.body).toEqual({
        success: true,
        customer: buyer,
        summary: { sales: 2, totalSpent: 0.8, lastPurchaseAt: second.createdAt, creditBalance: 0 },
      });
    }
    // Another seller's page counts only the sales they made: none.
    const other = await t.call('GET', `/api/customers/${buyer._id}`, { token: t.as.medicalRep.token });
    expect(parsed(other, CustomerDetailResponse).summary).toEqual({
      sales: 0,
      totalSpent: 0,
      lastPurchaseAt: null,
      creditBalance: 0,
    });
    const sales = await t.call('GET', `/api/sales?customer=${buyer._id}`, { token: t.as.salesRep.token });
    expect(sales.body).toMatchObject({ total: 2, page: 1 });
    expect(
      parsed(sales, SaleListResponse).sales.map((s: { _id: string; lineCount: number }) => [
        s._id,
        s.lineCount,
      ]),
    ).toEqual([
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
    expect(parsed(edited, CustomerResponse).customer).toMatchObject({
      name: 'Net Buyer Renamed',
      phone: '123',
      email: '',
    });
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
    expect(parsed(receipt, SaleResponse).sale.customer).toEqual({ _id: null, name: 'Net Buyer' });
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

  describe('one customer per name and phone', () => {
    let n = 0;
    /** A name no other test uses. */
    const fresh = () => `Ann ${Date.now().toString(36)}x${n++} Lee`;
    const countNamed = async (name: string) =>
      (
        await t.sql<{ n: number }>(
          "select count(*)::int as n from customers where lower(regexp_replace(name, '\\s+', ' ', 'g')) = lower($1)",
          [name],
        )
      )[0]?.n;

    it('refuses a second customer of the same name and phone, however spaced, cased or punctuated (409 naming the first)', async () => {
      const name = fresh();
      const first = await create({ name, phone: '555 0100' });
      expect(first.status).toBe(201);
      const id = parsed(first, CustomerResponse).customer._id;
      for (const [variant, phone] of [
        [name, '555 0100'],
        [`  ${name.toUpperCase()} `, '555-0100'],
        [name.replace(' ', '   ').toLowerCase(), '(555) 01.00'],
        [name.replaceAll(' ', '\t'), '5550100'],
      ]) {
        const again = await create({ name: variant, phone });
        expect(again.status).toBe(409);
        expect(again.body).toEqual({
          success: false,
          code: 'CUSTOMER_TAKEN',
          error: `A customer named ${name} with phone 555 0100 already exists.`,
          existing: { _id: id, name },
        });
      }
      expect(await countNamed(name)).toBe(1);
      // An admin is refused alike.
      expect((await create({ name, phone: '555.0100' }, t.as.admin.token)).status).toBe(409);
    });

    it('another phone is another customer; without a phone, the name alone is one customer', async () => {
      const name = fresh();
      expect((await create({ name, phone: '555 0100' })).status).toBe(201);
      expect((await create({ name, phone: '555 0199' })).status).toBe(201);
      expect((await create({ name, phone: '+1 555 0100' })).status).toBe(201);
      const bare = await create({ name, email: 'ann@mail.test' });
      expect(bare.status).toBe(201);
      const second = await create({ name: name.toLowerCase() });
      expect(second.status).toBe(409);
      expect(second.body).toEqual({
        success: false,
        code: 'CUSTOMER_TAKEN',
        error: `A customer named ${name} with no phone already exists.`,
        existing: { _id: parsed(bare, CustomerResponse).customer._id, name },
      });
      // A phone without digits is no phone.
      expect((await create({ name, phone: 'none' })).status).toBe(409);
      expect(await countNamed(name)).toBe(4);
    });

    it('PUT refuses to make a customer the same as another, and keeps a customer saved unchanged', async () => {
      const name = fresh();
      const other = fresh();
      const ann = parsed(await create({ name, phone: '555 0100' }), CustomerResponse).customer;
      const bob = parsed(await create({ name: other, phone: '555 0100' }), CustomerResponse).customer;
      const put = (id: string, body: unknown) =>
        t.call('PUT', `/api/customers/${id}`, { token: t.as.admin.token, body });
      const refused = await put(bob._id, { name: ` ${name.toLowerCase()} `, phone: '555-0100' });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        success: false,
        code: 'CUSTOMER_TAKEN',
        error: `A customer named ${name} with phone 555 0100 already exists.`,
        existing: { _id: ann._id, name },
      });
      expect((await t.sql('select name from customers where id = $1', [bob._id]))[0]).toEqual({
        name: other,
      });
      // Its own name and phone, written differently, or a new note: not a duplicate of itself.
      const same = await put(ann._id, { name: name.toUpperCase(), phone: '(555) 0100', note: 'Regular' });
      expect(same.status).toBe(200);
      expect(parsed(same, CustomerResponse).customer).toMatchObject({
        name: name.toUpperCase(),
        phone: '(555) 0100',
        note: 'Regular',
      });
      // Bob moves to another phone; then Ann's old pair is free for nobody but Ann.
      expect((await put(bob._id, { name, phone: '555 0200' })).status).toBe(200);
      expect((await create({ name, phone: '555 0200' })).status).toBe(409);
    });

    it('two customers of one name and phone added at once: one is stored, the other refused naming it', async () => {
      const name = fresh();
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          create({ name: i % 2 ? name.toUpperCase() : name, phone: `555 01${i % 2 ? '-' : ''}00` }),
        ),
      );
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409]);
      const stored = parsed(nth(answers.filter((res) => res.status === 201)), CustomerResponse).customer;
      for (const res of answers.filter((one) => one.status === 409))
        expect(parsed(res, ApiError).existing).toEqual({ _id: stored._id, name: stored.name });
      expect(await countNamed(name)).toBe(1);
      // Two edits at once towards one pair: one wins.
      const a = parsed(await create({ name: fresh(), phone: '1' }), CustomerResponse).customer;
      const b = parsed(await create({ name: fresh(), phone: '2' }), CustomerResponse).customer;
      const target = fresh();
      const edits = await Promise.all(
        [a, b].map((one) =>
          t.call('PUT', `/api/customers/${one._id}`, {
            token: t.as.admin.token,
            body: { name: target, phone: '3' },
          }),
        ),
      );
      expect(edits.map((res) => res.status).sort()).toEqual([200, 409]);
      expect(await countNamed(target)).toBe(1);
    });
  });
});
