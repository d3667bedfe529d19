import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { LocationListResponse, LocationResponse } from '../../../shared/locations';
import { refusalSentence } from '../../../shared/refusals';
import { StoreSettingsResponse } from '../../../shared/store';
import { RegisterListResponse, RegisterResponse, SessionResponse } from '../../../shared/till';
import { UserListResponse, UserResponse } from '../../../shared/users';
import { tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { recordMovements } from '../stock/movements';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const NOT_ADMIN = ['superAdmin', 'salesRep', 'medicalRep', 'user'] as const;
const READERS = ['admin', 'salesRep', 'medicalRep', 'user'] as const;

describe.each(targets)('locations on $name', (target) => {
  let t: TestApp;
  let main: { _id: string; name: string };
  beforeAll(async () => {
    t = await startApp(target);
    const [row] = await t.sql<{ id: string }>(`select id from locations where name = 'Main store'`);
    main = { _id: row?.id as string, name: 'Main store' };
  });
  afterAll(() => t?.close());

  const admin = () => t.as.admin.token;
  const add = async (change: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/locations', {
      token: admin(),
      body: { name: `Place ${tag()}`, kind: 'stockroom', ...change },
    });
    return parsed(res, LocationResponse).location;
  };
  const put = (id: string, body: unknown, headers?: Record<string, string>) =>
    t.call('PUT', `/api/locations/${id}`, { token: admin(), body, headers });
  const entries = (id: string) =>
    t.sql<{ action: string; actor_name: string; changes: unknown }>(
      `select action, actor_name, changes from audit_log where entity_type = 'location' and entity_id = $1 order by at, id`,
      [id],
    );

  it('Main store exists from the start, owns the store, and is the default location', async () => {
    const res = await t.call('GET', '/api/locations', { token: admin() });
    expect(res.status).toBe(200);
    expect(parsed(res, LocationListResponse).locations).toContainEqual({
      ...main,
      kind: 'store',
      address: '',
      active: true,
    });
    const store = await t.call('GET', '/api/settings/store', { token: admin() });
    expect(parsed(store, StoreSettingsResponse).store.defaultLocation).toEqual(main);
    const registers = parsed(await t.call('GET', '/api/registers', { token: admin() }), RegisterListResponse);
    expect(registers.registers.find((one) => one.name === 'Till 1')?.location).toEqual(main);
  });

  it('GET /api/locations lists every location with exactly its fields, by name ignoring case', async () => {
    const b = await add({ name: `b place ${tag()}` });
    const a = await add({ name: `A place ${tag()}`, kind: 'store', address: '1 Quay' });
    const res = await t.call('GET', '/api/locations', { token: admin() });
    const { locations } = parsed(res, LocationListResponse);
    expect(LocationListResponse.strict().parse(res.body)).toEqual(res.body);
    for (const location of locations)
      expect(Object.keys(location).sort()).toEqual(['_id', 'active', 'address', 'kind', 'name']);
    const names = locations.map((one) => one.name);
    expect(names).toEqual([...names].sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase())));
    expect(locations).toContainEqual(a);
    expect(locations).toContainEqual(b);
  });

  it.each(READERS)('GET /api/locations is read by a %s', async (role) => {
    const res = await t.call('GET', '/api/locations', { token: t.as[role].token });
    expect(res.status).toBe(200);
    expect(parsed(res, LocationListResponse).locations.length).toBeGreaterThan(0);
  });

  it('GET /api/locations answers 403 to the superAdmin and 401 without a token', async () => {
    const res = await t.call('GET', '/api/locations', { token: t.as.superAdmin.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, code: 'FORBIDDEN', error: expect.any(String) });
    expect((await t.call('GET', '/api/locations')).status).toBe(401);
  });

  it('POST /api/locations creates a location (201), trimmed, with its audit entry', async () => {
    const name = `Back room ${tag()}`;
    const res = await t.call('POST', '/api/locations', {
      token: admin(),
      body: { name: ` ${name} `, kind: 'stockroom', address: ' Yard 2 ' },
    });
    expect(res.status).toBe(201);
    expect(LocationResponse.strict().parse(res.body)).toEqual(res.body);
    const { location } = parsed(res, LocationResponse);
    expect(location).toEqual({
      _id: expect.any(String),
      name,
      kind: 'stockroom',
      address: 'Yard 2',
      active: true,
    });
    const noAddress = await add({ kind: 'store' });
    expect(noAddress.address).toBe('');
    const [entry] = await entries(location._id);
    expect(entry?.action).toBe('created');
    expect(entry?.actor_name).toBe(t.as.admin.name);
    expect(entry?.changes).toEqual(
      expect.arrayContaining([
        { field: 'name', new: name },
        { field: 'kind', new: 'stockroom' },
        { field: 'address', new: 'Yard 2' },
      ]),
    );
  });

  it('POST /api/locations refuses a name another location has, ignoring case, with 409 LOCATION_NAME_TAKEN', async () => {
    const first = await add();
    const res = await t.call('POST', '/api/locations', {
      token: admin(),
      body: { name: first.name.toUpperCase(), kind: 'store' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      code: 'LOCATION_NAME_TAKEN',
      error: refusalSentence('LOCATION_NAME_TAKEN'),
    });
    const main = await t.call('POST', '/api/locations', {
      token: admin(),
      body: { name: 'main STORE', kind: 'store' },
    });
    expect(main.status).toBe(409);
  });

  it('PUT /api/locations/:id changes the fields it names, with an audit entry of each change', async () => {
    const location = await add({ address: 'Old' });
    const name = `Renamed ${tag()}`;
    const res = await put(location._id, { name, kind: 'store' });
    expect(res.status).toBe(200);
    expect(parsed(res, LocationResponse).location).toEqual({ ...location, name, kind: 'store' });
    const same = await put(location._id, { name: name.toUpperCase() });
    expect(same.status).toBe(200);
    const taken = await put(location._id, { name: 'Main Store' });
    expect(taken.status).toBe(409);
    expect(parsed(taken, ApiError).code).toBe('LOCATION_NAME_TAKEN');
    const log = await entries(location._id);
    expect(log.map((entry) => entry.action)).toEqual(['created', 'updated', 'updated']);
    expect(log[1]?.changes).toEqual([
      { field: 'name', old: location.name, new: name },
      { field: 'kind', old: 'stockroom', new: 'store' },
    ]);
  });

  it('PUT /api/locations/:id deactivates an empty location and reactivates it (audit deactivated, reactivated)', async () => {
    const location = await add();
    const off = await put(location._id, { active: false });
    expect(off.status).toBe(200);
    expect(parsed(off, LocationResponse).location.active).toBe(false);
    const on = await put(location._id, { active: true });
    expect(parsed(on, LocationResponse).location.active).toBe(true);
    expect((await entries(location._id)).map((entry) => entry.action)).toEqual([
      'created',
      'deactivated',
      'reactivated',
    ]);
  });

  const refusedBecause = async (id: string, name: string, what: string) => {
    const res = await put(id, { active: false });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      code: 'LOCATION_IN_USE',
      error: refusalSentence('LOCATION_IN_USE', { location: name, what }),
    });
    const [row] = await t.sql<{ active: boolean }>('select active from locations where id = $1', [id]);
    expect(row?.active).toBe(true);
  };

  it('a location that holds stock cannot be deactivated (409 LOCATION_IN_USE "holds stock")', async () => {
    const location = await add();
    const { id } = await t.product({ stock: 0 });
    await recordMovements({ query: t.sql }, [
      { productId: id, kind: 'receipt', quantity: 3, locationId: location._id },
    ]);
    await refusedBecause(location._id, location.name, 'holds stock');
    await recordMovements({ query: t.sql }, [
      { productId: id, kind: 'adjustment', reason: 'lost', quantity: -3, locationId: location._id },
    ]);
    expect((await put(location._id, { active: false })).status).toBe(200);
  });

  it('a location with an open till session cannot be deactivated ("has an open till session")', async () => {
    const location = await add({ kind: 'store' });
    const created = await t.call('POST', '/api/registers', {
      token: admin(),
      body: { name: `Till ${tag()}`, location: location._id },
    });
    const register = parsed(created, RegisterResponse).register;
    expect(register.location).toEqual({ _id: location._id, name: location.name });
    const opened = await t.call('POST', `/api/registers/${register._id}/open`, {
      token: t.as.user.token,
      body: { openingFloat: 10 },
    });
    const { session } = parsed(opened, SessionResponse);
    await refusedBecause(location._id, location.name, 'has an open till session');
    await t.call('POST', `/api/register-sessions/${session._id}/close`, {
      token: t.as.user.token,
      body: { countedCash: 10 },
    });
    expect((await put(location._id, { active: false })).status).toBe(200);
  });

  it('a location with an open transfer from or to it cannot be deactivated ("has an open transfer"); a draft or a received one holds nothing', async () => {
    const from = await add();
    const to = await add();
    const [transfer] = await t.sql<{ id: string }>(
      `insert into transfers (from_location_id, to_location_id, status) values ($1, $2, 'inTransit') returning id`,
      [from._id, to._id],
    );
    await refusedBecause(from._id, from.name, 'has an open transfer');
    await t.sql(`update transfers set status = 'partiallyReceived' where id = $1`, [transfer?.id]);
    await refusedBecause(to._id, to.name, 'has an open transfer');
    await t.sql(`update transfers set status = 'received' where id = $1`, [transfer?.id]);
    await t.sql(`insert into transfers (from_location_id, to_location_id) values ($1, $2)`, [
      from._id,
      to._id,
    ]);
    expect((await put(from._id, { active: false })).status).toBe(200);
    expect((await put(to._id, { active: false })).status).toBe(200);
  });

  it('the default location cannot be deactivated ("is the default location"), and names every reason at once', async () => {
    await refusedBecause(main._id, main.name, 'is the default location');
    const location = await add();
    const { id } = await t.product({ stock: 0 });
    await recordMovements({ query: t.sql }, [
      { productId: id, kind: 'receipt', quantity: 1, locationId: location._id },
    ]);
    await t.sql(
      `insert into transfers (from_location_id, to_location_id, status) values ($1, $2, 'inTransit')`,
      [location._id, main._id],
    );
    await refusedBecause(location._id, location.name, 'holds stock and has an open transfer');
  });

  it.each([
    ['a missing name', { name: undefined }],
    ['a blank name', { name: '   ' }],
    ['a name given as a number', { name: 5 }],
    ['a name given as NaN', { name: Number.NaN }],
    ['a name given as an array', { name: ['Shop'] }],
    ['a 10,000-character name', { name: 'n'.repeat(10_000) }],
    ['a NUL in the name', { name: 'Back\u0000room' }],
    ['an unknown kind', { kind: 'warehouse' }],
    ['a kind given as an array', { kind: ['store'] }],
    ['a missing kind', { kind: undefined }],
    ['a 10,000-character address', { address: 'a'.repeat(10_000) }],
    ['an address given as an object', { address: { street: 'x' } }],
  ])('POST /api/locations refuses %s with 400 and one sentence', async (_label, change) => {
    const body = { name: `Place ${tag()}`, kind: 'store', ...change };
    const res = await t.call('POST', '/api/locations', { token: admin(), body });
    // A body past the route's size limit is refused before it is read (413), with one sentence too.
    expect([400, 413]).toContain(res.status);
    expect(parsed(res, ApiError).error).toMatch(/^[^\n]+$/);
  });

  it.each([
    ['nothing to change', {}],
    ['active given as text', { active: 'yes' }],
    ['active given as an array', { active: [false] }],
    ['a name given as NaN', { name: Number.NaN }],
    ['a 10,000-character name', { name: 'n'.repeat(10_000) }],
    ['a NUL in the address', { address: 'x\u0000y' }],
    ['an unknown kind', { kind: 'van' }],
  ])('PUT /api/locations/:id refuses %s with 400', async (_label, body) => {
    const location = await add();
    const res = await put(location._id, body);
    expect([400, 413]).toContain(res.status);
    expect(parsed(res, ApiError).error).toMatch(/^[^\n]+$/);
  });

  it('PUT /api/locations/:id answers 404 for an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'nope', '123', "1' or '1'='1"]) {
      const res = await put(encodeURIComponent(id), { address: 'x' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Location not found.' });
    }
  });

  it.each(NOT_ADMIN)('a %s may not create or change locations (403)', async (role) => {
    const location = await add();
    const token = t.as[role].token;
    const name = `Nope ${tag()}`;
    expect((await t.call('POST', '/api/locations', { token, body: { name, kind: 'store' } })).status).toBe(
      403,
    );
    expect((await t.call('PUT', `/api/locations/${location._id}`, { token, body: { name } })).status).toBe(
      403,
    );
    expect(await t.sql('select 1 from locations where name = $1', [name])).toHaveLength(0);
  });

  it('POST and PUT with an Idempotency-Key are done once; a replay answers the same', async () => {
    const key = { 'idempotency-key': randomUUID() };
    const body = { name: `Once ${tag()}`, kind: 'store' };
    const first = await t.call('POST', '/api/locations', { token: admin(), body, headers: key });
    const again = await t.call('POST', '/api/locations', { token: admin(), body, headers: key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await t.sql('select 1 from locations where name = $1', [body.name])).toHaveLength(1);
    const { _id } = parsed(first, LocationResponse).location;
    const putKey = { 'idempotency-key': randomUUID() };
    const changed = await put(_id, { address: 'Pier 1' }, putKey);
    const replayed = await put(_id, { address: 'Pier 1' }, putKey);
    expect(replayed.headers['idempotent-replay']).toBe('true');
    expect(replayed.body).toEqual(changed.body);
    expect((await entries(_id)).map((entry) => entry.action)).toEqual(['created', 'updated']);
    const reused = await put(_id, { address: 'Pier 2' }, putKey);
    expect(reused.status).toBe(409);
  });

  // Store settings (DESIGN §17): the default location.
  it('PUT /api/settings/store sets the default location, with an audit entry; the old default may then be deactivated', async () => {
    const location = await add({ kind: 'store' });
    const res = await t.call('PUT', '/api/settings/store', {
      token: admin(),
      body: { defaultLocation: location._id },
    });
    try {
      expect(res.status).toBe(200);
      expect(parsed(res, StoreSettingsResponse).store.defaultLocation).toEqual({
        _id: location._id,
        name: location.name,
      });
      const [entry] = await t.sql<{ changes: unknown }>(
        `select changes from audit_log where entity_type = 'store' order by at desc, id desc limit 1`,
      );
      expect(entry?.changes).toEqual([{ field: 'defaultLocation', old: main.name, new: location.name }]);
      await refusedBecause(location._id, location.name, 'is the default location');
      const created = await t.call('POST', '/api/registers', {
        token: admin(),
        body: { name: `Till ${tag()}` },
      });
      expect(parsed(created, RegisterResponse).register.location._id).toBe(location._id);
    } finally {
      await t.call('PUT', '/api/settings/store', { token: admin(), body: { defaultLocation: main._id } });
    }
    expect(
      parsed(await t.call('GET', '/api/settings/store', { token: t.as.user.token }), StoreSettingsResponse)
        .store.defaultLocation,
    ).toEqual(main);
  });

  it('PUT /api/settings/store refuses an inactive default location (409), an unknown one (404) and bad input (400)', async () => {
    const location = await add();
    await put(location._id, { active: false });
    const inactive = await t.call('PUT', '/api/settings/store', {
      token: admin(),
      body: { defaultLocation: location._id },
    });
    expect(inactive.status).toBe(409);
    expect(inactive.body).toEqual({
      success: false,
      code: 'LOCATION_INACTIVE',
      error: refusalSentence('LOCATION_INACTIVE', { location: location.name }),
    });
    for (const id of [UNKNOWN_ID, 'nope']) {
      const res = await t.call('PUT', '/api/settings/store', {
        token: admin(),
        body: { defaultLocation: id },
      });
      expect(res.status).toBe(404);
      expect(parsed(res, ApiError).error).toBe('Location not found.');
    }
    for (const bad of [null, 5, Number.NaN, [main._id], 'x'.repeat(10_000), '']) {
      const res = await t.call('PUT', '/api/settings/store', {
        token: admin(),
        body: { defaultLocation: bad },
      });
      expect([400, 413], JSON.stringify(bad).slice(0, 40)).toContain(res.status);
    }
    const store = await t.call('GET', '/api/settings/store', { token: admin() });
    expect(parsed(store, StoreSettingsResponse).store.defaultLocation).toEqual(main);
  });

  // Users (DESIGN §17): an admin sets where a user sells from.
  it('users answer their location (null: the default), set on create and on change, never a hash', async () => {
    const location = await add({ kind: 'store' });
    const email = `rep-${tag()}@locs.test`;
    const created = await t.call('POST', '/api/users/add', {
      token: admin(),
      body: { name: 'Rep', email, password: 'long enough pass', role: 'salesRep', location: location._id },
    });
    expect(created.status).toBe(201);
    const user = parsed(created, UserResponse).user;
    expect(user.location).toEqual({ _id: location._id, name: location.name });
    expect(JSON.stringify(created.body)).not.toMatch(/hash|"password"/i);
    const plain = await t.call('POST', '/api/users/add', {
      token: admin(),
      body: { name: 'Rep 2', email: `rep2-${tag()}@locs.test`, password: 'long enough pass', role: 'user' },
    });
    expect(parsed(plain, UserResponse).user.location).toBeNull();
    const cleared = await t.call('PATCH', `/api/users/${user._id}`, {
      token: admin(),
      body: { location: null },
    });
    expect(cleared.status).toBe(200);
    expect(parsed(cleared, UserResponse).user.location).toBeNull();
    const moved = await t.call('PATCH', `/api/users/${user._id}`, {
      token: admin(),
      body: { location: location._id },
    });
    expect(parsed(moved, UserResponse).user.location).toEqual({ _id: location._id, name: location.name });
    const list = await t.call('GET', `/api/users?search=${encodeURIComponent(email)}`, { token: admin() });
    expect(parsed(list, UserListResponse).users.find((one) => one._id === user._id)?.location).toEqual({
      _id: location._id,
      name: location.name,
    });
    const detail = await t.call('GET', `/api/users/${user._id}`, { token: admin() });
    if (detail.status === 200)
      expect((detail.body as { user: { location: unknown } }).user.location).toEqual({
        _id: location._id,
        name: location.name,
      });
    const [entry] = await t.sql<{ changes: unknown }>(
      `select changes from audit_log where entity_type = 'user' and entity_id = $1 and action = 'updated' order by at desc, id desc limit 1`,
      [user._id],
    );
    expect(entry?.changes).toEqual([{ field: 'location', old: null, new: location.name }]);
  });

  it('a user cannot be given an inactive (409), unknown or malformed (404) location, nor a bad one (400)', async () => {
    const location = await add();
    await put(location._id, { active: false });
    const body = (value: unknown) => ({
      name: 'Rep',
      email: `rep-${tag()}@locs.test`,
      password: 'long enough pass',
      role: 'user',
      location: value,
    });
    const inactive = await t.call('POST', '/api/users/add', { token: admin(), body: body(location._id) });
    expect(inactive.status).toBe(409);
    expect(parsed(inactive, ApiError).code).toBe('LOCATION_INACTIVE');
    for (const id of [UNKNOWN_ID, 'nope'])
      expect((await t.call('POST', '/api/users/add', { token: admin(), body: body(id) })).status).toBe(404);
    for (const bad of [5, [UNKNOWN_ID], 'x'.repeat(10_000), true])
      expect([400, 413]).toContain(
        (await t.call('POST', '/api/users/add', { token: admin(), body: body(bad) })).status,
      );
    const user = parsed(
      await t.call('POST', '/api/users/add', { token: admin(), body: body(undefined) }),
      UserResponse,
    ).user;
    const patched = await t.call('PATCH', `/api/users/${user._id}`, {
      token: admin(),
      body: { location: location._id },
    });
    expect(patched.status).toBe(409);
    expect(
      (await t.call('PATCH', `/api/users/${user._id}`, { token: admin(), body: { location: 'nope' } }))
        .status,
    ).toBe(404);
  });

  // Registers (DESIGN §17): where a session's sales take stock from.
  it('POST and PUT /api/registers take a location; an inactive one is a 409, an unknown one a 404', async () => {
    const shop = await add({ kind: 'store' });
    const closed = await add();
    await put(closed._id, { active: false });
    const made = await t.call('POST', '/api/registers', { token: admin(), body: { name: `Till ${tag()}` } });
    const register = parsed(made, RegisterResponse).register;
    expect(register.location).toEqual(main);
    const moved = await t.call('PUT', `/api/registers/${register._id}`, {
      token: admin(),
      body: { location: shop._id },
    });
    expect(moved.status).toBe(200);
    expect(parsed(moved, RegisterResponse).register).toEqual({
      ...register,
      location: { _id: shop._id, name: shop.name },
    });
    const [entry] = await t.sql<{ changes: unknown }>(
      `select changes from audit_log where entity_type = 'register' and entity_id = $1 order by at desc, id desc limit 1`,
      [register._id],
    );
    expect(entry?.changes).toEqual([{ field: 'location', old: main.name, new: shop.name }]);
    for (const [body, status, code] of [
      [{ name: `Till ${tag()}`, location: closed._id }, 409, 'LOCATION_INACTIVE'],
      [{ name: `Till ${tag()}`, location: UNKNOWN_ID }, 404, 'NOT_FOUND'],
      [{ name: `Till ${tag()}`, location: 'nope' }, 404, 'NOT_FOUND'],
      [{ name: `Till ${tag()}`, location: [shop._id] }, 400, 'VALIDATION'],
      [{ name: `Till ${tag()}`, location: 'x'.repeat(10_000) }, 400, 'VALIDATION'],
    ] as const) {
      const res = await t.call('POST', '/api/registers', { token: admin(), body });
      expect(res.status === 413 ? 400 : res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      if (status !== 400) expect(parsed(res, ApiError).code).toBe(code);
    }
    const inactive = await t.call('PUT', `/api/registers/${register._id}`, {
      token: admin(),
      body: { location: closed._id },
    });
    expect(inactive.status).toBe(409);
    expect(parsed(inactive, ApiError).code).toBe('LOCATION_INACTIVE');
  });

  it('a register with an open session cannot move to another location (409 REGISTER_SESSION_OPEN), but may be renamed', async () => {
    const shop = await add({ kind: 'store' });
    const made = await t.call('POST', '/api/registers', { token: admin(), body: { name: `Till ${tag()}` } });
    const register = parsed(made, RegisterResponse).register;
    const opened = await t.call('POST', `/api/registers/${register._id}/open`, {
      token: t.as.user.token,
      body: { openingFloat: 0 },
    });
    const { session } = parsed(opened, SessionResponse);
    const res = await t.call('PUT', `/api/registers/${register._id}`, {
      token: admin(),
      body: { location: shop._id },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      code: 'REGISTER_SESSION_OPEN',
      error: refusalSentence('REGISTER_SESSION_OPEN', { register: register.name }),
    });
    const same = await t.call('PUT', `/api/registers/${register._id}`, {
      token: admin(),
      body: { location: main._id, name: `${register.name} b` },
    });
    expect(same.status).toBe(200);
    await t.call('POST', `/api/register-sessions/${session._id}/close`, {
      token: t.as.user.token,
      body: { countedCash: 0 },
    });
  });

  it('a register at an inactive location cannot be opened (409 LOCATION_INACTIVE)', async () => {
    const shop = await add({ kind: 'store' });
    const made = await t.call('POST', '/api/registers', {
      token: admin(),
      body: { name: `Till ${tag()}`, location: shop._id },
    });
    const register = parsed(made, RegisterResponse).register;
    await put(shop._id, { active: false });
    const opened = await t.call('POST', `/api/registers/${register._id}/open`, {
      token: t.as.user.token,
      body: { openingFloat: 0 },
    });
    expect(opened.status).toBe(409);
    expect(parsed(opened, ApiError).code).toBe('LOCATION_INACTIVE');
  });
});
