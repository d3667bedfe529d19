import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

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
