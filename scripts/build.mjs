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

/** Builds into `outDir` (dist/ unless told otherwise). */
export async function build(outDir = join(root, 'dist')) {
  const started = Date.now();
  const print = await fingerprint();
  // Always the production bundle, whatever NODE_ENV the caller runs under (a test runner sets
  // "test", which would otherwise give React's development build).
  const callerEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const { build: viteBuild } = await import('vite');
    await viteBuild({
      root: join(root, 'src', 'web'),
      configFile: join(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir: join(outDir, 'web'), emptyOutDir: true },
    });
  } finally {
    if (callerEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = callerEnv;
  }
  const { build: bundle } = await import('esbuild');
  await bundle({
    entryPoints: [join(root, 'src/server/main.ts'), join(root, 'src/server/demo.ts')],
    outdir: join(outDir, 'server'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, '.build-fingerprint'), print);
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
