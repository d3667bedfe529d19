import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { type Item, ItemListResponse, ItemResponse } from '../../../shared/items';
import { ProductResponse } from '../../../shared/products';
import { refusalSentence } from '../../../shared/refusals';
import { fixtures, nth, tag } from '../../test/fixtures';
import { type Answer, parsed, startApp, type TestApp, targets } from '../../test/harness';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(targets)('items on $name', (target) => {
  let t: TestApp;
  let category: string;
  let supplier: string;
  const { sold, ledgerOf, stockOf } = fixtures(() => t);
  beforeAll(async () => {
    t = await startApp(target);
    ({ categoryId: category, supplierId: supplier } = await t.product());
  });
  afterAll(() => t?.close());

  const admin = () => t.as.admin.token;
  const tee = (overrides: Record<string, unknown> = {}) => ({
    name: `Tee ${tag()}`,
    description: 'Cotton',
    category,
    supplier,
    brand: 'Acme',
    options: [
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Colour', values: ['Red', 'Blue'] },
    ],
    variants: [
      { optionValues: { Size: 'L', Colour: 'Red' }, price: 12, cost: 5, stock: 3, sku: `L-${tag()}` },
      { optionValues: { Size: 'S', Colour: 'Blue' }, price: 10, stock: 1 },
      { optionValues: { Size: 'S', Colour: 'Red' }, price: 10, cost: 4 },
      { optionValues: { colour: 'blue', size: 'm' }, price: 11, stock: 2 },
    ],
    ...overrides,
  });
  const create = async (body: unknown = tee()) => {
    const res = await t.call('POST', '/api/items', { token: admin(), body });
    expect(res.status, res.text).toBe(201);
    return parsed(res, ItemResponse).item;
  };
  const put = (id: string, body: unknown) => t.call('PUT', `/api/items/${id}`, { token: admin(), body });
  const editOf = (item: Item, change: Record<string, unknown>) => ({
    name: item.name,
    description: item.description,
    category: item.category._id,
    supplier: item.supplier._id,
    brand: item.brand,
    options: item.options,
    ...change,
  });
  const refusal = (res: Answer, status: number, code: string) => {
    expect(res.status, res.text).toBe(status);
    expect(parsed(res, ApiError).code).toBe(code);
  };

  it('POST /api/items creates the item and each variant as a product named by its values, in value order', async () => {
    const body = tee();
    const item = await create(body);
    expect(item).toMatchObject({
      name: body.name,
      description: 'Cotton',
      category: { _id: category },
      supplier: { _id: supplier },
      brand: 'Acme',
      options: body.options,
    });
    // Size's order first (S, M, L), then Colour's (Red, Blue); the missing combinations are allowed.
    expect(item.variants.map((variant) => variant.name)).toEqual([
      `${body.name} — S / Red`,
      `${body.name} — S / Blue`,
      `${body.name} — M / Blue`,
      `${body.name} — L / Red`,
    ]);
    const medium = nth(item.variants, 2);
    // Values given in another case are stored as the item spells them.
    expect(medium.optionValues).toEqual({ Size: 'M', Colour: 'Blue' });
    expect(medium).toMatchObject({
      item: { _id: item._id, name: body.name },
      price: 11,
      stock: 2,
      brand: 'Acme',
      active: true,
      description: 'Cotton',
      category: { _id: category },
    });
    expect(nth(item.variants, 3)).toMatchObject({ cost: 5, stock: 3, sku: body.variants[0]?.sku });
    // Each variant's stock is its opening movement at the default location.
    for (const variant of item.variants) {
      expect(await ledgerOf(variant._id)).toBe(variant.stock);
      const moves = await t.sql<{ kind: string; at_default: boolean }>(
        'select kind, location_id = default_location() as at_default from stock_movements where product_id = $1',
        [variant._id],
      );
      expect(moves).toEqual([{ kind: 'initial', at_default: true }]);
    }
    const entries = await t.sql<{ entity_type: string; action: string }>(
      `select entity_type, action from audit_log where entity_id = any($1::uuid[]) order by entity_type`,
      [[item._id, ...item.variants.map((variant) => variant._id)]],
    );
    expect(entries).toEqual([
      { entity_type: 'item', action: 'created' },
      ...item.variants.map(() => ({ entity_type: 'product', action: 'created' })),
    ]);
  });

  it('an item may be created without variants, and without options', async () => {
    const item = await create(tee({ variants: undefined }));
    expect(item.variants).toEqual([]);
    const plain = await create(tee({ options: [], variants: [{ optionValues: {}, price: 3 }] }));
    expect(plain.variants.map((variant) => variant.name)).toEqual([plain.name]);
  });

  it('GET /api/items/:id and GET /api/items answer items with their variants; cost only for admins', async () => {
    const word = `Zebra${tag()}`;
    const item = await create(tee({ name: `${word} Tee` }));
    const own = await t.call('GET', `/api/items/${item._id}`, { token: admin() });
    expect(parsed(own, ItemResponse).item).toEqual(item);
    const asRep = await t.call('GET', `/api/items/${item._id}`, { token: t.as.salesRep.token });
    const repItem = parsed(asRep, ItemResponse).item;
    expect(repItem.variants).toHaveLength(4);
    for (const variant of repItem.variants) expect(variant).not.toHaveProperty('cost');
    const list = await t.call('GET', `/api/items?search=${word.toLowerCase()}&page=1&pageSize=5`, {
      token: t.as.user.token,
    });
    const page = parsed(list, ItemListResponse);
    expect(page).toMatchObject({ total: 1, page: 1, pageSize: 5 });
    expect(nth(page.items)._id).toBe(item._id);
    expect(nth(page.items).variants.map((variant) => variant._id)).toEqual(item.variants.map((v) => v._id));
    const other = await t.product();
    const elsewhere = await t.call('GET', `/api/items?search=${word}&category=${other.categoryId}`, {
      token: admin(),
    });
    expect(parsed(elsewhere, ItemListResponse)).toMatchObject({ items: [], total: 0 });
    // The products list answers an item's variants by ?item=.
    const variants = await t.call('GET', `/api/products?item=${item._id}&page=1`, { token: admin() });
    expect((variants.body as { total: number }).total).toBe(4);
    refusal(await t.call('GET', `/api/items/${UNKNOWN_ID}`, { token: admin() }), 404, 'NOT_FOUND');
    refusal(await t.call('GET', '/api/items/not-an-id', { token: admin() }), 404, 'NOT_FOUND');
  });

  it('renaming the item and a value renames every variant and its values; an earlier order keeps its name', async () => {
    const item = await create();
    const medium = nth(item.variants, 2);
    await sold(t.as.user, { lines: [{ productId: medium._id, quantity: 1 }] });
    const name = `Shirt ${tag()}`;
    const res = await put(
      item._id,
      editOf(item, {
        name,
        options: [
          { name: 'Size', values: ['Small', 'M', 'L', 'XL'] },
          { name: 'Colour', values: ['Red', 'Navy'] },
        ],
      }),
    );
    expect(res.status, res.text).toBe(200);
    const edited = parsed(res, ItemResponse).item;
    expect(edited.variants.map((variant) => [variant.name, variant.optionValues])).toEqual([
      [`${name} — Small / Red`, { Size: 'Small', Colour: 'Red' }],
      [`${name} — Small / Navy`, { Size: 'Small', Colour: 'Navy' }],
      [`${name} — M / Navy`, { Size: 'M', Colour: 'Navy' }],
      [`${name} — L / Red`, { Size: 'L', Colour: 'Red' }],
    ]);
    const product = await t.call('GET', `/api/products/${medium._id}`, { token: admin() });
    expect(parsed(product, ProductResponse).product).toMatchObject({
      name: `${name} — M / Navy`,
      item: { _id: item._id, name },
    });
    const [order] = await t.sql<{ product_name: string }>(
      'select product_name from orders where product_id = $1',
      [medium._id],
    );
    expect(order?.product_name).toBe(`${item.name} — M / Blue`);
    // The stock is still the sum of its movements (a rename moves nothing).
    expect(await stockOf(medium._id)).toBe(await ledgerOf(medium._id));
    const entries = await t.sql<{ action: string; changes: { field: string }[] }>(
      `select action, changes from audit_log where entity_type = 'item' and entity_id = $1 order by at, id`,
      [item._id],
    );
    expect(entries.map((entry) => entry.action)).toEqual(['created', 'updated']);
    expect(nth(entries, 1).changes.map((change) => change.field)).toEqual(['name', 'options']);
  });

  it('an option renamed at its place renames the key of every variant; a name change only in case too', async () => {
    const item = await create();
    const res = await put(
      item._id,
      editOf(item, {
        options: [
          { name: 'Fit', values: ['s', 'M', 'L'] },
          { name: 'Colour', values: ['Red', 'Blue'] },
        ],
      }),
    );
    expect(res.status, res.text).toBe(200);
    const edited = parsed(res, ItemResponse).item;
    expect(nth(edited.variants).optionValues).toEqual({ Fit: 's', Colour: 'Red' });
    expect(nth(edited.variants).name).toBe(`${item.name} — s / Red`);
  });

  it('a value in use cannot be removed (409); an unused one can, and values can be added', async () => {
    const item = await create();
    const before = await t.sql(
      'select id, name, option_values from products where item_id = $1 order by id',
      [item._id],
    );
    const removing = await put(
      item._id,
      editOf(item, { options: [{ name: 'Size', values: ['S', 'L'] }, nth(item.options, 1)] }),
    );
    refusal(removing, 409, 'OPTION_VALUE_IN_USE');
    expect(parsed(removing, ApiError).error).toBe(
      refusalSentence('OPTION_VALUE_IN_USE', { option: 'Size', value: 'M' }),
    );
    const item2 = parsed(
      await t.call('GET', `/api/items/${item._id}`, { token: admin() }),
      ItemResponse,
    ).item;
    expect(item2.options).toEqual(item.options);
    expect(
      await t.sql('select id, name, option_values from products where item_id = $1 order by id', [item._id]),
    ).toEqual(before);
    // XS added in front: S, M and L keep their values (the same text), none is renamed.
    const adding = await put(
      item._id,
      editOf(item, { options: [{ name: 'Size', values: ['XS', 'S', 'M', 'L'] }, nth(item.options, 1)] }),
    );
    expect(adding.status, adding.text).toBe(200);
    expect(parsed(adding, ItemResponse).item.variants.map((variant) => variant.name)).toEqual(
      item.variants.map((variant) => variant.name),
    );
    // Blue and Red are both used; a third colour, never used, comes and goes.
    const green = await put(
      item._id,
      editOf(item, { options: [nth(item.options), { name: 'Colour', values: ['Red', 'Blue', 'Green'] }] }),
    );
    expect(green.status, green.text).toBe(200);
    const gone = await put(item._id, editOf(item, {}));
    expect(gone.status, gone.text).toBe(200);
    expect(parsed(gone, ItemResponse).item.options).toEqual(item.options);
  });

  it('options cannot be added or removed once the item has variants (409); before, they can', async () => {
    const item = await create();
    const more = [...item.options, { name: 'Sleeve', values: ['Short', 'Long'] }];
    refusal(await put(item._id, editOf(item, { options: more })), 409, 'ITEM_OPTIONS_FIXED');
    refusal(await put(item._id, editOf(item, { options: [nth(item.options)] })), 409, 'ITEM_OPTIONS_FIXED');
    const bare = await create(tee({ variants: undefined }));
    const res = await put(bare._id, editOf(bare, { options: more }));
    expect(res.status, res.text).toBe(200);
    expect(parsed(res, ItemResponse).item.options).toEqual(more);
  });

  it('POST /api/items/:id/variants adds one (201); the same combination again is a 409 VARIANT_EXISTS', async () => {
    const item = await create();
    const variant = { optionValues: { Size: 'M', Colour: 'Red' }, price: 11.5, stock: 4 };
    const res = await t.call('POST', `/api/items/${item._id}/variants`, { token: admin(), body: variant });
    expect(res.status, res.text).toBe(201);
    const added = parsed(res, ItemResponse).item;
    expect(added.variants.map((one) => one.name)).toEqual([
      `${item.name} — S / Red`,
      `${item.name} — S / Blue`,
      `${item.name} — M / Red`,
      `${item.name} — M / Blue`,
      `${item.name} — L / Red`,
    ]);
    const made = nth(added.variants, 2);
    expect(made).toMatchObject({ price: 11.5, stock: 4, brand: 'Acme' });
    expect(await ledgerOf(made._id)).toBe(4);
    const again = await t.call('POST', `/api/items/${item._id}/variants`, { token: admin(), body: variant });
    refusal(again, 409, 'VARIANT_EXISTS');
    expect(parsed(again, ApiError).error).toBe(
      refusalSentence('VARIANT_EXISTS', { variant: `${item.name} — M / Red` }),
    );
    refusal(
      await t.call('POST', `/api/items/${UNKNOWN_ID}/variants`, { token: admin(), body: variant }),
      404,
      'NOT_FOUND',
    );
  });

  it('a creation naming one combination twice, a taken SKU or a taken name is refused with nothing stored', async () => {
    const twice = tee({
      variants: [
        { optionValues: { Size: 'S', Colour: 'Red' }, price: 1 },
        { optionValues: { Size: 's', Colour: 'RED' }, price: 2 },
      ],
    });
    refusal(await t.call('POST', '/api/items', { token: admin(), body: twice }), 409, 'VARIANT_EXISTS');
    const first = await create();
    const sku = nth(first.variants, 3).sku;
    const taken = tee({ variants: [{ optionValues: { Size: 'S', Colour: 'Red' }, price: 1, sku }] });
    refusal(await t.call('POST', '/api/items', { token: admin(), body: taken }), 409, 'SKU_TAKEN');
    refusal(
      await t.call('POST', '/api/items', { token: admin(), body: tee({ name: first.name }) }),
      409,
      'NAME_TAKEN',
    );
    for (const body of [twice, taken]) {
      const rows = await t.sql('select 1 from items where name = $1', [body.name]);
      expect(rows).toEqual([]);
      const products = await t.sql('select 1 from products where name like $1', [`${body.name}%`]);
      expect(products).toEqual([]);
    }
  });

  it('PUT /api/products/:id of a variant: its name comes from its item (400); its other fields edit', async () => {
    const item = await create();
    const variant = nth(item.variants);
    const body = {
      name: variant.name,
      description: variant.description,
      price: 20,
      stock: variant.stock,
      category: variant.category._id,
      supplier: variant.supplier._id,
      sku: `V-${tag()}`,
      brand: 'Other',
      active: false,
    };
    const renamed = await t.call('PUT', `/api/products/${variant._id}`, {
      token: admin(),
      body: { ...body, name: 'Something else' },
    });
    expect(renamed.status, renamed.text).toBe(400);
    expect(parsed(renamed, ApiError).error).toBe(
      "A variant's name comes from its item: rename the item or its values.",
    );
    const res = await t.call('PUT', `/api/products/${variant._id}`, { token: admin(), body });
    expect(res.status, res.text).toBe(200);
    expect(parsed(res, ProductResponse).product).toMatchObject({
      name: variant.name,
      price: 20,
      sku: body.sku,
      brand: 'Other',
      active: false,
      optionValues: variant.optionValues,
    });
  });

  it('every signed-in role but the superAdmin reads items; only admins write them', async () => {
    const item = await create();
    for (const role of ['admin', 'salesRep', 'medicalRep', 'user'] as const) {
      expect((await t.call('GET', '/api/items', { token: t.as[role].token })).status).toBe(200);
      expect((await t.call('GET', `/api/items/${item._id}`, { token: t.as[role].token })).status).toBe(200);
    }
    refusal(await t.call('GET', '/api/items', { token: t.as.superAdmin.token }), 403, 'FORBIDDEN');
    refusal(
      await t.call('GET', `/api/items/${item._id}`, { token: t.as.superAdmin.token }),
      403,
      'FORBIDDEN',
    );
    const rep = t.as.salesRep.token;
    const body = tee();
    refusal(await t.call('POST', '/api/items', { token: rep, body }), 403, 'FORBIDDEN');
    refusal(
      await t.call('PUT', `/api/items/${item._id}`, { token: rep, body: editOf(item, {}) }),
      403,
      'FORBIDDEN',
    );
    refusal(
      await t.call('POST', `/api/items/${item._id}/variants`, {
        token: rep,
        body: { optionValues: { Size: 'M', Colour: 'Red' }, price: 1 },
      }),
      403,
      'FORBIDDEN',
    );
    expect(await t.sql('select 1 from items where name = $1', [body.name])).toEqual([]);
  });
});
