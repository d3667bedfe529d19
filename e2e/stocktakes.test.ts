import { expect } from 'vitest';
import { ProductLocationsResponse } from '../src/shared/locations';
import { SaleResponse } from '../src/shared/sales';
import { StocktakeResponse } from '../src/shared/stocktakes';
import { ApiSession, callAs, newAdmin, unique } from './support/api';
import { see, termValue } from './support/page';
import { stories, storyTest } from './support/story';

stories('stocktake', () => {
  storyTest(
    'a sales rep scans a category while the admin types counts, one product is sold after it was counted, the review shows the shortage at cost, and after Post the stock is what was counted less what was sold since',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account, session: admin } = await newAdmin(baseUrl, `Sam Stockkeeper ${tag}`);
      const rep = await admin.addUser('salesRep', `Rita Counter ${tag}`, '3 Shelf Street');
      const repToken = (await ApiSession.signIn(baseUrl, rep.email, rep.password)).token;
      const category = await admin.addCategory(`Pantry ${tag}`);
      const supplier = await admin.addSupplier(`Harbour Foods ${tag}`);
      const add = (name: string, stock: number, cost: number, code: string) =>
        admin.addProduct({
          name: `${name} ${tag}`,
          price: cost * 2,
          cost,
          stock,
          barcode: `77${tag}${code}`,
          category: category._id,
          supplier: supplier._id,
        });
      const oil = await add('Olive Oil', 10, 4.25, '01');
      const rice = await add('Basmati Rice', 6, 1.5, '02');
      const salt = await add('Sea Salt', 5, 0.8, '03');

      // The admin starts a stocktake of the category at the main store.
      await story.signIn(account);
      await page.goto(`${baseUrl}/admin-dashboard/stocktakes/new`);
      await page.getByLabel('Location', { exact: true }).selectOption({ label: 'Main store' });
      await page.getByLabel(category.name, { exact: true }).check();
      await page.getByRole('button', { name: 'Start stocktake' }).click();
      const heading = page.getByRole('heading', { name: /^ST-\d{6}$/, level: 1 });
      await see(heading);
      const number = (await heading.textContent()) as string;
      const stocktakeUrl = page.url();
      const id = stocktakeUrl.split('/').pop() as string;

      // The sales rep, at another device, finds it among the open stocktakes and scans 8 bottles of oil.
      const other = await story.otherPerson();
      await other.signIn(rep);
      await other.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Stocktake' })
        .click();
      await other.page.getByRole('link', { name: `Count ${number}` }).click();
      const scan = other.page.getByLabel('Scan or type a SKU or barcode');
      for (let i = 0; i < 8; i += 1) {
        await scan.fill(oil.barcode ?? '');
        await scan.press('Enter');
      }
      await see(other.page.getByText(`${oil.name} — 8 counted`));

      // The admin counts the rice and the salt by typing them in.
      await page.getByRole('link', { name: 'Count', exact: true }).click();
      for (const [product, counted] of [
        [rice, '6'],
        [salt, '5'],
      ] as const) {
        await page.getByLabel(`New count for ${product.name}`).fill(counted);
        await page.getByRole('button', { name: `Save the count of ${product.name}` }).click();
        await see(page.getByText(`${product.name} — ${counted} counted`));
      }

      // Three bottles of oil are sold after they were counted.
      const sale = await callAs(baseUrl, repToken, 'POST', '/sales', SaleResponse, {
        lines: [{ productId: oil._id, quantity: 3 }],
        payment: { method: 'card' },
      });
      expect(sale.sale.lines).toHaveLength(1);

      // The review: oil is 2 short of the 10 held when it was counted (2 × 4.25 at cost), nothing else.
      await page.goto(stocktakeUrl);
      await see(page.getByRole('heading', { name: number, level: 1 }));
      const summary = page.getByRole('region', { name: 'Summary' });
      await see(summary);
      expect(await termValue(summary, 'Counted')).toBe('3');
      expect(await termValue(summary, 'Units short')).toBe('2');
      expect(await termValue(summary, 'Value short (at cost)')).toBe('$8.50');
      expect(await termValue(summary, 'Net')).toBe('-$8.50');
      const differences = page.getByRole('table', { name: 'Lines that differ, value at cost' });
      const oilRow = differences.getByRole('row', { name: new RegExp(oil.name) });
      await see(oilRow);
      await expect
        .poll(async () => (await oilRow.textContent())?.replace(/\s+/g, ' '))
        .toMatch(/10.*8.*−2.*-\$8\.50/);
      expect(await differences.getByRole('row').count()).toBe(2); // the header and the oil

      // Post, keeping uncounted lines (there are none).
      await page.getByRole('button', { name: 'Post stocktake' }).click();
      await page
        .getByRole('alertdialog', { name: `Post ${number}?` })
        .getByRole('button', { name: 'Post', exact: true })
        .click();
      await see(page.getByText('Posted', { exact: true }).first());

      const posted = await callAs(baseUrl, admin.token, 'GET', `/stocktakes/${id}`, StocktakeResponse);
      expect(posted.stocktake).toMatchObject({ status: 'posted', summary: { net: -8.5, unitsShort: 2 } });
      const stockAtMain = async (productId: string) =>
        (
          await callAs(baseUrl, admin.token, 'GET', `/products/${productId}/stock`, ProductLocationsResponse)
        ).locations.find((line) => line.location.name === 'Main store')?.stock;
      // Counted 8, sold 3 since: 5, not 8 (which would undo the sale).
      expect(await stockAtMain(oil._id)).toBe(5);
      expect(await stockAtMain(rice._id)).toBe(6);
      expect(await stockAtMain(salt._id)).toBe(5);
    },
  );
});
