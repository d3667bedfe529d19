import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginResponse } from '../../../shared/auth';
import { ApiError, ERROR_CODES } from '../../../shared/common';
import { ProfileResponse } from '../../../shared/users';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/connection';
import { users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';
import {
  type Answer,
  freshPostgres,
  PASSWORD,
  parsed,
  startApp,
  type TestApp,
  targets,
  testConfig,
} from '../../test/harness';

const INVALID = { success: false, error: 'Invalid email or password', code: 'WRONG_CREDENTIALS' };

function expectErrorShape(res: Answer, status: number) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({
    success: false,
    error: expect.stringMatching(/^[^\n]+$/),
    code: expect.toBeOneOf([...ERROR_CODES]),
  });
}

async function sign(secret: string, claims: { sub: string; tv: number }, expiresAt: number | string) {
  return new SignJWT({ tv: claims.tv })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(new TextEncoder().encode(secret));
}

describe.each(targets)('auth on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const login = (email: string, password: string, remoteAddress?: string) =>
    t.call('POST', '/api/auth/login', { body: { email, password }, remoteAddress });

  it('POST /api/auth/login answers a token and exactly the public user fields', async () => {
    const me = await t.account('salesRep', 'Rita Rep');
    const res = await login(me.email, PASSWORD);
    expect(res.status).toBe(200);
    expect(Object.keys(parsed(res, LoginResponse)).sort()).toEqual([
      'mustChangePassword',
      'success',
      'token',
      'user',
    ]);
    expect(parsed(res, LoginResponse).success).toBe(true);
    expect(parsed(res, LoginResponse).mustChangePassword).toBe(false);
    expect(parsed(res, LoginResponse).token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(parsed(res, LoginResponse).user).toEqual({
      _id: me.id,
      name: 'Rita Rep',
      email: me.email,
      address: 'Rita Rep street 1',
      role: 'salesRep',
      active: true,
      mustChangePassword: false,
      location: null,
    });
    const products = await t.call('GET', '/api/products', { token: parsed(res, LoginResponse).token });
    expect(products.status).toBe(200);
  });

  it('POST /api/auth/login accepts the email in any case and with surrounding spaces', async () => {
    const me = await t.account('user');
    const res = await login(`  ${me.email.toUpperCase()} `, PASSWORD);
    expect(res.status).toBe(200);
    expect(parsed(res, LoginResponse).user._id).toBe(me.id);
    expect(parsed(res, LoginResponse).user.email).toBe(me.email);
  });

  it('POST /api/auth/login answers 401 "Invalid email or password" for an unknown email and a wrong password alike', async () => {
    const me = await t.account('user');
    const unknown = await login('nobody.here@example.com', PASSWORD);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(INVALID);
    const wrong = await login(me.email, `${PASSWORD}!`);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(INVALID);
    // The password is case-sensitive.
    const upper = await login(me.email, PASSWORD.toUpperCase());
    expect(upper.status).toBe(401);
    expect(upper.body).toEqual(INVALID);
  });

  it.each([
    ['no body at all', undefined],
    ['an empty object', {}],
    ['a missing password', { email: 'a@example.com' }],
    ['a missing email', { password: PASSWORD }],
    ['an empty password', { email: 'a@example.com', password: '' }],
    ['a blank email', { email: '   ', password: PASSWORD }],
    ['an email given as a number', { email: 42, password: PASSWORD }],
    ['a password given as a number', { email: 'a@example.com', password: 12345678 }],
    ['a password given as an array', { email: 'a@example.com', password: [PASSWORD] }],
    ['a JSON array', [{ email: 'a@example.com', password: PASSWORD }]],
  ])('POST /api/auth/login refuses %s with 400', async (_label, body) => {
    const res = await t.call('POST', '/api/auth/login', {
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(parsed(res, ApiError).success).toBe(false);
    expect(parsed(res, ApiError).error).toMatch(/^[^\n]+$/);
  });

  it('a protected call without a token answers 401 with the error shape', async () => {
    expectErrorShape(await t.call('GET', '/api/products'), 401);
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a bare Bearer', 'Bearer'],
    ['a token that is not a JWT', 'Bearer not-a-token'],
    ['a JWT with a broken signature part', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.AAAA'],
    ['two tokens', 'Bearer a.b.c d.e.f'],
  ])('a protected call with %s in the authorization header answers 401', async (_label, header) => {
    const res = await t.call('GET', '/api/products', { headers: { authorization: header } });
    expectErrorShape(res, 401);
  });

  it('a token signed with another secret is refused with 401', async () => {
    const me = t.as.admin;
    const forged = await sign('a completely different secret of enough length!', { sub: me.id, tv: 0 }, '1h');
    expectErrorShape(await t.call('GET', '/api/dashboard', { token: forged }), 401);
  });

  it('an expired token is refused with 401, while the same secret with a future expiry works', async () => {
    const me = await t.account('admin');
    const [row] = await t.sql<{ value: string }>("select value from settings where key = 'jwt_secret'");
    const secret = row?.value as string;
    const live = await sign(secret, { sub: me.id, tv: 0 }, '1h');
    expect((await t.call('GET', '/api/dashboard', { token: live })).status).toBe(200);
    const expired = await sign(secret, { sub: me.id, tv: 0 }, Math.floor(Date.now() / 1000) - 60);
    expectErrorShape(await t.call('GET', '/api/dashboard', { token: expired }), 401);
  });

  it('a token of the right secret but for an unknown user or with a non-id subject is refused with 401', async () => {
    const [row] = await t.sql<{ value: string }>("select value from settings where key = 'jwt_secret'");
    const secret = row?.value as string;
    const ghost = await sign(secret, { sub: '00000000-0000-4000-8000-000000000000', tv: 0 }, '1h');
    expectErrorShape(await t.call('GET', '/api/products', { token: ghost }), 401);
    const odd = await sign(secret, { sub: "' or 1=1 --", tv: 0 }, '1h');
    expectErrorShape(await t.call('GET', '/api/products', { token: odd }), 401);
  });

  it("a deleted user's token is refused at once", async () => {
    const doomed = await t.account('user');
    expect((await t.call('GET', '/api/products', { token: doomed.token })).status).toBe(200);
    const del = await t.call('DELETE', `/api/users/${doomed.id}`, { token: t.as.superAdmin.token });
    expect(del.status).toBe(200);
    expectErrorShape(await t.call('GET', '/api/products', { token: doomed.token }), 401);
  });

  it('after a password change the old token is refused and the returned token works', async () => {
    const me = await t.account('medicalRep', 'Mona Med');
    const res = await t.call('PUT', `/api/users/${me.id}`, {
      token: me.token,
      body: {
        name: 'Mona Med',
        email: me.email,
        address: '',
        password: 'a brand new password',
        currentPassword: PASSWORD,
      },
    });
    expect(res.status).toBe(200);
    expect(typeof parsed(res, ProfileResponse).token).toBe('string');
    expectErrorShape(await t.call('GET', '/api/products', { token: me.token }), 401);
    expect((await t.call('GET', '/api/products', { token: parsed(res, ProfileResponse).token })).status).toBe(
      200,
    );
    expect((await login(me.email, PASSWORD)).status).toBe(401);
    expect((await login(me.email, 'a brand new password')).status).toBe(200);
  });

  it('a signed-in token expires after the configured lifetime', async () => {
    const res = await login(t.as.user.email, PASSWORD);
    const claims = decodeJwt(parsed(res, LoginResponse).token);
    // The harness configures a one-hour lifetime (TOKEN_TTL).
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(claims.sub).toBe(t.as.user.id);
  });
});

describe.each(targets)('login throttling on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, { throttle: { perPair: 3, perEmail: 6, perAddress: 10 } });
  });
  afterAll(() => t?.close());

  const login = (email: string, password: string, remoteAddress: string) =>
    t.call('POST', '/api/auth/login', { body: { email, password }, remoteAddress });

  it('POST /api/auth/login answers 429 on the 4th try for one email from one address, even with the right password', async () => {
    const victim = await t.account('user');
    const bystander = await t.account('user');
    for (let i = 0; i < 3; i++) {
      const res = await login(victim.email, 'wrong password', '10.0.1.1');
      expect(res.status).toBe(401);
    }
    const blocked = await login(victim.email, PASSWORD, '10.0.1.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      success: false,
      code: 'TOO_MANY_ATTEMPTS',
      error: expect.stringMatching(/^Too many failed sign-in attempts; try again in 15 minutes\.$/),
    });
    // In any letter case too.
    expect((await login(victim.email.toUpperCase(), PASSWORD, '10.0.1.1')).status).toBe(429);
    // The owner, from an address that has not failed, still signs in; other emails too.
    expect((await login(victim.email, PASSWORD, '10.0.1.2')).status).toBe(200);
    expect((await login(bystander.email, PASSWORD, '10.0.1.1')).status).toBe(200);
  });

  it('a parallel burst gets no more than the limit checked: attempts are counted before the password', async () => {
    const victim = await t.account('user');
    const burst = await Promise.all(
      Array.from({ length: 24 }, () => login(victim.email, 'wrong password', '10.0.4.1')),
    );
    const statuses = burst.map((res) => res.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(21);
  });

  it('a successful sign-in is not counted as a failure', async () => {
    const me = await t.account('user');
    for (let i = 0; i < 2; i++)
      expect((await login(me.email, 'wrong password', '10.0.2.1')).status).toBe(401);
    expect((await login(me.email, PASSWORD, '10.0.2.1')).status).toBe(200);
    expect((await login(me.email, PASSWORD, '10.0.2.1')).status).toBe(200);
    // Two failures so far: the third is checked, then the pair is blocked.
    expect((await login(me.email, 'wrong password', '10.0.2.1')).status).toBe(401);
    expect((await login(me.email, PASSWORD, '10.0.2.1')).status).toBe(429);
  });

  it('POST /api/auth/login answers 429 after 10 failures from one address across different emails', async () => {
    const me = await t.account('user');
    for (let i = 0; i < 10; i++) {
      const res = await login(`stranger${i}@example.com`, 'wrong password', '10.0.3.1');
      expect(res.status).toBe(401);
    }
    const blocked = await login(me.email, PASSWORD, '10.0.3.1');
    expect(blocked.status).toBe(429);
    expect(parsed(blocked, ApiError).success).toBe(false);
    // Another address is not affected.
    expect((await login(me.email, PASSWORD, '10.0.3.2')).status).toBe(200);
  });

  it('counts IPv6 clients by their /64: a fresh address in the same network is the same client', async () => {
    const me = await t.account('user');
    for (let i = 1; i <= 3; i++)
      expect((await login(me.email, 'wrong', `2001:db8:aa:1::${i}`)).status).toBe(401);
    expect((await login(me.email, PASSWORD, '2001:db8:aa:1:ffff::9')).status).toBe(429);
    expect((await login(me.email, PASSWORD, '2001:db8:aa:2::1')).status).toBe(200);
  });
});

describe.each(targets)('known devices on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // DESIGN §7's limits: 5 per email and address, 50 per email, 100 per address, 5 per device.
    t = await startApp(target, { throttle: { perPair: 5, perEmail: 50, perAddress: 100 } });
  });
  afterAll(() => t?.close());

  const login = (email: string, password: string, remoteAddress: string, device?: string) =>
    t.call('POST', '/api/auth/login', {
      body: { email, password },
      remoteAddress,
      headers: device ? { cookie: `theme=dark; ims_device=${device}` } : {},
    });

  /** Signs the owner in from their own browser and answers the device cookie it was given. */
  const browserOf = async (email: string, remoteAddress: string): Promise<string> => {
    const res = await login(email, PASSWORD, remoteAddress);
    expect(res.status).toBe(200);
    const cookie = String(res.headers['set-cookie']);
    return /^ims_device=([^;]+);/.exec(cookie)?.[1] as string;
  };

  /** 50 wrong guesses for the email, each from an address of its own. */
  const strangersSpend = async (email: string, net: string) => {
    for (let i = 0; i < 50; i++) expect((await login(email, 'guess', `${net}.${i}`)).status).toBe(401);
  };

  it('a sign-in sets ims_device: HttpOnly, SameSite=Strict, for the sign-in calls only, for a year, without the password', async () => {
    const me = await t.account('user');
    const res = await login(me.email, PASSWORD, '192.0.2.10');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(
      /^ims_device=[\w-]+\.[\w-]+\.[\w-]+; Path=\/api\/auth; Max-Age=31536000; HttpOnly; SameSite=Strict$/,
    );
    expect(cookie).not.toContain(Buffer.from(PASSWORD).toString('base64url'));
    // A failed attempt sets none.
    expect((await login(me.email, 'wrong', '192.0.2.10')).headers['set-cookie']).toBeUndefined();
  });

  it('60 wrong guesses from 60 fresh addresses get at most 50 checked; then a fresh address is refused but the owner’s browser signs in', async () => {
    const owner = await t.account('user');
    const browser = await browserOf(owner.email, '192.0.2.20');
    const guesses = [];
    for (let i = 0; i < 60; i++) guesses.push((await login(owner.email, 'guess', `10.60.0.${i}`)).status);
    expect(guesses.filter((s) => s === 401)).toHaveLength(50);
    expect(guesses.filter((s) => s === 429)).toHaveLength(10);
    expect((await login(owner.email, PASSWORD, '10.60.1.1')).status).toBe(429);
    const signedIn = await login(owner.email, PASSWORD, '10.60.1.2', browser);
    expect(signedIn.status).toBe(200);
    expect(parsed(signedIn, LoginResponse).user._id).toBe(owner.id);
    // The device keeps its id: the cookie is renewed, not replaced.
    expect(String(signedIn.headers['set-cookie'])).toContain(`ims_device=${browser};`);
  });

  it('a known device has its own limit: past the email cap its 6th failure is refused, and the owner’s other browser still signs in', async () => {
    const owner = await t.account('user');
    const laptop = await browserOf(owner.email, '192.0.2.30');
    const phone = await browserOf(owner.email, '192.0.2.31');
    await strangersSpend(owner.email, '10.61.0');
    for (let typo = 0; typo < 5; typo++)
      expect((await login(owner.email, 'typo', '10.61.1.1', laptop)).status).toBe(401);
    expect((await login(owner.email, PASSWORD, '10.61.1.1', laptop)).status).toBe(429);
    expect((await login(owner.email, PASSWORD, '10.61.1.1', phone)).status).toBe(200);
  });

  it('a forged or altered cookie, or one for another account, gives no exemption past the email cap', async () => {
    const owner = await t.account('user');
    const other = await t.account('user');
    const browser = await browserOf(owner.email, '192.0.2.40');
    const othersBrowser = await browserOf(other.email, '192.0.2.41');
    await strangersSpend(owner.email, '10.62.0');
    const [named, device, signature] = browser.split('.') as [string, string, string];
    const [otherNamed, otherDevice, otherSignature] = othersBrowser.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const cookie of [
      `${named}.${device}.${flipped}`,
      `${named}.${device}x.${signature}`,
      `${named}.${otherDevice}.${otherSignature}`,
      `${otherNamed}.${otherDevice}.${otherSignature}`,
      `${named}.${device}`,
      'nonsense',
    ])
      expect((await login(owner.email, PASSWORD, '10.62.1.1', cookie)).status, cookie).toBe(429);
    expect((await login(owner.email, PASSWORD, '10.62.1.1', browser)).status).toBe(200);
  });

  it('the device cookie is Secure when the sign-in came over https', async () => {
    const proxied = await startApp(target, { config: { trustProxy: ['127.0.0.1'] } });
    try {
      const me = await proxied.account('user');
      const res = await proxied.call('POST', '/api/auth/login', {
        body: { email: me.email, password: PASSWORD },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.status).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    } finally {
      await proxied.close();
    }
  });
});

describe.each(targets)('client address behind a proxy on $name', (target) => {
  const attempt = (t: TestApp, email: string, forwardedFor: string) =>
    t.call('POST', '/api/auth/login', {
      body: { email, password: 'wrong password' },
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('by default X-Forwarded-For is ignored: every client behind the proxy is one address', async () => {
    const t = await startApp(target, { throttle: { perPair: 2, perEmail: 100, perAddress: 100 } });
    try {
      const me = await t.account('user');
      expect((await attempt(t, me.email, '203.0.113.1')).status).toBe(401);
      expect((await attempt(t, me.email, '203.0.113.2')).status).toBe(401);
      expect((await attempt(t, me.email, '203.0.113.3')).status).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('with TRUST_PROXY the forwarded client address is the one counted', async () => {
    const t = await startApp(target, {
      config: { trustProxy: ['127.0.0.1'] },
      throttle: { perPair: 2, perEmail: 100, perAddress: 100 },
    });
    try {
      const me = await t.account('user');
      for (let i = 0; i < 2; i++) expect((await attempt(t, me.email, '203.0.113.1')).status).toBe(401);
      expect((await attempt(t, me.email, '203.0.113.1')).status).toBe(429);
      expect((await attempt(t, me.email, '203.0.113.2')).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe.each(targets)('sessions on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const signIn = async (email: string) => {
    const res = await t.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(res.status).toBe(200);
    return parsed(res, LoginResponse).token;
  };

  it('POST /api/auth/logout revokes the token it is called with at once, and only that one', async () => {
    const me = await t.account('salesRep');
    const phone = await signIn(me.email);
    const laptop = await signIn(me.email);
    const res = await t.call('POST', '/api/auth/logout', { token: phone, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Signed out.' });
    expectErrorShape(await t.call('GET', '/api/products', { token: phone }), 401);
    // The hot routes that check the user in their own statement refuse it too.
    const product = await t.product({ stock: 5 });
    const order = await t.call('POST', '/api/order/add', {
      token: phone,
      body: { productId: product.id, quantity: 1 },
    });
    expectErrorShape(order, 401);
    expect(await t.sql('select 1 from orders where product_id = $1', [product.id])).toHaveLength(0);
    expectErrorShape(await t.call('POST', '/api/auth/logout', { token: phone, body: {} }), 401);
    expect((await t.call('GET', '/api/products', { token: laptop })).status).toBe(200);
  });

  it('POST /api/auth/logout without a body signs out too', async () => {
    const me = await t.account('user');
    const token = await signIn(me.email);
    expect((await t.call('POST', '/api/auth/logout', { token })).status).toBe(200);
    expectErrorShape(await t.call('GET', '/api/products', { token }), 401);
  });

  it('POST /api/auth/logout {everywhere: true} revokes every token of the user, and a new sign-in works', async () => {
    const me = await t.account('admin');
    const tokens = [await signIn(me.email), await signIn(me.email), me.token];
    const res = await t.call('POST', '/api/auth/logout', { token: tokens[0], body: { everywhere: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Signed out on every device.' });
    for (const token of tokens) {
      expectErrorShape(await t.call('GET', '/api/category', { token }), 401);
      expectErrorShape(await t.call('GET', '/api/dashboard', { token }), 401);
    }
    const fresh = await signIn(me.email);
    expect((await t.call('GET', '/api/dashboard', { token: fresh })).status).toBe(200);
    // Someone else's sessions are untouched.
    expect((await t.call('GET', '/api/dashboard', { token: t.as.admin.token })).status).toBe(200);
  });

  it('a sign-out survives a restart: a new server on the same database refuses the token, also where the user is checked in the route’s own statement', async () => {
    const storage = target.url ? await freshPostgres(target.url) : undefined;
    const dir = target.url ? undefined : mkdtempSync(join(tmpdir(), 'ims-restart-'));
    const config = testConfig({ databaseUrl: storage?.url, dataDir: dir ?? 'memory://' });
    const start = async () => {
      const database = await openDatabase(config);
      const app = await buildApp({ config, database });
      await app.ready();
      return { app, database };
    };
    const call = (
      app: Awaited<ReturnType<typeof start>>['app'],
      method: 'GET' | 'POST',
      url: string,
      token: string,
      payload?: object,
    ) =>
      app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      });
    try {
      const first = await start();
      const email = 'restart.user@example.com';
      await first.database.db
        .insert(users)
        .values({ name: 'Rhea Restart', email, passwordHash: await hashPassword(PASSWORD), role: 'user' });
      const [product] = await first.database.query<{ id: string }>(
        `with c as (insert into categories (name) values ('Restart shelf') returning id),
              s as (insert into suppliers (name) values ('Restart supplier') returning id)
         insert into products (name, price, stock, category_id, supplier_id)
         select 'Restart item', 1.00, 5, c.id, s.id from c, s returning id`,
      );
      const signedIn = await first.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: PASSWORD },
      });
      const token = signedIn.json().token as string;
      const kept = (
        await first.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email, password: PASSWORD },
        })
      ).json().token as string;
      expect((await call(first.app, 'POST', '/api/auth/logout', token, {})).statusCode).toBe(200);
      await first.app.close();

      const second = await start();
      try {
        const products = await call(second.app, 'GET', '/api/products', token);
        expect(products.statusCode).toBe(401);
        const order = await call(second.app, 'POST', '/api/order/add', token, {
          productId: product?.id,
          quantity: 1,
        });
        expect(order.statusCode).toBe(401);
        expect(order.json()).toEqual({
          success: false,
          code: 'SIGNED_OUT',
          error: expect.stringMatching(/sign in again/),
        });
        expect(await second.database.query('select 1 from orders')).toHaveLength(0);
        // The same user's other session is untouched.
        expect((await call(second.app, 'GET', '/api/products', kept)).statusCode).toBe(200);
      } finally {
        await second.app.close();
      }
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
      await storage?.drop();
    }
  });

  it('POST /api/auth/logout needs a valid token and a boolean everywhere', async () => {
    expectErrorShape(await t.call('POST', '/api/auth/logout', { body: {} }), 401);
    const me = await t.account('user');
    const bad = await t.call('POST', '/api/auth/logout', { token: me.token, body: { everywhere: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      success: false,
      error: 'everywhere: everywhere must be true or false.',
    });
    expect((await t.call('GET', '/api/products', { token: me.token })).status).toBe(200);
  });
});
