import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:4310';
const out = '/tmp/till-final';
async function main() {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  for (const width of [1440, 375]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill('sales@demo.local');
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/dashboard/);
    const home = new URL(page.url()).pathname.split('/')[1];
    const shot = async (name: string) => { await page.waitForTimeout(900); await page.screenshot({ path: `${out}/c-${width}-${name}.png`, fullPage: true }); };
    await page.goto(`${base}/${home}/sales/new`);
    await page.getByRole('button', { name: 'Till 1' }).click();
    await shot('till-bar');
    const search = page.getByRole('combobox').first();
    await search.fill('Paracetamol'); await page.waitForTimeout(800); await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
    await page.getByRole('button', { name: /Split payment/ }).click().catch(() => {});
    await shot('split');
    await page.getByRole('button', { name: 'Cash in/out' }).click(); await shot('cash-dialog'); await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Close till' }).click(); await shot('close-dialog'); await page.keyboard.press('Escape');
    await page.close();
  }
  await browser.close();
}
main().catch((e) => { console.error(e); process.exit(1); });
