import { expect } from 'vitest';
import { ApiSession, newAdmin, unique } from './support/api';
import { bodyRows, eventually, expectPath, see, statusMessage, textOf } from './support/page';
import { stories, storyTest } from './support/story';

/** An admin, a product of the given stock, and a sales rep who can order it, all through the API. */
async function shop(baseUrl: string, stock: number) {
  const tag = unique();
  const { account, session } = await newAdmin(baseUrl, `Stella Stock ${tag}`);
  const category = await session.addCategory(`Pens ${tag}`);
  const supplier = await session.addSupplier(`Inkworks ${tag}`);
  const name = `Fountain Pen ${tag}`;
  const product = await session.addProduct({
    name,
    price: 4,
    stock,
    category: category._id,
    supplier: supplier._id,
  });
  const rep = await session.addUser('salesRep', `Rita Rep ${tag}`);
  const repSession = await ApiSession.signIn(baseUrl, rep.email, rep.password);
  return { account, session, product, name, rep: repSession };
}

stories('stock', () => {
  storyTest(
    'a form opened before sales saves its price without bringing units back; a stale stock is refused with the new stock shown, and the admin chooses which stands',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { account, product, name, rep } = await shop(baseUrl, 50);
      await story.signIn(account);
      const menu = page.getByRole('navigation', { name: 'Main' });
      await menu.getByRole('link', { name: 'Products', exact: true }).click();
      const products = page.getByRole('table', { name: 'Products' });

      // The admin opens Edit at 50; a rep sells 3 meanwhile; the admin saves a new price.
      await products.getByRole('button', { name: `Edit ${name}` }).click();
      let dialog = page.getByRole('dialog', { name: 'Edit Product' });
      expect(await dialog.getByLabel('Stock').inputValue()).toBe('50');
      await rep.order(product._id, 3);
      await dialog.getByLabel('Price').fill('5.25');
      await dialog.getByRole('button', { name: 'Update Product' }).click();
      await see(statusMessage(page, 'Product updated.'));
      const row = bodyRows(products).filter({ hasText: name });
      await eventually(() => textOf(row)).toContain('47');
      expect(await textOf(row)).toContain('$5.25');

      // Opened at 47; one more sale; the admin types 60: refused, the new stock shown, nothing saved.
      await products.getByRole('button', { name: `Edit ${name}` }).click();
      dialog = page.getByRole('dialog', { name: 'Edit Product' });
      await rep.order(product._id, 1);
      await dialog.getByLabel('Stock').fill('60');
      story.expectHttpError(409, `/api/products/${product._id}`);
      await dialog.getByRole('button', { name: 'Update Product' }).click();
      const alert = dialog.getByRole('alert');
      await see(alert.getByText(/Stock changed from 47 to 46 while you were editing/));
      expect(await textOf(alert)).toContain('The stock is now 46');
      // Keep 46: the form takes the current stock, and saving changes nothing else.
      await alert.getByRole('button', { name: 'Keep 46' }).click();
      expect(await dialog.getByLabel('Stock').inputValue()).toBe('46');
      await dialog.getByRole('button', { name: 'Update Product' }).click();
      await see(statusMessage(page, 'Product updated.'));
      await eventually(() => textOf(row)).toContain('46');

      // Once more, and this time the admin's counted 60 stands: saved as a count against 45.
      await products.getByRole('button', { name: `Edit ${name}` }).click();
      dialog = page.getByRole('dialog', { name: 'Edit Product' });
      expect(await dialog.getByLabel('Stock').inputValue()).toBe('46');
      await rep.order(product._id, 1);
      await dialog.getByLabel('Stock').fill('60');
      story.expectHttpError(409, `/api/products/${product._id}`);
      await dialog.getByRole('button', { name: 'Update Product' }).click();
      await see(dialog.getByRole('alert').getByText(/Stock changed from 46 to 45 while you were editing/));
      await dialog.getByRole('alert').getByRole('button', { name: 'Use my value' }).click();
      await see(statusMessage(page, 'Product updated.'));
      await eventually(() => textOf(row)).toContain('60');
      await products.getByRole('link', { name: `Stock of ${name}` }).click();
      const movements = page.getByRole('table', { name: `Stock movements of ${name}, newest first` });
      await eventually(() => textOf(bodyRows(movements).nth(0))).toMatch(/Count.*\+15.*60/);
      expect(await textOf(bodyRows(movements).nth(1))).toMatch(/Sale.*−1.*45/);
    },
  );

  storyTest(
    'the admin adjusts and counts on the stock page, returns an order, and the ledger check agrees',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { account, product, name, rep } = await shop(baseUrl, 20);
      await rep.order(product._id, 4);
      await story.signIn(account);
      const menu = page.getByRole('navigation', { name: 'Main' });
      await menu.getByRole('link', { name: 'Products', exact: true }).click();
      await page
        .getByRole('table', { name: 'Products' })
        .getByRole('link', { name: `Stock of ${name}` })
        .click();
      await expectPath(page, `/admin-dashboard/products/${product._id}/stock`);
      await see(page.getByRole('heading', { name: `Stock: ${name}`, level: 1 }));
      const movements = page.getByRole('table', { name: `Stock movements of ${name}, newest first` });
      await eventually(() => bodyRows(movements).count()).toBe(2);
      expect(await textOf(bodyRows(movements).nth(0))).toMatch(/Sale.*−4.*16/);
      expect(await textOf(bodyRows(movements).nth(1))).toMatch(/Opening stock.*\+20.*20/);

      await page.getByRole('button', { name: 'Adjust' }).click();
      let dialog = page.getByRole('dialog');
      await dialog.getByLabel('Quantity').fill('-2');
      await dialog.getByLabel('Reason').selectOption('damaged');
      await dialog.getByLabel('Note').fill('Dropped');
      await dialog.getByRole('button', { name: 'Save adjustment' }).click();
      await see(statusMessage(page, 'Stock is now 14.'));
      await eventually(() => textOf(bodyRows(movements).nth(0))).toMatch(
        /Adjustment.*−2.*14.*Damaged.*Dropped/,
      );

      await page.getByRole('button', { name: 'Count' }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel('Counted quantity').fill('12');
      await see(dialog.getByText('Counted 12, stock 14: −2'));
      await dialog.getByRole('button', { name: 'Save count' }).click();
      await see(statusMessage(page, 'Count saved: stock is now 12.'));
      await eventually(() => textOf(bodyRows(movements).nth(0))).toMatch(/Count.*−2.*12/);

      // Return one unit of the rep's order from the orders list.
      await menu.getByRole('link', { name: 'Orders', exact: true }).click();
      const orders = page.getByRole('table', { name: 'All orders' });
      const orderRow = bodyRows(orders).filter({ hasText: name });
      await orderRow.getByRole('button', { name: new RegExp(`^Return ${name}`) }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel('Quantity').fill('1');
      await dialog.getByRole('button', { name: 'Return to stock' }).click();
      await see(statusMessage(page, `1 of ${name} returned to stock.`));
      await see(orderRow.getByText('1 of 4 returned'));

      // The unit is back on the shelf: 13, explained by a return movement.
      await menu.getByRole('link', { name: 'Products', exact: true }).click();
      await page
        .getByRole('table', { name: 'Products' })
        .getByRole('link', { name: `Stock of ${name}` })
        .click();
      await eventually(() => textOf(bodyRows(movements).nth(0))).toMatch(/Return.*\+1.*13/);
      expect(await textOf(page.getByRole('region', { name: 'Current stock' }))).toContain('In stock: 13');

      await menu.getByRole('link', { name: 'Ledger check', exact: true }).click();
      await page.getByRole('button', { name: 'Run check' }).click();
      await see(page.getByText(/^All [\d,]+ products agree with their history\.$/));
    },
  );
});
