import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

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

export interface RunningServer {
  url: string;
  /** The server process, for reading its memory. */
  pid: number;
  stop(): Promise<void>;
}

/** The built server (dist/server/main.js) as its own process, like production. */
export async function startServer(
  root: string,
  env: Record<string, string>,
  logFile: string,
): Promise<RunningServer> {
  const port = await freePort();
  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(process.execPath, [join(root, 'dist', 'server', 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited at start; see ${logFile}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start in 2 minutes; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid as number,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      log.end();
    },
  };
}
