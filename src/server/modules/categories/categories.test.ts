import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryListResponse, CategoryResponse } from '../../../shared/categories';
import { ApiError } from '../../../shared/common';
import { tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const NOT_ADMIN = ['superAdmin', 'salesRep', 'medicalRep', 'user'] as const;

const uniqueName = (prefix = 'Category') => `${prefix} ${tag()}`;

describe.each(targets)('categories on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const add = (formCategory: unknown, formDescription: unknown = '') =>
    t.call('POST', '/api/category/add', { token: t.as.admin.token, body: { formCategory, formDescription } });

  const rowCount = async (id: string) => (await t.sql('select 1 from categories where id = $1', [id])).length;

  it('POST /api/category/add creates a category and answers exactly its fields', async () => {
    const name = uniqueName('Painkillers');
    const res = await add(`  ${name}  `, ' For aches ');
    expect(res.status).toBe(201);
    expect(Object.keys(parsed(res, CategoryResponse)).sort()).toEqual(['category', 'success']);
    expect(parsed(res, CategoryResponse).category).toEqual({
      _id: expect.any(String),
      name,
      description: 'For aches',
    });
  });

  it('POST /api/category/add accepts a missing description as an empty one', async () => {
    const res = await t.call('POST', '/api/category/add', {
      token: t.as.admin.token,
      body: { formCategory: uniqueName() },
    });
    expect(res.status).toBe(201);
    expect(parsed(res, CategoryResponse).category.description).toBe('');
  });

  it.each(['superAdmin', 'admin', 'salesRep', 'medicalRep', 'user'] as const)(
    'GET /api/category lists categories with exactly their fields for a %s',
    async (role) => {
      const created = parsed(await add(uniqueName('Listed'), 'desc'), CategoryResponse).category;
      const res = await t.call('GET', '/api/category', { token: t.as[role].token });
      expect(res.status).toBe(200);
      expect(Object.keys(parsed(res, CategoryListResponse)).sort()).toEqual(['categories', 'success']);
      expect(parsed(res, CategoryListResponse).categories).toContainEqual(created);
      for (const category of parsed(res, CategoryListResponse).categories)
        expect(Object.keys(category).sort()).toEqual(['_id', 'description', 'name']);
    },
  );

  it('PUT /api/category/:id renames and redescribes a category', async () => {
    const { _id } = parsed(await add(uniqueName()), CategoryResponse).category;
    const name = uniqueName('Renamed');
    const res = await t.call('PUT', `/api/category/${_id}`, {
      token: t.as.admin.token,
      body: { formCategory: name, formDescription: 'new words' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, category: { _id, name, description: 'new words' } });
    const list = await t.call('GET', '/api/category', { token: t.as.user.token });
    expect(parsed(list, CategoryListResponse).categories).toContainEqual({
      _id,
      name,
      description: 'new words',
    });
  });

  it('PUT /api/category/:id may change only the letter case of its own name', async () => {
    const name = uniqueName('casing');
    const { _id } = parsed(await add(name), CategoryResponse).category;
    const res = await t.call('PUT', `/api/category/${_id}`, {
      token: t.as.admin.token,
      body: { formCategory: name.toUpperCase(), formDescription: '' },
    });
    expect(res.status).toBe(200);
    expect(parsed(res, CategoryResponse).category.name).toBe(name.toUpperCase());
  });

  it('DELETE /api/category/:id removes an unused category, then answers 404', async () => {
    const { _id } = parsed(await add(uniqueName()), CategoryResponse).category;
    const res = await t.call('DELETE', `/api/category/${_id}`, { token: t.as.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    expect(await rowCount(_id)).toBe(0);
    const again = await t.call('DELETE', `/api/category/${_id}`, { token: t.as.admin.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Category not found.' });
  });

  it('POST /api/category/add refuses a duplicate name with 409, also differing in case and surrounding spaces', async () => {
    const name = uniqueName('Vitamins');
    expect((await add(name)).status).toBe(201);
    for (const same of [name, name.toUpperCase(), `  ${name.toLowerCase()}  `]) {
      const res = await add(same);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        success: false,
        code: 'NAME_TAKEN',
        error: expect.stringContaining('already exists'),
      });
    }
    const rows = await t.sql('select 1 from categories where lower(name) = lower($1)', [name]);
    expect(rows).toHaveLength(1);
  });

  it('concurrent adds of one name create it once and answer 409 to the rest', async () => {
    const name = uniqueName('Raced');
    const answers = await Promise.all([name, name.toUpperCase(), name, ` ${name}`, name].map((n) => add(n)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const answer of answers)
      if (answer.status === 409) expect(parsed(answer, ApiError).success).toBe(false);
    const rows = await t.sql('select 1 from categories where lower(name) = lower($1)', [name]);
    expect(rows).toHaveLength(1);
  });

  it("PUT /api/category/:id refuses another category's name with 409, also differing in case and spaces", async () => {
    const taken = uniqueName('Taken');
    await add(taken);
    const mine = uniqueName('Mine');
    const { _id } = parsed(await add(mine), CategoryResponse).category;
    for (const same of [taken, ` ${taken.toUpperCase()} `]) {
      const res = await t.call('PUT', `/api/category/${_id}`, {
        token: t.as.admin.token,
        body: { formCategory: same, formDescription: '' },
      });
      expect(res.status).toBe(409);
      expect(parsed(res, ApiError).success).toBe(false);
    }
    const [row] = await t.sql<{ name: string }>('select name from categories where id = $1', [_id]);
    expect(row?.name).toBe(mine);
  });

  it('DELETE /api/category/:id refuses a category used by products with 409 naming the count, and keeps it', async () => {
    const first = await t.product();
    const second = await t.product();
    await t.sql('update products set category_id = $1 where id = $2', [first.categoryId, second.id]);
    const res = await t.call('DELETE', `/api/category/${first.categoryId}`, { token: t.as.admin.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      code: 'IN_USE',
      error: expect.stringContaining('2 products'),
    });
    expect(await rowCount(first.categoryId)).toBe(1);

    const single = await t.product();
    const one = await t.call('DELETE', `/api/category/${single.categoryId}`, { token: t.as.admin.token });
    expect(one.status).toBe(409);
    expect(parsed(one, ApiError).error).toContain('1 product');
    expect(parsed(one, ApiError).error).not.toContain('1 products');
    expect(await rowCount(single.categoryId)).toBe(1);
  });

  it.each([
    ['a blank name', { formCategory: '   ' }],
    ['a missing name', { formCategory: undefined }],
    ['a name given as a number', { formCategory: 12 }],
    ['a name given as an object', { formCategory: { name: 'x' } }],
    ['a description given as a number', { formDescription: 3 }],
    ['a NUL character in the name', { formCategory: 'a\u0000b' }],
    ['a 201-character name', { formCategory: 'c'.repeat(201) }],
    ['a 2001-character description', { formDescription: 'd'.repeat(2001) }],
  ])('POST /api/category/add and PUT /api/category/:id refuse %s with 400', async (_label, change) => {
    const body = { formCategory: uniqueName(), formDescription: '', ...change };
    const added = await t.call('POST', '/api/category/add', { token: t.as.admin.token, body });
    expect(added.status).toBe(400);
    expect(parsed(added, ApiError).success).toBe(false);
    expect(parsed(added, ApiError).error).toMatch(/^[^\n]+$/);
    const { _id } = parsed(await add(uniqueName()), CategoryResponse).category;
    const put = await t.call('PUT', `/api/category/${_id}`, { token: t.as.admin.token, body });
    expect(put.status).toBe(400);
  });

  it('accepts a 200-character name and a 2000-character description', async () => {
    const name = `${uniqueName()} `.padEnd(200, 'x');
    const res = await add(name, 'd'.repeat(2000));
    expect(res.status).toBe(201);
    expect(parsed(res, CategoryResponse).category.name).toHaveLength(200);
  });

  it('PUT and DELETE /api/category/:id answer 404 for a malformed or unknown id', async () => {
    for (const id of ['nope', UNKNOWN_ID, "1' or '1'='1"]) {
      const put = await t.call('PUT', `/api/category/${encodeURIComponent(id)}`, {
        token: t.as.admin.token,
        body: { formCategory: uniqueName(), formDescription: '' },
      });
      expect(put.status).toBe(404);
      expect(put.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Category not found.' });
      const del = await t.call('DELETE', `/api/category/${encodeURIComponent(id)}`, {
        token: t.as.admin.token,
      });
      expect(del.status).toBe(404);
      expect(del.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Category not found.' });
    }
  });

  it.each(NOT_ADMIN)('a %s may not add, edit or delete categories (403)', async (role) => {
    const name = uniqueName('Guarded');
    const { _id } = parsed(await add(name), CategoryResponse).category;
    const token = t.as[role].token;
    const body = { formCategory: uniqueName(), formDescription: '' };
    const added = await t.call('POST', '/api/category/add', { token, body });
    expect(added.status).toBe(403);
    expect(added.body).toEqual({ success: false, code: 'FORBIDDEN', error: expect.any(String) });
    expect((await t.call('PUT', `/api/category/${_id}`, { token, body })).status).toBe(403);
    expect((await t.call('DELETE', `/api/category/${_id}`, { token })).status).toBe(403);
    const [row] = await t.sql<{ name: string }>('select name from categories where id = $1', [_id]);
    expect(row?.name).toBe(name);
    expect(await t.sql('select 1 from categories where name = $1', [body.formCategory])).toHaveLength(0);
  });
});
