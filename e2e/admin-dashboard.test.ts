import { expect } from 'vitest';
import { ApiSession, newAdmin } from './support/api';
import { eventually, menuLinks, see, termValue, textOf } from './support/page';
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
        'Items',
        'Expiring',
        'Categories',
        'New sale',
        'Sales',
        'Refunds',
        'Till sessions',
        'Orders',
        'Customers',
        'Suppliers',
        'Purchasing',
        'Bills',
        'Transfers',
        'Stocktakes',
        'Reports',
        'Accounting',
        'Users',
        'Store settings',
        'Locations',
        'Tax rates',
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
      // What the revenue covers, under its figure.
      const revenueTerm = page.getByRole('term').filter({ hasText: /^Revenue$/ });
      expect(await textOf(revenueTerm.locator('xpath=following-sibling::dd[2]'))).toBe('all time');
      await see(bestSeller.getByText('all time'));

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
      // Today's strip: the two sales, their revenue and the average basket (10.25 / 2, to the cent).
      const today = page.getByRole('region', { name: 'Today' });
      expect(await termValue(today, 'Sales today')).toBe('2');
      expect(await termValue(today, 'Revenue today')).toBe('$10.25');
      expect(await termValue(today, 'Average basket')).toBe('$5.13');
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

  storyTest(
    'admin on a phone (375 px) reads every figure whole, however long the sums',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { account, session: admin } = await newAdmin(baseUrl, 'Paula Phone');
      // Sums as long as the store can make: the highest price, a thousand units at a time.
      const category = await admin.addCategory('Jewels');
      const supplier = await admin.addSupplier('Crown Works');
      const crown = await admin.addProduct({
        name: 'Crown',
        price: 999_999_999.99,
        stock: 2_000_000_000,
        category: category._id,
        supplier: supplier._id,
      });
      const rep = await admin.addUser('salesRep', 'Rob Rep');
      const repSession = await ApiSession.signIn(baseUrl, rep.email, rep.password);
      await repSession.order(crown._id, 1000);
      await repSession.order(crown._id, 999);

      await page.setViewportSize({ width: 375, height: 812 });
      await story.signIn(account);
      await see(page.getByRole('heading', { name: 'Dashboard', level: 1 }));
      const today = page.getByRole('region', { name: 'Today' });
      await see(today);
      // Every label and figure of the tiles and the Today strip: nothing wider than its own box,
      // and each box inside its tile, inside the page.
      const overflows = await page.evaluate(() => {
        const problems: string[] = [];
        const pageWidth = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth > pageWidth)
          problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${pageWidth}`);
        const figures = [...document.querySelectorAll('main dl')].filter((list) =>
          [...list.querySelectorAll('dt')].some((term) =>
            ['Revenue', 'Order Today', 'Total Stock', 'Revenue today'].includes(term.textContent ?? ''),
          ),
        );
        if (figures.length !== 2)
          problems.push(`expected the tiles and the Today strip, found ${figures.length}`);
        for (const list of figures)
          for (const item of list.querySelectorAll('dt, dd')) {
            const box = item.getBoundingClientRect();
            const tile = (item.parentElement as HTMLElement).getBoundingClientRect();
            const text = item.textContent;
            if (item.scrollWidth > item.clientWidth)
              problems.push(`${text}: ${item.scrollWidth} wide in ${item.clientWidth}`);
            if (box.left < tile.left - 0.5 || box.right > tile.right + 0.5)
              problems.push(`${text}: ${box.left}–${box.right} outside its tile ${tile.left}–${tile.right}`);
            if (box.right > pageWidth) problems.push(`${text}: past the page's edge`);
          }
        return problems;
      });
      expect(overflows).toEqual([]);
      // The long sum is all there, wrapped or not: the server's all-time revenue to the cent.
      const answer = await fetch(`${baseUrl}/api/dashboard`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      const { revenue } = (await answer.json()) as { revenue: number };
      expect(revenue).toBeGreaterThanOrEqual(1_998_999_999_980.01);
      expect((await termValue(page, 'Revenue')).replace(/[\s,]/g, '')).toBe(`$${revenue.toFixed(2)}`);
    },
  );
});
