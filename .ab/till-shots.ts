import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:4310';
const out = '/tmp/till-final';
async function main() {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  for (const [who, email] of [['admin', 'admin@demo.local'], ['sales', 'sales@demo.local']] as const) {
    for (const width of [1440, 375]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${base}/login`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('demo-password');
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL(/dashboard/);
      const home = new URL(page.url()).pathname.split('/')[1];
      const shot = async (name: string) => { await page.waitForTimeout(900); await page.screenshot({ path: `${out}/${who}-${width}-${name}.png`, fullPage: true }); };
      await page.goto(`${base}/${home}/sales/new`); await shot('counter');
      await page.goto(`${base}/${home}/till/sessions`); await shot('sessions');
      const link = page.getByRole('link', { name: /#\d+/ }).last();
      if (await link.count()) { await link.click(); await shot('z-report'); await page.emulateMedia({ media: 'print' }); await shot('z-print'); await page.emulateMedia({ media: 'screen' }); }
      await page.goto(`${base}/${home}/refunds`); await shot('refunds');
      await page.getByRole('textbox').first().fill('S-000700'); await page.keyboard.press('Enter'); await shot('refund-found');
      if (who === 'admin') { await page.goto(`${base}/${home}/customers`); await page.getByRole('link').filter({ hasText: /^[A-Z][a-z]+ [A-Z]/ }).first().click().catch(() => {}); await shot('customer'); }
      await page.close();
    }
  }
  await browser.close();
}
main().catch((e) => { console.error(e); process.exit(1); });
