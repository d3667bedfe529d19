import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { type Item, ItemResponse } from '../../../shared/items';
import { tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

/**
 * Writes of one item racing each other (DESIGN §22): on PostgreSQL they really run at once (a pool
 * of connections), on PGlite one after another. Whatever the order, one variant per combination,
 * one item per name, and no value a variant has is removed; never a 500.
 */
describe.each(targets)('items racing on $name', (target) => {
  let t: TestApp;
  let category: string;
  let supplier: string;
  beforeAll(async () => {
    t = await startApp(target, { poolSize: 12 });
    ({ categoryId: category, supplierId: supplier } = await t.product());
  });
  afterAll(() => t?.close());

  const body = (name = `Race tee ${tag()}`) => ({
    name,
    category,
    supplier,
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    variants: [{ optionValues: { Size: 'S' }, price: 5 }],
  });
  const create = async (): Promise<Item> => {
    const res = await t.call('POST', '/api/items', { token: t.as.admin.token, body: body() });
    expect(res.status, res.text).toBe(201);
    return parsed(res, ItemResponse).item;
  };
  const addVariant = (item: Item, size: string, sku?: string) =>
    t.call('POST', `/api/items/${item._id}/variants`, {
      token: t.as.admin.token,
      body: { optionValues: { Size: size }, price: 6, stock: 2, ...(sku && { sku }) },
    });
  const codes = (answers: { status: number; body: unknown }[]) =>
    answers
      .map((answer) =>
        answer.status < 300
          ? String(answer.status)
          : `${answer.status} ${parsed(answer as never, ApiError).code}`,
      )
      .sort();

  it('two adds of the same combination at once: exactly one 201 and one 409 VARIANT_EXISTS', async () => {
    for (let round = 0; round < 5; round++) {
      const item = await create();
      const answers = await Promise.all([addVariant(item, 'M'), addVariant(item, 'm')]);
      expect(codes(answers), answers.map((answer) => answer.text).join('\n')).toEqual([
        '201',
        '409 VARIANT_EXISTS',
      ]);
      const rows = await t.sql<{ n: number; moves: number }>(
        `select count(*)::int as n,
                (select count(*)::int from stock_movements m join products q on q.id = m.product_id
                 where q.item_id = $1) as moves
         from products where item_id = $1`,
        [item._id],
      );
      expect(rows).toEqual([{ n: 2, moves: 2 }]);
    }
  });

  it('two creations of one name at once: one 201 and one 409 NAME_TAKEN', async () => {
    const name = `Race same ${tag()}`;
    const answers = await Promise.all(
      [body(name), body(name.toUpperCase())].map((one) =>
        t.call('POST', '/api/items', { token: t.as.admin.token, body: one }),
      ),
    );
    expect(codes(answers), answers.map((answer) => answer.text).join('\n')).toEqual([
      '201',
      '409 NAME_TAKEN',
    ]);
    expect(await t.sql('select 1 from items where lower(name) = lower($1)', [name])).toHaveLength(1);
  });

  it('removing a value while a variant of it is added: either the add is refused or the removal is', async () => {
    for (let round = 0; round < 5; round++) {
      const item = await create();
      const removal = t.call('PUT', `/api/items/${item._id}`, {
        token: t.as.admin.token,
        body: {
          name: item.name,
          description: '',
          category,
          supplier,
          options: [{ name: 'Size', values: ['S', 'M'] }],
        },
      });
      const answers = await Promise.all([removal, addVariant(item, 'L')]);
      // The removal first: the add names a value no longer there (400); the add first: L is in use (409).
      expect([
        ['200', '400 BAD_REQUEST'],
        ['201', '409 OPTION_VALUE_IN_USE'],
      ]).toContainEqual(codes(answers));
      const [stored] = await t.sql<{ options: { values: string[] }[] }>(
        'select options from items where id = $1',
        [item._id],
      );
      const values = stored?.options[0]?.values ?? [];
      const used = await t.sql<{ size: string }>(
        `select option_values->>'Size' as size from products where item_id = $1`,
        [item._id],
      );
      for (const row of used) expect(values).toContain(row.size);
    }
  });

  it('two variants given one SKU at once: one 201 and one 409 SKU_TAKEN', async () => {
    const item = await create();
    const sku = `RACE-${tag()}`;
    const answers = await Promise.all([addVariant(item, 'M', sku), addVariant(item, 'L', sku)]);
    expect(codes(answers), answers.map((answer) => answer.text).join('\n')).toEqual(['201', '409 SKU_TAKEN']);
  });
});
