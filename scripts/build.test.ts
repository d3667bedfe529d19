import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build, fingerprint } from './build.mjs';
import { LOGIN_BUDGET_BYTES, loginWeight, serveWeb } from './login-weight.mjs';

// A folder of its own, so a server of another test serving dist/ is never disturbed.
const outDir = mkdtempSync(join(tmpdir(), 'ims-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

// Both tests read the same build, made once by whichever runs first.
let built: Promise<void> | undefined;
const buildOnce = () => {
  built ??= build(outDir);
  return built;
};

describe('the build', () => {
  it('makes the production web bundle and the server even under a test runner (NODE_ENV=test)', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    await buildOnce();
    expect(existsSync(join(outDir, 'web', 'index.html'))).toBe(true);
    expect(existsSync(join(outDir, 'server', 'main.js'))).toBe(true);
    expect(readFileSync(join(outDir, '.build-fingerprint'), 'utf8')).toBe(fingerprint());
    const assets = join(outDir, 'web', 'assets');
    const scripts = readdirSync(assets).filter((file) => file.endsWith('.js'));
    expect(scripts.some((file) => file.startsWith('jsx-dev-runtime'))).toBe(false);
    const code = scripts.map((file) => readFileSync(join(assets, file), 'utf8')).join('\n');
    expect(code).not.toContain('jsxDEV');
    expect(process.env.NODE_ENV).toBe('test');
  }, 120_000);

  it('keeps every built file in the service worker, so the app opens with no network', async () => {
    await buildOnce();
    const web = join(outDir, 'web');
    const worker = readFileSync(join(web, 'sw.js'), 'utf8');
    const kept = new Set([...worker.matchAll(/\burl:\s*"([^"]+)"/g)].map((match) => match[1]));
    const built = readdirSync(web, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(web, join(entry.parentPath, entry.name)).split(sep).join('/'))
      // The worker and its Workbox runtime are the browser's to fetch, not the worker's to keep.
      .filter((file) => file !== 'sw.js' && !/^workbox-[0-9a-f]+\.js$/.test(file));
    expect(built).toContain('index.html');
    expect(built).toContain('manifest.webmanifest');
    expect(built.filter((file) => !kept.has(file))).toEqual([]);
  }, 120_000);

  // Like the end-to-end stories: without Chromium it is skipped, unless REQUIRE_E2E=1 (CI) makes that a failure.
  it.skipIf(!existsSync('/usr/bin/chromium') && process.env.REQUIRE_E2E !== '1')(
    'keeps the JavaScript the login page downloads under 100 kB gzipped',
    async () => {
      await buildOnce();
      const web = await serveWeb(join(outDir, 'web'));
      try {
        const { scripts, gzip } = await loginWeight(web.url);
        expect(scripts.length).toBeGreaterThan(0);
        expect(gzip, scripts.map((script) => `${script.file} ${script.gzip}`).join(', ')).toBeLessThan(
          LOGIN_BUDGET_BYTES,
        );
      } finally {
        await web.close();
      }
    },
    120_000,
  );
});
