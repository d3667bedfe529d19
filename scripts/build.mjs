// Builds the web app (dist/web) and the server bundle (dist/server), and records a fingerprint
// of the sources so that `npm start` rebuilds only when something changed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = join(root, 'dist', '.build-fingerprint');
const INPUTS = ['src', 'migrations', 'vite.config.ts', 'package.json', 'package-lock.json'];

function* files(path) {
  if (!existsSync(path)) return;
  const stat = statSync(path);
  if (stat.isFile()) {
    if (!/\.test\.tsx?$/.test(path)) yield [relative(root, path), stat.size, stat.mtimeMs];
    return;
  }
  for (const entry of readdirSync(path).sort()) yield* files(join(path, entry));
}

export function fingerprint() {
  const hash = createHash('sha256');
  for (const input of INPUTS)
    for (const file of files(join(root, input))) hash.update(file.join('|')).update('\n');
  return hash.digest('hex');
}

export function isBuilt() {
  return (
    existsSync(join(root, 'dist', 'web', 'index.html')) &&
    existsSync(join(root, 'dist', 'server', 'main.js')) &&
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === fingerprint()
  );
}

export async function build() {
  const started = Date.now();
  const print = await fingerprint();
  const { build: viteBuild } = await import('vite');
  await viteBuild({
    root: join(root, 'src', 'web'),
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
  });
  const { build: bundle } = await import('esbuild');
  await bundle({
    entryPoints: [join(root, 'src/server/main.ts'), join(root, 'src/server/demo.ts')],
    outdir: join(root, 'dist', 'server'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, print);
  console.log(`Built the web app and the server in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

export async function ensureBuilt() {
  if (!isBuilt()) await build();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  build().catch((error) => {
    console.error(`Build failed: ${error?.message ?? error}`);
    process.exit(1);
  });
}
