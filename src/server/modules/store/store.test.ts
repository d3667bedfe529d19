import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditListResponse } from '../../../shared/audit';
import { ApiError } from '../../../shared/common';
import { ProductListResponse, ProductResponse } from '../../../shared/products';
import type { Role } from '../../../shared/roles';
import { MovementResponse } from '../../../shared/stock';
import { StoreSettingsResponse, TaxRateListResponse, TaxRateResponse } from '../../../shared/store';
import { ensureStoreSettings } from '../../db/first-run';
import { nth, tag } from '../../test/fixtures';
import { type Answer, parsed, startApp, type TestApp, targets } from '../../test/harness';

const ROLES: Role[] = ['superAdmin', 'admin', 'salesRep', 'medicalRep', 'user'];
const NOT_ADMIN: Role[] = ['superAdmin', 'salesRep', 'medicalRep', 'user'];
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A refusal: the status, the error shape, and one sentence (no stack, no SQL). */
function expectRefused(res: Answer, status: number | number[]) {
  expect(Array.isArray(status) ? status : [status], JSON.stringify(res.body)).toContain(res.status);
  const refusal = parsed(res, ApiError);
  expect(refusal.success).toBe(false);
  expect(refusal.error).toMatch(/^\S.*[.!?]$/);
  expect(refusal.error.length).toBeLessThan(200);
}

describe.each(targets)('store settings on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { config: { storeName: 'Corner Pharmacy' } });
  });
  afterAll(() => t?.close());

  const store = async (role: Role = 'admin') =>
    parsed(await t.call('GET', '/api/settings/store', { token: t.as[role].token }), StoreSettingsResponse)
      .store;
  const put = (body: unknown, role: Role = 'admin') =>
    t.call('PUT', '/api/settings/store', { token: t.as[role].token, body });

  it('GET /api/settings/store answers every signed-in role the one row, named from STORE_NAME, USD and 10 % by default', async () => {
    for (const role of ROLES) {
      const res = await t.call('GET', '/api/settings/store', { token: t.as[role].token });
      expect(res.status, role).toBe(200);
      expect(StoreSettingsResponse.strict().parse(res.body)).toEqual(res.body);
    }
    const [row] = await t.sql<{ n: number }>('select count(*)::int as n from store_settings');
    expect(row?.n).toBe(1);
    expect((await t.call('GET', '/api/settings/store')).status).toBe(401);
  });

  it('the row is written at start only when missing: a later start keeps what the admin set', async () => {
    const name = `Kept ${tag()}`;
    expect((await put({ name })).status).toBe(200);
    await ensureStoreSettings(t.app.db, 'Another Name');
    expect((await store()).name).toBe(name);
  });

  it('PUT /api/settings/store changes only the fields it names, and answers the whole store', async () => {
    const before = await store();
    const res = await put({ address: ' 12 High Street ', phone: '555-0100', maxDiscountPercent: 12.5 });
    expect(res.status).toBe(200);
    expect(parsed(res, StoreSettingsResponse).store).toEqual({
      ...before,
      address: '12 High Street',
      phone: '555-0100',
      maxDiscountPercent: 12.5,
    });
    const all = await put({
      name: 'Corner Pharmacy',
      taxNumber: 'VAT GB 123 4567 89',
      currency: 'EUR',
      receiptFooter: 'Thank you! Returns within 30 days with this receipt.',
      pricesIncludeTax: true,
      maxDiscountPercent: 0,
    });
    expect(parsed(all, StoreSettingsResponse).store).toMatchObject({
      name: 'Corner Pharmacy',
      taxNumber: 'VAT GB 123 4567 89',
      currency: 'EUR',
      pricesIncludeTax: true,
      maxDiscountPercent: 0,
      address: '12 High Street',
    });
    expect(await store('user')).toEqual(parsed(all, StoreSettingsResponse).store);
    // Empty: nothing changes.
    expect(parsed(await put({}), StoreSettingsResponse).store).toEqual(
      parsed(all, StoreSettingsResponse).store,
    );
    await put({ currency: 'USD', pricesIncludeTax: false, maxDiscountPercent: 10 });
  });

  it('a store name may be 200 characters (DESIGN §4), as STORE_NAME may give one: written at start, kept, changed', async () => {
    const long = `${tag()} ${'n'.repeat(200)}`.slice(0, 200);
    const started = await startApp(t.target, { config: { storeName: long } });
    try {
      const first = await started.call('GET', '/api/settings/store', { token: started.as.admin.token });
      expect(parsed(first, StoreSettingsResponse).store.name).toBe(long);
      // The admin saves the form as it came, and then another name of 200.
      const saved = await started.call('PUT', '/api/settings/store', {
        token: started.as.admin.token,
        body: { name: long },
      });
      expect(saved.status, saved.text).toBe(200);
      const other = 'o'.repeat(200);
      const changed = await started.call('PUT', '/api/settings/store', {
        token: started.as.admin.token,
        body: { name: other },
      });
      expect(changed.status, changed.text).toBe(200);
      expect(parsed(changed, StoreSettingsResponse).store.name).toBe(other);
    } finally {
      await started.close();
    }
  });

  it('only an admin writes the store: the superAdmin and the selling roles get 403', async () => {
    const before = await store();
    for (const role of NOT_ADMIN) {
      const res = await put({ name: 'Not Allowed' }, role);
      expectRefused(res, 403);
    }
    expect((await t.call('PUT', '/api/settings/store', { body: { name: 'X' } })).status).toBe(401);
    expect(await store()).toEqual(before);
  });

  it('a change is one audit entry (entity store, updated) with each changed field, old → new; no change, no entry', async () => {
    const rate = await t.call('POST', '/api/tax-rates', {
      token: t.as.admin.token,
      body: { name: `Audit rate ${tag()}`, rate: 8.875 },
    });
    await put({ phone: '555-0001', defaultTaxRate: null });
    const entries = async () =>
      parsed(await t.call('GET', '/api/audit?entity=store', { token: t.as.admin.token }), AuditListResponse)
        .entries;
    const count = (await entries()).length;
    await put({
      phone: '555-0002',
      defaultTaxRate: parsed(rate, TaxRateResponse).taxRate._id,
      receiptFooter: 'Bye',
    });
    const latest = nth(await entries());
    expect(latest).toMatchObject({
      action: 'updated',
      actor: { _id: t.as.admin.id, role: 'admin' },
      entity: { type: 'store', _id: null, name: expect.any(String) },
    });
    expect(latest.changes).toEqual(
      expect.arrayContaining([
        { field: 'phone', old: '555-0001', new: '555-0002' },
        { field: 'defaultTaxRate', old: null, new: `${parsed(rate, TaxRateResponse).taxRate.name} 8.875%` },
        { field: 'receiptFooter', old: expect.any(String), new: 'Bye' },
      ]),
    );
    expect(latest.changes).toHaveLength(3);
    expect((await entries()).length).toBe(count + 1);
    await put({ phone: '555-0002' });
    expect((await entries()).length).toBe(count + 1);
    expect((await store()).defaultTaxRate).toEqual(parsed(rate, TaxRateResponse).taxRate);
    await put({ defaultTaxRate: null });
  });

  const huge = 'x'.repeat(10_000);
  it.each([
    ['name blank', { name: '   ' }],
    ['name too long', { name: 'n'.repeat(201) }],
    ['name 10,000 characters', { name: huge }],
    ['name with NUL', { name: 'Corner\u0000Shop' }],
    ['name an array', { name: ['Corner'] }],
    ['name a number', { name: 5 }],
    ['address 10,000 characters', { address: huge }],
    ['phone too long', { phone: '5'.repeat(51) }],
    ['taxNumber too long', { taxNumber: 't'.repeat(51) }],
    ['taxNumber with NUL', { taxNumber: 'GB\u0000' }],
    ['receiptFooter too long', { receiptFooter: 'f'.repeat(501) }],
    ['currency lower case', { currency: 'usd' }],
    ['currency two letters', { currency: 'US' }],
    ['currency unknown', { currency: 'ABC' }],
    ['currency an array', { currency: ['USD'] }],
    ['currency 10,000 characters', { currency: huge }],
    ['pricesIncludeTax text', { pricesIncludeTax: 'yes' }],
    ['maxDiscountPercent negative', { maxDiscountPercent: -1 }],
    ['maxDiscountPercent above 100', { maxDiscountPercent: 100.01 }],
    ['maxDiscountPercent 3 decimals', { maxDiscountPercent: 10.005 }],
    ['maxDiscountPercent huge', { maxDiscountPercent: 1e308 }],
    ['maxDiscountPercent NaN as text', { maxDiscountPercent: 'NaN' }],
    ['maxDiscountPercent an array', { maxDiscountPercent: [10] }],
    ['maxDiscountPercent null', { maxDiscountPercent: null }],
    ['defaultTaxRate unknown', { defaultTaxRate: UNKNOWN_ID }],
    ['defaultTaxRate malformed', { defaultTaxRate: 'not-an-id' }],
    ['defaultTaxRate too long', { defaultTaxRate: huge }],
    ['defaultTaxRate a number', { defaultTaxRate: 7 }],
    ['defaultTaxRate an array', { defaultTaxRate: [UNKNOWN_ID] }],
    ['defaultTaxRate empty', { defaultTaxRate: '' }],
  ])(
    'PUT /api/settings/store refuses %s with 400 and one sentence, changing nothing',
    async (_label, body) => {
      const before = await store();
      expectRefused(await put(body), 400);
      expect(await store()).toEqual(before);
    },
  );

  it('a body that is not an object is a 400', async () => {
    for (const body of [[{ name: 'x' }], ['USD'], 5]) {
      const res = await put(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        code: 'VALIDATION',
        error: expect.any(String),
        details: expect.any(Array),
      });
    }
  });
});

describe.each(targets)('tax rates on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const add = (body: unknown, role: Role = 'admin') =>
    t.call('POST', '/api/tax-rates', { token: t.as[role].token, body });
  const list = async (role: Role = 'admin') =>
    parsed(await t.call('GET', '/api/tax-rates', { token: t.as[role].token }), TaxRateListResponse).taxRates;

  it('POST /api/tax-rates creates a rate (201); GET lists them by name ignoring case for every role', async () => {
    const stamp = tag();
    const b = await add({ name: ` b Reduced ${stamp} `, rate: 5 });
    expect(b.status).toBe(201);
    expect(TaxRateResponse.strict().parse(b.body)).toEqual(b.body);
    expect(parsed(b, TaxRateResponse).taxRate).toEqual({
      _id: expect.any(String),
      name: `b Reduced ${stamp}`,
      rate: 5,
    });
    const a = await add({ name: `A Standard ${stamp}`, rate: 8.875 });
    expect(parsed(a, TaxRateResponse).taxRate.rate).toBe(8.875);
    const c = await add({ name: `C Zero ${stamp}`, rate: 0 });
    expect(parsed(c, TaxRateResponse).taxRate.rate).toBe(0);
    for (const role of ROLES) {
      const res = await t.call('GET', '/api/tax-rates', { token: t.as[role].token });
      expect(res.status, role).toBe(200);
      expect(TaxRateListResponse.strict().parse(res.body)).toEqual(res.body);
      const names = parsed(res, TaxRateListResponse).taxRates.map((rate) => rate.name.toLowerCase());
      expect(names).toEqual([...names].sort());
    }
    const mine = (await list()).filter((rate: { name: string }) => rate.name.endsWith(stamp));
    expect(mine.map((rate: { rate: number }) => rate.rate)).toEqual([8.875, 5, 0]);
  });

  it('names are unique ignoring case: POST and PUT answer 409 with a sentence', async () => {
    const name = `Standard ${tag()}`;
    const first = await add({ name, rate: 20 });
    const again = await add({ name: name.toUpperCase(), rate: 10 });
    expectRefused(again, 409);
    expect(parsed(again, ApiError).error).toBe(`A tax rate named "${name.toUpperCase()}" already exists.`);
    const other = await add({ name: `Other ${tag()}`, rate: 1 });
    const renamed = await t.call('PUT', `/api/tax-rates/${parsed(other, TaxRateResponse).taxRate._id}`, {
      token: t.as.admin.token,
      body: { name: name.toLowerCase(), rate: 1 },
    });
    expectRefused(renamed, 409);
    // Its own name, in another case, is not a duplicate.
    const same = await t.call('PUT', `/api/tax-rates/${parsed(first, TaxRateResponse).taxRate._id}`, {
      token: t.as.admin.token,
      body: { name: name.toLowerCase(), rate: 19.5 },
    });
    expect(same.status).toBe(200);
    expect(parsed(same, TaxRateResponse).taxRate).toEqual({
      _id: parsed(first, TaxRateResponse).taxRate._id,
      name: name.toLowerCase(),
      rate: 19.5,
    });
  });

  it('only an admin writes rates: the superAdmin and the selling roles get 403', async () => {
    const rate = await add({ name: `Guarded ${tag()}`, rate: 3 });
    const id = parsed(rate, TaxRateResponse).taxRate._id;
    for (const role of NOT_ADMIN) {
      expectRefused(await add({ name: `No ${tag()}`, rate: 1 }, role), 403);
      expectRefused(
        await t.call('PUT', `/api/tax-rates/${id}`, {
          token: t.as[role].token,
          body: { name: 'x', rate: 1 },
        }),
        403,
      );
      expectRefused(await t.call('DELETE', `/api/tax-rates/${id}`, { token: t.as[role].token }), 403);
    }
    expect((await list()).find((one) => one._id === id)).toEqual(parsed(rate, TaxRateResponse).taxRate);
  });

  it('PUT and DELETE answer 404 for an unknown or malformed id', async () => {
    const token = t.as.admin.token;
    for (const id of [UNKNOWN_ID, 'nope']) {
      expectRefused(
        await t.call('PUT', `/api/tax-rates/${id}`, { token, body: { name: 'x', rate: 1 } }),
        404,
      );
      expectRefused(await t.call('DELETE', `/api/tax-rates/${id}`, { token }), 404);
    }
  });

  it('each change is an audit entry (taxRate created, updated, deleted)', async () => {
    const name = `Audited ${tag()}`;
    const created = await add({ name, rate: 7 });
    const id = parsed(created, TaxRateResponse).taxRate._id;
    await t.call('PUT', `/api/tax-rates/${id}`, { token: t.as.admin.token, body: { name, rate: 7.5 } });
    await t.call('DELETE', `/api/tax-rates/${id}`, { token: t.as.admin.token });
    const res = await t.call('GET', '/api/audit?entity=taxRate', { token: t.as.admin.token });
    const mine = parsed(res, AuditListResponse).entries.filter((entry) => entry.entity._id === id);
    expect(mine.map((entry) => [entry.action, entry.changes])).toEqual([
      [
        'deleted',
        [
          { field: 'name', old: name },
          { field: 'rate', old: 7.5 },
        ],
      ],
      ['updated', [{ field: 'rate', old: 7, new: 7.5 }]],
      [
        'created',
        [
          { field: 'name', new: name },
          { field: 'rate', new: 7 },
        ],
      ],
    ]);
  });

  it("DELETE refuses a rate products or the store's default use with 409 naming how many, then deletes it once free", async () => {
    const token = t.as.admin.token;
    const rate = parsed(await add({ name: `In use ${tag()}`, rate: 5 }), TaxRateResponse).taxRate;
    const one = await t.product();
    const two = await t.product();
    await t.sql('update products set tax_rate_id = $1 where id in ($2, $3)', [rate._id, one.id, two.id]);
    const byProducts = await t.call('DELETE', `/api/tax-rates/${rate._id}`, { token });
    expectRefused(byProducts, 409);
    expect(parsed(byProducts, ApiError).error).toBe(
      'This tax rate is used by 2 products; give them another rate first.',
    );

    await t.call('PUT', '/api/settings/store', { token, body: { defaultTaxRate: rate._id } });
    const byBoth = await t.call('DELETE', `/api/tax-rates/${rate._id}`, { token });
    expectRefused(byBoth, 409);
    expect(parsed(byBoth, ApiError).error).toBe(
      "This tax rate is used by 2 products and is the store's default; give them another rate and choose another default first.",
    );
    await t.sql('update products set tax_rate_id = null where id in ($1, $2)', [one.id, two.id]);
    const byDefault = await t.call('DELETE', `/api/tax-rates/${rate._id}`, { token });
    expectRefused(byDefault, 409);
    expect(parsed(byDefault, ApiError).error).toBe(
      "This tax rate is the store's default; choose another default first.",
    );

    await t.call('PUT', '/api/settings/store', { token, body: { defaultTaxRate: null } });
    const freed = await t.call('DELETE', `/api/tax-rates/${rate._id}`, { token });
    expect(freed.status).toBe(200);
    expect(freed.body).toEqual({ success: true, message: 'Tax rate deleted.' });
    expect((await list()).some((one: { _id: string }) => one._id === rate._id)).toBe(false);
  });

  const huge = 'x'.repeat(10_000);
  it.each([
    ['no name', { rate: 5 }],
    ['a blank name', { name: '  ', rate: 5 }],
    ['a name of 51 characters', { name: 'n'.repeat(51), rate: 5 }],
    ['a name of 10,000 characters', { name: huge, rate: 5 }],
    ['a name with NUL', { name: 'VAT\u0000', rate: 5 }],
    ['a name that is an array', { name: ['VAT'], rate: 5 }],
    ['no rate', { name: 'VAT' }],
    ['a negative rate', { name: 'VAT', rate: -0.001 }],
    ['a rate above 100', { name: 'VAT', rate: 100.001 }],
    ['a rate with 4 decimals', { name: 'VAT', rate: 8.8751 }],
    ['a huge rate', { name: 'VAT', rate: 1e308 }],
    ['a rate as text', { name: 'VAT', rate: '5' }],
    ['NaN as text', { name: 'VAT', rate: 'NaN' }],
    ['a rate that is an array', { name: 'VAT', rate: [5] }],
    ['a null rate', { name: 'VAT', rate: null }],
  ])('POST and PUT /api/tax-rates refuse %s with 400 and one sentence', async (_label, body) => {
    const token = t.as.admin.token;
    const existing = parsed(await add({ name: `Bad input ${tag()}`, rate: 2 }), TaxRateResponse).taxRate;
    const before = await list();
    // A body far larger than any valid one is refused before it is read: 413.
    const status = JSON.stringify(body).length > 5000 ? [400, 413] : 400;
    expectRefused(await t.call('POST', '/api/tax-rates', { token, body }), status);
    expectRefused(await t.call('PUT', `/api/tax-rates/${existing._id}`, { token, body }), status);
    expect(await list()).toEqual(before);
  });
});

describe.each(targets)('products carry the tax rate in force on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  it('every product answer carries taxRate (its own, else the store default, else null) and taxRateDefault', async () => {
    const token = t.as.admin.token;
    const stamp = tag();
    const standard = parsed(
      await t.call('POST', '/api/tax-rates', { token, body: { name: `Std ${stamp}`, rate: 8.875 } }),
      TaxRateResponse,
    ).taxRate;
    const reduced = parsed(
      await t.call('POST', '/api/tax-rates', { token, body: { name: `Red ${stamp}`, rate: 5 } }),
      TaxRateResponse,
    ).taxRate;
    const { categoryId, supplierId } = await t.product();
    const base = { description: '', price: 2, stock: 4, category: categoryId, supplier: supplierId };
    const own = await t.call('POST', '/api/products/add', {
      token,
      body: { ...base, name: `Taxed own ${stamp}`, taxRate: reduced._id, sku: `OWN-${stamp}` },
    });
    expect(own.status).toBe(201);
    expect(parsed(own, ProductResponse).product).toMatchObject({ taxRate: reduced, taxRateDefault: false });
    const plain = await t.call('POST', '/api/products/add', {
      token,
      body: { ...base, name: `Taxed plain ${stamp}`, sku: `PLAIN-${stamp}` },
    });
    // No default yet: no tax.
    expect(parsed(plain, ProductResponse).product).toMatchObject({ taxRate: null, taxRateDefault: true });

    await t.call('PUT', '/api/settings/store', { token, body: { defaultTaxRate: standard._id } });
    const ownId = parsed(own, ProductResponse).product._id;
    const plainId = parsed(plain, ProductResponse).product._id;
    const expected: Record<string, object> = {
      [ownId]: { taxRate: reduced, taxRateDefault: false },
      [plainId]: { taxRate: standard, taxRateDefault: true },
    };
    const check = (products: { _id: string }[], where: string) => {
      const mine = products.filter((product) => product._id in expected);
      expect(mine.length, where).toBeGreaterThan(0);
      for (const product of mine) expect(product, where).toMatchObject(expected[product._id] ?? {});
    };

    // One product: read, scanned, edited (an edit that leaves taxRate out keeps it).
    for (const id of [ownId, plainId]) {
      const one = await t.call('GET', `/api/products/${id}`, { token: t.as.user.token });
      expect(ProductResponse.strict().parse(one.body)).toEqual(one.body);
      check([parsed(one, ProductResponse).product], 'GET /api/products/:id');
    }
    for (const code of [`OWN-${stamp}`, `PLAIN-${stamp}`]) {
      const scanned = await t.call('GET', `/api/products/code/${code}`, { token: t.as.salesRep.token });
      check([parsed(scanned, ProductResponse).product], 'GET /api/products/code/:code');
    }
    const kept = await t.call('PUT', `/api/products/${ownId}`, {
      token,
      body: { ...base, name: `Taxed own ${stamp}`, price: 3 },
    });
    check([parsed(kept, ProductResponse).product], 'PUT without taxRate');

    // Every way a list is read: pages by name and stock, searches (prepared, short words, broad), the whole catalogue.
    for (const query of [
      'page=1&pageSize=50',
      'sort=-stock&page=1&pageSize=50',
      'sort=price&page=1&pageSize=50',
      `search=taxed ${stamp}&page=1`,
      'search=ta&page=1',
      `search=OWN-${stamp}&page=1`,
      'sort=stock',
      '',
    ]) {
      const res = await t.call('GET', `/api/products?${query}`, { token: t.as.medicalRep.token });
      expect(res.status, query).toBe(200);
      expect(ProductListResponse.strict().parse(res.body), query).toEqual(res.body);
      check(parsed(res, ProductListResponse).products, query || 'the whole catalogue');
    }
    // A stock movement answers the product too.
    const moved = await t.call('POST', `/api/products/${plainId}/adjust`, {
      token,
      body: { quantity: 1, reason: 'found' },
    });
    expect(moved.status).toBe(200);
    check([parsed(moved, MovementResponse).product], 'a stock movement');

    // null goes back to the store's default; without a default, no tax.
    const reset = await t.call('PUT', `/api/products/${ownId}`, {
      token,
      body: { ...base, name: `Taxed own ${stamp}`, taxRate: null },
    });
    expect(parsed(reset, ProductResponse).product).toMatchObject({ taxRate: standard, taxRateDefault: true });
    await t.call('PUT', '/api/settings/store', { token, body: { defaultTaxRate: null } });
    const none = await t.call('GET', `/api/products/${ownId}`, { token });
    expect(parsed(none, ProductResponse).product).toMatchObject({ taxRate: null, taxRateDefault: true });
  });

  it("a product's tax rate change is in its audit entry, by the rate's name", async () => {
    const token = t.as.admin.token;
    const rate = parsed(
      await t.call('POST', '/api/tax-rates', { token, body: { name: `Zero ${tag()}`, rate: 0 } }),
      TaxRateResponse,
    ).taxRate;
    const { categoryId, supplierId } = await t.product();
    const body = { name: `Audited ${tag()}`, price: 1, stock: 1, category: categoryId, supplier: supplierId };
    const added = await t.call('POST', '/api/products/add', { token, body });
    const id = parsed(added, ProductResponse).product._id;
    await t.call('PUT', `/api/products/${id}`, { token, body: { ...body, taxRate: rate._id } });
    const res = await t.call('GET', '/api/audit?entity=product', { token });
    const latest = nth(parsed(res, AuditListResponse).entries.filter((entry) => entry.entity._id === id));
    expect(latest.action).toBe('updated');
    expect(latest.changes).toEqual([{ field: 'taxRate', old: null, new: rate.name }]);
  });

  it.each([
    ['an unknown id', '00000000-0000-4000-8000-000000000000'],
    ['a malformed id', 'not-an-id'],
    ['a number', 5],
    ['an array', ['x']],
    ['10,000 characters', 'x'.repeat(10_000)],
    ['an empty string', ''],
    ['NUL', 'a\u0000b'],
  ])('POST and PUT /api/products refuse a taxRate that is %s with 400', async (_label, taxRate) => {
    const token = t.as.admin.token;
    const { id, categoryId, supplierId } = await t.product();
    const body = {
      name: `Bad rate ${tag()}`,
      price: 1,
      stock: 1,
      category: categoryId,
      supplier: supplierId,
      taxRate,
    };
    expectRefused(await t.call('POST', '/api/products/add', { token, body }), 400);
    expectRefused(await t.call('PUT', `/api/products/${id}`, { token, body }), 400);
  });
});
