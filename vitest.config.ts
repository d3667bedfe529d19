import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * As many files at once as there are cores: test files wait on PostgreSQL, Chromium and the
 * servers they start for much of their time (vitest's default is one fewer than the cores: one
 * file at a time on two). Browser stories share the same workers as the rest: one of them a
 * project of its own (fileParallelism false) would run after every other file, one at a time,
 * with a core idle for ten minutes. TEST_WORKERS sets another number (decision 0033).
 */
const WORKERS = Number(process.env.TEST_WORKERS) || availableParallelism();

/**
 * Server files that race many requests against one row, a pool's 3 s wait or a process's kill
 * and restart: they run after the rest, one at a time, with the machine to themselves. Beside
 * another file they measure the other file's CPU (a 200-request burst on one product row waits
 * past the pool's 3 s and answers 503 instead of 409).
 */
const RACES = [
  'src/server/modules/stock/stock.test.ts',
  'src/server/modules/orders/orders.test.ts',
  'src/server/test/instances.test.ts',
  'src/server/graceful-stop.test.ts',
  'src/server/db/data-lock.test.ts',
];

const SERVER = {
  environment: 'node' as const,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // One migrated database, copied for each test (src/server/test/global-setup.ts, harness.ts).
  globalSetup: ['src/server/test/global-setup.ts'],
  // Files share their worker's process: the embedded database's WebAssembly is compiled once a
  // worker, not once a file (2 s each). Server tests keep no state outside their databases and
  // servers, and mock nothing.
  isolate: false,
};

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    projects: [
      {
        test: {
          ...SERVER,
          name: 'server',
          include: [
            'src/shared/**/*.test.ts',
            'src/server/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          exclude: RACES,
        },
      },
      {
        test: {
          ...SERVER,
          name: 'server races',
          include: RACES,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['src/web/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Each story starts its own server on a free port with its own embedded database and
          // its own browser; the build they serve is made once, before any of them.
          globalSetup: ['e2e/support/global-setup.ts'],
        },
      },
    ],
  },
});
