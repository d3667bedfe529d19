// At 375 × 812 the lists are cards led by what matters and the menu is labelled behind a Menu
// button; at 1280 the tables stay, their action columns pinned right.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { MENUS } from '../src/web/app/navigation';
import { ApiSession, newAdmin, newStaff, unique } from './support/api';
import { eventually, expectPath, gone, see, statusMessage, textOf } from './support/page';
import { HOME, stories, storyTest } from './support/story';

const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 900 };

/** The item's field (a card's description list entry) by its label. */
function field(card: Locator, label: string): Locator {
  return card.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
}

/** The element is inside the window and nothing is drawn over its centre. */
async function expectInSightAndUncovered(element: Locator): Promise<void> {
  const seen = await element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const top = document.elementFromPoint(x, y);
    return {
      inside:
        box.left >= 0 && box.top >= 0 && box.right <= window.innerWidth && box.bottom <= window.innerHeight,
      uncovered: top !== null && (node === top || node.contains(top)),
      box: [box.left, box.top, box.right, box.bottom].map(Math.round),
      over: top ? `${top.tagName}.${top.className}` : 'nothing',
    };
  });
  expect(seen, `at ${seen.box.join(',')} under ${seen.over}`).toMatchObject({
    inside: true,
    uncovered: true,
  });
}

/** The page itself never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    content: document.documentElement.scrollWidth,
    window: window.innerWidth,
  }));
  expect(widths.content).toBeLessThanOrEqual(widths.window);
}

/** Opens the menu, checks every item of the role is there with its name written out, and goes. */
async function goByMenu(page: Page, role: keyof typeof MENUS, to: string): Promise<void> {
  await page.getByRole('button', { name: 'Menu' }).click();
  const dialog = page.getByRole('dialog', { name: 'Menu' });
  await see(dialog);
  const links = dialog.getByRole('navigation', { name: 'Main' }).getByRole('link');
  expect(await links.allInnerTexts()).toEqual(MENUS[role].map((item) => item.label));
  for (const link of await links.all()) {
    // The name is drawn on screen, not only given to assistive technology.
    const label = link.locator('span');
    const box = await label.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(10);
    expect(await label.isVisible()).toBe(true);
    // A long menu scrolls inside its panel, as a person would scroll it to reach the last items.
    await label.scrollIntoViewIfNeeded();
    await expectInSightAndUncovered(label);
  }
  await dialog.getByRole('link', { name: to, exact: true }).click();
  await gone(dialog);
}

stories('phones', () => {
  storyTest(
    'an admin on a phone uses the labelled menu, sees price and stock on product cards and totals on order cards, and gets the tables back at 1280',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account: adminAccount, session: admin } = await newAdmin(baseUrl);
      const rep = await admin.addUser('salesRep', `Sofia ${tag}`);
      const repSession = await ApiSession.signIn(baseUrl, rep.email, rep.password);
      const category = await admin.addCategory(`Office ${tag}`);
      const supplier = await admin.addSupplier(`Paper Co ${tag}`);
      const pens = await admin.addProduct({
        name: `A Pens ${tag}`,
        price: 12.5,
        stock: 3,
        reorderPoint: 5,
        category: category._id,
        supplier: supplier._id,
      });
      await repSession.order(pens._id, 2);

      await page.setViewportSize(PHONE);
      await story.signIn(adminAccount);
      // No bare row of icons: the sidebar is away and the menu sits behind a labelled button.
      await expect(page.getByRole('navigation', { name: 'Main' }).count()).resolves.toBe(0);
      await goByMenu(page, 'admin', 'Products');
      await expectPath(page, `${HOME.admin}/products`);
      await page.getByLabel('Search').fill(pens.name);

      const products = page.getByRole('list', { name: 'Products' });
      // Once the search has narrowed the list, the product is the first card.
      await eventually(() => products.getByRole('listitem').count()).toBe(1);
      const card = products.getByRole('listitem').first();
      expect(await textOf(card.getByRole('heading'))).toBe(pens.name);
      expect(await page.getByRole('table').count()).toBe(0);
      expect(await textOf(field(card, 'Price'))).toBe('$12.50');
      // 1 of 3 left after the order of 2, at or below the reorder point of 5: marked low.
      expect(await textOf(field(card, 'Stock'))).toBe('1');
      expect(await field(card, 'Stock').locator('[data-level]').getAttribute('data-level')).toBe('low');
      await expectInSightAndUncovered(field(card, 'Price'));
      await expectInSightAndUncovered(field(card, 'Stock').locator('[data-level]'));
      await expectNoSidewaysScroll(page);

      // The actions are buttons a finger can hit, and they work.
      const edit = card.getByRole('button', { name: `Edit ${pens.name}` });
      expect((await edit.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
      await edit.click();
      const dialog = page.getByRole('dialog', { name: 'Edit Product' });
      await see(dialog);
      expect(await dialog.getByLabel('Name').inputValue()).toBe(pens.name);
      await page.keyboard.press('Escape');
      await gone(dialog);

      await goByMenu(page, 'admin', 'Orders');
      await expectPath(page, `${HOME.admin}/orders`);
      await page.getByLabel('Search').fill(pens.name);
      const orders = page.getByRole('list', { name: 'All orders' });
      await eventually(() => orders.getByRole('listitem').count()).toBe(1);
      const order = orders.getByRole('listitem').first();
      expect(await textOf(order.getByRole('heading'))).toBe(pens.name);
      expect(await textOf(field(order, 'Quantity'))).toBe('2');
      expect(await textOf(field(order, 'Total Price'))).toBe('$25.00');
      expect(await textOf(field(order, 'Ordered by'))).toContain(`Sofia ${tag}`);
      await expectInSightAndUncovered(field(order, 'Total Price'));
      await expectInSightAndUncovered(field(order, 'Quantity'));
      await expectNoSidewaysScroll(page);
      await order.getByRole('button', { name: `Return ${pens.name} ordered by Sofia ${tag}` }).click();
      const returning = page.getByRole('dialog', { name: `Return: ${pens.name}` });
      await see(returning);
      await page.keyboard.press('Escape');
      await gone(returning);

      // Escape closes the menu and gives focus back to its button.
      const menuButton = page.getByRole('button', { name: 'Menu' });
      await menuButton.click();
      await see(page.getByRole('dialog', { name: 'Menu' }));
      await page.keyboard.press('Escape');
      await gone(page.getByRole('dialog', { name: 'Menu' }));
      expect(await menuButton.evaluate((node) => node === document.activeElement)).toBe(true);

      // Wider, the tables are back, their action column pinned at the right edge.
      await page.setViewportSize(LAPTOP);
      const table = page.getByRole('table', { name: 'All orders' });
      await see(table);
      expect(await page.getByRole('list', { name: 'All orders' }).count()).toBe(0);
      await expect(page.getByRole('button', { name: 'Menu' }).isVisible()).resolves.toBe(false);
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts()).toEqual(
        MENUS.admin.map((item) => item.label),
      );
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
      const productTable = page.getByRole('table', { name: 'Products' });
      await see(productTable);
      const action = productTable.getByRole('columnheader', { name: 'Action' });
      expect(await action.evaluate((node) => getComputedStyle(node).position)).toBe('sticky');
    },
  );

  storyTest(
    'a sales rep on a phone sees price and stock on catalogue cards, why a sold-out product cannot be ordered, orders one and finds it in My Orders',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { admin, account } = await newStaff(baseUrl, 'salesRep', `Rita ${tag}`);
      const category = await admin.addCategory(`Office ${tag}`);
      const supplier = await admin.addSupplier(`Paper Co ${tag}`);
      const pens = await admin.addProduct({
        name: `A Pens ${tag}`,
        price: 12.5,
        stock: 30,
        category: category._id,
        supplier: supplier._id,
      });
      const ink = await admin.addProduct({
        name: `A Ink ${tag}`,
        price: 7,
        stock: 0,
        category: category._id,
        supplier: supplier._id,
      });

      await page.setViewportSize(PHONE);
      await story.signIn(account);
      const list = page.getByRole('list', { name: 'Products you can order' });
      await page.getByLabel('Search').fill(tag);
      await eventually(() => list.getByRole('listitem').count()).toBe(2);
      // By name the sold-out ink comes first: its price and stock are in sight, and it says why
      // its Order button is greyed.
      const inkCard = list.getByRole('listitem').first();
      expect(await textOf(inkCard.getByRole('heading'))).toBe(ink.name);
      expect(await page.getByRole('table').count()).toBe(0);
      expect(await textOf(field(inkCard, 'Price'))).toBe('$7.00');
      expect(await textOf(field(inkCard, 'Stock'))).toBe('0');
      await expectInSightAndUncovered(field(inkCard, 'Price'));
      await expectInSightAndUncovered(field(inkCard, 'Stock').locator('[data-level]'));
      await expect(inkCard.getByRole('button', { name: `Order ${ink.name}` }).isDisabled()).resolves.toBe(
        true,
      );
      await expectInSightAndUncovered(inkCard.getByText('Out of stock', { exact: true }));
      await expectNoSidewaysScroll(page);

      const card = list.getByRole('listitem').nth(1);
      expect(await textOf(card.getByRole('heading'))).toBe(pens.name);
      expect(await textOf(field(card, 'Price'))).toBe('$12.50');
      expect(await textOf(field(card, 'Stock'))).toBe('30');
      await field(card, 'Stock').scrollIntoViewIfNeeded();
      await expectInSightAndUncovered(field(card, 'Price'));
      await expectInSightAndUncovered(field(card, 'Stock').locator('[data-level]'));

      await card.getByRole('button', { name: `Order ${pens.name}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Place Order' });
      await see(dialog);
      await dialog.getByLabel('Quantity').fill('2');
      await dialog.getByRole('button', { name: 'Place Order' }).click();
      await see(statusMessage(page, 'order placed'));
      await gone(dialog);
      await expect.poll(() => textOf(field(card, 'Stock'))).toBe('28');

      await goByMenu(page, 'salesRep', 'Orders');
      await expectPath(page, `${HOME.salesRep}/orders`);
      const mine = page.getByRole('list', { name: 'My orders' });
      await eventually(() => mine.getByRole('listitem').count()).toBe(1);
      const order = mine.getByRole('listitem').first();
      expect(await textOf(order.getByRole('heading'))).toBe(pens.name);
      expect(await textOf(field(order, 'Total Price'))).toBe('$25.00');
      await expectInSightAndUncovered(field(order, 'Total Price'));
      await expectNoSidewaysScroll(page);

      // At 1280 the catalogue is a table again, the Order column pinned right.
      await page.setViewportSize(LAPTOP);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
      const table = page.getByRole('table', { name: 'Products you can order' });
      await see(table);
      expect(await page.getByRole('list', { name: 'Products you can order' }).count()).toBe(0);
      const action = table.getByRole('columnheader', { name: 'Action' });
      expect(await action.evaluate((node) => getComputedStyle(node).position)).toBe('sticky');
    },
  );
});
