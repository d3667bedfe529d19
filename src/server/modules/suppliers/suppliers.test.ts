import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { SupplierListResponse, SupplierResponse } from '../../../shared/suppliers';
import { tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const NOT_ADMIN = ['superAdmin', 'salesRep', 'medicalRep', 'user'] as const;

const uniqueName = (prefix = 'Supplier') => `${prefix} ${tag()}`;

describe.each(targets)('suppliers on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const supplierBody = (change: Record<string, unknown> = {}) => ({
    name: uniqueName(),
    email: 'orders@pharma.test',
    phone: '+1 555 0100',
    address: '1 Depot Lane',
    ...change,
  });
  const add = (change: Record<string, unknown> = {}) =>
    t.call('POST', '/api/supplier/add', { token: t.as.admin.token, body: supplierBody(change) });
  const rowCount = async (id: string) => (await t.sql('select 1 from suppliers where id = $1', [id])).length;

  it('POST /api/supplier/add creates a supplier and answers exactly its fields', async () => {
    const name = uniqueName('Pharma Co');
    const res = await add({
      name: ` ${name} `,
      email: ' Orders@Pharma.TEST ',
      phone: ' 555 ',
      address: ' Dock 4 ',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(parsed(res, SupplierResponse)).sort()).toEqual(['success', 'supplier']);
    expect(parsed(res, SupplierResponse).supplier).toEqual({
      _id: expect.any(String),
      name,
      email: 'orders@pharma.test',
      phone: '555',
      address: 'Dock 4',
    });
  });

  it('POST /api/supplier/add accepts a name alone, storing the rest as empty', async () => {
    const name = uniqueName();
    const res = await t.call('POST', '/api/supplier/add', { token: t.as.admin.token, body: { name } });
    expect(res.status).toBe(201);
    expect(parsed(res, SupplierResponse).supplier).toEqual({
      _id: expect.any(String),
      name,
      email: '',
      phone: '',
      address: '',
    });
    const blankEmail = await add({ email: '' });
    expect(blankEmail.status).toBe(201);
    expect(parsed(blankEmail, SupplierResponse).supplier.email).toBe('');
  });

  it('GET /api/supplier lists suppliers with exactly their fields for an admin', async () => {
    const created = parsed(await add(), SupplierResponse).supplier;
    const res = await t.call('GET', '/api/supplier', { token: t.as.admin.token });
    expect(res.status).toBe(200);
    expect(Object.keys(parsed(res, SupplierListResponse)).sort()).toEqual(['success', 'suppliers']);
    expect(parsed(res, SupplierListResponse).suppliers).toContainEqual(created);
    for (const supplier of parsed(res, SupplierListResponse).suppliers)
      expect(Object.keys(supplier).sort()).toEqual(['_id', 'address', 'email', 'name', 'phone']);
  });

  it.each(NOT_ADMIN)('GET /api/supplier answers 403 to a %s', async (role) => {
    const res = await t.call('GET', '/api/supplier', { token: t.as[role].token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, code: 'FORBIDDEN', error: expect.any(String) });
  });

  it('PUT /api/supplier/:id updates every field', async () => {
    const { _id } = parsed(await add(), SupplierResponse).supplier;
    const body = { name: uniqueName('Renamed'), email: 'new@pharma.test', phone: '999', address: 'Pier 9' };
    const res = await t.call('PUT', `/api/supplier/${_id}`, { token: t.as.admin.token, body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, supplier: { _id, ...body } });
    const list = await t.call('GET', '/api/supplier', { token: t.as.admin.token });
    expect(parsed(list, SupplierListResponse).suppliers).toContainEqual({ _id, ...body });
  });

  it('DELETE /api/supplier/:id removes an unused supplier, then answers 404', async () => {
    const { _id } = parsed(await add(), SupplierResponse).supplier;
    const res = await t.call('DELETE', `/api/supplier/${_id}`, { token: t.as.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    expect(await rowCount(_id)).toBe(0);
    const again = await t.call('DELETE', `/api/supplier/${_id}`, { token: t.as.admin.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Supplier not found.' });
  });

  it('DELETE /api/supplier/:id refuses a supplier used by products with 409 naming the count, and keeps it', async () => {
    const first = await t.product();
    const others = [await t.product(), await t.product()];
    for (const other of others)
      await t.sql('update products set supplier_id = $1 where id = $2', [first.supplierId, other.id]);
    const res = await t.call('DELETE', `/api/supplier/${first.supplierId}`, { token: t.as.admin.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      code: 'IN_USE',
      error: expect.stringContaining('3 products'),
    });
    expect(await rowCount(first.supplierId)).toBe(1);
  });

  it.each([
    ['a blank name', { name: '  ' }],
    ['a missing name', { name: undefined }],
    ['a name given as a number', { name: 5 }],
    ['an invalid email', { email: 'not-an-email' }],
    ['an email given as a number', { email: 1 }],
    ['a phone given as a number', { phone: 5550100 }],
    ['a NUL character in the address', { address: 'x\u0000y' }],
    ['a 201-character name', { name: 's'.repeat(201) }],
    ['a 51-character phone', { phone: '5'.repeat(51) }],
    ['a 501-character address', { address: 'a'.repeat(501) }],
  ])('POST /api/supplier/add and PUT /api/supplier/:id refuse %s with 400', async (_label, change) => {
    const body = supplierBody(change);
    const added = await t.call('POST', '/api/supplier/add', { token: t.as.admin.token, body });
    expect(added.status).toBe(400);
    expect(parsed(added, ApiError).success).toBe(false);
    expect(parsed(added, ApiError).error).toMatch(/^[^\n]+$/);
    const { _id } = parsed(await add(), SupplierResponse).supplier;
    const put = await t.call('PUT', `/api/supplier/${_id}`, { token: t.as.admin.token, body });
    expect(put.status).toBe(400);
  });

  it('PUT and DELETE /api/supplier/:id answer 404 for a malformed or unknown id', async () => {
    for (const id of ['nope', UNKNOWN_ID, "1' or '1'='1"]) {
      const put = await t.call('PUT', `/api/supplier/${encodeURIComponent(id)}`, {
        token: t.as.admin.token,
        body: supplierBody(),
      });
      expect(put.status).toBe(404);
      expect(put.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Supplier not found.' });
      const del = await t.call('DELETE', `/api/supplier/${encodeURIComponent(id)}`, {
        token: t.as.admin.token,
      });
      expect(del.status).toBe(404);
    }
  });

  it.each(NOT_ADMIN)('a %s may not add, edit or delete suppliers (403)', async (role) => {
    const original = parsed(await add(), SupplierResponse).supplier;
    const token = t.as[role].token;
    const body = supplierBody();
    expect((await t.call('POST', '/api/supplier/add', { token, body })).status).toBe(403);
    expect((await t.call('PUT', `/api/supplier/${original._id}`, { token, body })).status).toBe(403);
    expect((await t.call('DELETE', `/api/supplier/${original._id}`, { token })).status).toBe(403);
    const [row] = await t.sql<{ name: string }>('select name from suppliers where id = $1', [original._id]);
    expect(row?.name).toBe(original.name);
    expect(await t.sql('select 1 from suppliers where name = $1', [body.name])).toHaveLength(0);
  });
});
