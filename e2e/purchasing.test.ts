import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { parseCsv } from '../src/server/test/parse-csv';
import { ProductResponse } from '../src/shared/products';
import { PurchaseOrderResponse } from '../src/shared/purchasing';
import { newAdmin, read, unique } from './support/api';
import { bodyRows, eventually, see, statusMessage, textOf } from './support/page';
import { stories, storyTest } from './support/story';

stories('purchasing', () => {
  storyTest(
    'an admin drafts a purchase order from the suggestions, orders it, receives half and then the rest while a second admin receives the same line, which is never received twice',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account, session } = await newAdmin(baseUrl, `Paula Purchaser ${tag}`);
      const category = await session.addCategory(`Fixings ${tag}`);
      const supplierName = `Bolt & Co ${tag}`;
      const supplier = await session.addSupplier(supplierName, { email: 'orders@bolt.test' });
      const bolt = `Hex Bolt ${tag}`;
      const nut = `Wing Nut ${tag}`;
      // 4 on hand at 2.00, reorder at 10: 2 × 10 − 4 = 16 suggested. 2 nuts, reorder at 6, by 20.
      const boltProduct = await session.addProduct({
        name: bolt,
        price: 5,
        stock: 4,
        cost: 2,
        reorderPoint: 10,
        category: category._id,
        supplier: supplier._id,
      });
      const nutProduct = await session.addProduct({
        name: nut,
        price: 1,
        stock: 2,
        cost: 1.5,
        reorderPoint: 6,
        reorderQuantity: 20,
        category: category._id,
        supplier: supplier._id,
      });
      const second = await newAdmin(baseUrl, `Sam Second ${tag}`);

      await story.signIn(account);
      const menu = page.getByRole('navigation', { name: 'Main' });
      await menu.getByRole('link', { name: 'Purchasing', exact: true }).click();
      await page.getByRole('link', { name: 'Reorder suggestions' }).first().click();
      const suggestions = page.getByRole('table', { name: `Reorder suggestions from ${supplierName}` });
      await see(suggestions);
      expect(await page.getByLabel(`Quantity of ${bolt} to order`).inputValue()).toBe('16');
      expect(await page.getByLabel(`Quantity of ${nut} to order`).inputValue()).toBe('20');
      await page.getByLabel(`Quantity of ${bolt} to order`).fill('12');
      await page
        .getByRole('region', { name: supplierName })
        .getByRole('button', { name: /Draft for this supplier/ })
        .click();
      await see(statusMessage(page, '1 draft purchase order created.'));
      await page
        .getByRole('status')
        .filter({ hasText: 'Draft purchase order created:' })
        .getByRole('link', { name: /^PO-/ })
        .click();

      // The draft: 12 bolts and 20 nuts at the products' costs; the bolts cost 3.00 this time.
      await see(page.getByRole('heading', { name: /^PO-\d{6}$/ }));
      const number = (
        await page.getByRole('heading', { name: /^PO-\d{6}$/ }).textContent()
      )?.trim() as string;
      const id = page.url().split('/').pop() as string;
      expect(await page.getByLabel(`Quantity of ${bolt}`, { exact: true }).inputValue()).toBe('12');
      expect(await page.getByLabel(`Unit cost of ${bolt}`).inputValue()).toMatch(/^2(\.00)?$/);
      await page.getByLabel(`Unit cost of ${bolt}`).fill('3.00');
      await page.getByRole('button', { name: 'Mark ordered' }).click();
      const lines = page.getByRole('table', { name: `Lines of ${number}` });
      await see(lines);
      await eventually(
        async () =>
          (await read(session, `/purchase-orders/${id}`, PurchaseOrderResponse)).purchaseOrder.status,
      ).toBe('ordered');

      // Half arrives: 6 bolts and 10 nuts.
      await page.getByRole('button', { name: 'Receive', exact: true }).click();
      let dialog = page.getByRole('dialog', { name: `Receive: ${number}` });
      await dialog.getByLabel(`Receive now: ${bolt}`).fill('6');
      await dialog.getByLabel(`Receive now: ${nut}`).fill('10');
      await dialog.getByRole('button', { name: 'Receive', exact: true }).click();
      await see(page.getByText('Partially received').first());
      // 4 at 2.00 and 6 at 3.00: 10 bolts at 2.60.
      let product = (await read(session, `/products/${boltProduct._id}`, ProductResponse)).product;
      expect([product.stock, product.cost]).toEqual([10, 2.6]);
      product = (await read(session, `/products/${nutProduct._id}`, ProductResponse)).product;
      expect([product.stock, product.cost]).toEqual([12, 1.5]);

      // The admin opens Receive again and fills in the rest; meanwhile a second admin receives
      // the nuts' rest. The first receipt is refused whole, and nothing is received twice.
      await page.getByRole('button', { name: 'Receive', exact: true }).click();
      dialog = page.getByRole('dialog', { name: `Receive: ${number}` });
      await dialog.getByRole('button', { name: 'Receive all' }).click();
      expect(await dialog.getByLabel(`Receive now: ${bolt}`).inputValue()).toBe('6');
      expect(await dialog.getByLabel(`Receive now: ${nut}`).inputValue()).toBe('10');
      const order = (await read(second.session, `/purchase-orders/${id}`, PurchaseOrderResponse))
        .purchaseOrder;
      const nutLine = order.lines.find((line) => line.product._id === nutProduct._id);
      const other = await fetch(`${baseUrl}/api/purchase-orders/${id}/receive`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${second.session.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ lines: [{ line: nutLine?._id, quantity: 10 }] }),
      });
      expect(other.status).toBe(200);
      story.expectHttpError(409, `/api/purchase-orders/${id}/receive`);
      await dialog.getByRole('button', { name: 'Receive', exact: true }).click();
      await see(dialog.getByText(`${nut} is already received in full on ${number}.`));
      product = (await read(session, `/products/${boltProduct._id}`, ProductResponse)).product;
      expect(product.stock).toBe(10);
      product = (await read(session, `/products/${nutProduct._id}`, ProductResponse)).product;
      expect(product.stock).toBe(22);
      // The order reloaded: only the bolts are still open.
      await eventually(() => dialog.getByLabel(`Receive now: ${nut}`).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Receive all' }).click();
      await dialog.getByRole('button', { name: 'Receive', exact: true }).click();
      await see(page.getByText('Received', { exact: true }).first());
      // 10 at 2.60 and 6 at 3.00: 16 bolts at 2.75.
      product = (await read(session, `/products/${boltProduct._id}`, ProductResponse)).product;
      expect([product.stock, product.cost]).toEqual([16, 2.75]);
      const done = (await read(session, `/purchase-orders/${id}`, PurchaseOrderResponse)).purchaseOrder;
      expect(done.status).toBe('received');
      expect(done.lines.map((line) => [line.quantity, line.received])).toEqual([
        [12, 12],
        [20, 20],
      ]);

      // The bolts' stock page shows both receipts, each linked to the purchase order.
      await page.goto(`${baseUrl}/admin-dashboard/products/${boltProduct._id}/stock`);
      const movements = page.getByRole('table', { name: `Stock movements of ${bolt}, newest first` });
      await see(movements);
      await eventually(() => textOf(bodyRows(movements).nth(0))).toMatch(/Receipt.*\+6.*16/);
      expect(await bodyRows(movements).nth(1).textContent()).toMatch(/Receipt.*\+6.*10/);
      await bodyRows(movements).nth(0).getByRole('link', { name: number }).click();
      await see(page.getByRole('heading', { name: number }));

      // The purchase orders list, as a spreadsheet: Download CSV saves the filtered list.
      await page.goto(`${baseUrl}/admin-dashboard/purchase-orders?status=received`);
      const saved = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const download = await saved;
      expect(download.suggestedFilename()).toBe('purchase-orders.csv');
      const rows = parseCsv(readFileSync((await download.path()) as string, 'utf8'));
      expect(rows[0]).toEqual([
        'number',
        'supplier',
        'status',
        'total',
        'created',
        'ordered',
        'received',
        'location',
      ]);
      const mine = rows.find((row) => row[0] === number);
      expect(mine?.slice(2, 4)).toEqual(['received', '66']);
      expect(rows.slice(1).every((row) => row[2] === 'received')).toBe(true);
    },
  );
});
