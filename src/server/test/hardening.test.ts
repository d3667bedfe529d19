import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, ERROR_CODES } from '../../shared/common';
import { ROLES, type Role } from '../../shared/roles';
import { buildApp } from '../app';
import { openDatabase } from '../db/connection';
import { authenticate, guardSignedInCheck } from '../lib/auth';
import { type Answer, PASSWORD, parsed, startApp, type TestApp, targets, testConfig } from './harness';

function expectEnvelope(res: Answer, status: number) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const refusal = parsed(res, ApiError);
  expect(refusal.success).toBe(false);
  expect(refusal.error).toMatch(/^[^\n]+$/);
  // Our stable code, never the framework's own (FST_ERR_…) or a driver's.
  expect(refusal.code).toBeOneOf([...ERROR_CODES]);
  expect(res.text).not.toMatch(/FST_ERR|statusCode|\n\s+at /);
  expect(res.headers['cache-control']).toBe('no-store');
}

/** Sends raw bytes to a listening server and answers what came back before it closed. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(request);
  });
}

describe.each(targets)('hardening on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  describe('every failure is the envelope', () => {
    it.each([
      ['PUT', '/api/products/'],
      ['DELETE', '/api/category/'],
      ['GET', '/api/users/'],
      ['GET', '/api/order/'],
    ])('%s %s with a 300-character id answers 404 in the envelope', async (method, path) => {
      const res = await t.call(method, `${path}${'x'.repeat(300)}`, {
        token: t.as.admin.token,
        body: method === 'PUT' ? {} : undefined,
      });
      expectEnvelope(res, 404);
    });

    it('a malformed percent sequence in the path answers 400 in the envelope', async () => {
      expectEnvelope(await t.call('GET', '/api/users/%E0%A4%A', { token: t.as.admin.token }), 400);
    });

    it('an unknown route, a wrong content type and malformed JSON answer in the envelope', async () => {
      expectEnvelope(await t.call('GET', '/api/nothing-here'), 404);
      expectEnvelope(
        await t.call('POST', '/api/category/add', {
          token: t.as.admin.token,
          body: 'a=b',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
      );
      expectEnvelope(
        await t.call('POST', '/api/category/add', {
          token: t.as.admin.token,
          body: '{"formCategory":',
          headers: { 'content-type': 'application/json' },
        }),
        400,
      );
    });
  });

  describe('NUL and invalid UTF-16 are a 400 everywhere', () => {
    it('a sign-in whose email holds a NUL answers 400, not 500, and nothing reaches the database', async () => {
      const res = await t.call('POST', '/api/auth/login', {
        body: { email: `${t.as.user.email}\u0000`, password: PASSWORD },
      });
      expectEnvelope(res, 400);
      expect(parsed(res, ApiError).details).toEqual([{ path: 'email', message: expect.any(String) }]);
    });

    it.each([
      ['a NUL in a product name', { name: 'Bad\u0000name' }, 'name'],
      ['a lone high surrogate in a description', { description: 'half \ud800 a character' }, 'description'],
      ['a lone low surrogate in a name', { name: '\udc00 tail' }, 'name'],
    ])('%s answers 400 naming the field, and nothing is stored', async (_label, change, path) => {
      const { categoryId, supplierId } = await t.product();
      const body = {
        name: `Guarded ${Date.now()}`,
        description: '',
        price: 1,
        stock: 1,
        category: categoryId,
        supplier: supplierId,
        ...change,
      };
      const res = await t.call('POST', '/api/products/add', { token: t.as.admin.token, body });
      expectEnvelope(res, 400);
      expect(parsed(res, ApiError).details).toEqual([{ path, message: expect.any(String) }]);
      // Only the product t.product() made is in its category.
      expect(await t.sql('select 1 from products where category_id = $1', [categoryId])).toHaveLength(1);
    });

    it('a well-formed surrogate pair (an emoji) is ordinary text', async () => {
      const res = await t.call('POST', '/api/category/add', {
        token: t.as.admin.token,
        body: { formCategory: `Fresh fruit 🍎 ${Date.now()}` },
      });
      expect(res.status).toBe(201);
    });

    it.each([
      ['a NUL in the query', '/api/products?page=1&search=a%00b'],
      ['an encoded lone surrogate in the query', '/api/products?page=1&search=%ED%A0%80'],
      ['invalid UTF-8 in the query', '/api/products?page=1&search=%FF%FE'],
      ['a NUL in a query name', '/api/products?page=1&se%00arch=x'],
      ['a NUL in a path id', '/api/users/abc%00def'],
    ])('%s answers 400', async (_label, url) => {
      expectEnvelope(await t.call('GET', url, { token: t.as.admin.token }), 400);
    });
  });

  describe('Cache-Control: no-store on every /api answer', () => {
    it.each([
      ['a sign-in', 'POST', '/api/auth/login', 200],
      ['a data call', 'GET', '/api/products?page=1', 200],
      ['a refused call', 'GET', '/api/dashboard', 401],
      ['an unknown call', 'GET', '/api/unknown', 404],
      ['the health check', 'GET', '/api/health', 200],
    ] as const)('%s', async (_label, method, url, status) => {
      const signIn = url === '/api/auth/login';
      const res = await t.call(method, url, {
        token: signIn || status === 401 ? undefined : t.as.user.token,
        body: signIn ? { email: t.as.user.email, password: PASSWORD } : undefined,
      });
      expect(res.status).toBe(status);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it.each([
      ['a path id of 300 characters', `/api/users/${'x'.repeat(300)}`, 404],
      ['an encoded lone surrogate in a path id', '/api/users/%ED%A0%80', 400],
      ['a malformed percent sequence in a path id', '/api/products/%E0%A4%A', 400],
      ['a NUL in the query', '/api/products?search=%00', 400],
    ] as const)('also on an answer refused before routing: %s', async (_label, url, status) => {
      expectEnvelope(await t.call('GET', url, { token: t.as.user.token }), status);
    });
  });

  describe('routes that check the signed-in user in their own statement', () => {
    /**
     * How to call each such route; the list must name every one the server has. `refused`: a role
     * the route's permission leaves out (none when every role may call it).
     */
    const CALLS: Record<
      string,
      { role: 'admin' | 'user'; refused: Role | null; call: (token: string) => Promise<Answer> }
    > = {
      'GET /api/dashboard': {
        role: 'admin',
        refused: 'user',
        call: (token) => t.call('GET', '/api/dashboard', { token }),
      },
      'GET /api/products/code/:code': {
        role: 'user',
        refused: null,
        call: async (token) => {
          const { id } = await t.product({ stock: 3 });
          const code = `code-${id.slice(0, 8)}`;
          await t.sql('update products set sku = $2 where id = $1', [id, code]);
          return t.call('GET', `/api/products/code/${code}`, { token });
        },
      },
      'POST /api/order/add': {
        role: 'user',
        refused: 'admin',
        call: async (token) =>
          t.call('POST', '/api/order/add', {
            token,
            body: { productId: (await t.product({ stock: 3 })).id, quantity: 1 },
          }),
      },
      'POST /api/sales': {
        role: 'user',
        // Admins sell at the counter too (§11); the superAdmin manages accounts and does not.
        refused: 'superAdmin',
        call: async (token) =>
          t.call('POST', '/api/sales', {
            token,
            body: {
              lines: [{ productId: (await t.product({ stock: 3 })).id, quantity: 1 }],
              payment: { method: 'card' },
            },
          }),
      },
    };

    it('are exactly the ones this test knows how to call', () => {
      expect([...t.app.routesCheckingUserInStatement].sort()).toEqual(Object.keys(CALLS).sort());
    });

    it.each(Object.keys(CALLS))(
      '%s refuses a deleted user, an old token, a signed-out token and a wrong role',
      async (route) => {
        const { role, refused, call } = CALLS[route] as (typeof CALLS)[string];
        const ordersBefore = await t.sql<{ n: number }>('select count(*)::int as n from orders');
        expect((await call((await t.account(role)).token)).status).toBeLessThan(300);

        const deleted = await t.account(role);
        await t.sql('delete from users where id = $1', [deleted.id]);
        expectEnvelope(await call(deleted.token), 401);

        const renewed = await t.account(role);
        await t.sql('update users set token_version = token_version + 1 where id = $1', [renewed.id]);
        expectEnvelope(await call(renewed.token), 401);

        const signedOut = await t.account(role);
        expect((await t.call('POST', '/api/auth/logout', { token: signedOut.token })).status).toBe(200);
        expectEnvelope(await call(signedOut.token), 401);

        if (refused) expectEnvelope(await call((await t.account(refused)).token), 403);
        else
          for (const anyone of ROLES) expect((await call((await t.account(anyone)).token)).status).toBe(200);

        // Only the first, allowed call may have written anything.
        const ordersAfter = await t.sql<{ n: number }>('select count(*)::int as n from orders');
        expect((ordersAfter[0]?.n ?? 0) - (ordersBefore[0]?.n ?? 0)).toBe(
          route === 'POST /api/order/add' || route === 'POST /api/sales' ? 1 : 0,
        );
      },
    );
  });
});

describe('the signed-in guard', () => {
  it('refuses to send a success from a route that declared the check and never ran it', async () => {
    const database = await openDatabase(testConfig());
    const app = await buildApp({ config: testConfig(), database });
    await app.register(async (api) => {
      api.addHook('onRequest', authenticate);
      api.addHook('onSend', guardSignedInCheck);
      api.get(
        '/api/forgetful',
        { config: { permission: 'dashboard:read', userCheckedInStatement: true } },
        async () => ({ success: true, secret: 'figures' }),
      );
    });
    await app.ready();
    try {
      const token = await app.tokens.sign({
        userId: '00000000-0000-4000-8000-000000000000',
        tokenVersion: 0,
      });
      const res = await app.inject({
        method: 'GET',
        url: '/api/forgetful',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('figures');
    } finally {
      await app.close();
    }
  });
});

describe('a real server', () => {
  let app: FastifyInstance;
  let port: number;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const config = testConfig();
    app = await buildApp({ config, database: await openDatabase(config), logger: { stream } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app?.close());

  it('answers a request line or headers past 16 KB with 431 in the envelope', async () => {
    const longUrl = await rawExchange(
      port,
      `GET /api/products?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(longUrl).toMatch(/^HTTP\/1\.1 431 /);
    expect(longUrl).toContain('Cache-Control: no-store');
    const body = JSON.parse(longUrl.slice(longUrl.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({
      success: false,
      code: 'HEADERS_TOO_LARGE',
      error: 'The request address or headers are too long.',
    });
    const longHeader = await rawExchange(
      port,
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    expect(longHeader).toMatch(/^HTTP\/1\.1 431 /);
  });

  it('answers a malformed request in the envelope', async () => {
    const answer = await rawExchange(port, 'NOT A REQUEST\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      error: 'The request could not be understood.',
      code: 'BAD_REQUEST',
    });
  });

  it('logs a failed statement without its parameters, a password, a hash or a token', async () => {
    const email = `secret.person.${Date.now()}@example.com`;
    const database = (app as unknown as { database: { query(sql: string): Promise<unknown> } }).database;
    await database.query('alter table users rename column password_hash to password_hash_moved');
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer some.secret.token' },
        body: JSON.stringify({ email, password: 'hunter2 secret words' }),
      });
      expect(res.status).toBe(500);
    } finally {
      await database.query('alter table users rename column password_hash_moved to password_hash');
    }
    const log = lines.join('\n');
    expect(log).toMatch(/unexpected error/);
    expect(log).not.toContain(email);
    expect(log).not.toContain('hunter2');
    expect(log).not.toContain('some.secret.token');
    expect(log).not.toMatch(/params:/);
  });
});
