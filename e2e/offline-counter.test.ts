import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { BooksCheckResponse } from '../src/shared/accounting';
import { centsNumber, toCents } from '../src/shared/money';
import { ProductResponse } from '../src/shared/products';
import { SaleListResponse, SaleResponse } from '../src/shared/sales';
import { SessionResponse } from '../src/shared/till';
import { newAdmin, read, unique } from './support/api';
import { expectPath, see, textOf, throughTill } from './support/page';
import { HOME, stories, storyTest } from './support/story';

/** Cents of an amount written in the test, so the expected cash is summed exactly. */
const c = (amount: string) => toCents(amount);

/** The seller's kit as the counter kept it in the device's own database: how many products. */
function keptProducts(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const opening = indexedDB.open('inventory-ms-offline');
        opening.onerror = () => resolve(-1);
        opening.onsuccess = () => {
          const database = opening.result;
          if (!database.objectStoreNames.contains('kits')) return resolve(0);
          const all = database.transaction('kits').objectStore('kits').getAll();
          all.onsuccess = () =>
            resolve((all.result as { products: unknown[] }[]).reduce((n, kit) => n + kit.products.length, 0));
          all.onerror = () => resolve(-1);
        };
      }),
  );
}

// This file owns its server: it is killed with kill -9 halfway through the sending.
stories('the counter offline', () => {
  storyTest(
    'a seller makes 4 sales with the network cut and a reload in between; back online the server is killed during the send; after its restart there are exactly 4 sales with their device numbers, and stock, the session report and the books agree',
    async ({ story }) => {
      story.expectNetworkErrors();
      const { baseUrl, server } = story;
      const tag = unique();
      const { session: admin } = await newAdmin(baseUrl, `Olga Admin ${tag}`);
      const seller = await admin.addUser('salesRep', `Otto Offline ${tag}`);
      const category = await admin.addCategory(`Kiosk ${tag}`);
      const supplier = await admin.addSupplier(`Kiosk Supply ${tag}`);
      const made = (name: string, price: number, stock: number, barcode: string) =>
        admin.addProduct({
          name: `${name} ${tag}`,
          price,
          stock,
          barcode,
          category: category._id,
          supplier: supplier._id,
        });
      const water = await made('Water', 2.5, 10, `77${tag}01`);
      const candle = await made('Candle', 4, 3, `77${tag}02`);

      const { page, context, signIn } = await story.installedApp();
      await signIn(seller);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New sale' }).click();
      await expectPath(page, `${HOME.salesRep}/sales/new`);
      await throughTill(page, '20.00');
      const sessionId = ((await page.getByRole('link', { name: 'X report' }).getAttribute('href')) ?? '')
        .split('/')
        .at(-1);
      // The installed app: its service worker controls the page, and the counter has kept its kit.
      await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, {
        timeout: 20_000,
      });
      await expect.poll(() => keptProducts(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);

      const cart = page.getByRole('list', { name: 'Cart' });
      const scan = async (product: typeof water, quantity: number) => {
        await page.getByRole('combobox', { name: 'Scan or search a product' }).fill(product.barcode ?? '');
        await page.keyboard.press('Enter');
        await see(cart.getByRole('listitem', { name: new RegExp(`^${product.name},`) }));
        if (quantity !== 1) await page.getByLabel(`Quantity of ${product.name}`).fill(String(quantity));
      };
      const kept = page.getByText(/^Sale [A-Z0-9]+-[A-Z0-9]{4}-\d{6} kept on this device$/);
      const deviceNumbers: string[] = [];
      const sell = async (method: 'Cash' | 'Card', tendered?: string) => {
        const before = deviceNumbers.at(-1);
        await page.getByText(method, { exact: true }).click();
        if (tendered) await page.getByLabel('Cash tendered').fill(tendered);
        await page.getByRole('button', { name: 'Complete sale' }).click();
        await expect
          .poll(
            async () =>
              (await kept.isVisible()) && (await textOf(kept)) !== `Sale ${before} kept on this device`,
          )
          .toBe(true);
        deviceNumbers.push((await textOf(kept)).replace(/^Sale | kept on this device$/g, ''));
        await see(page.getByText('The cart is empty.'));
      };
      const banner = (count: number) =>
        page.getByText(`Offline — ${count} ${count === 1 ? 'sale' : 'sales'} kept on this device`);

      // The network is cut: the counter says so and sells from what it kept.
      await context.setOffline(true);
      await see(banner(0));
      await scan(water, 2);
      await sell('Cash', '10.00'); // 5.00, change 5.00
      await scan(candle, 1);
      await sell('Card'); // 4.00
      await see(banner(2));
      // The receipt of a kept sale, numbered by the device.
      await page.getByRole('button', { name: `Receipt ${deviceNumbers[1]}` }).click();
      await see(page.getByRole('heading', { name: `Receipt ${deviceNumbers[1]}` }));

      // Reloaded with no network: the app comes from the device, and so do the two sales.
      await page.reload();
      await see(page.getByRole('heading', { name: 'New sale', level: 1 }));
      await see(banner(2));
      await see(page.getByRole('region', { name: 'Sales kept on this device (2)' }));
      await scan(water, 1);
      await scan(candle, 2);
      await sell('Cash', '20.00'); // 2.50 + 8.00 = 10.50, change 9.50
      // The candles kept on this device are sold: more is refused, and the counter says why.
      await scan(candle, 1);
      await see(
        page.getByText(
          /Offline, the counter sells only the stock it kept on this device: Candle .+ \(0 left\)/,
        ),
      );
      await page.getByRole('button', { name: `Remove ${candle.name}` }).click();
      await scan(water, 3);
      await sell('Card'); // 7.50
      await see(banner(4));
      expect(deviceNumbers).toHaveLength(4);
      expect(new Set(deviceNumbers).size).toBe(4);
      expect(deviceNumbers.map((number) => number.slice(-6))).toEqual([
        '000001',
        '000002',
        '000003',
        '000004',
      ]);

      // Back online. The server records the second sale and dies before its answer reaches the device.
      let posts = 0;
      let killed: () => void = () => {};
      const serverKilled = new Promise<void>((resolve) => {
        killed = resolve;
      });
      await context.route('**/api/sales', async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        posts += 1;
        if (posts !== 2) return route.continue();
        try {
          const answer = await route.fetch();
          expect(answer.status()).toBe(201);
        } finally {
          await server.kill();
          killed();
          await route.abort('connectionreset');
        }
      });
      await context.setOffline(false);
      await serverKilled;
      expect(posts).toBe(2);
      await server.restart();
      // The device sends again, in order: the second sale (answered now with the sale it made), then the rest.
      await expect.poll(() => posts, { timeout: 40_000 }).toBeGreaterThanOrEqual(5);
      await see(page.getByRole('heading', { name: 'New sale', level: 1 }));
      await expect
        .poll(async () => page.getByText(/kept on this device, to be sent|Sending \d/).count(), {
          timeout: 40_000,
        })
        .toBe(0);

      // Exactly four sales, each with its device number.
      const { sales, total } = await read(admin, '/sales?page=1&pageSize=20', SaleListResponse);
      expect(total).toBe(4);
      expect(sales.map((sale) => sale.offline?.deviceNumber).sort()).toEqual([...deviceNumbers].sort());
      const found = await read(
        admin,
        `/sales?search=${encodeURIComponent(deviceNumbers[2] ?? '')}`,
        SaleListResponse,
      );
      expect(found.sales.map((sale) => sale.total)).toEqual([10.5]);
      const third = await read(admin, `/sales/${found.sales[0]?._id}`, SaleResponse);
      expect(third.sale.session?._id).toBe(sessionId);

      // Stock: 10 − 2 − 1 − 3 waters, 3 − 1 − 2 candles; nothing was found missing.
      expect((await read(admin, `/products/${water._id}`, ProductResponse)).product.stock).toBe(4);
      expect((await read(admin, `/products/${candle._id}`, ProductResponse)).product.stock).toBe(0);

      // The session report counts the four, and the drawer the cash of two.
      const { report } = await read(admin, `/register-sessions/${sessionId}`, SessionResponse);
      expect(report.sales).toEqual({ count: 4, total: 27 });
      expect(report.expectedCash).toBe(centsNumber(c('20.00') + c('5.00') + c('10.50')));
      expect(report.payments.find((payment) => payment.method === 'card')?.in).toBe(11.5);

      // The books agree with the shop.
      const check = await read(admin, '/accounting/check', BooksCheckResponse);
      expect(check.checks.filter((one) => !one.ok)).toEqual([]);
      expect(check.ok).toBe(true);
    },
  );
});
