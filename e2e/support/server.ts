// Starts the real, built server on a free port with a throwaway embedded database.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The superAdmin the server creates on its empty database. */
export const SUPER_ADMIN = { email: 'owner@shop.test', password: 'owner-secret-1' } as const;

export type TestServer = {
  baseUrl: string;
  /** Lines the server logged at error level or above (a 500 is always logged). */
  errorLogs: string[];
  stop: () => Promise<void>;
  /** kill -9: the server dies mid-whatever; its database stays for a restart. */
  kill: () => Promise<void>;
  /** Starts the server again on the same port and database (after kill, or killing it first). */
  restart: () => Promise<void>;
};

/**
 * Builds dist/web and dist/server when their sources changed since the last build. The build
 * runs in its own process with NODE_ENV=production: inside the test runner NODE_ENV is "test",
 * and Vite would then bundle React's development build, which `npm start` would go on serving.
 */
export async function ensureBuilt(): Promise<void> {
  const script = pathToFileURL(join(ROOT, 'scripts', 'build.mjs')).href;
  const code = `import(${JSON.stringify(script)}).then((build) => build.ensureBuilt()).catch((error) => {
    console.error(error?.stack ?? error);
    process.exit(1);
  });`;
  const child = spawn(process.execPath, ['--input-type=module', '--eval', code], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  await exited(child);
  if (child.exitCode !== 0) throw new Error(`The build failed:\n${output.trim()}`);
}

/** One line for a logged error: its message, the error's first line and the request. */
function summarize(line: string): string {
  try {
    const entry = JSON.parse(line) as {
      msg?: string;
      err?: { message?: string };
      reqId?: string;
    };
    const cause = entry.err?.message?.replace(/\s+/g, ' ').slice(0, 240);
    return [entry.msg, cause, entry.reqId].filter(Boolean).join(' | ');
  } catch {
    return line.slice(0, 300);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The server exited with code ${child.exitCode} before it was ready:\n${output()}`);
    }
    try {
      const answer = await fetch(`${baseUrl}/api/health`);
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server did not answer /api/health within 60 s:\n${output()}`);
}

export async function startServer(): Promise<TestServer> {
  await ensureBuilt();
  const dataDir = await mkdtemp(join(tmpdir(), 'ims-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const recent: string[] = [];
  const errorLogs: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      recent.push(line);
      if (recent.length > 40) recent.shift();
      // pino levels: 50 error, 60 fatal.
      if (/"level":(5|6)0\b/.test(line)) errorLogs.push(summarize(line));
    }
  };

  /** One run of the server on this port and data directory. */
  const launch = () => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'server', 'main.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_EMAIL: SUPER_ADMIN.email,
        ADMIN_PASSWORD: SUPER_ADMIN.password,
        JWT_SECRET: '',
        TOKEN_TTL: '',
        LOW_STOCK_THRESHOLD: '5',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    return child;
  };
  let child = launch();
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  const kill = async () => {
    child.kill('SIGKILL');
    await exited(child);
  };

  const restart = async () => {
    if (child.exitCode === null && child.signalCode === null) await kill();
    child = launch();
    await waitForHealth(baseUrl, child, () => recent.join('\n'));
  };

  try {
    await waitForHealth(baseUrl, child, () => recent.join('\n'));
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, errorLogs, stop, kill, restart };
}
