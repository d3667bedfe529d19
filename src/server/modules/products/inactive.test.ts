import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { type Product, ProductListResponse, ProductResponse } from '../../../shared/products';
import { refusalSentence } from '../../../shared/refusals';
import { fixtures, tag } from '../../test/fixtures';
import { type Answer, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';

/**
 * Brand and inactive products (DESIGN §22): an inactive product is not offered in the catalogue
 * to the roles that sell nor at the counter, and is not sold (409 PRODUCT_INACTIVE, nothing
 * written); it keeps its history and stock. Admins see every product unless they ask.
 */
describe.each(targets)('inactive products on $name', (target) => {
  let t: TestApp;
  let word: string;
  let on: Product;
  let off: Product;
  const { sell, sold, ledgerOf, stockOf } = fixtures(() => t);
  beforeAll(async () => {
    t = await startApp(target);
    word = `Quokka${tag()}`;
    on = await add({ name: `${word} active`, barcode: `ON${tag()}` });
    off = await add({ name: `${word} resting`, barcode: `OFF${tag()}`, brand: 'Acme', active: false });
  });
  afterAll(() => t?.close());

  async function add(change: Record<string, unknown>): Promise<Product> {
    const { categoryId, supplierId } = await t.product();
    const res = await t.call('POST', '/api/products/add', {
      token: t.as.admin.token,
      body: {
        name: `P ${tag()}`,
        description: '',
        price: 4,
        stock: 6,
        category: categoryId,
        supplier: supplierId,
        ...change,
      },
    });
    expect(res.status, res.text).toBe(201);
    return parsed(res, ProductResponse).product;
  }
  const refused = (answer: Answer, status: number, code: string) => {
    expect(answer.status, answer.text).toBe(status);
    expect(parsed(answer, ApiError).code).toBe(code);
    return parsed(answer, ApiError).error;
  };
  const namesIn = async (token: string, query: string) => {
    const res = await t.call('GET', `/api/products?${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return parsed(res, ProductListResponse)
      .products.filter((product) => product.name.startsWith(word))
      .map((product) => product.name)
      .sort();
  };

  it('POST /api/products/add and PUT /api/products/:id store brand and active', async () => {
    expect(off).toMatchObject({ brand: 'Acme', active: false, item: null, optionValues: null });
    expect(on).toMatchObject({ brand: null, active: true });
    const made = await add({ brand: 'Zed' });
    const body = {
      name: made.name,
      description: '',
      price: made.price,
      stock: made.stock,
      category: made.category._id,
      supplier: made.supplier._id,
    };
    const edited = await t.call('PUT', `/api/products/${made._id}`, {
      token: t.as.admin.token,
      body: { ...body, brand: null, active: false },
    });
    expect(parsed(edited, ProductResponse).product).toMatchObject({ brand: null, active: false });
    // Left out, an edit keeps them.
    await t.call('PUT', `/api/products/${made._id}`, {
      token: t.as.admin.token,
      body: { ...body, brand: 'Kept' },
    });
    const kept = await t.call('PUT', `/api/products/${made._id}`, { token: t.as.admin.token, body });
    expect(parsed(kept, ProductResponse).product).toMatchObject({ brand: 'Kept', active: false });
    const [row] = await t.sql<{ brand: string; active: boolean }>(
      'select brand, active from products where id = $1',
      [made._id],
    );
    expect(row).toEqual({ brand: 'Kept', active: false });
    const entries = await t.sql<{ changes: { field: string; old?: unknown; new?: unknown }[] }>(
      `select changes from audit_log where entity_type = 'product' and entity_id = $1 and action = 'updated' order by at, id`,
      [made._id],
    );
    expect(entries[0]?.changes).toEqual(
      expect.arrayContaining([
        { field: 'brand', old: 'Zed', new: null },
        { field: 'active', old: null, new: 'inactive' },
      ]),
    );
    refused(
      await t.call('PUT', `/api/products/${made._id}`, {
        token: t.as.admin.token,
        body: { ...body, active: 'no' },
      }),
      400,
      'VALIDATION',
    );
  });

  it('the roles that sell only ever see active products, in every list; admins see all unless they ask', async () => {
    const both = [on.name, off.name].sort();
    const queries = [
      `page=1&pageSize=100&search=${word}`,
      `page=1&pageSize=100&search=${word}&category=${off.category._id}`,
      `search=${word}`,
      'page=1&pageSize=100&sort=-name&search=quokka',
    ];
    for (const query of queries) {
      for (const role of ['salesRep', 'medicalRep', 'user', 'superAdmin'] as const)
        for (const active of ['', '&active=false', '&active=all', '&active=true'])
          expect(
            await namesIn(t.as[role].token, `${query}${active}`),
            `${role} ${query}${active}`,
          ).not.toContain(off.name);
      const admin = t.as.admin.token;
      if (!query.includes('category')) {
        expect(await namesIn(admin, query), query).toEqual(expect.arrayContaining(both));
        expect(await namesIn(admin, `${query}&active=all`)).toEqual(expect.arrayContaining(both));
        expect(await namesIn(admin, `${query}&active=true`)).not.toContain(off.name);
        expect(await namesIn(admin, `${query}&active=true`)).toContain(on.name);
      }
      expect(await namesIn(admin, `${query}&active=false`)).toEqual(
        query.includes('category') ? [off.name] : expect.arrayContaining([off.name]),
      );
      expect(await namesIn(admin, `${query}&active=false`)).not.toContain(on.name);
    }
    // A page without a search (the filter is all there is) and the whole catalogue.
    const repPage = await t.call('GET', `/api/products?page=1&pageSize=100&category=${off.category._id}`, {
      token: t.as.user.token,
    });
    // Its category holds it and the harness's active product: only that one is counted.
    const page = parsed(repPage, ProductListResponse);
    expect(page.total).toBe(1);
    expect(page.products.map((product) => product.active)).toEqual([true]);
    const whole = parsed(
      await t.call('GET', '/api/products', { token: t.as.salesRep.token }),
      ProductListResponse,
    );
    expect(whole.products.every((product) => product.active)).toBe(true);
    expect(whole.total).toBe(whole.products.length);
    // The CSV too (admins only): Active says which.
    const csv = await t.call('GET', `/api/products?format=csv&search=${word}&active=false`, {
      token: t.as.admin.token,
    });
    const [header, ...rows] = parseCsv(csv.text);
    const at = (header ?? []).indexOf('Active');
    expect(rows.map((row) => [row[0], row[at]])).toEqual([[off.name, 'false']]);
    for (const query of ['active=yes', 'active=1', 'active=true&active=false', `item=${'x'.repeat(10_000)}`])
      refused(await t.call('GET', `/api/products?${query}`, { token: t.as.admin.token }), 400, 'VALIDATION');
  });

  it('GET /api/products/code/:code: an inactive product is a 409 PRODUCT_INACTIVE, for every role', async () => {
    for (const role of ['admin', 'salesRep', 'user'] as const) {
      const res = await t.call('GET', `/api/products/code/${off.barcode}`, { token: t.as[role].token });
      expect(refused(res, 409, 'PRODUCT_INACTIVE')).toBe(
        refusalSentence('PRODUCT_INACTIVE', { product: off.name }),
      );
      const fine = await t.call('GET', `/api/products/code/${on.barcode}`, { token: t.as[role].token });
      expect(parsed(fine, ProductResponse).product._id).toBe(on._id);
    }
    // It keeps its page, its history and its stock.
    const own = await t.call('GET', `/api/products/${off._id}`, { token: t.as.salesRep.token });
    expect(parsed(own, ProductResponse).product).toMatchObject({ active: false, stock: 6 });
  });

  it('a sale or an order of an inactive product is refused 409 PRODUCT_INACTIVE, writing nothing', async () => {
    const written = async () => ({
      sales: await t.sql('select count(*)::int as n from sales'),
      orders: await t.sql('select count(*)::int as n from orders'),
      moves: await t.sql('select count(*)::int as n from stock_movements'),
      payments: await t.sql('select count(*)::int as n from sale_payments'),
    });
    const before = await written();
    const sale = await sell(t.as.salesRep, {
      lines: [
        { productId: on._id, quantity: 1 },
        { productId: off._id, quantity: 1 },
      ],
      payment: { method: 'card' },
    });
    expect(refused(sale, 409, 'PRODUCT_INACTIVE')).toBe(
      refusalSentence('PRODUCT_INACTIVE', { product: off.name }),
    );
    const byAdmin = await sell(t.as.admin, {
      lines: [{ productId: off._id, quantity: 1 }],
      payment: { method: 'cash' },
    });
    refused(byAdmin, 409, 'PRODUCT_INACTIVE');
    const order = await t.call('POST', '/api/order/add', {
      token: t.as.user.token,
      body: { productId: off._id, quantity: 1 },
    });
    refused(order, 409, 'PRODUCT_INACTIVE');
    expect(await written()).toEqual(before);
    expect(await stockOf(off._id)).toBe(6);
    expect(await ledgerOf(off._id)).toBe(6);
    // The active product sells; each stock is still the sum of its movements.
    await sold(t.as.salesRep, { lines: [{ productId: on._id, quantity: 2 }] });
    expect(await stockOf(on._id)).toBe(await ledgerOf(on._id));
    expect(await stockOf(on._id)).toBe(on.stock - 2);
  });
});
