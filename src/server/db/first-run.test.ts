import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { openTestDatabase, targets, testConfig } from '../test/harness';
import { openDatabase } from './connection';
import { ensureFirstAdmin, tokenSecret } from './first-run';

type Opened = Awaited<ReturnType<typeof openTestDatabase>>;

/** Signs in through the HTTP API of an app built on the given database, then closes the app. */
async function signIn(opened: Opened, email: string, password: string) {
  const app = await buildApp({ config: opened.config, database: opened.database });
  try {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    return { status: res.statusCode, body: res.json() };
  } finally {
    await app.close();
  }
}

describe.each(targets)('first run on $name', (target) => {
  it('ensureFirstAdmin creates a superAdmin with the given credentials, who signs in through the API', async () => {
    const opened = await openTestDatabase(target);
    try {
      const created = await ensureFirstAdmin(opened.database.db, 'owner@shop.test', 'owner password 1');
      expect(created).toEqual({ email: 'owner@shop.test', generatedPassword: undefined });
      const rows = await opened.database.query<{ email: string; role: string; password_hash: string }>(
        'select email, role, password_hash from users',
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ email: 'owner@shop.test', role: 'superAdmin' });
      expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
      expect(rows[0]?.password_hash).not.toContain('owner password 1');

      const res = await signIn(opened, 'owner@shop.test', 'owner password 1');
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ email: 'owner@shop.test', role: 'superAdmin' });
    } finally {
      await opened.dispose();
    }
  });

  it('ensureFirstAdmin does nothing once a user exists', async () => {
    const opened = await openTestDatabase(target);
    try {
      await ensureFirstAdmin(opened.database.db, 'first@shop.test', 'first password');
      expect(
        await ensureFirstAdmin(opened.database.db, 'second@shop.test', 'second password'),
      ).toBeUndefined();
      expect(await ensureFirstAdmin(opened.database.db)).toBeUndefined();
      const rows = await opened.database.query<{ email: string }>('select email from users');
      expect(rows).toEqual([{ email: 'first@shop.test' }]);
    } finally {
      await opened.dispose();
    }
  });

  it('ensureFirstAdmin generates a strong password when none is given, and it signs in', async () => {
    const opened = await openTestDatabase(target);
    try {
      const created = await ensureFirstAdmin(opened.database.db);
      expect(created?.email).toBe('admin@inventory.local');
      const password = created?.generatedPassword as string;
      // 12 random bytes: 96 bits, written in 16 URL-safe characters.
      expect(password).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      expect(new Set(password).size).toBeGreaterThan(8);
      const res = await signIn(opened, 'admin@inventory.local', password);
      expect(res.status).toBe(200);
      expect(res.body.user.role).toBe('superAdmin');
    } finally {
      await opened.dispose();
    }
  });

  it('tokenSecret is generated once and then stable, and a configured secret wins without replacing it', async () => {
    const opened = await openTestDatabase(target);
    try {
      const first = await tokenSecret(opened.database.db);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(await tokenSecret(opened.database.db)).toBe(first);
      const configured = 'c'.repeat(40);
      expect(await tokenSecret(opened.database.db, configured)).toBe(configured);
      expect(await tokenSecret(opened.database.db)).toBe(first);
      const rows = await opened.database.query("select 1 from settings where key = 'jwt_secret'");
      expect(rows).toHaveLength(1);
    } finally {
      await opened.dispose();
    }
  });
});

describe('tokenSecret across a restart', () => {
  it('is the same after the embedded database is closed and opened again, so tokens survive', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ims-secret-'));
    try {
      const first = await openDatabase({ dataDir });
      const secret = await tokenSecret(first.db);
      await ensureFirstAdmin(first.db, 'keeper@shop.test', 'keeper password');
      const app = await buildApp({ config: testConfig({ dataDir }), database: first });
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'keeper@shop.test', password: 'keeper password' },
      });
      const token = login.json().token as string;
      await app.close();

      const second = await openDatabase({ dataDir });
      expect(await tokenSecret(second.db)).toBe(secret);
      const again = await buildApp({ config: testConfig({ dataDir }), database: second });
      try {
        const res = await again.inject({
          method: 'GET',
          url: '/api/products',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode).toBe(200);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
