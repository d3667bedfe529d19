import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, spawnServer, startServer, waitForHealth } from '../test/process';
import { openDatabase } from './connection';
import { DataFolderInUse, LOCK_FILE, lockDataFolder } from './data-lock';

const dirs: string[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ims-lock-'));
  dirs.push(dir);
  return dir;
}

/** A pid that no process has any more: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

async function signIn(server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.com', password: 'owner-password' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

const OWNER = { ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'owner-password' };

describe('the data folder belongs to one server', () => {
  it('refuses a second hold in the same process and frees the folder on release', () => {
    const dir = folder();
    const release = lockDataFolder(dir);
    expect(() => lockDataFolder(dir)).toThrow(DataFolderInUse);
    expect(() => lockDataFolder(dir)).toThrow(`(process ${process.pid})`);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lockDataFolder(dir)();
  });

  it('takes over a lock whose process is gone, or whose pid now belongs to another program', () => {
    const dir = folder();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), started: '1' }));
    const release = lockDataFolder(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    release();
    // pid 1 runs, but it started at another moment than the lock says: another program.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1, started: 'not-its-start' }));
    lockDataFolder(dir)();
    // A lock that is not ours to read (garbage) is stale as well.
    writeFileSync(join(dir, LOCK_FILE), 'not a lock');
    lockDataFolder(dir)();
  });

  it('opening the embedded database holds its folder until it is closed', async () => {
    const dir = folder();
    const database = await openDatabase({ dataDir: dir });
    try {
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataFolderInUse);
      await database.query('select 1');
    } finally {
      await database.close();
    }
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  // Real server processes, each compiling TypeScript on the fly: slow on a busy machine.
  it('a second server on the folder refuses to start with one line naming it and the holder', async () => {
    const dir = folder();
    const first = await startServer({ DATA_DIR: dir, ...OWNER }, 90_000);
    servers.push(first);
    const second = spawnServer({ PORT: String(await freePort()), DATA_DIR: dir });
    servers.push(second);
    expect(await second.exited).toBe(1);
    const lines = second.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `The data folder ${dir} is in use by another server (process ${first.child.pid})`,
    );
    // The first still serves, untouched.
    expect((await fetch(`${first.base}/api/health`)).status).toBe(200);
    expect(await first.stop()).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 180_000);

  it('after kill -9 the next server takes the stale lock over and finds every acknowledged write', async () => {
    const dir = folder();
    const first = await startServer({ DATA_DIR: dir, ...OWNER }, 90_000);
    servers.push(first);
    const token = await signIn(first);
    const made = await fetch(`${first.base}/api/users/add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'Kept',
        email: 'kept@example.com',
        password: 'kept-password',
        role: 'admin',
      }),
    });
    expect(made.status).toBe(201);
    await first.stop('SIGKILL');
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);

    // Two servers start at once on the stale lock: exactly one takes it.
    const [a, b] = [
      spawnServer({ PORT: String(await freePort()), DATA_DIR: dir }),
      spawnServer({ PORT: String(await freePort()), DATA_DIR: dir }),
    ];
    servers.push(a, b);
    const started = await Promise.any([
      waitForHealth(a, 90_000).then(() => a),
      waitForHealth(b, 90_000).then(() => b),
    ]);
    const other = started === a ? b : a;
    expect(await other.exited).toBe(1);
    expect(other.output()).toContain(`is in use by another server (process ${started.child.pid})`);
    const users = await fetch(`${started.base}/api/users`, {
      headers: { authorization: `Bearer ${await signIn(started)}` },
    });
    expect(JSON.stringify(await users.json())).toContain('kept@example.com');
    expect(await started.stop()).toBe(0);
  }, 240_000);
});
