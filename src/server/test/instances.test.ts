import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres } from './harness';
import { type ServerProcess, startServer } from './process';
import { Relay } from './relay';

const baseUrl = process.env.TEST_DATABASE_URL;
const REDIS = { host: '127.0.0.1', port: 6379 };
/** The first account (superAdmin) the server makes on an empty database. */
const OWNER = { email: 'owner@instances.test', password: 'instances password' };

/** A client address of this run's own, so runs sharing one Redis never share counters. */
const address = () => `10.${randomBytes(3).join('.')}`;

type Reply = { status: number; body: { success: boolean; [key: string]: unknown } };

async function call(
  server: ServerProcess,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; from?: string } = {},
): Promise<Reply> {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.from ? { 'x-forwarded-for': options.from } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: res.status, body: (await res.json()) as Reply['body'] };
}

async function signIn(server: ServerProcess, email: string, password: string): Promise<string> {
  const res = await call(server, 'POST', '/api/auth/login', { body: { email, password }, from: address() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

/** The signed-in user's id, from the token's subject. */
const subject = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub;

describe.skipIf(!baseUrl)('two server processes on one PostgreSQL and one Redis', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let drop: () => Promise<void>;
  let adminToken: string;
  let rep: { email: string; password: string };

  beforeAll(async () => {
    const db = await freshPostgres(baseUrl as string);
    drop = db.drop;
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: `redis://${REDIS.host}:${REDIS.port}`,
      // The test speaks for many clients through X-Forwarded-For, as a load balancer would.
      TRUST_PROXY: 'loopback',
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
    };
    // One after the other: the first creates the schema, the admin and the token secret.
    a = await startServer(env);
    b = await startServer(env);
    const ownerToken = await signIn(a, OWNER.email, OWNER.password);
    const admin = {
      email: `admin.${randomBytes(4).toString('hex')}@instances.test`,
      password: 'admin password 1',
    };
    const madeAdmin = await call(b, 'POST', '/api/users/add', {
      token: ownerToken,
      body: { name: 'Ada Admin', email: admin.email, password: admin.password, address: '', role: 'admin' },
    });
    expect(madeAdmin.status).toBe(201);
    adminToken = await signIn(b, admin.email, admin.password);
    rep = { email: `rep.${randomBytes(4).toString('hex')}@instances.test`, password: 'rep password 1' };
    const created = await call(b, 'POST', '/api/users/add', {
      token: adminToken,
      body: {
        name: 'Rita Rep',
        email: rep.email,
        password: rep.password,
        address: 'Road 1',
        role: 'salesRep',
      },
    });
    expect(created.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await drop?.();
  });

  it('concurrent orders across both never oversell', async () => {
    const category = await call(a, 'POST', '/api/category/add', {
      token: adminToken,
      body: { formCategory: 'Shared shelf' },
    });
    const supplier = await call(b, 'POST', '/api/supplier/add', {
      token: adminToken,
      body: { name: 'Shared supplier', email: '', phone: '', address: '' },
    });
    const product = await call(a, 'POST', '/api/products/add', {
      token: adminToken,
      body: {
        name: 'Last thirty',
        description: '',
        price: 2.5,
        stock: 30,
        category: (category.body.category as { _id: string })._id,
        supplier: (supplier.body.supplier as { _id: string })._id,
      },
    });
    const productId = (product.body.product as { _id: string })._id;
    const token = await signIn(a, rep.email, rep.password);

    const attempts = Array.from({ length: 80 }, (_, i) =>
      call(i % 2 === 0 ? a : b, 'POST', '/api/order/add', { token, body: { productId, quantity: 1 } }).then(
        (res) => ({ on: i % 2 === 0 ? 'a' : 'b', status: res.status }),
      ),
    );
    const results = await Promise.all(attempts);
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(accepted.length + refused.length).toBe(80);
    expect(accepted).toHaveLength(30);
    const onA = accepted.filter((r) => r.on === 'a').length;
    console.log(
      `[postgres] two instances: ${accepted.length} orders accepted (${onA} by A, ${accepted.length - onA} by B), ${refused.length} refused with 409, stock 30 → 0`,
    );
    const after = await call(b, 'GET', '/api/products?page=1&search=Last%20thirty', { token: adminToken });
    expect((after.body.products as Array<{ stock: number }>)[0]?.stock).toBe(0);
    // An admin asking with its own id sees every order.
    const orders = await call(a, 'GET', `/api/order/${subject(adminToken)}`, { token: adminToken });
    const placed = (orders.body.orders as Array<{ product: { name: string } }>).filter(
      (o) => o.product.name === 'Last thirty',
    );
    expect(placed).toHaveLength(30);
  });

  it('a sign-out on one is refused on the other at once', async () => {
    const token = await signIn(a, rep.email, rep.password);
    expect((await call(b, 'GET', '/api/products?page=1', { token })).status).toBe(200);
    expect((await call(a, 'POST', '/api/auth/logout', { token, body: {} })).status).toBe(200);
    expect((await call(b, 'GET', '/api/products?page=1', { token })).status).toBe(401);
    expect((await call(a, 'GET', '/api/products?page=1', { token })).status).toBe(401);
  });

  it('the sign-in throttle holds across both: attempts on either count, a burst gets 5 checked in all', async () => {
    const from = address();
    for (let i = 0; i < 5; i++) {
      const res = await call(i % 2 === 0 ? a : b, 'POST', '/api/auth/login', {
        body: { email: rep.email, password: 'wrong' },
        from,
      });
      expect(res.status).toBe(401);
    }
    for (const server of [a, b]) {
      const res = await call(server, 'POST', '/api/auth/login', {
        body: { email: rep.email, password: rep.password },
        from,
      });
      expect(res.status).toBe(429);
    }

    const burstFrom = address();
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 === 0 ? a : b, 'POST', '/api/auth/login', {
          body: { email: rep.email, password: 'wrong again' },
          from: burstFrom,
        }),
      ),
    );
    const checked = burst.filter((res) => res.status === 401).length;
    const throttled = burst.filter((res) => res.status === 429).length;
    console.log(
      `[postgres] two instances: a burst of 20 wrong sign-ins got ${checked} checked, ${throttled} refused with 429`,
    );
    expect(checked).toBe(5);
    expect(throttled).toBe(15);
  });
});

describe.skipIf(!baseUrl)('a server whose Redis stops answering', () => {
  it('keeps serving on its own counters, says so once in the log, and signs out still', async () => {
    const db = await freshPostgres(baseUrl as string);
    const relay = new Relay(REDIS.host, REDIS.port);
    await relay.up();
    const server = await startServer({
      DATABASE_URL: db.url,
      REDIS_URL: `redis://127.0.0.1:${relay.port}`,
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
    });
    try {
      const token = await signIn(server, OWNER.email, OWNER.password);
      expect(server.output()).not.toMatch(/Redis is not answering/);
      await relay.down();
      for (let i = 0; i < 3; i++) {
        expect((await call(server, 'GET', '/api/users', { token })).status).toBe(200);
        expect((await call(server, 'POST', '/api/auth/login', { body: OWNER })).status).toBe(200);
      }
      // Per-process counters still throttle.
      for (let i = 0; i < 5; i++)
        expect(
          (await call(server, 'POST', '/api/auth/login', { body: { ...OWNER, password: 'nope' } })).status,
        ).toBe(401);
      expect((await call(server, 'POST', '/api/auth/login', { body: OWNER })).status).toBe(429);
      // A sign-out still holds on this instance.
      expect((await call(server, 'POST', '/api/auth/logout', { token, body: {} })).status).toBe(200);
      expect((await call(server, 'GET', '/api/users', { token })).status).toBe(401);
      expect(server.output().match(/Redis is not answering/g)).toHaveLength(1);
    } finally {
      await server.stop();
      await relay.down();
      await db.drop();
    }
  }, 90_000);
});

describe.skipIf(!baseUrl)('two server processes whose Redis stops answering', () => {
  it('a sign-out on one while Redis is down is refused on the other: sign-outs are kept in the database', async () => {
    const db = await freshPostgres(baseUrl as string);
    const relay = new Relay(REDIS.host, REDIS.port);
    await relay.up();
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: `redis://127.0.0.1:${relay.port}`,
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
    };
    const a = await startServer(env);
    const b = await startServer(env).catch(async (error) => {
      await a.stop();
      throw error;
    });
    try {
      const token = await signIn(a, OWNER.email, OWNER.password);
      expect((await call(b, 'GET', '/api/users', { token })).status).toBe(200);
      await relay.down();
      expect((await call(a, 'POST', '/api/auth/logout', { token, body: {} })).status).toBe(200);
      expect((await call(b, 'GET', '/api/users', { token })).status).toBe(401);
      expect((await call(b, 'GET', '/api/products?page=1', { token })).status).toBe(401);
      expect(a.output()).toMatch(/Redis is not answering/);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await relay.down();
      await db.drop();
    }
  }, 120_000);
});
