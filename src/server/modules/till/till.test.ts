import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditListResponse } from '../../../shared/audit';
import { ApiError } from '../../../shared/common';
import type { Role } from '../../../shared/roles';
import {
  CashMovementResponse,
  RegisterListResponse,
  RegisterResponse,
  SessionListResponse,
  SessionResponse,
} from '../../../shared/till';
import { runnerOf } from '../../db/connection';
import { nth, tag } from '../../test/fixtures';
import { type Answer, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { sessionFigures } from './till.repository';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const huge = 'x'.repeat(10_000);

/** A refusal: the status, the error shape, and one sentence (no stack, no SQL). */
function expectRefused(res: Answer, status: number | number[]) {
  expect(Array.isArray(status) ? status : [status], JSON.stringify(res.body)).toContain(res.status);
  const refusal = parsed(res, ApiError);
  expect(refusal.success).toBe(false);
  expect(refusal.error).toMatch(/^\S.*[.!?]$/);
  expect(refusal.error.length).toBeLessThan(200);
}

/** Bad input is a 400; a body past the call's size limit (a 10,000-character field) a 413. */
const badInputStatus = (label: string) => (label.includes('10,000') ? 413 : 400);

describe.each(targets)('the till on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // A zone far from UTC, so the list's days are proven to be the store's days.
    t = await startApp(target, { config: { timeZone: 'Asia/Tokyo' } });
  });
  afterAll(() => t?.close());

  const as = (role: Role) => t.as[role].token;
  const newRegister = async (name = `Till ${tag()}`) => {
    const res = await t.call('POST', '/api/registers', { token: as('admin'), body: { name } });
    expect(res.status, res.text).toBe(201);
    return parsed(res, RegisterResponse).register;
  };
  const open = (
    registerId: string,
    body: unknown,
    token = as('salesRep'),
    headers?: Record<string, string>,
  ) => t.call('POST', `/api/registers/${registerId}/open`, { token, body, headers });
  /** A fresh register with a session opened on it (by the salesRep unless told). */
  const openSession = async (openingFloat = 100, token = as('salesRep')) => {
    const register = await newRegister();
    const res = await open(register._id, { openingFloat }, token);
    expect(res.status, res.text).toBe(201);
    const { session, report } = parsed(res, SessionResponse);
    return { register, session, report };
  };
  const cash = (sessionId: string, body: unknown, token = as('salesRep')) =>
    t.call('POST', `/api/register-sessions/${sessionId}/cash`, { token, body });
  const close = (sessionId: string, body: unknown, token = as('salesRep')) =>
    t.call('POST', `/api/register-sessions/${sessionId}/close`, { token, body });
  const getSession = (sessionId: string, token = as('salesRep')) =>
    t.call('GET', `/api/register-sessions/${sessionId}`, { token });
  const auditOf = async (entity: string, id: string) =>
    parsed(
      await t.call('GET', `/api/audit?entity=${entity}&page=1&pageSize=100`, { token: as('admin') }),
      AuditListResponse,
    ).entries.filter((entry) => entry.entity._id === id);

  // -------------------------------------------------------------------------------------------
  // Registers

  it('Till 1 exists from the start, active, and every selling role and admin lists the registers by name', async () => {
    const b = await newRegister(`b Till ${tag()}`);
    const a = await newRegister(`A Till ${tag()}`);
    for (const role of ['admin', 'salesRep', 'medicalRep', 'user'] as const) {
      const res = await t.call('GET', '/api/registers', { token: as(role) });
      expect(res.status, role).toBe(200);
      expect(RegisterListResponse.strict().parse(res.body)).toEqual(res.body);
      expect(parsed(res, RegisterListResponse).registers).toContainEqual({
        _id: expect.any(String),
        name: 'Till 1',
        active: true,
        location: { _id: expect.any(String), name: 'Main store' },
      });
      const names = parsed(res, RegisterListResponse).registers.map((r: { name: string }) => r.name);
      expect(names.indexOf(a.name)).toBeLessThan(names.indexOf(b.name));
    }
    expectRefused(await t.call('GET', '/api/registers', { token: as('superAdmin') }), 403);
    expect((await t.call('GET', '/api/registers')).status).toBe(401);
  });

  it('only an admin adds and changes registers; names are unique ignoring case (409); unknown ids are 404', async () => {
    const name = `Front ${tag()}`;
    const created = await t.call('POST', '/api/registers', {
      token: as('admin'),
      body: { name: `  ${name} ` },
    });
    expect(created.status).toBe(201);
    expect(RegisterResponse.strict().parse(created.body)).toEqual(created.body);
    expect(parsed(created, RegisterResponse).register).toEqual({
      _id: expect.any(String),
      name,
      active: true,
      location: { _id: expect.any(String), name: 'Main store' },
    });
    const id = parsed(created, RegisterResponse).register._id;
    for (const role of ['superAdmin', 'salesRep', 'medicalRep', 'user'] as const) {
      expectRefused(
        await t.call('POST', '/api/registers', { token: as(role), body: { name: `X ${tag()}` } }),
        403,
      );
      expectRefused(
        await t.call('PUT', `/api/registers/${id}`, { token: as(role), body: { name: 'Y' } }),
        403,
      );
    }
    const dup = await t.call('POST', '/api/registers', {
      token: as('admin'),
      body: { name: name.toUpperCase() },
    });
    expectRefused(dup, 409);
    expect(parsed(dup, ApiError).existing).toEqual({ _id: id, name });
    const other = await newRegister();
    expectRefused(
      await t.call('PUT', `/api/registers/${other._id}`, {
        token: as('admin'),
        body: { name: name.toLowerCase() },
      }),
      409,
    );
    // Its own name in another case is not a duplicate.
    const renamed = await t.call('PUT', `/api/registers/${id}`, {
      token: as('admin'),
      body: { name: name.toLowerCase() },
    });
    expect(renamed.status).toBe(200);
    expect(parsed(renamed, RegisterResponse).register).toEqual({
      _id: id,
      name: name.toLowerCase(),
      active: true,
      location: { _id: expect.any(String), name: 'Main store' },
    });
    for (const bad of [UNKNOWN_ID, 'not-an-id', huge.slice(0, 200)]) {
      expectRefused(
        await t.call('PUT', `/api/registers/${bad}`, { token: as('admin'), body: { active: false } }),
        404,
      );
    }
    const [row] = await t.sql<{ n: number }>(
      'select count(*)::int as n from registers where lower(name) = lower($1)',
      [name],
    );
    expect(row?.n).toBe(1);
  });

  it('register changes are audit entries with each field (created, updated old → new)', async () => {
    const register = await newRegister();
    await t.call('PUT', `/api/registers/${register._id}`, {
      token: as('admin'),
      body: { name: `${register.name} renamed`, active: false },
    });
    // No change, no entry.
    await t.call('PUT', `/api/registers/${register._id}`, { token: as('admin'), body: { active: false } });
    const entries = await auditOf('register', register._id);
    expect(entries.map((entry: { action: string }) => entry.action)).toEqual(['updated', 'created']);
    expect(nth(entries, 1).changes).toEqual([
      { field: 'name', new: register.name },
      { field: 'active', new: true },
      { field: 'location', new: 'Main store' },
    ]);
    expect(nth(entries)).toMatchObject({
      actor: { _id: t.as.admin.id, role: 'admin' },
      entity: { type: 'register', _id: register._id, name: `${register.name} renamed` },
    });
    expect(nth(entries).changes).toEqual([
      { field: 'name', old: register.name, new: `${register.name} renamed` },
      { field: 'active', old: true, new: false },
    ]);
  });

  it('an inactive register cannot be opened (409); one with an open session cannot be deactivated (409)', async () => {
    const register = await newRegister();
    await t.call('PUT', `/api/registers/${register._id}`, { token: as('admin'), body: { active: false } });
    expectRefused(await open(register._id, { openingFloat: 10 }), 409);
    await t.call('PUT', `/api/registers/${register._id}`, { token: as('admin'), body: { active: true } });
    expect((await open(register._id, { openingFloat: 10 })).status).toBe(201);
    const refused = await t.call('PUT', `/api/registers/${register._id}`, {
      token: as('admin'),
      body: { active: false },
    });
    expectRefused(refused, 409);
    expect(parsed(refused, ApiError).error).toBe('Close its open session first.');
    const list = await t.call('GET', '/api/registers', { token: as('admin') });
    expect(parsed(list, RegisterListResponse).registers).toContainEqual({ ...register, active: true });
    // Renaming it is fine while open.
    const renamed = await t.call('PUT', `/api/registers/${register._id}`, {
      token: as('admin'),
      body: { name: `${register.name} b`, active: true },
    });
    expect(renamed.status).toBe(200);
  });

  it.each([
    ['name blank', { name: '   ' }],
    ['name missing', {}],
    ['name 51 characters', { name: 'n'.repeat(51) }],
    ['name 10,000 characters', { name: huge }],
    ['name with NUL', { name: 'Till\u00002' }],
    ['name an array', { name: ['Till'] }],
    ['name a number', { name: 5 }],
    ['name null', { name: null }],
  ])('POST /api/registers refuses %s with 400 (413 past the size limit)', async (label, body) => {
    const before = parsed(
      await t.call('GET', '/api/registers', { token: as('admin') }),
      RegisterListResponse,
    ).registers;
    expectRefused(
      await t.call('POST', '/api/registers', { token: as('admin'), body }),
      badInputStatus(label),
    );
    expect(
      parsed(await t.call('GET', '/api/registers', { token: as('admin') }), RegisterListResponse).registers,
    ).toEqual(before);
  });

  it.each([
    ['name blank', { name: '' }],
    ['name 10,000 characters', { name: huge }],
    ['name with NUL', { name: '\u0000' }],
    ['name an array', { name: ['x'] }],
    ['active text', { active: 'false' }],
    ['active a number', { active: 0 }],
    ['active an array', { active: [false] }],
    ['active null', { active: null }],
  ])('PUT /api/registers/:id refuses %s with 400 (413 past the size limit)', async (label, body) => {
    const register = await newRegister();
    expectRefused(
      await t.call('PUT', `/api/registers/${register._id}`, { token: as('admin'), body }),
      badInputStatus(label),
    );
    const list = await t.call('GET', '/api/registers', { token: as('admin') });
    expect(parsed(list, RegisterListResponse).registers).toContainEqual(register);
  });

  // -------------------------------------------------------------------------------------------
  // Sessions

  it('every selling role and admins open a session (201 with its report); the superAdmin may not (403)', async () => {
    const [main] = await t.sql<{ id: string }>('select default_location() as id');
    for (const role of ['admin', 'salesRep', 'medicalRep', 'user'] as const) {
      const register = await newRegister();
      const res = await open(register._id, { openingFloat: 150.25 }, as(role));
      expect(res.status, res.text).toBe(201);
      expect(SessionResponse.strict().parse(res.body)).toEqual(res.body);
      expect(parsed(res, SessionResponse).session).toEqual({
        _id: expect.any(String),
        number: expect.any(Number),
        register: { _id: register._id, name: register.name },
        // Its register's location (DESIGN §17), where its sales take stock from.
        location: { _id: main?.id, name: 'Main store' },
        status: 'open',
        openedBy: { _id: t.as[role].id, name: t.as[role].name },
        openedAt: expect.any(String),
        openingFloat: 150.25,
        closedBy: null,
        closedAt: null,
        countedCash: null,
        note: '',
      });
      expect(parsed(res, SessionResponse).report).toEqual({
        sales: { count: 0, total: 0 },
        refunds: { count: 0, total: 0 },
        payments: [
          { method: 'cash', in: 0, out: 0 },
          { method: 'card', in: 0, out: 0 },
          { method: 'other', in: 0, out: 0 },
          { method: 'storeCredit', in: 0, out: 0 },
        ],
        cashIn: 0,
        cashOut: 0,
        expectedCash: 150.25,
        countedCash: null,
        difference: null,
        discount: 0,
        taxes: [],
      });
    }
    const register = await newRegister();
    expectRefused(await open(register._id, { openingFloat: 1 }, as('superAdmin')), 403);
    expect(
      (await t.call('POST', `/api/registers/${register._id}/open`, { body: { openingFloat: 1 } })).status,
    ).toBe(401);
  });

  it('a register has one open session at a time: opening it again is a 409, also for another seller', async () => {
    const { register, session } = await openSession(10);
    expectRefused(await open(register._id, { openingFloat: 10 }), 409);
    expectRefused(await open(register._id, { openingFloat: 10 }, as('admin')), 409);
    expect((await close(session._id, { countedCash: 10 })).status).toBe(200);
    const again = await open(register._id, { openingFloat: 5 }, as('user'));
    expect(again.status).toBe(201);
    expect(parsed(again, SessionResponse).session.number).toBeGreaterThan(session.number);
  });

  it('opens racing on one register: exactly one 201, the others 409, one open session', async () => {
    const register = await newRegister();
    const tokens = [as('salesRep'), as('medicalRep'), as('user'), as('admin'), as('salesRep'), as('user')];
    const answers = await Promise.all(tokens.map((token) => open(register._id, { openingFloat: 20 }, token)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) expectRefused(answer, 409);
    const [row] = await t.sql<{ n: number }>(
      `select count(*)::int as n from register_sessions where register_id = $1`,
      [register._id],
    );
    expect(row?.n).toBe(1);
  });

  /** A second connection to the test's PostgreSQL database, to hold a transaction open. */
  async function holdTransaction(work: (client: pg.Client) => Promise<void>) {
    const client = new pg.Client({ connectionString: t.app.config.databaseUrl });
    await client.connect();
    await client.query('begin');
    await work(client);
    return {
      commit: async () => {
        await client.query('commit');
        await client.end();
      },
    };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  // Only PostgreSQL runs transactions side by side (PGlite has one connection): these hold one open.
  if (target.name === 'postgres') {
    it('an opening that raced past the check is refused by the one-open index with the same 409', async () => {
      const register = await newRegister();
      // Another opening has written its session but not committed: the check cannot see it.
      const other = await holdTransaction(async (client) => {
        await client.query(
          `insert into register_sessions (register_id, opened_by_name, opening_float) values ($1, 'Other', 5)`,
          [register._id],
        );
      });
      const racing = open(register._id, { openingFloat: 10 });
      await settle();
      await other.commit();
      const res = await racing;
      expectRefused(res, 409);
      expect(parsed(res, ApiError).error).toContain('already has an open session');
    });

    it('a cash-out waits for the session row, then judges the drawer with what the other took', async () => {
      const { session } = await openSession(100);
      // Another cash-out holds the session row and has taken 60 out, not yet committed.
      const other = await holdTransaction(async (client) => {
        await client.query('select 1 from register_sessions where id = $1 for update', [session._id]);
        await client.query(
          `insert into cash_movements (session_id, amount, reason, user_name) values ($1, -60, 'Other', 'Other')`,
          [session._id],
        );
      });
      const racing = cash(session._id, { amount: -60, reason: 'Mine' });
      await settle();
      await other.commit();
      const res = await racing;
      expectRefused(res, 409);
      expect(parsed(res, ApiError).error).toContain('40.00');
      expect(parsed(await getSession(session._id), SessionResponse).report.expectedCash).toBe(40);
    });
  }

  it('an opening with an Idempotency-Key is done once; its retry gets the same answer', async () => {
    const register = await newRegister();
    const key = `open-${tag()}`;
    const first = await open(register._id, { openingFloat: 30 }, as('salesRep'), { 'idempotency-key': key });
    const retry = await open(register._id, { openingFloat: 30 }, as('salesRep'), { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replay']).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('cash in and out moves the drawer; taking out more than it holds is a 409 naming what it holds', async () => {
    const { session } = await openSession(50);
    const put = await cash(session._id, { amount: 25.5, reason: ' Change from the bank ' });
    expect(put.status, put.text).toBe(201);
    expect(CashMovementResponse.strict().parse(put.body)).toEqual(put.body);
    expect(parsed(put, CashMovementResponse).movement).toEqual({
      _id: expect.any(String),
      amount: 25.5,
      reason: 'Change from the bank',
      user: { _id: t.as.salesRep.id, name: t.as.salesRep.name },
      at: expect.any(String),
    });
    expect(parsed(put, CashMovementResponse).report).toMatchObject({
      cashIn: 25.5,
      cashOut: 0,
      expectedCash: 75.5,
    });
    const tooMuch = await cash(session._id, { amount: -75.51, reason: 'Bank drop' });
    expectRefused(tooMuch, 409);
    expect(parsed(tooMuch, ApiError).error).toBe('The drawer holds $75.50; you cannot take out $75.51.');
    const all = await cash(session._id, { amount: -75.5, reason: 'Bank drop' });
    expect(all.status).toBe(201);
    expect(parsed(all, CashMovementResponse).report).toMatchObject({
      cashIn: 25.5,
      cashOut: 75.5,
      expectedCash: 0,
    });
    expectRefused(await cash(session._id, { amount: -0.01, reason: 'Nothing left' }), 409);
    const [row] = await t.sql<{ n: number; sum: string }>(
      'select count(*)::int as n, sum(amount)::text as sum from cash_movements where session_id = $1',
      [session._id],
    );
    expect(row).toEqual({ n: 2, sum: '-50.00' });
  });

  it('a refusal names its amounts in the store’s currency (DESIGN §12), read when it refuses', async () => {
    const { session } = await openSession(12);
    await t.sql(`update store_settings set currency = 'EUR' where id = 1`);
    try {
      const tooMuch = await cash(session._id, { amount: -1234.56, reason: 'Bank drop' });
      expectRefused(tooMuch, 409);
      expect(parsed(tooMuch, ApiError).error).toBe('The drawer holds €12.00; you cannot take out €1,234.56.');
    } finally {
      await t.sql(`update store_settings set currency = 'USD' where id = 1`);
    }
  });

  it('cash-outs racing never take the drawer below 0', async () => {
    const { session } = await openSession(100);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, at) => cash(session._id, { amount: -30, reason: `Drop ${at}` })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(3);
    const report = parsed(await getSession(session._id), SessionResponse).report;
    expect(report.cashOut).toBe(90);
    expect(report.expectedCash).toBe(10);
  });

  it('closing stores the count and answers the Z report: over is > 0, short < 0; a closed session takes no cash and no second close (409)', async () => {
    const { session } = await openSession(100);
    await cash(session._id, { amount: 20, reason: 'Float top-up' });
    const closed = await close(session._id, { countedCash: 119.6, note: ' Short 40 cents ' });
    expect(closed.status, closed.text).toBe(200);
    expect(SessionResponse.strict().parse(closed.body)).toEqual(closed.body);
    expect(parsed(closed, SessionResponse).session).toMatchObject({
      status: 'closed',
      closedBy: { _id: t.as.salesRep.id, name: t.as.salesRep.name },
      closedAt: expect.any(String),
      countedCash: 119.6,
      note: 'Short 40 cents',
    });
    expect(parsed(closed, SessionResponse).report).toMatchObject({
      expectedCash: 120,
      countedCash: 119.6,
      difference: -0.4,
    });
    const [row] = await t.sql(
      `select status, counted_cash::text as counted, expected_cash::text as expected, closed_by_id, closed_at is not null as at
       from register_sessions where id = $1`,
      [session._id],
    );
    expect(row).toEqual({
      status: 'closed',
      counted: '119.60',
      expected: '120.00',
      closed_by_id: t.as.salesRep.id,
      at: true,
    });
    expect((await getSession(session._id)).body).toEqual(closed.body);
    expectRefused(await cash(session._id, { amount: 5, reason: 'Late' }), 409);
    expectRefused(await close(session._id, { countedCash: 120 }), 409);
    expectRefused(await close(session._id, { countedCash: 120 }, as('admin')), 409);

    const over = await openSession(10);
    const overClosed = await close(over.session._id, { countedCash: 12.5 });
    expect(parsed(overClosed, SessionResponse).report).toMatchObject({
      expectedCash: 10,
      countedCash: 12.5,
      difference: 2.5,
    });
    expect(parsed(overClosed, SessionResponse).session.note).toBe('');
  });

  it('a till is shared while open: any seller sees it and moves its cash; once closed, another seller’s session is 404; an admin any', async () => {
    const { session } = await openSession(40, as('salesRep'));
    for (const role of ['medicalRep', 'user'] as const) {
      expect((await getSession(session._id, as(role))).status).toBe(200);
      const moved = await cash(session._id, { amount: 1, reason: `Change from ${role}` }, as(role));
      expect(moved.status).toBe(201);
      expect(parsed(moved, CashMovementResponse).movement.user._id).toBe(t.as[role].id);
    }
    const other = await openSession(5, as('medicalRep'));
    expect((await close(other.session._id, { countedCash: 5 }, as('user'))).status).toBe(200);
    expectRefused(await getSession(other.session._id, as('salesRep')), 404);
    expectRefused(await cash(other.session._id, { amount: 1, reason: 'x' }, as('salesRep')), 404);
    expectRefused(await close(other.session._id, { countedCash: 1 }, as('salesRep')), 404);
    expect((await getSession(other.session._id, as('medicalRep'))).status).toBe(200);
    expect((await getSession(session._id, as('admin'))).status).toBe(200);
    const moved = await cash(session._id, { amount: -10, reason: 'Admin drop' }, as('admin'));
    expect(moved.status).toBe(201);
    expect(parsed(moved, CashMovementResponse).movement.user._id).toBe(t.as.admin.id);
    const closed = await close(session._id, { countedCash: 30 }, as('admin'));
    expect(closed.status).toBe(200);
    expect(parsed(closed, SessionResponse).session.closedBy?._id).toBe(t.as.admin.id);
    expect(parsed(closed, SessionResponse).session.openedBy._id).toBe(t.as.salesRep.id);
    for (const call of [
      getSession,
      (id: string, token?: string) => cash(id, { amount: 1, reason: 'x' }, token),
    ]) {
      expectRefused(await call(session._id, as('superAdmin')), 403);
    }
  });

  it('unknown and malformed session ids are 404', async () => {
    for (const id of [UNKNOWN_ID, 'not-a-uuid', '1', 'x'.repeat(100)]) {
      expectRefused(await getSession(id), 404);
      expectRefused(await cash(id, { amount: 1, reason: 'x' }), 404);
      expectRefused(await close(id, { countedCash: 1 }), 404);
      expectRefused(await open(id, { openingFloat: 1 }), 404);
    }
  });

  it('opening, cash movements and closing are audit entries on the session, named "<register> #<number>", with the amounts', async () => {
    const { register, session } = await openSession(12.34);
    await cash(session._id, { amount: -2.34, reason: 'Coffee' });
    await close(session._id, { countedCash: 9.99, note: 'Counted twice' });
    const entries = await auditOf('registerSession', session._id);
    expect(entries.map((entry: { action: string }) => entry.action)).toEqual([
      'closed',
      'cashMoved',
      'opened',
    ]);
    for (const entry of entries) {
      expect(entry.entity).toEqual({
        type: 'registerSession',
        _id: session._id,
        name: `${register.name} #${session.number}`,
      });
      expect(entry.actor?._id).toBe(t.as.salesRep.id);
    }
    expect(nth(entries, 2).changes).toEqual([
      { field: 'register', new: register.name },
      { field: 'openingFloat', new: 12.34 },
    ]);
    expect(nth(entries, 1).changes).toEqual([
      { field: 'amount', new: -2.34 },
      { field: 'reason', new: 'Coffee' },
    ]);
    expect(nth(entries).changes).toEqual([
      { field: 'countedCash', new: 9.99 },
      { field: 'expectedCash', new: 10 },
      { field: 'difference', new: -0.01 },
      { field: 'note', new: 'Counted twice' },
    ]);
  });

  // -------------------------------------------------------------------------------------------
  // The report from sales and refunds

  /** A sale written straight into the tables, as the sales module writes one, in a session or none. */
  async function insertSale(
    sessionId: string | null,
    sale: {
      total: string;
      discount: string;
      payments: { method: string; amount: string; tendered?: string }[];
      lines: { total: string; tax: string; rateName: string | null; rate: string | null }[];
    },
  ) {
    // One transaction, as the counter writes a sale (its entry is posted at commit, DESIGN §19).
    return t.app.database.db.transaction(async (tx) => {
      const q = <T>(text: string, params?: unknown[]) => runnerOf(tx).query<T>(text, params);
      const method = sale.payments.length === 1 ? sale.payments[0]?.method : 'split';
      const [row] = await q<{ id: string; number: string }>(
        `insert into sales (user_id, user_name, payment_method, total, subtotal, discount, tax, session_id)
       values ($1, 'Seller', $2, $3, $3, $4, 0, $5) returning id, number`,
        [t.as.salesRep.id, method, sale.total, sale.discount, sessionId],
      );
      const saleId = row?.id as string;
      let n = 1;
      for (const payment of sale.payments) {
        await q(
          'insert into sale_payments (sale_id, n, method, amount, tendered) values ($1, $2, $3, $4, $5)',
          [saleId, n++, payment.method, payment.amount, payment.tendered ?? null],
        );
      }
      const orders: string[] = [];
      n = 1;
      for (const line of sale.lines) {
        const [order] = await q<{ id: string }>(
          `insert into orders (quantity, unit_price, total_price, tax, tax_rate_name, tax_rate, product_name,
                             category_name, user_name, user_address, sale_id, sale_number, sale_line)
         values (1, $1, $1, $2, $3, $4, 'Thing', 'Things', 'Seller', 'Street 1', $5, $6, $7) returning id`,
          [line.total, line.tax, line.rateName, line.rate, saleId, row?.number, n++],
        );
        orders.push(order?.id as string);
      }
      return { id: saleId, number: row?.number as string, orders };
    });
  }

  /** A refund written straight into the tables, with its lines. */
  async function insertRefund(
    sessionId: string | null,
    sale: { id: string; number: string },
    refund: {
      method: string;
      lines: { order: string; amount: string; tax: string; rateName: string | null; rate: string | null }[];
    },
  ) {
    return t.app.database.db.transaction(async (tx) => {
      const q = <T>(text: string, params?: unknown[]) => runnerOf(tx).query<T>(text, params);
      const total = refund.lines.reduce((sum, line) => sum + Math.round(Number(line.amount) * 100), 0) / 100;
      const tax = refund.lines.reduce((sum, line) => sum + Math.round(Number(line.tax) * 100), 0) / 100;
      const [row] = await q<{ id: string }>(
        `insert into refunds (sale_id, sale_number, session_id, method, restock, total, tax, user_name)
       values ($1, $2, $3, $4, true, $5, $6, 'Seller') returning id`,
        [sale.id, sale.number, sessionId, refund.method, total.toFixed(2), tax.toFixed(2)],
      );
      let n = 1;
      for (const line of refund.lines) {
        await q(
          `insert into refund_lines (refund_id, n, order_id, product_name, quantity, amount, tax, tax_rate_name, tax_rate)
         values ($1, $2, $3, 'Thing', 1, $4, $5, $6, $7)`,
          [row?.id, n++, line.order, line.amount, line.tax, line.rateName, line.rate],
        );
      }
    });
  }

  it('the report sums the session’s sales, payments by method, refunds, cash movements, discount and taxes by rate, exactly', async () => {
    const { session } = await openSession(100);
    const other = await openSession(7);
    const a = await insertSale(session._id, {
      total: '21.80',
      discount: '2.00',
      payments: [
        { method: 'cash', amount: '11.80', tendered: '20.00' },
        { method: 'card', amount: '10.00' },
      ],
      lines: [
        { total: '10.90', tax: '0.90', rateName: 'Standard', rate: '9.000' },
        { total: '10.90', tax: '0.52', rateName: 'Reduced', rate: '5.000' },
      ],
    });
    await insertSale(session._id, {
      total: '5.25',
      discount: '0.00',
      payments: [{ method: 'storeCredit', amount: '5.25' }],
      lines: [{ total: '5.25', tax: '0.25', rateName: 'Reduced', rate: '5.000' }],
    });
    // A sale from before taxes names no rate: counted in the totals, not in the taxes.
    await insertSale(session._id, {
      total: '1.00',
      discount: '0.00',
      payments: [{ method: 'other', amount: '1.00' }],
      lines: [{ total: '1.00', tax: '0.00', rateName: null, rate: null }],
    });
    // Sales and refunds of another session, or of none, do not count here.
    const elsewhere = await insertSale(other.session._id, {
      total: '50.00',
      discount: '5.00',
      payments: [{ method: 'cash', amount: '50.00' }],
      lines: [{ total: '50.00', tax: '2.38', rateName: 'Reduced', rate: '5.000' }],
    });
    await insertSale(null, {
      total: '9.00',
      discount: '0.00',
      payments: [{ method: 'cash', amount: '9.00' }],
      lines: [{ total: '9.00', tax: '0.00', rateName: 'Zero', rate: '0.000' }],
    });
    await insertRefund(session._id, a, {
      method: 'cash',
      lines: [
        { order: a.orders[0] as string, amount: '10.90', tax: '0.90', rateName: 'Standard', rate: '9.000' },
      ],
    });
    await insertRefund(session._id, a, {
      method: 'card',
      lines: [
        { order: a.orders[1] as string, amount: '3.00', tax: '0.14', rateName: 'Reduced', rate: '5.000' },
      ],
    });
    await insertRefund(other.session._id, elsewhere, {
      method: 'cash',
      lines: [
        {
          order: elsewhere.orders[0] as string,
          amount: '1.00',
          tax: '0.05',
          rateName: 'Reduced',
          rate: '5.000',
        },
      ],
    });
    await cash(session._id, { amount: 20, reason: 'Top-up' });
    await cash(session._id, { amount: -5.5, reason: 'Milk' });

    const figures = await sessionFigures(t.app.database, session._id);
    expect(figures).toEqual({
      openingFloat: '100.00',
      sales: { count: 3, total: '28.05' },
      refunds: { count: 2, total: '13.90' },
      payments: expect.arrayContaining([
        { method: 'cash', in: '11.80', out: '10.90' },
        { method: 'card', in: '10.00', out: '3.00' },
        { method: 'other', in: '1.00', out: '0' },
        { method: 'storeCredit', in: '5.25', out: '0' },
      ]),
      cashIn: '20.00',
      cashOut: '5.50',
      discount: '2.00',
      taxes: [
        { name: 'Reduced', rate: 5, base: '12.52', tax: '0.63' },
        { name: 'Standard', rate: 9, base: '0.00', tax: '0.00' },
      ],
      countedCash: null,
    });
    expect(figures?.payments).toHaveLength(4);
    expect(await sessionFigures(t.app.database, UNKNOWN_ID)).toBeUndefined();

    const xReport = {
      sales: { count: 3, total: 28.05 },
      refunds: { count: 2, total: 13.9 },
      payments: [
        { method: 'cash', in: 11.8, out: 10.9 },
        { method: 'card', in: 10, out: 3 },
        { method: 'other', in: 1, out: 0 },
        { method: 'storeCredit', in: 5.25, out: 0 },
      ],
      cashIn: 20,
      cashOut: 5.5,
      // 100 + 11.80 − 10.90 + 20 − 5.50
      expectedCash: 115.4,
      countedCash: null,
      difference: null,
      discount: 2,
      taxes: [
        { name: 'Reduced', rate: 5, base: 12.52, tax: 0.63 },
        { name: 'Standard', rate: 9, base: 0, tax: 0 },
      ],
    };
    const live = await getSession(session._id);
    expect(SessionResponse.strict().parse(live.body)).toEqual(live.body);
    expect(parsed(live, SessionResponse).report).toEqual(xReport);
    // The drawer holds 115.40: not a cent more comes out.
    expectRefused(await cash(session._id, { amount: -115.41, reason: 'Too much' }), 409);

    const closed = await close(session._id, { countedCash: 115 });
    const zReport = { ...xReport, countedCash: 115, difference: -0.4 };
    expect(parsed(closed, SessionResponse).report).toEqual(zReport);
    expect(parsed(await getSession(session._id), SessionResponse).report).toEqual(zReport);
    const list = await t.call(
      'GET',
      `/api/register-sessions?register=${parsed(closed, SessionResponse).session.register._id}`,
      {
        token: as('admin'),
      },
    );
    expect(nth(parsed(list, SessionListResponse).sessions)).toMatchObject({
      _id: session._id,
      expectedCash: 115.4,
      difference: -0.4,
    });
    const otherReport = parsed(await getSession(other.session._id), SessionResponse).report;
    // 7 + 50 − 1
    expect(otherReport).toMatchObject({ expectedCash: 56, discount: 5, sales: { count: 1, total: 50 } });
    expect(otherReport.taxes).toEqual([{ name: 'Reduced', rate: 5, base: 46.67, tax: 2.33 }]);
  });

  // -------------------------------------------------------------------------------------------
  // Lists

  it('GET /api/register-sessions: newest first, always paged, admins see all and others their own, with filters', async () => {
    const register = await newRegister();
    const mine = await open(register._id, { openingFloat: 1 }, as('salesRep'));
    await close(parsed(mine, SessionResponse).session._id, { countedCash: 2 });
    const theirs = await open(register._id, { openingFloat: 3 }, as('user'));
    const adminList = await t.call('GET', `/api/register-sessions?register=${register._id}`, {
      token: as('admin'),
    });
    expect(adminList.status).toBe(200);
    expect(SessionListResponse.strict().parse(adminList.body)).toEqual(adminList.body);
    expect(adminList.body).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    expect(parsed(adminList, SessionListResponse).sessions.map((s: { _id: string }) => s._id)).toEqual([
      parsed(theirs, SessionResponse).session._id,
      parsed(mine, SessionResponse).session._id,
    ]);
    expect(nth(parsed(adminList, SessionListResponse).sessions)).toMatchObject({
      status: 'open',
      expectedCash: null,
      difference: null,
    });
    expect(nth(parsed(adminList, SessionListResponse).sessions, 1)).toMatchObject({
      status: 'closed',
      countedCash: 2,
      expectedCash: 1,
      difference: 1,
    });

    // Others see their own and every open one (the till they may sell in), never another's closed one.
    const own = await t.call('GET', `/api/register-sessions?register=${register._id}`, {
      token: as('salesRep'),
    });
    expect(parsed(own, SessionListResponse).sessions.map((s: { _id: string }) => s._id)).toEqual([
      parsed(theirs, SessionResponse).session._id,
      parsed(mine, SessionResponse).session._id,
    ]);
    expect(parsed(own, SessionListResponse).total).toBe(2);
    const everyOwn = await t.call('GET', '/api/register-sessions?pageSize=100', { token: as('salesRep') });
    expect(
      parsed(everyOwn, SessionListResponse).sessions.every(
        (s) => s.openedBy._id === t.as.salesRep.id || s.status === 'open',
      ),
    ).toBe(true);

    const openOnly = await t.call('GET', `/api/register-sessions?register=${register._id}&status=open`, {
      token: as('admin'),
    });
    expect(parsed(openOnly, SessionListResponse).sessions.map((s: { _id: string }) => s._id)).toEqual([
      parsed(theirs, SessionResponse).session._id,
    ]);
    const page2 = await t.call('GET', `/api/register-sessions?register=${register._id}&page=2&pageSize=1`, {
      token: as('admin'),
    });
    expect(page2.body).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(parsed(page2, SessionListResponse).sessions.map((s: { _id: string }) => s._id)).toEqual([
      parsed(mine, SessionResponse).session._id,
    ]);
    await close(parsed(theirs, SessionResponse).session._id, { countedCash: 3 }, as('user'));
    const afterClose = await t.call('GET', `/api/register-sessions?register=${register._id}`, {
      token: as('salesRep'),
    });
    expect(parsed(afterClose, SessionListResponse).sessions.map((s: { _id: string }) => s._id)).toEqual([
      parsed(mine, SessionResponse).session._id,
    ]);
    expectRefused(await t.call('GET', '/api/register-sessions', { token: as('superAdmin') }), 403);
  });

  it('from and to are days opened in the store’s time zone, both included', async () => {
    const register = await newRegister();
    const s = await open(register._id, { openingFloat: 1 }, as('admin'));
    // 16:00 UTC on 1 January is 01:00 on 2 January in Tokyo.
    await t.sql(`update register_sessions set opened_at = '2030-01-01T16:00:00Z' where id = $1`, [
      parsed(s, SessionResponse).session._id,
    ]);
    const ids = async (query: string) =>
      parsed(
        await t.call('GET', `/api/register-sessions?register=${register._id}&${query}`, {
          token: as('admin'),
        }),
        SessionListResponse,
      ).sessions.map((x: { _id: string }) => x._id);
    expect(await ids('from=2030-01-02&to=2030-01-02')).toEqual([parsed(s, SessionResponse).session._id]);
    expect(await ids('from=2030-01-02')).toEqual([parsed(s, SessionResponse).session._id]);
    expect(await ids('to=2030-01-01')).toEqual([]);
    expect(await ids('from=2030-01-03')).toEqual([]);
  });

  it.each([
    ['status unknown', 'status=pending', 400],
    ['status an array', 'status=open&status=closed', 400],
    ['from not a day', 'from=2025-13-01', 400],
    ['to not a date', 'to=yesterday', 400],
    ['from after to', 'from=2025-02-01&to=2025-01-01', 400],
    ['page 0', 'page=0', 400],
    ['page text', 'page=first', 400],
    ['pageSize 1000', 'pageSize=1000', 400],
    ['pageSize 1.5', 'pageSize=1.5', 400],
    ['from with NUL', 'from=2025-01-01%00', 400],
    ['from 10,000 characters', `from=${huge}`, 400],
    ['register not an id', 'register=not-an-id', 404],
    ['register unknown', `register=${UNKNOWN_ID}`, 404],
  ])('GET /api/register-sessions refuses %s', async (_label, query, status) => {
    expectRefused(await t.call('GET', `/api/register-sessions?${query}`, { token: as('admin') }), status);
  });

  // -------------------------------------------------------------------------------------------
  // Bad input

  const money = (field: string, extra: Record<string, unknown> = {}) =>
    [
      [`${field} a string`, { ...extra, [field]: '10' }],
      [`${field} NaN as text`, { ...extra, [field]: 'NaN' }],
      [`${field} negative`, { ...extra, [field]: -0.5 }],
      [`${field} 3 decimals`, { ...extra, [field]: 1.005 }],
      [`${field} huge`, { ...extra, [field]: 1e12 }],
      [`${field} an array`, { ...extra, [field]: [10] }],
      [`${field} null`, { ...extra, [field]: null }],
      [`${field} missing`, { ...extra }],
    ] as [string, Record<string, unknown>][];

  it.each(money('openingFloat'))(
    'POST /api/registers/:id/open refuses %s with 400 (413 past the size limit)',
    async (label, body) => {
      const register = await newRegister();
      expectRefused(await open(register._id, body), badInputStatus(label));
      const [row] = await t.sql<{ n: number }>(
        'select count(*)::int as n from register_sessions where register_id = $1',
        [register._id],
      );
      expect(row?.n).toBe(0);
    },
  );

  it.each([
    ['amount a string', { amount: '-10', reason: 'x' }],
    ['amount 0', { amount: 0, reason: 'x' }],
    ['amount 3 decimals', { amount: 1.005, reason: 'x' }],
    ['amount huge', { amount: 1e12, reason: 'x' }],
    ['amount hugely negative', { amount: -1e12, reason: 'x' }],
    ['amount an array', { amount: [5], reason: 'x' }],
    ['amount missing', { reason: 'x' }],
    ['reason missing', { amount: 5 }],
    ['reason blank', { amount: 5, reason: '  ' }],
    ['reason 10,000 characters', { amount: 5, reason: huge }],
    ['reason 201 characters', { amount: 5, reason: 'r'.repeat(201) }],
    ['reason with NUL', { amount: 5, reason: 'a\u0000b' }],
    ['reason an array', { amount: 5, reason: ['x'] }],
    ['reason a number', { amount: 5, reason: 5 }],
  ])(
    'POST /api/register-sessions/:id/cash refuses %s with 400 (413 past the size limit)',
    async (label, body) => {
      const { session } = await openSession(10);
      expectRefused(await cash(session._id, body), badInputStatus(label));
      expect(parsed(await getSession(session._id), SessionResponse).report).toMatchObject({
        cashIn: 0,
        cashOut: 0,
        expectedCash: 10,
      });
    },
  );

  it.each([
    ...money('countedCash'),
    ['note 10,000 characters', { countedCash: 1, note: huge }],
    ['note 501 characters', { countedCash: 1, note: 'n'.repeat(501) }],
    ['note with NUL', { countedCash: 1, note: '\u0000' }],
    ['note an array', { countedCash: 1, note: ['x'] }],
    ['note a number', { countedCash: 1, note: 3 }],
  ] as [string, Record<string, unknown>][])(
    'POST /api/register-sessions/:id/close refuses %s with 400 (413 past the size limit)',
    async (label, body) => {
      const { session } = await openSession(10);
      expectRefused(await close(session._id, body), badInputStatus(label));
      expect(parsed(await getSession(session._id), SessionResponse).session.status).toBe('open');
    },
  );

  it('a body that is not an object is a 400', async () => {
    const { register, session } = await openSession(10);
    for (const body of [[{ amount: 1, reason: 'x' }], ['x'], 5]) {
      for (const res of [
        await cash(session._id, body),
        await close(session._id, body),
        await open(register._id, body),
        await t.call('POST', '/api/registers', { token: as('admin'), body }),
        await t.call('PUT', `/api/registers/${register._id}`, { token: as('admin'), body }),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          success: false,
          code: 'VALIDATION',
          error: expect.any(String),
          details: expect.any(Array),
        });
      }
    }
  });
});
