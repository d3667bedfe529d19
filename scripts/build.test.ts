import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build, fingerprint } from './build.mjs';

// A folder of its own, so a server of another test serving dist/ is never disturbed.
const outDir = mkdtempSync(join(tmpdir(), 'ims-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the build', () => {
  it('makes the production web bundle and the server even under a test runner (NODE_ENV=test)', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    await build(outDir);
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
});
