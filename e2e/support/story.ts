// The end-to-end fixture: one built server and one Chromium per test file, a fresh browser
// context per story, and a story fails on any console error, page error, 5xx answer, server
// error log or request to another host.
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { describe, test } from 'vitest';
import type { Role } from '../../src/shared/roles';
import { expectPath } from './page';
import { startServer, type TestServer } from './server';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const hasChromium = existsSync(CHROMIUM);
const required = process.env.REQUIRE_E2E === '1';
const missingMessage = `${CHROMIUM} is not installed (apt-get install chromium)`;

/** Where each role lands after signing in. */
export const HOME: Record<Role, string> = {
  superAdmin: '/superAdmin-dashboard',
  admin: '/admin-dashboard',
  salesRep: '/salesRep-dashboard',
  medicalRep: '/medicalRep-dashboard',
  user: '/employee-dashboard',
};

type TestApp = { server: TestServer; browser: Browser };

export type Story = {
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  /**
   * Declares a 4xx answer the story provokes on purpose (wrong password, not enough stock, …):
   * Chrome's "Failed to load resource" console line for it is then not a failure.
   */
  expectHttpError: (status: number, path: string | RegExp) => void;
  /** Signs in through the login page and waits for the role's dashboard. */
  signIn: (account: Account) => Promise<void>;
  /** A second person at another browser (own context and session), watched the same way. */
  otherPerson: () => Promise<{ page: Page; signIn: (account: Account) => Promise<void> }>;
  /**
   * A browser whose pages the app's service worker may control (DESIGN §21: the installed app).
   * Other stories block service workers, so their routes see every request and nothing is cached.
   */
  installedApp: () => Promise<{
    page: Page;
    context: BrowserContext;
    signIn: (account: Account) => Promise<void>;
  }>;
  /**
   * Declares that the story cuts the network or stops the server: Chrome's console lines for
   * requests that got no answer (net::ERR_…) are then not failures.
   */
  expectNetworkErrors: () => void;
  /** The story's server, to kill -9 and start again on the same database. */
  server: TestServer;
};

type Account = { email: string; password: string; role: Role };

const FAILED_LOAD = /^Failed to load resource: the server responded with a status of (\d{3})/;

function matches(path: string | RegExp, url: string): boolean {
  const { pathname } = new URL(url);
  return typeof path === 'string' ? pathname.startsWith(path) : path.test(pathname);
}

type Watch = {
  problems: string[];
  allowed: { status: number; path: string | RegExp }[];
  networkErrors: boolean;
};

const NETWORK_ERROR = /^Failed to load resource: net::ERR_[A-Z_]+$/;

/** A fresh browser context (its own session) whose every failure signal lands in watch.problems. */
async function openContext(
  app: TestApp,
  watch: Watch,
  serviceWorkers: 'allow' | 'block' = 'block',
): Promise<BrowserContext> {
  const { baseUrl } = app.server;
  const origin = new URL(baseUrl).origin;
  const context = await app.browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 900 },
    serviceWorkers,
  });
  context.setDefaultTimeout(10_000);
  const { problems, allowed } = watch;

  // Only our own server may be asked for anything: no CDN, no fonts, no analytics.
  await context.route(
    (url) => /^(https?|wss?):$/.test(url.protocol) && url.origin !== origin,
    (route) => {
      problems.push(`request to another host: ${route.request().url()}`);
      return route.abort('blockedbyclient');
    },
  );
  context.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (watch.networkErrors && NETWORK_ERROR.test(text)) return;
    const failed = FAILED_LOAD.exec(text);
    const url = message.location().url;
    if (
      failed &&
      url &&
      allowed.some((rule) => rule.status === Number(failed[1]) && matches(rule.path, url))
    ) {
      return;
    }
    problems.push(`console error: ${text}${url ? ` (${url})` : ''}`);
  });
  context.on('weberror', (error) => problems.push(`page error: ${error.error().stack ?? error.error()}`));
  context.on('response', (response) => {
    if (response.status() >= 500) problems.push(`HTTP ${response.status()} from ${response.url()}`);
  });
  return context;
}

async function signInOn(page: Page, account: { email: string; password: string; role: Role }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expectPath(page, HOME[account.role]);
}

async function openStory(app: TestApp, watch: Watch, contexts: BrowserContext[]): Promise<Story> {
  const context = await openContext(app, watch);
  contexts.push(context);
  const page = await context.newPage();
  return {
    page,
    context,
    baseUrl: app.server.baseUrl,
    expectHttpError: (status, path) => {
      if (status < 400 || status > 499) throw new Error(`Only a 4xx answer can be expected, not ${status}.`);
      watch.allowed.push({ status, path });
    },
    signIn: (account) => signInOn(page, account),
    otherPerson: async () => {
      const other = await openContext(app, watch);
      contexts.push(other);
      const otherPage = await other.newPage();
      return { page: otherPage, signIn: (account) => signInOn(otherPage, account) };
    },
    installedApp: async () => {
      const installed = await openContext(app, watch, 'allow');
      contexts.push(installed);
      const installedPage = await installed.newPage();
      return {
        page: installedPage,
        context: installed,
        signIn: (account) => signInOn(installedPage, account),
      };
    },
    expectNetworkErrors: () => {
      watch.networkErrors = true;
    },
    server: app.server,
  };
}

export const storyTest = test
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
  .extend('app', { scope: 'file' }, async ({}, { onCleanup }): Promise<TestApp> => {
    if (!hasChromium) throw new Error(`REQUIRE_E2E=1, but ${missingMessage}.`);
    // The server (build, fresh database) and the browser start side by side.
    const [server, browser] = await Promise.allSettled([
      startServer(),
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
    ]);
    if (server.status === 'rejected' || browser.status === 'rejected') {
      if (server.status === 'fulfilled') await server.value.stop();
      if (browser.status === 'fulfilled') await browser.value.close();
      throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
    }
    onCleanup(async () => {
      await browser.value.close();
      await server.value.stop();
    });
    return { server: server.value, browser: browser.value };
  })
  .extend('story', async ({ app, task }, { onCleanup }): Promise<Story> => {
    const watch: Watch = { problems: [], allowed: [], networkErrors: false };
    const { problems } = watch;
    const contexts: BrowserContext[] = [];
    const serverErrorsBefore = app.server.errorLogs.length;
    const story = await openStory(app, watch, contexts);
    onCleanup(async () => {
      const slug = task.name.replace(/\W+/g, '-').slice(0, 60);
      if (task.result?.state === 'fail') {
        const pages = contexts.flatMap((context) => context.pages());
        await Promise.all(
          pages.map((page, index) =>
            page
              .screenshot({ path: `/tmp/e2e-${slug}${index ? `-${index + 1}` : ''}.png`, fullPage: true })
              .catch(() => {}),
          ),
        );
      }
      await Promise.all(contexts.map((context) => context.close()));
      problems.push(
        ...app.server.errorLogs.slice(serverErrorsBefore).map((line) => `server logged an error: ${line}`),
      );
      if (problems.length > 0) {
        throw new Error(`The story ran into problems:\n- ${problems.join('\n- ')}`);
      }
    });
    return story;
  });

/**
 * A group of stories. Without Chromium they are skipped with one line saying why, unless
 * REQUIRE_E2E=1, in which case each story fails with that reason.
 */
export function stories(name: string, body: () => void): void {
  const skip = !hasChromium && !required;
  if (skip) {
    console.warn(
      `Skipping the end-to-end stories "${name}": ${missingMessage}; set REQUIRE_E2E=1 to fail instead.`,
    );
  }
  describe.skipIf(skip)(name, body);
}
