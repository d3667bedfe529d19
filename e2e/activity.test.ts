import { expect } from 'vitest';
import { newAdmin, unique } from './support/api';
import { bodyRows, eventually, expectPath, see, statusMessage, textOf } from './support/page';
import { stories, storyTest } from './support/story';

stories('activity', () => {
  storyTest(
    "admin changes a product's price and finds the change, with their name, in Activity",
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account, session } = await newAdmin(baseUrl, `Olive Admin ${tag}`);
      const category = await session.addCategory(`Lighting ${tag}`);
      const supplier = await session.addSupplier(`Lamps Ltd ${tag}`);
      const lamp = `Desk Lamp ${tag}`;
      await session.addProduct({
        name: lamp,
        price: 9.99,
        stock: 5,
        category: category._id,
        supplier: supplier._id,
      });

      await story.signIn(account);
      const menu = page.getByRole('navigation', { name: 'Main' });
      await menu.getByRole('link', { name: 'Products', exact: true }).click();
      const products = page.getByRole('table', { name: 'Products' });
      await products.getByRole('button', { name: `Edit ${lamp}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Product' });
      await dialog.getByLabel('Price').fill('12.50');
      await dialog.getByRole('button', { name: 'Update Product' }).click();
      await see(statusMessage(page, 'Product updated.'));

      await menu.getByRole('link', { name: 'Activity', exact: true }).click();
      await expectPath(page, '/admin-dashboard/activity');
      await see(page.getByRole('heading', { name: 'Activity', level: 1 }));
      const table = page.getByRole('table', { name: 'Activity' });
      // Signing in was recorded too, so the unfiltered log holds more than products.
      await see(bodyRows(table).filter({ hasText: 'Signed in' }).first());

      await page.getByLabel('Entity').selectOption({ label: 'Products' });
      await eventually(() => new URL(page.url()).search).toBe('?entity=product');
      const lampRows = bodyRows(table).filter({ hasText: lamp });
      const changed = lampRows.filter({ hasText: 'price: 9.99 → 12.50' });
      await see(changed);
      const who = changed.getByRole('cell').nth(1);
      await see(who.getByText(`Olive Admin ${tag}`, { exact: true }));
      await see(who.getByText('Admin', { exact: true }));
      expect(await textOf(changed.getByRole('cell').nth(2))).toBe('Changed');
      await eventually(() => bodyRows(table).filter({ hasText: 'Signed in' }).count()).toBe(0);
      // Newest first: the change, then the creation with its first price.
      await eventually(() => lampRows.count()).toBe(2);
      expect(await textOf(lampRows.nth(0).getByRole('cell').nth(2))).toBe('Changed');
      expect(await textOf(lampRows.nth(1).getByRole('cell').nth(2))).toBe('Created');
      expect(await textOf(lampRows.nth(1).getByRole('cell').nth(4))).toContain('price: 9.99');

      // The filter lives in the address: a reload shows the same view.
      await page.reload();
      await see(changed);
      expect(await page.getByLabel('Entity').inputValue()).toBe('product');
    },
  );
});
