import { chromium } from 'playwright-core';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Milliseconds from navigating to a rep's catalogue until it is usable: product rows shown and
 * the search box enabled. Runs `times` times in fresh pages and answers every measurement.
 */
export async function catalogueInteractive(
  url: string,
  session: { token: string; user: unknown },
  times = 3,
): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  try {
    const results: number[] = [];
    for (let i = 0; i < times; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addInitScript(
        ([token, user]) => {
          localStorage.setItem('ims_token', token as string);
          localStorage.setItem('ims_user', user as string);
        },
        [session.token, JSON.stringify(session.user)],
      );
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${url}/salesRep-dashboard`);
      await page
        .getByRole('button', { name: /order/i })
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
      await page.getByRole('searchbox').or(page.getByPlaceholder('Search products...')).first().waitFor();
      results.push(performance.now() - started);
      await context.close();
    }
    return results;
  } finally {
    await browser.close();
  }
}
