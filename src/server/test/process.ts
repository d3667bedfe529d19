import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase } from '../db/connection';
import { freshPostgres, type Target } from './harness';

/** The server's entry point, run through tsx so tests need no build. */
const ENTRY = join(import.meta.dirname, '..', 'main.ts');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A real server process, as production runs it (`node main.js`). */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  exited: Promise<number | null>;
  /** Sends the signal and answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Spawns the server with only the given environment (and PATH, HOME, TZ=UTC); PORT, when given,
 * may be anything (a bad one shows how the server refuses it). Does not wait for it to listen.
 */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const port = Number(env.PORT ?? 0);
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TZ: 'UTC',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Waits until the server answers its health check; stops it and throws when it does not. */
export async function waitForHealth(running: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let done = false;
  void running.exited.then(() => {
    done = true;
  });
  while (Date.now() < deadline && !done) {
    try {
      if ((await fetch(`${running.base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await running.stop('SIGKILL');
  throw new Error(`the server did not start:\n${running.output()}`);
}

/** Starts the server on a free port (unless env names one) and waits until it answers. */
export async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const running = spawnServer({ PORT: String(await freePort()), ...env });
  await waitForHealth(running, timeoutMs);
  return running;
}

/**
 * A database for real server processes of `target`, made before any server opens it: a fresh
 * PostgreSQL database, or the embedded one in a new temporary directory (which belongs to one
 * process at a time: seed it, close it, then start the server; stop the server before reading it).
 * `env` is what the server is started with; `dispose` drops or deletes it.
 */
export async function serverDatabase(target: Target): Promise<{
  env: Record<string, string>;
  open: () => Promise<Database>;
  dispose: () => Promise<void>;
}> {
  const fresh = target.url ? await freshPostgres(target.url) : undefined;
  const dataDir = fresh ? undefined : mkdtempSync(join(tmpdir(), 'ims-process-'));
  const env: Record<string, string> = fresh ? { DATABASE_URL: fresh.url } : { DATA_DIR: dataDir ?? '' };
  return {
    env,
    open: () => openDatabase({ databaseUrl: fresh?.url, dataDir: dataDir ?? '' }),
    dispose: async () => {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      await fresh?.drop();
    },
  };
}

/** Signs in to a running server and answers the token (throws unless it answers 200). */
export async function signInTo(server: ServerProcess, email: string, password: string): Promise<string> {
  const res = await fetch(`${server.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}
