import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { freshPostgres, testConfig } from '../test/harness';
import { Relay } from '../test/relay';
import { openDatabase } from './connection';

const baseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!baseUrl)('while PostgreSQL is unreachable', () => {
  let relay: Relay;
  let close: () => Promise<void>;
  let call: (
    url: string,
    token?: string,
  ) => Promise<{ status: number; body: { success: boolean; error?: string } }>;
  let token: string;

  beforeAll(async () => {
    const fresh = await freshPostgres(baseUrl as string);
    const url = new URL(fresh.url);
    relay = new Relay(url.hostname, Number(url.port || 5432));
    await relay.up();
    url.port = String(relay.port);
    const config = testConfig({ databaseUrl: url.toString() });
    const database = await openDatabase({ ...config, poolSize: 4 });
    const app = await buildApp({ config, database });
    const [user] = await database.query<{ id: string }>(
      `insert into users (name, email, password_hash, role) values ('A', 'a@example.com', 'x', 'admin') returning id`,
    );
    token = await app.tokens.sign({ userId: user?.id as string, tokenVersion: 0 });
    call = async (path, bearer) => {
      const res = await app.inject({
        url: path,
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      });
      return { status: res.statusCode, body: res.json() };
    };
    close = async () => {
      await relay.up();
      await app.close();
      await fresh.drop();
    };
  });
  afterAll(() => close?.());

  it('every call answers 503 within 5 s, and service resumes by itself when the database returns', async () => {
    expect((await call('/api/products', token)).status).toBe(200);
    expect((await call('/api/health')).status).toBe(200);

    await relay.down();
    for (const path of ['/api/products', '/api/dashboard', '/api/health']) {
      const started = Date.now();
      const res = await call(path, token);
      // A contract of DESIGN §4 rather than a speed target: an outage must not hang clients.
      expect(Date.now() - started).toBeLessThan(5000);
      expect(res.status).toBe(503);
      expect(res.body.success).toBe(false);
      if (path !== '/api/health')
        expect(res.body.error).toBe('The database is not answering; please try again shortly.');
    }

    await relay.up();
    const resumed = await call('/api/products', token);
    expect(resumed.status).toBe(200);
    expect((await call('/api/health')).status).toBe(200);
  });
});
