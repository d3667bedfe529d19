import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { CSV_MIME, ImportListResponse, ImportResponse } from '../../../shared/imports';
import { ROLES } from '../../../shared/roles';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

describe.each(targets)('the list of imports on $name', (target) => {
  let t: TestApp;
  /** The uploaded imports' ids, oldest first. */
  const ids: string[] = [];
  let cutOff = '';

  beforeAll(async () => {
    t = await startApp(target);
    for (let i = 1; i <= 5; i++) {
      const answer = await t.call('POST', `/api/imports/products?fileName=list-${i}.csv`, {
        token: t.as.admin.token,
        body: `Name,Price\n${Array.from({ length: i }, (_, n) => `List tea ${i}-${n},2.50`).join('\n')}\n`,
        headers: { 'content-type': CSV_MIME },
      });
      expect(answer.status).toBe(201);
      ids.push(parsed(answer, ImportResponse).import._id);
      // Days apart, so the order does not rest on a clock's resolution.
      await t.sql(`update imports set created_at = now() - make_interval(days => $2) where id = $1`, [
        parsed(answer, ImportResponse).import._id,
        10 - i,
      ]);
    }
    // What an upload cut off by a stopped server leaves (startImport without finishImport): newest.
    const [row] = await t.sql<{ id: string }>(
      `insert into imports (file_name, format, columns, rows, mapping, created_by_id, created_by_name)
       values ('cut-off.csv', 'csv', '{Name}', 0, '{}', $1, $2) returning id`,
      [t.as.admin.id, t.as.admin.name],
    );
    cutOff = row?.id as string;
  });
  afterAll(() => t?.close());

  const list = (query = '', token = t.as.admin.token) => t.call('GET', `/api/imports${query}`, { token });

  it('answers the imports newest first, each as one import answers it but without its preview', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    const body = ImportListResponse.parse(answer.body);
    expect(body.imports.map((item) => item._id)).toEqual([...ids].reverse());
    expect(body).toMatchObject({ total: 5, page: 1, pageSize: 20, pageCount: 1 });
    const newest = body.imports[0];
    expect(newest).toMatchObject({
      fileName: 'list-5.csv',
      status: 'uploaded',
      rows: 5,
      total: 5,
      processed: 0,
      summary: null,
      preview: [],
      createdBy: { _id: t.as.admin.id, name: t.as.admin.name },
    });
    const one = await t.call('GET', `/api/imports/${ids[4]}`, { token: t.as.admin.token });
    expect({ ...parsed(one, ImportResponse).import, preview: [] }).toEqual(newest);
  });

  it('leaves out an upload cut off halfway (no rows)', async () => {
    const body = parsed(await list('?pageSize=100'), ImportListResponse);
    expect(body.imports.map((item) => item._id)).not.toContain(cutOff);
    expect(body.total).toBe(5);
  });

  it('answers one page at a time, with the page count', async () => {
    const first = await list('?page=1&pageSize=2');
    const second = await list('?page=2&pageSize=2');
    const third = await list('?page=3&pageSize=2');
    const past = await list('?page=9&pageSize=2');
    const newestFirst = [...ids].reverse();
    expect(first.body).toMatchObject({ total: 5, page: 1, pageSize: 2, pageCount: 3 });
    expect(parsed(first, ImportListResponse).imports.map((item) => item._id)).toEqual(
      newestFirst.slice(0, 2),
    );
    expect(parsed(second, ImportListResponse).imports.map((item) => item._id)).toEqual(
      newestFirst.slice(2, 4),
    );
    expect(parsed(third, ImportListResponse).imports.map((item) => item._id)).toEqual(newestFirst.slice(4));
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ imports: [], total: 5, page: 9, pageCount: 3 });
    expect((await list('?page=2')).body).toMatchObject({ imports: [], page: 2, pageSize: 20, pageCount: 1 });
  });

  it('shows the status and summary as the import moves on', async () => {
    const id = ids[2] as string;
    const check = await t.call('POST', `/api/imports/${id}/check`, {
      token: t.as.admin.token,
      body: { mapping: { name: 'Name', price: 'Price' }, matchBy: 'name' },
    });
    expect(check.status).toBe(200);
    const item = parsed(await list(), ImportListResponse).imports.find((found) => found._id === id);
    expect(item).toMatchObject({ status: 'checked', summary: parsed(check, ImportResponse).import.summary });
    expect(item?.checkedAt).toEqual(expect.any(String));
  });

  it.each(ROLES.filter((role) => role !== 'admin' && role !== 'superAdmin'))(
    'refuses a %s (403)',
    async (role) => {
      const answer = await list('', t.as[role].token);
      expect(answer.status).toBe(403);
    },
  );

  it('refuses a caller without a token (401)', async () => {
    expect((await t.call('GET', '/api/imports')).status).toBe(401);
  });

  it.each([
    ['page=NaN', 'page must be a number.'],
    ['page=abc', 'page must be a number.'],
    ['page=-1', 'page starts at 1.'],
    ['page=0', 'page starts at 1.'],
    ['page=1.5', undefined],
    ['page=99999999999', undefined],
    [`page=${'9'.repeat(10_000)}`, undefined],
    [`page=${'x'.repeat(10_000)}`, 'page must be a number.'],
    ['page=1&page=2', undefined],
    ['page=%00', undefined],
    ['pageSize=NaN', 'pageSize must be a number.'],
    ['pageSize=-1', 'pageSize must be at least 1.'],
    ['pageSize=0', 'pageSize must be at least 1.'],
    ['pageSize=101', 'pageSize must be at most 100.'],
    [`pageSize=${'1'.repeat(10_000)}`, undefined],
    ['pageSize=5&pageSize=6', undefined],
    ['pageSize=Infinity', undefined],
  ])('answers 400 with one sentence to %#: bad paging', async (query, message) => {
    const answer = await list(`?${query}`);
    expect(answer.status).toBe(400);
    const refusal = parsed(answer, ApiError);
    expect(refusal.success).toBe(false);
    expect(refusal.error).toMatch(/^[^\n]+\.$/);
    if (message) expect(refusal.error).toContain(message);
  });
});
