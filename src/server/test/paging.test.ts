import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/common';
import { OrderListResponse } from '../../shared/orders';
import { ProductListResponse } from '../../shared/products';
import { UserListResponse } from '../../shared/users';
import { nth } from './fixtures';
import { parsed, startApp, type TestApp, targets } from './harness';

describe.each(targets)('paging, search and sort on $name', (target) => {
  let t: TestApp;
  let categoryA: string;
  beforeAll(async () => {
    t = await startApp(target);
    // 25 products in one category whose names sort predictably, plus a few elsewhere.
    const first = await t.product({ name: 'Zinc tablet 00', stock: 0, price: 1 });
    categoryA = first.categoryId;
    for (let i = 1; i < 25; i++) {
      await t.sql(
        `insert into products (name, price, stock, category_id, supplier_id) values ($1, $2, $3, $4, $5)`,
        [
          `Zinc tablet ${String(i).padStart(2, '0')}`,
          (i + 1).toFixed(2),
          i,
          first.categoryId,
          first.supplierId,
        ],
      );
    }
    await t.product({ name: 'Vitamin gel 100% pure', stock: 3 });
    await t.product({ name: 'Vitamin spray', stock: 3 });
  });
  afterAll(() => t?.close());

  const get = (url: string, role: 'admin' | 'salesRep' | 'superAdmin' = 'salesRep') =>
    t.call('GET', url, { token: t.as[role].token });
  const names = (body: { products: { name: string }[] }) => body.products.map((p) => p.name);

  it('GET /api/products without parameters answers the whole catalogue and its total', async () => {
    const res = await get('/api/products');
    expect(res.status).toBe(200);
    expect(parsed(res, ProductListResponse).products).toHaveLength(27);
    expect(parsed(res, ProductListResponse).total).toBe(27);
    expect(parsed(res, ProductListResponse).page).toBeUndefined();
  });

  it('GET /api/products pages by name with the total of all matches', async () => {
    const res = await get(`/api/products?category=${categoryA}&page=2&pageSize=10`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 25, page: 2, pageSize: 10 });
    expect(names(parsed(res, ProductListResponse))).toEqual(
      Array.from({ length: 10 }, (_, i) => `Zinc tablet ${String(i + 10).padStart(2, '0')}`),
    );
    const last = await get(`/api/products?category=${categoryA}&page=3&pageSize=10`);
    expect(parsed(last, ProductListResponse).products).toHaveLength(5);
    const beyond = await get(`/api/products?category=${categoryA}&page=9&pageSize=10`);
    expect(beyond.body).toMatchObject({ products: [], total: 25 });
  });

  it('a page size alone means the first page, and pageSize defaults to 20 with page alone', async () => {
    expect((await get('/api/products?pageSize=5')).body).toMatchObject({ page: 1, pageSize: 5, total: 27 });
    const res = await get('/api/products?page=1');
    expect(res.body).toMatchObject({ page: 1, pageSize: 20 });
    expect(parsed(res, ProductListResponse).products).toHaveLength(20);
  });

  it('search needs every word, ignores case, and takes % literally', async () => {
    expect(names(parsed(await get('/api/products?search=VITAMIN'), ProductListResponse)).sort()).toEqual([
      'Vitamin gel 100% pure',
      'Vitamin spray',
    ]);
    expect(names(parsed(await get('/api/products?search=gel%20vitamin'), ProductListResponse))).toEqual([
      'Vitamin gel 100% pure',
    ]);
    expect(names(parsed(await get('/api/products?search=100%25'), ProductListResponse))).toEqual([
      'Vitamin gel 100% pure',
    ]);
    expect(parsed(await get('/api/products?search=0%25%25'), ProductListResponse).total).toBe(0);
    expect((await get('/api/products?search=tablet%2007&page=1&pageSize=5')).body).toMatchObject({
      total: 1,
    });
  });

  it('sorts by price and stock both ways', async () => {
    const byPrice = await get(`/api/products?category=${categoryA}&sort=-price&pageSize=3`);
    expect(parsed(byPrice, ProductListResponse).products.map((p) => p.price)).toEqual([25, 24, 23]);
    const byStock = await get(`/api/products?category=${categoryA}&sort=stock&pageSize=3`);
    expect(parsed(byStock, ProductListResponse).products.map((p) => p.stock)).toEqual([0, 1, 2]);
  });

  it.each([
    ['page=0', 'page starts at 1.'],
    ['pageSize=101', 'pageSize must be at most 100.'],
    ['page=abc', 'page must be a number.'],
    ['sort=random'],
  ])('GET /api/products?%s answers 400 with one sentence', async (query, sentence?: string) => {
    const res = await get(`/api/products?${query}`);
    expect(res.status).toBe(400);
    expect(parsed(res, ApiError).success).toBe(false);
    if (sentence) expect(parsed(res, ApiError).error).toContain(sentence);
  });

  it('an unknown or malformed category matches nothing', async () => {
    expect(
      parsed(await get('/api/products?category=00000000-0000-4000-8000-000000000000'), ProductListResponse)
        .total,
    ).toBe(0);
    expect(parsed(await get('/api/products?category=nope&page=1'), ProductListResponse).total).toBe(0);
  });

  it('GET /api/order/:userId pages newest first, searches product and user names, and counts them', async () => {
    const { id } = await t.product({ name: 'Paged product', stock: 100 });
    const buyer = await t.account('salesRep', 'Paging Buyer');
    for (let i = 0; i < 7; i++) {
      await t.call('POST', '/api/order/add', {
        token: buyer.token,
        body: { productId: id, quantity: i + 1 },
      });
    }
    const mine = await t.call('GET', `/api/order/${buyer.id}?page=2&pageSize=3`, { token: buyer.token });
    expect(mine.body).toMatchObject({ total: 7, page: 2, pageSize: 3 });
    expect(parsed(mine, OrderListResponse).orders.map((o) => o.quantity)).toEqual([4, 3, 2]);
    const oldest = await t.call('GET', `/api/order/${buyer.id}?sort=date&pageSize=2`, { token: buyer.token });
    expect(parsed(oldest, OrderListResponse).orders.map((o) => o.quantity)).toEqual([1, 2]);

    const admin = t.as.admin;
    const all = await t.call('GET', `/api/order/${admin.id}?page=1&pageSize=2`, { token: admin.token });
    const [counted] = await t.sql<{ n: number }>('select count(*)::int as n from orders');
    expect(parsed(all, OrderListResponse).total).toBe(counted?.n);
    const searched = await t.call('GET', `/api/order/${admin.id}?search=paging%20buyer&page=1`, {
      token: admin.token,
    });
    expect(parsed(searched, OrderListResponse).total).toBe(7);
    const byProduct = await t.call('GET', `/api/order/${admin.id}?search=paged`, { token: admin.token });
    expect(parsed(byProduct, OrderListResponse).orders).toHaveLength(7);
  });

  it('GET /api/users searches name or email and pages within the roles the caller manages', async () => {
    await t.account('salesRep', 'Searchable Person');
    const res = await get('/api/users?search=searchable&page=1&pageSize=5', 'admin');
    expect(res.body).toMatchObject({ total: 1, page: 1, pageSize: 5 });
    expect(nth(parsed(res, UserListResponse).users).name).toBe('Searchable Person');
    const noAdmins = await get(`/api/users?search=${encodeURIComponent(t.as.admin.email)}`, 'admin');
    expect(parsed(noAdmins, UserListResponse).total).toBe(0);
    const asSuper = await get(`/api/users?search=${encodeURIComponent(t.as.admin.email)}`, 'superAdmin');
    expect(parsed(asSuper, UserListResponse).total).toBe(1);
    const sorted = await get('/api/users?sort=-email&page=1&pageSize=100', 'superAdmin');
    const emails = parsed(sorted, UserListResponse).users.map((u) => u.email);
    expect(emails).toEqual([...emails].sort().reverse());
  });
});

describe.each(targets)('a broad product search on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
    const { categoryId, supplierId } = await t.product({ name: 'Other thing' });
    await t.sql(
      `insert into products (name, price, stock, category_id, supplier_id)
       select 'Common item ' || lpad(i::text, 4, '0'), 1, i % 7, $1, $2 from generate_series(1, 2100) i`,
      [categoryId, supplierId],
    );
  });
  afterAll(() => t?.close());

  it('pages over more matches than are sorted in memory, in name order, with the exact total', async () => {
    const res = await t.call('GET', '/api/products?search=common&page=3&pageSize=10', {
      token: t.as.user.token,
    });
    expect(res.status).toBe(200);
    expect(parsed(res, ProductListResponse).total).toBe(2100);
    expect(parsed(res, ProductListResponse).products.map((p) => p.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Common item ${String(21 + i).padStart(4, '0')}`),
    );
    const narrow = await t.call('GET', '/api/products?search=item%20200&page=1&pageSize=50', {
      token: t.as.user.token,
    });
    expect(parsed(narrow, ProductListResponse).products.map((p) => p.name)).toEqual([
      'Common item 0200',
      'Common item 1200',
      ...Array.from({ length: 10 }, (_, i) => `Common item ${2000 + i}`),
    ]);
    expect(parsed(narrow, ProductListResponse).total).toBe(12);
    const byStock = await t.call('GET', '/api/products?search=item&sort=-stock&page=1&pageSize=3', {
      token: t.as.user.token,
    });
    expect(parsed(byStock, ProductListResponse).products.map((p) => p.stock)).toEqual([6, 6, 6]);
    // Equal stock is in name order: descending here, 2099 being the last name with i % 7 = 6.
    expect(parsed(byStock, ProductListResponse).products.map((p) => p.name)).toEqual([
      'Common item 2099',
      'Common item 2092',
      'Common item 2085',
    ]);
    const lowest = await t.call('GET', '/api/products?sort=stock&page=2&pageSize=3', {
      token: t.as.user.token,
    });
    expect(parsed(lowest, ProductListResponse).products.map((p) => [p.stock, p.name])).toEqual([
      [0, 'Common item 0028'],
      [0, 'Common item 0035'],
      [0, 'Common item 0042'],
    ]);
  });
});
