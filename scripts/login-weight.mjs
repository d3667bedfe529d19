// How much JavaScript the login page makes a visitor download, gzipped: the first page a user
// opens, often on a phone. Loads /login in headless Chromium and adds up every script it fetched.
//
//   node scripts/login-weight.mjs         builds when the sources changed, then measures dist/web
//
// The bench calls loginWeight() against the running server and prints the same figure.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The budget for the login page's scripts, gzipped. */
export const LOGIN_BUDGET_BYTES = 100_000;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Opens `${url}/login` as a visitor (no stored session), waits until the form is shown and the
 * network is quiet, and answers every script fetched with its size and gzipped size (level 9,
 * as build tools report it), largest first. `later` lists what the page fetches once the visitor
 * starts on the form (the rest of the app, so signing in does not wait for it): not part of the
 * page's weight, shown to keep the figure honest.
 */
export async function loginWeight(url, { executablePath = '/usr/bin/chromium' } = {}) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    let fetched = [];
    page.on('response', (response) => {
      const type = response.headers()['content-type'] ?? '';
      if (response.request().resourceType() !== 'script' && !type.includes('javascript')) return;
      const measured = response.body().then((body) => ({
        file: new URL(response.url()).pathname,
        bytes: body.length,
        gzip: gzipSync(body, { level: 9 }).length,
      }));
      // A script still arriving when the measuring is done fails once the browser closes; only
      // those awaited below count, so that failure is not the run's.
      measured.catch(() => {});
      fetched.push(measured);
    });
    const settle = async (list) => (await Promise.all(list)).sort((a, b) => b.gzip - a.gzip);
    await page.goto(`${url}/login`);
    await page.getByLabel('Password').waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const scripts = await settle(fetched);
    fetched = [];
    // The email field has the focus on load; a key is what starts the visitor on the form.
    await page.getByLabel('Email').press('Shift');
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const later = await settle(fetched);
    const sum = (list) => list.reduce((total, script) => total + script.gzip, 0);
    return { scripts, gzip: sum(scripts), later, laterGzip: sum(later) };
  } finally {
    await browser.close();
  }
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** dist/web over HTTP, every unknown path answered with index.html as the real server does. */
export function serveWeb(dir = join(root, 'dist', 'web')) {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    let file = join(dir, path);
    if (relative(dir, file).startsWith('..') || !existsSync(file) || !statSync(file).isFile())
      file = join(dir, 'index.html');
    response.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
    response.end(readFileSync(file));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

export const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

async function main() {
  const { ensureBuilt } = await import('./build.mjs');
  await ensureBuilt();
  const web = await serveWeb();
  try {
    const { scripts, gzip, later, laterGzip } = await loginWeight(web.url);
    const print = (list) => {
      for (const script of list)
        console.log(`${kB(script.gzip).padStart(9)} gzip ${kB(script.bytes).padStart(9)}  ${script.file}`);
    };
    print(scripts);
    const within = gzip < LOGIN_BUDGET_BYTES;
    console.log(
      `Login page JavaScript: ${kB(gzip)} gzipped in ${scripts.length} files (budget < ${kB(LOGIN_BUDGET_BYTES)}): ${within ? 'within' : 'OVER'}.`,
    );
    console.log(`Fetched once the visitor starts on the form: ${kB(laterGzip)} in ${later.length} files.`);
    print(later);
    if (!within) process.exitCode = 1;
  } finally {
    await web.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(`Could not measure the login page: ${error?.message ?? error}`);
    process.exit(1);
  });
}
