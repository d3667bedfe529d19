import { expect } from 'vitest';
import { ApiSession, newAdmin } from './support/api';
import { eventually, menuLinks, see, termValue } from './support/page';
import { stories, storyTest } from './support/story';

// This file owns its server, so the dashboard starts from an empty store.
stories('admin dashboard', () => {
  storyTest(
    'admin watches the dashboard go from an empty store to stock alerts and sales',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { account, session: admin } = await newAdmin(baseUrl, 'Dana Director');

      await story.signIn(account);
      await see(page.getByRole('heading', { name: 'Dashboard', level: 1 }));
      expect(await menuLinks(page)).toEqual([
        'Dashboard',
        'Products',
        'Categories',
        'Orders',
        'Customers',
        'Suppliers',
        'Purchasing',
        'Reports',
        'Users',
        'Ledger check',
        'Activity',
        'Profile',
        'Logout',
      ]);
      const outOfStock = page.getByRole('region', { name: 'Out of Stock Products' });
      const bestSeller = page.getByRole('region', { name: 'Highest Sale Product' });
      const lowStock = page.getByRole('region', { name: 'Low Stock Products' });
      await see(outOfStock.getByText('No products out of stock.'));
      await see(bestSeller.getByText('No sales yet.'));
      await see(lowStock.getByText('No low stock products.'));
      expect(await termValue(page, 'Total Products')).toBe('0');
      expect(await termValue(page, 'Total Stock')).toBe('0');
      expect(await termValue(page, 'Order Today')).toBe('0');
      expect(await termValue(page, 'Revenue')).toBe('$0.00');

      // A small store: one product sold out, one running low, one selling well.
      const category = await admin.addCategory('Stationery');
      const supplier = await admin.addSupplier('Paper Mill Ltd');
      const base = { category: category._id, supplier: supplier._id };
      await admin.addProduct({ ...base, name: 'Red Stapler', price: 8, stock: 0 });
      const pen = await admin.addProduct({ ...base, name: 'Blue Pen', price: 1.25, stock: 3 });
      const notebook = await admin.addProduct({ ...base, name: 'Notebook', price: 4.5, stock: 20 });
      const rep = await admin.addUser('salesRep', 'Rita Rep');
      const repSession = await ApiSession.signIn(baseUrl, rep.email, rep.password);
      await repSession.order(notebook._id, 2);
      await repSession.order(pen._id, 1);

      await page.reload();
      await see(outOfStock.getByText('Red Stapler'));
      await eventually(() => termValue(page, 'Total Products')).toBe('3');
      expect(await termValue(page, 'Total Stock')).toBe('20');
      expect(await termValue(page, 'Order Today')).toBe('2');
      expect(await termValue(page, 'Revenue')).toBe('$10.25');
      expect(await outOfStock.getByRole('listitem').allInnerTexts()).toEqual([
        expect.stringMatching(/^Red Stapler\s+Stationery$/),
      ]);
      expect(await lowStock.getByRole('listitem').allInnerTexts()).toEqual([
        expect.stringMatching(/^Blue Pen - 2 left\s+Stationery$/),
      ]);
      expect(await termValue(bestSeller, 'Name')).toBe('Notebook');
      expect(await termValue(bestSeller, 'Category')).toBe('Stationery');
      expect(await termValue(bestSeller, 'Total Units Sold')).toBe('2');
    },
  );
});
