import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LoginResponse } from '../../shared/auth';
import { ApiError, ERROR_CODES } from '../../shared/common';
import { SaleResponse } from '../../shared/sales';
import { ProfileResponse, UserResponse } from '../../shared/users';
import { buildApp } from '../app';
import { openDatabase } from '../db/connection';
import { tag } from './fixtures';
import { type Answer, PASSWORD, parsed, startApp, type TestApp, targets, testConfig } from './harness';

const HASH_OR_SECRET = /passwordHash|password_hash|pinHash|pin_hash|\$argon2/i;
const STACK_OR_SQL =
  /\n\s+at |"stack"|node_modules|\.ts:\d+|\bselect\b.+\bfrom\b|\binsert into\b|relation "|column "/i;

/** The parts of the OpenAPI document these tests read: its version, paths and request bodies. */
const OpenApiDoc = z.object({
  openapi: z.string(),
  paths: z.record(
    z.string(),
    z.record(
      z.string(),
      z.object({
        requestBody: z
          .object({
            content: z.record(
              z.string(),
              z.object({ schema: z.object({ properties: z.record(z.string(), z.unknown()).optional() }) }),
            ),
          })
          .optional(),
      }),
    ),
  ),
});

function expectCleanError(res: Answer, status: number) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const refusal = parsed(res, ApiError);
  expect(refusal.success).toBe(false);
  expect(typeof refusal.error).toBe('string');
  expect(refusal.error).toMatch(/^[^\n]+$/);
  expect(refusal.code).toBeOneOf([...ERROR_CODES]);
  for (const key of Object.keys(refusal)) expect(['success', 'error', 'code', 'details']).toContain(key);
  expect(res.text).not.toMatch(STACK_OR_SQL);
}

describe.each(targets)('security on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const json = { 'content-type': 'application/json' };

  it('a 2 MB JSON body answers 413 with the error shape, and nothing is stored', async () => {
    const name = `Huge ${tag()}`;
    const body = JSON.stringify({ formCategory: name, formDescription: 'x'.repeat(2 * 1024 * 1024) });
    const res = await t.call('POST', '/api/category/add', { token: t.as.admin.token, body, headers: json });
    expectCleanError(res, 413);
    expect(await t.sql('select 1 from categories where name = $1', [name])).toHaveLength(0);
  });

  it('a body just under the call’s limit is read and validated (400, not 413)', async () => {
    // A category's largest honest body is some 14 kB; the call takes 18 kB.
    const body = JSON.stringify({ formCategory: 'Big', formDescription: 'x'.repeat(17 * 1024) });
    const res = await t.call('POST', '/api/category/add', { token: t.as.admin.token, body, headers: json });
    expectCleanError(res, 400);
    expect(parsed(res, ApiError).details).toEqual([{ path: 'formDescription', message: expect.any(String) }]);
  });

  it.each([
    ['a truncated object', '{"formCategory": "x"'],
    ['a single quote string', "{'formCategory': 'x'}"],
    ['plain words', 'hello there'],
    ['an empty body', ''],
  ])('invalid JSON (%s) answers 400 with the error shape', async (_label, body) => {
    const res = await t.call('POST', '/api/category/add', { token: t.as.admin.token, body, headers: json });
    expectCleanError(res, 400);
  });

  it.each([
    ['text/plain', 'formCategory=x'],
    ['application/x-www-form-urlencoded', 'formCategory=x&formDescription=y'],
    ['application/xml', '<category>x</category>'],
  ])('a %s body answers 415 with the error shape, and nothing is stored', async (type, body) => {
    const before = await t.sql<{ n: number }>('select count(*)::int as n from categories');
    const res = await t.call('POST', '/api/category/add', {
      token: t.as.admin.token,
      body,
      headers: { 'content-type': type },
    });
    expectCleanError(res, 415);
    expect(await t.sql<{ n: number }>('select count(*)::int as n from categories')).toEqual(before);
  });

  it('a sign-in sent as text/plain is refused with 415, not read', async () => {
    const res = await t.call('POST', '/api/auth/login', {
      body: JSON.stringify({ email: t.as.user.email, password: PASSWORD }),
      headers: { 'content-type': 'text/plain' },
    });
    expectCleanError(res, 415);
  });

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope/deeper'],
    ['PATCH', '/api/products'],
    ['GET', '/api'],
  ])('an unknown route (%s %s) answers a JSON 404, with or without a token', async (method, url) => {
    for (const token of [undefined, t.as.admin.token]) {
      const res = await t.call(method, url, { token });
      expectCleanError(res, 404);
      expect(res.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'No such route.' });
    }
  });

  it('API answers carry the security headers, on success and on error', async () => {
    const ok = await t.call('GET', '/api/products', { token: t.as.user.token });
    const refused = await t.call('GET', '/api/products');
    expect(ok.status).toBe(200);
    expect(refused.status).toBe(401);
    for (const res of [ok, refused]) {
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBeDefined();
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('no answer of any call contains a password or its hash', async () => {
    const admin = t.as.admin.token;
    const answers: Answer[] = [];
    const record = async (method: string, url: string, options: { token?: string; body?: unknown } = {}) => {
      const res = await t.call(method, url, options);
      answers.push(res);
      return res;
    };
    const email = `walk.${tag()}@example.com`;
    const created = await record('POST', '/api/users/add', {
      token: admin,
      body: { name: 'Walker', email, password: 'walker password 1', address: 'Path 1', role: 'user' },
    });
    expect(created.status).toBe(201);
    const id = parsed(created, UserResponse).user._id;
    const signedIn = await record('POST', '/api/auth/login', {
      body: { email, password: 'walker password 1' },
    });
    expect(signedIn.status).toBe(200);
    const token = parsed(signedIn, LoginResponse).token;
    await record('GET', '/api/users', { token: admin });
    await record('GET', '/api/users', { token: t.as.superAdmin.token });
    await record('GET', `/api/users/${id}`, { token });
    await record('GET', `/api/users/${id}`, { token: admin });
    const changed = await record('PUT', `/api/users/${id}`, {
      token,
      body: {
        name: 'Walker',
        email,
        address: 'Path 2',
        password: 'walker password 2',
        currentPassword: 'walker password 1',
      },
    });
    expect(changed.status).toBe(200);
    await record('PUT', `/api/users/${id}`, {
      token: parsed(changed, ProfileResponse).token,
      body: { name: 'Walker', email, address: 'Path 3', password: '' },
    });
    const { id: productId } = await t.product({ stock: 5 });
    await record('GET', '/api/products', { token: parsed(changed, ProfileResponse).token });
    const ordered = await record('POST', '/api/order/add', {
      token: parsed(changed, ProfileResponse).token,
      body: { productId, quantity: 1 },
    });
    expect(ordered.status).toBe(201);
    await record('GET', `/api/order/${id}`, { token: parsed(changed, ProfileResponse).token });
    await record('GET', `/api/order/${t.as.admin.id}`, { token: admin });
    // An admin's approval PIN (DESIGN §12): set, used at the counter, never answered.
    const pinned = await record('PUT', '/api/users/me/pin', {
      token: admin,
      body: { pin: '48264826', currentPassword: PASSWORD },
    });
    expect(pinned.status).toBe(200);
    const sold = await record('POST', '/api/sales', {
      token: t.as.salesRep.token,
      body: {
        lines: [{ productId, quantity: 1, discount: { type: 'percent', value: 50 } }],
        approval: { email: t.as.admin.email, pin: '48264826' },
        payment: { method: 'card' },
      },
    });
    expect(sold.status).toBe(201);
    await record('GET', `/api/sales/${parsed(sold, SaleResponse).sale._id}`, { token: admin });
    await record('GET', '/api/sales', { token: admin });
    await record('GET', `/api/users/${t.as.admin.id}`, { token: admin });
    await record('GET', '/api/dashboard', { token: admin });
    await record('GET', '/api/docs/json');
    for (const res of answers) {
      expect(res.status, res.text).toBeLessThan(300);
      expect(res.text).not.toMatch(HASH_OR_SECRET);
      expect(res.text).not.toContain('walker password');
      expect(res.text).not.toContain('48264826');
    }
    // Data answers do not even name a password field (the API document describes the inputs);
    // the one flag that speaks of one says only that its user must choose a new one.
    for (const res of answers.slice(0, -1)) {
      expect(res.text.replaceAll('"mustChangePassword":false', '')).not.toMatch(/password/i);
    }

    // Failed calls neither: a duplicate, a bad sign-in and a bad profile update.
    const failures = [
      await t.call('POST', '/api/users/add', {
        token: admin,
        body: { name: 'Walker', email, password: 'walker password 3', address: '', role: 'user' },
      }),
      await t.call('POST', '/api/auth/login', { body: { email, password: 'walker password 1' } }),
      await t.call('PUT', `/api/users/${id}`, {
        token: parsed(changed, ProfileResponse).token,
        body: { name: 'Walker', email, address: '', password: 'short' },
      }),
      await t.call('PUT', `/api/users/${id}`, {
        token: parsed(changed, ProfileResponse).token,
        body: { name: 'Walker', email, address: '', password: 'walker password 4', currentPassword: 'wrong' },
      }),
    ];
    expect(failures.map((res) => res.status)).toEqual([409, 401, 400, 403]);
    for (const res of failures) {
      expect(res.text).not.toMatch(HASH_OR_SECRET);
      expect(res.text).not.toContain('walker password');
    }
  });

  it('error answers never carry a stack trace or SQL, whatever the status', async () => {
    const admin = t.as.admin.token;
    const { categoryId } = await t.product();
    const taken = `Taken ${tag()}`;
    await t.call('POST', '/api/category/add', { token: admin, body: { formCategory: taken } });
    const cases: [number, Promise<Answer>][] = [
      [400, t.call('POST', '/api/products/add', { token: admin, body: { price: 'free' } })],
      [401, t.call('GET', '/api/users', { headers: { authorization: 'Bearer x.y.z' } })],
      [403, t.call('GET', '/api/dashboard', { token: t.as.user.token })],
      [404, t.call('DELETE', "/api/category/1'%20or%201=1--", { token: admin })],
      [409, t.call('POST', '/api/category/add', { token: admin, body: { formCategory: taken } })],
      [409, t.call('DELETE', `/api/category/${categoryId}`, { token: admin })],
    ];
    for (const [status, pending] of cases) expectCleanError(await pending, status);
  });

  it('a real fault answers 500 with one plain sentence, no SQL and no stack', async () => {
    await t.sql('alter table suppliers rename column phone to phone_moved');
    try {
      const res = await t.call('GET', '/api/supplier', { token: t.as.admin.token });
      expectCleanError(res, 500);
      expect(res.text).not.toMatch(/phone|suppliers/);
    } finally {
      await t.sql('alter table suppliers rename column phone_moved to phone');
    }
    expect((await t.call('GET', '/api/supplier', { token: t.as.admin.token })).status).toBe(200);
  });

  it('GET /api/health answers 200 {success: true, status: "ok"} without a token', async () => {
    const res = await t.call('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, status: 'ok' });
  });

  it('GET /api/docs/json is an OpenAPI 3 document of the whole API', async () => {
    const res = await t.call('GET', '/api/docs/json');
    expect(res.status).toBe(200);
    const doc = parsed(res, OpenApiDoc);
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/auth/login',
      '/api/products',
      '/api/products/add',
      '/api/products/{id}',
      '/api/category/add',
      '/api/supplier',
      '/api/users/{id}',
      '/api/order/add',
      '/api/order/{userId}',
      '/api/dashboard',
      '/api/health',
      '/api/settings/store',
      '/api/tax-rates',
      '/api/tax-rates/{id}',
      '/api/products/{id}/lots',
      '/api/lots/expiring',
      '/api/lots/{id}/trace',
    ])
      expect(Object.keys(doc.paths)).toContain(path);
    // Request bodies come from the shared schemas.
    const productBody =
      doc.paths['/api/products/add']?.post?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(productBody?.properties ?? {}).sort()).toEqual([
      'active',
      'barcode',
      'brand',
      'category',
      'cost',
      'description',
      'lot',
      'name',
      'price',
      'reorderPoint',
      'reorderQuantity',
      'sku',
      'stock',
      'supplier',
      'taxRate',
      'tracking',
    ]);
  });

  it('GET /api/docs/ serves the browsable reference as HTML', async () => {
    const res = await t.call('GET', '/api/docs/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<html/i);
  });
});

describe('the web root', () => {
  let app: FastifyInstance;
  let webRoot: string;
  const SHELL = '<!doctype html><html><head><title>IMS shell for tests</title></head><body></body></html>';

  beforeAll(async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'ims-web-'));
    writeFileSync(join(webRoot, 'index.html'), SHELL);
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'assets', 'app.js'), 'console.log("app");');
    writeFileSync(join(webRoot, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(join(webRoot, 'workbox-1a2b3c4d.js'), 'self.workbox = {};');
    writeFileSync(join(webRoot, 'manifest.webmanifest'), '{"name":"Inventory MS"}');
    const database = await openDatabase({ dataDir: 'memory://' });
    app = await buildApp({ config: testConfig(), database, webRoot });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it.each(['/', '/login', '/admin-dashboard/products', '/medicalRep-dashboard/orders?x=1'])(
    'GET %s answers the web app so its router can show the page',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toBe(SHELL);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    },
  );

  it('serves the built files themselves', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe('console.log("app");');
  });

  // A browser must ask for the service worker, the page and the manifest each time, or it would
  // not find a new version; a hashed file under /assets/ never changes under its name.
  it.each([
    ['/sw.js', 'no-cache', /javascript/],
    ['/workbox-1a2b3c4d.js', 'no-cache', /javascript/],
    ['/manifest.webmanifest', 'no-cache', /^application\/manifest\+json/],
    ['/index.html', 'no-cache', /^text\/html/],
    ['/admin-dashboard/products', 'no-cache', /^text\/html/],
    ['/assets/app.js', 'public, max-age=31536000, immutable', /javascript/],
  ])('GET %s answers cache-control %s', async (url, cacheControl, type) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(cacheControl);
    expect(res.headers['content-type']).toMatch(type);
  });

  it('lets the page register its service worker and read its manifest from this host', async () => {
    const res = await app.inject({ method: 'GET', url: '/login' });
    const directives = new Map(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .map(([name = '', ...sources]) => [name, sources]),
    );
    // A directive not given falls back to the next (CSP level 3).
    const effective = (...chain: string[]) => chain.map((name) => directives.get(name)).find(Boolean);
    expect(effective('worker-src', 'child-src', 'script-src', 'default-src')).toContain("'self'");
    expect(effective('manifest-src', 'default-src')).toContain("'self'");
  });

  it('answers a missing file (an old asset) with 404, not the page', async () => {
    for (const url of ['/assets/app-old.js', '/favicon.png', '/assets/app-old.js?v=2', '/workbox-0ld.js']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).not.toMatch(/^text\/html/);
      expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', error: 'No such route.' });
    }
  });

  it('keeps /api answers as JSON: an unknown call is a JSON 404 and a data call still needs a token', async () => {
    const nope = await app.inject({ method: 'GET', url: '/api/nope' });
    expect(nope.statusCode).toBe(404);
    expect(nope.json()).toEqual({ success: false, code: 'NOT_FOUND', error: 'No such route.' });
    const products = await app.inject({ method: 'GET', url: '/api/products' });
    expect(products.statusCode).toBe(401);
    expect(products.json().success).toBe(false);
  });

  it('answers a JSON 404, not the page, to other methods on unknown paths', async () => {
    const res = await app.inject({ method: 'POST', url: '/admin-dashboard/products' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', error: 'No such route.' });
  });
});
