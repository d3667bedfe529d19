import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { ProductResponse } from '../src/shared/products';
import { SaleListResponse, saleNumberLabel } from '../src/shared/sales';
import { type ApiSession, newAdmin, read, unique } from './support/api';
import {
  bodyRows,
  cellText,
  columnTexts,
  eventually,
  expectPath,
  rowWith,
  see,
  textOf,
  throughTill,
} from './support/page';
import { HOME, stories, storyTest } from './support/story';

/** A number cell's figure, without the words a phone's stacked row puts before it. */
async function figure(table: Locator, row: string, header: string): Promise<string> {
  return (await cellText(table, row, header)).replace(/^[^\d]*/, '');
}

async function stockOf(session: ApiSession, id: string): Promise<number> {
  return (await read(session, `/products/${id}`, ProductResponse)).product.stock;
}

stories('one way to sell and the sales view', () => {
  storyTest(
    'an admin sells three lines at the counter, finds the sale in Sales by receipt number and by customer, returns one line from the sale’s page and sees it in Sales; a rep’s catalogue order is a one-line sale whose receipt the stock page links',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account: adminAccount, session: admin } = await newAdmin(baseUrl, `Ada Admin ${tag}`);
      const category = await admin.addCategory(`Pantry ${tag}`);
      const supplier = await admin.addSupplier(`Pantry Supply ${tag}`);
      const made = (name: string, price: number, stock: number, barcode: string) =>
        admin.addProduct({
          name: `${name} ${tag}`,
          price,
          stock,
          barcode,
          sku: `SKU-${barcode}`,
          category: category._id,
          supplier: supplier._id,
        });
      const rice = await made('Rice', 3.2, 10, `41${tag}01`);
      const beans = await made('Beans', 1.05, 12, `41${tag}02`);
      const salt = await made('Salt', 0.45, 30, `41${tag}03`);
      const customer = await admin.addCustomer({ name: `Gwen Grocer ${tag}`, phone: '555-0199' });

      // The admin opens New sale from the menu and sells three lines to Gwen.
      await story.signIn(adminAccount);
      const menu = page.getByRole('navigation', { name: 'Main' });
      await menu.getByRole('link', { name: 'New sale' }).click();
      await expectPath(page, `${HOME.admin}/sales/new`);
      await throughTill(page);
      const search = page.getByRole('combobox', { name: 'Scan or search a product' });
      await expect.poll(() => search.evaluate((box) => box === document.activeElement)).toBe(true);
      const cart = page.getByRole('list', { name: 'Cart' });
      for (const product of [rice, beans, salt]) {
        await page.keyboard.type(product.barcode ?? '');
        await page.keyboard.press('Enter');
        await see(cart.getByRole('listitem', { name: new RegExp(`^${product.name},`) }));
      }
      // 2 × 3.20 + 4 × 1.05 + 3 × 0.45 = 6.40 + 4.20 + 1.35 = 11.95.
      await page.getByLabel(`Quantity of ${rice.name}`).fill('2');
      await page.getByLabel(`Quantity of ${beans.name}`).fill('4');
      await page.getByLabel(`Quantity of ${salt.name}`).fill('3');
      const total = page
        .getByRole('term')
        .filter({ hasText: /^Total$/ })
        .locator('xpath=following-sibling::*[1]');
      await expect.poll(() => textOf(total)).toBe('$11.95');
      await page.getByRole('combobox', { name: 'Find a customer' }).fill('Gwen');
      await page.getByRole('option', { name: new RegExp(customer.name) }).click();
      await see(page.getByRole('button', { name: `Remove customer ${customer.name}` }));
      await page.getByText('Card', { exact: true }).click();
      await page.getByRole('button', { name: 'Complete sale' }).click();
      const counterReceipt = page.getByRole('link', { name: /^Receipt S-\d{6}$/ });
      await see(counterReceipt);
      const shown = (await textOf(counterReceipt)).replace(/^Receipt /, '');

      const { sales } = await read(admin, `/sales?customer=${customer._id}`, SaleListResponse);
      expect(sales).toHaveLength(1);
      const sold = sales[0];
      if (!sold) throw new Error('no sale');
      const number = saleNumberLabel(sold.number);
      expect(shown).toBe(number);
      expect([
        await stockOf(admin, rice._id),
        await stockOf(admin, beans._id),
        await stockOf(admin, salt._id),
      ]).toEqual([8, 8, 27]);

      // Sales, from the menu: found by its receipt number as shown, then by the customer's name.
      await menu.getByRole('link', { name: 'Sales', exact: true }).click();
      await expectPath(page, `${HOME.admin}/sales`);
      await see(page.getByRole('heading', { name: 'Sales', level: 1 }));
      const table = page.getByRole('table', { name: 'Sales, newest first' });
      const box = page.getByLabel('Search', { exact: true });
      await box.fill(number);
      await eventually(() => new URL(page.url()).searchParams.get('q')).toBe(number);
      await eventually(() => bodyRows(table).count()).toBe(1);
      await see(rowWith(table, number));
      expect(await cellText(table, number, 'Customer')).toBe(customer.name);
      // (Cells also hold the words a phone's stacked row shows: "Sold by", "lines", "Returned".)
      expect(await cellText(table, number, 'Seller')).toMatch(new RegExp(`${adminAccount.name}$`));
      expect(await cellText(table, number, 'Lines')).toMatch(/^3\b/);
      expect(await cellText(table, number, 'Total')).toBe('$11.95');
      expect(await cellText(table, number, 'Returned')).toBe('—');

      await box.fill(`Gwen Grocer ${tag}`);
      await eventually(() => new URL(page.url()).searchParams.get('q')).toBe(`Gwen Grocer ${tag}`);
      await eventually(() => columnTexts(table, 'Receipt')).toEqual([number]);
      expect(await cellText(table, number, 'Total')).toBe('$11.95');

      // The sale's page: the admin takes back one of the four tins of beans.
      await table.getByRole('link', { name: number }).click();
      await expectPath(page, `${HOME.admin}/sales/${sold._id}`);
      await see(page.getByRole('heading', { name: `Receipt ${number}` }));
      const returns = page.getByRole('table', { name: `Returns of receipt ${number}` });
      expect(await columnTexts(returns, 'Item')).toEqual([rice.name, beans.name, salt.name]);
      await returns.getByRole('button', { name: `Return ${beans.name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Return: ${beans.name}` });
      await dialog.getByLabel('Quantity').fill('1');
      await dialog.getByLabel('Reason').fill('Dented tin');
      await dialog.getByRole('button', { name: 'Return to stock' }).click();
      await see(page.getByRole('status').filter({ hasText: `1 of ${beans.name} returned to stock.` }));
      await eventually(() => figure(returns, beans.name, 'Returned')).toBe('1');
      expect(await figure(returns, beans.name, 'Sold')).toBe('4');
      expect(await figure(returns, beans.name, 'Left to return')).toBe('3');
      expect(await figure(returns, rice.name, 'Returned')).toBe('0');
      expect(await stockOf(admin, beans._id)).toBe(9);

      // Back in Sales, the row says what came back: one tin, $1.05.
      await menu.getByRole('link', { name: 'Sales', exact: true }).click();
      await box.fill(number);
      await eventually(() => columnTexts(table, 'Receipt')).toEqual([number]);
      await eventually(() => cellText(table, number, 'Returned')).toMatch(/\$1\.05 \(1 unit\)$/);
      expect(await cellText(table, number, 'Total')).toBe('$11.95');

      // A sales rep orders two bags of rice from the catalogue: a one-line sale with its receipt.
      const rep = await admin.addUser('salesRep', `Remy Rep ${tag}`);
      const repDesk = await story.otherPerson();
      await repDesk.signIn(rep);
      await repDesk.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Products' })
        .click();
      await expectPath(repDesk.page, HOME.salesRep);
      const catalogue = repDesk.page.getByRole('table', { name: 'Products you can order' });
      await eventually(() => cellText(catalogue, rice.name, 'Stock')).toBe('8');
      await catalogue.getByRole('button', { name: `Order ${rice.name}` }).click();
      const order = repDesk.page.getByRole('dialog', { name: 'Place Order' });
      await order.getByLabel('Quantity').fill('2');
      await order.getByRole('button', { name: 'Place Order' }).click();
      const placed = repDesk.page.getByRole('status').filter({ hasText: 'order placed' });
      await see(placed);
      const receiptLink = repDesk.page
        .getByTestId('notifications')
        .getByRole('link', { name: /^Receipt S-\d{6}$/ });
      await see(receiptLink);
      const repNumber = (await textOf(receiptLink)).replace(/^Receipt /, '');
      expect(repNumber).not.toBe(number);
      await eventually(() => cellText(catalogue, rice.name, 'Stock')).toBe('6');
      await receiptLink.click();
      await see(repDesk.page.getByRole('heading', { name: `Receipt ${repNumber}` }));
      const lines = repDesk.page.getByRole('table', { name: `Lines of receipt ${repNumber}` });
      expect(await columnTexts(lines, 'Item')).toEqual([rice.name]);
      expect(await columnTexts(lines, 'Qty × price')).toEqual(['2 × $3.20']);
      expect(await columnTexts(lines, 'Total')).toEqual(['$6.40']);
      expect(await stockOf(admin, rice._id)).toBe(6);

      // The admin's stock page for the rice: the rep's movement links to that receipt.
      await page.goto(`${HOME.admin}/products/${rice._id}/stock`);
      const movements = page.getByRole('table', { name: `Stock movements of ${rice.name}, newest first` });
      await see(movements);
      await eventually(async () => (await columnTexts(movements, 'Who'))[0]).toBe(rep.name);
      expect((await columnTexts(movements, 'Stock after'))[0]).toMatch(/(^|\D)6$/);
      expect((await columnTexts(movements, 'Change'))[0]).toMatch(/^[-−]2$/);
      expect((await columnTexts(movements, 'Order'))[0]).toBe(repNumber);
      const newest = bodyRows(movements).nth(0);
      await newest.getByRole('link', { name: repNumber }).click();
      await see(page.getByRole('heading', { name: `Receipt ${repNumber}` }));
      expect(
        await columnTexts(page.getByRole('table', { name: `Lines of receipt ${repNumber}` }), 'Item'),
      ).toEqual([rice.name]);
    },
  );
});
