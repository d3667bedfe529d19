// `npm start`: builds what changed, then runs the server in this process.
// `npm start -- --demo` / `npm run demo`: the same on a fresh demo database in ./data-demo, on
// loopback only (`npm run demo -- --public` listens on every interface).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from './build.mjs';
import { demoHost } from './demo-host.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

try {
  await ensureBuilt();
} catch (error) {
  console.error(`Build failed: ${error?.message ?? error}`);
  process.exit(1);
}

if (process.argv.includes('--demo')) {
  if (process.env.DATABASE_URL)
    console.log('The demo runs on the embedded database; DATABASE_URL is ignored.');
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = process.env.DEMO_DATA_DIR || join(root, 'data-demo');
  process.env.HOST = demoHost(process.argv);
  const seeded = spawnSync(process.execPath, [join(root, 'dist', 'server', 'demo.js')], { stdio: 'inherit' });
  if (seeded.status !== 0) process.exit(seeded.status ?? 1);
}

await import(pathToFileURL(join(root, 'dist', 'server', 'main.js')).href);
