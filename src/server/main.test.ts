import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, waitForHealth } from './test/process';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the server process', () => {
  it('stops with one line naming the variable when the configuration is bad', async () => {
    const running = spawnServer({ PORT: 'abc', DATA_DIR: 'memory://' });
    expect(await running.exited).toBe(1);
    const lines = running.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid PORT: /);
  });

  // Two server starts (each compiling TypeScript on the fly) take long on a busy machine: 120 s.
  it('on SIGTERM finishes the request in flight, exits 0, and the embedded data survives a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ims-main-'));
    dirs.push(dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'owner-password',
    };
    const first = spawnServer(env);
    await waitForHealth(first);
    expect(first.output()).toContain('owner@example.com');

    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'owner-password' }),
    });
    const { token } = (await login.json()) as { token: string };
    const admin = await fetch(`${base}/api/users/add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'Kept',
        email: 'kept@example.com',
        password: 'kept-password',
        role: 'admin',
      }),
    });
    expect(admin.status).toBe(201);

    // A sign-in spends a few milliseconds hashing: the signal arrives while it is in flight.
    const inFlight = fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kept@example.com', password: 'kept-password' }),
    });
    await new Promise((r) => setTimeout(r, 5));
    const stopAt = Date.now();
    first.child.kill('SIGTERM');
    expect((await inFlight).status).toBe(200);
    expect(await first.exited).toBe(0);
    // Not a speed target: well under the 10 s cut-off means no keep-alive socket held it open.
    expect(Date.now() - stopAt).toBeLessThan(8000);

    const second = spawnServer(env);
    await waitForHealth(second);
    expect(second.output()).not.toContain('Created the first account');
    const again = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kept@example.com', password: 'kept-password' }),
    });
    expect(again.status).toBe(200);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  }, 120_000);
});
