import { expect } from 'vitest';
import { ProductResponse } from '../src/shared/products';
import { SaleListResponse, saleNumberLabel } from '../src/shared/sales';
import { newStaff, read, unique } from './support/api';
import { bodyRows, columnTexts, expectPath, rowWith, see, textOf, throughTill } from './support/page';
import { HOME, stories, storyTest } from './support/story';

stories('sale counter', () => {
  storyTest(
    'a clerk scans three barcodes, changes a quantity, picks the customer, takes cash, reloads the page without losing the sale, completes it and prints the receipt, which the customer’s page then lists',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { admin, account, session: clerk } = await newStaff(baseUrl, 'salesRep', `Cleo Clerk ${tag}`);
      const category = await admin.addCategory(`Kiosk ${tag}`);
      const supplier = await admin.addSupplier(`Kiosk Supply ${tag}`);
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
      const crisps = await made('Crisps', 1.15, 10, `40${tag}01`);
      const cola = await made('Cola', 2.4, 10, `40${tag}02`);
      const gum = await made('Gum', 0.1, 20, `40${tag}03`);
      const carla = await admin.addCustomer({ name: `Carla Customer ${tag}`, phone: '555-0101' });

      await story.signIn(account);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New sale' }).click();
      await expectPath(page, `${HOME.salesRep}/sales/new`);
      await throughTill(page);
      const search = page.getByRole('combobox', { name: 'Scan or search a product' });
      await expect.poll(() => search.evaluate((box) => box === document.activeElement)).toBe(true);

      // A scanner types each code and presses Enter; the box is free again at once.
      const cart = page.getByRole('list', { name: 'Cart' });
      for (const product of [crisps, cola, gum]) {
        await page.keyboard.type(product.barcode ?? '');
        await page.keyboard.press('Enter');
        await see(cart.getByRole('listitem', { name: new RegExp(`^${product.name},`) }));
      }
      expect(await cart.getByRole('listitem').count()).toBe(3);
      expect(await page.getByLabel(`Quantity of ${cola.name}`).inputValue()).toBe('1');

      // Five packs of gum: 1.15 + 2.40 + 5 × 0.10 = 4.05.
      await page.getByLabel(`Quantity of ${gum.name}`).fill('5');
      const total = page
        .getByRole('term')
        .filter({ hasText: /^Total$/ })
        .locator('xpath=following-sibling::*[1]');
      await expect.poll(() => textOf(total)).toBe('$4.05');

      await page.getByRole('combobox', { name: 'Find a customer' }).fill('Carla');
      await page.getByRole('option', { name: new RegExp(carla.name) }).click();
      await see(page.getByRole('button', { name: `Remove customer ${carla.name}` }));

      await page.getByText('Cash', { exact: true }).click();
      expect(await page.getByRole('radio', { name: 'Cash' }).isChecked()).toBe(true);
      await page.getByLabel('Cash tendered').fill('10');
      await expect.poll(() => textOf(page.getByRole('status', { name: 'Change' }))).toBe('$5.95');

      // A reload keeps the unfinished sale: its lines, the customer and the cash typed.
      await page.reload();
      await see(cart.getByRole('listitem', { name: new RegExp(`^${gum.name}, quantity 5`) }));
      expect(await cart.getByRole('listitem').count()).toBe(3);
      await see(page.getByRole('button', { name: `Remove customer ${carla.name}` }));
      expect(await page.getByLabel('Cash tendered').inputValue()).toBe('10');
      await expect.poll(() => textOf(total)).toBe('$4.05');

      await page.getByRole('button', { name: 'Complete sale' }).click();

      // The counter is ready for the next customer, the scan box focused; the receipt is a click away.
      const receiptLink = page.getByRole('link', { name: /^Receipt S-\d{6}$/ });
      await see(receiptLink);
      await see(page.getByText('The cart is empty.'));
      await expect.poll(() => search.evaluate((box) => box === document.activeElement)).toBe(true);
      await receiptLink.click();
      const heading = page.getByRole('heading', { name: /^Receipt S-\d{6}$/ });
      await see(heading);
      const { sales } = await read(clerk, `/sales?customer=${carla._id}`, SaleListResponse);
      expect(sales).toHaveLength(1);
      const [sold] = sales;
      const number = saleNumberLabel(sold?.number ?? 0);
      expect(await textOf(heading)).toBe(`Receipt ${number}`);
      await expectPath(page, `${HOME.salesRep}/sales/${sold?._id}`);
      const lines = page.getByRole('table', { name: `Lines of receipt ${number}` });
      expect(await columnTexts(lines, 'Item')).toEqual([crisps.name, cola.name, gum.name]);
      expect(await columnTexts(lines, 'Qty × price')).toEqual(['1 × $1.15', '1 × $2.40', '5 × $0.10']);
      expect(await columnTexts(lines, 'Total')).toEqual(['$1.15', '$2.40', '$0.50']);
      const receipt = page.getByRole('article', { name: `Receipt ${number}` });
      const value = async (term: string) =>
        textOf(
          receipt
            .getByRole('term')
            .filter({ hasText: new RegExp(`^${term}$`) })
            .locator('xpath=following-sibling::*[1]'),
        );
      expect(await value('Seller')).toBe(account.name);
      expect(await value('Customer')).toBe(carla.name);
      expect(await value('Total')).toBe('$4.05');
      expect(await value('Payment')).toBe('Cash');
      expect(await value('Tendered')).toBe('$10.00');
      expect(await value('Change')).toBe('$5.95');
      await see(page.getByRole('button', { name: 'Print' }));

      // The stock went: 9 crisps, 9 colas, 15 packs of gum.
      for (const [product, left] of [
        [crisps, 9],
        [cola, 9],
        [gum, 15],
      ] as const) {
        const { product: now } = await read(clerk, `/products/${product._id}`, ProductResponse);
        expect(now.stock).toBe(left);
      }

      // The customer's page lists the sale, its receipt one click away.
      await page.goto(`${HOME.salesRep}/customers/${carla._id}`);
      await see(page.getByRole('heading', { name: carla.name, level: 1 }));
      const purchases = page.getByRole('table', { name: 'Purchases, newest first' });
      await see(rowWith(purchases, number));
      expect(await bodyRows(purchases).count()).toBe(1);
      expect(await textOf(rowWith(purchases, number))).toContain('$4.05');
      await purchases.getByRole('link', { name: number }).click();
      await see(heading);
    },
  );
});
