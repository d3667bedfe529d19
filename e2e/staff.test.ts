import { expect } from 'vitest';
import { ApiSession, newStaff, unique } from './support/api';
import {
  alertMessage,
  cellText,
  columnTexts,
  eventually,
  expectPath,
  gone,
  menuLinks,
  pathOf,
  rowWith,
  see,
  statusMessage,
  textOf,
} from './support/page';
import { HOME, stories, storyTest } from './support/story';

type StaffRole = 'salesRep' | 'medicalRep' | 'user';

/** A staff member and a small catalogue of their own: two categories, one product sold out. */
async function shop(baseUrl: string, role: StaffRole, name: string) {
  const tag = unique();
  const { admin, account } = await newStaff(baseUrl, role, name);
  const snacks = await admin.addCategory(`Snacks ${tag}`);
  const drinks = await admin.addCategory(`Drinks ${tag}`);
  const supplier = await admin.addSupplier(`Wholesale ${tag}`);
  const crisps = await admin.addProduct({
    name: `Crisps ${tag}`,
    price: 1.15,
    stock: 3,
    category: snacks._id,
    supplier: supplier._id,
  });
  const cola = await admin.addProduct({
    name: `Cola ${tag}`,
    price: 2.4,
    stock: 10,
    category: drinks._id,
    supplier: supplier._id,
  });
  const soda = await admin.addProduct({
    name: `Soda ${tag}`,
    price: 3,
    stock: 0,
    category: drinks._id,
    supplier: supplier._id,
  });
  return { tag, admin, account, snacks, drinks, crisps, cola, soda };
}

// Every staff menu is the same; the medical rep's "Orders" leads to their own area (DESIGN §5).
const MENU = [
  'Products',
  'New sale',
  'Sales',
  'Refunds',
  'Till sessions',
  'Orders',
  'Customers',
  'Stocktake',
  'Profile',
  'Logout',
];
const STAFF: { role: StaffRole; who: string; person: string }[] = [
  { role: 'salesRep', who: 'a sales rep', person: 'Sofia Sales' },
  { role: 'medicalRep', who: 'a medical rep', person: 'Marta Medic' },
  { role: 'user', who: 'an employee', person: 'Emil Employee' },
];

stories('staff', () => {
  for (const { role, who, person } of STAFF) {
    storyTest(
      `${who} browses the catalogue, orders within the stock, finds it in My Orders, edits the profile and logs out`,
      async ({ story }) => {
        const { page, baseUrl } = story;
        const { tag, account, snacks, drinks, crisps, cola, soda } = await shop(baseUrl, role, person);
        const home = HOME[role];

        await story.signIn(account);
        await see(page.getByRole('heading', { name: 'Products', level: 1 }));
        expect(await menuLinks(page)).toEqual(MENU);
        const nav = page.getByRole('navigation', { name: 'Main' });
        expect(await nav.getByRole('link', { name: 'Orders' }).getAttribute('href')).toBe(`${home}/orders`);
        const table = page.getByRole('table', { name: 'Products you can order' });
        await see(rowWith(table, crisps.name));

        // The category select and the search narrow the list.
        const category = page.getByLabel('Category');
        const categoryChoices = await category.locator('option').allInnerTexts();
        expect(categoryChoices[0]).toBe('Select Category');
        expect(categoryChoices).toEqual(expect.arrayContaining([snacks.name, drinks.name]));
        await category.selectOption({ label: drinks.name });
        await eventually(() => columnTexts(table, 'Name')).toEqual([cola.name, soda.name]);
        const search = page.getByPlaceholder('Search products...');
        await search.fill(`SODA ${tag}`);
        await eventually(() => columnTexts(table, 'Name')).toEqual([soda.name]);
        await category.selectOption({ label: snacks.name });
        await see(table.getByText('No products found'));
        await category.selectOption({ label: 'Select Category' });
        await search.fill(`cRiSpS ${tag}`);
        await eventually(() => columnTexts(table, 'Name')).toEqual([crisps.name]);
        expect(await rowWith(table, crisps.name).getByRole('cell').allInnerTexts()).toEqual(
          expect.arrayContaining([crisps.name, snacks.name, '$1.15', '3']),
        );
        await search.fill(tag);
        await eventually(() => columnTexts(table, 'Name')).toHaveLength(3);

        // Nothing to order at stock 0.
        expect(await table.getByRole('button', { name: `Order ${soda.name}` }).isDisabled()).toBe(true);

        await table.getByRole('button', { name: `Order ${crisps.name}` }).click();
        const dialog = page.getByRole('dialog', { name: 'Place Order' });
        await see(dialog);
        const quantity = dialog.getByLabel('Quantity');
        const total = dialog.getByText(/^Total:/);
        expect(await quantity.inputValue()).toBe('1');
        expect(await quantity.getAttribute('min')).toBe('1');
        expect(await textOf(total)).toBe('Total: $1.15');
        await quantity.fill('3');
        await eventually(() => textOf(total)).toBe('Total: $3.45');
        await quantity.fill('2');
        await eventually(() => textOf(total)).toBe('Total: $2.30');

        // More than the stock: 'Not enough stock', the typed number stays and cannot be ordered.
        await quantity.fill('4');
        await see(alertMessage(dialog, 'Not enough stock'));
        expect(await quantity.inputValue()).toBe('4');
        expect(await dialog.getByRole('button', { name: 'Place Order' }).isDisabled()).toBe(true);
        await quantity.fill('2');
        await eventually(() => textOf(total)).toBe('Total: $2.30');

        await dialog.getByRole('button', { name: 'Place Order' }).click();
        await see(statusMessage(page, 'order placed'));
        await gone(dialog);
        await eventually(() => cellText(table, crisps.name, 'Stock')).toBe('1');

        // My Orders lists it, without anyone's name or address.
        await nav.getByRole('link', { name: 'Orders' }).click();
        await expectPath(page, `${home}/orders`);
        await see(page.getByRole('heading', { name: 'My Orders', level: 1 }));
        const orders = page.getByRole('table', { name: 'My orders' });
        expect(await orders.getByRole('columnheader').allInnerTexts()).toEqual(
          ['S NO', 'Product Name', 'Category', 'Quantity', 'Total Price', 'Order Date', 'Sale'].map((text) =>
            expect.stringMatching(new RegExp(`^${text}$`, 'i')),
          ),
        );
        const today = await page.evaluate(() =>
          new Date().toLocaleDateString('en-US', { dateStyle: 'medium' }),
        );
        await see(rowWith(orders, crisps.name));
        expect(await rowWith(orders, crisps.name).getByRole('cell').allInnerTexts()).toEqual([
          '1',
          crisps.name,
          snacks.name,
          '2',
          '$2.30',
          today,
          // A catalogue order is a one-line sale: its receipt number (DESIGN §16).
          expect.stringMatching(/^S-\d{6}$/),
        ]);

        // A deep link survives a reload, and so does the session.
        await page.reload();
        await see(page.getByRole('heading', { name: 'My Orders', level: 1 }));
        expect(pathOf(page)).toBe(`${home}/orders`);
        await see(rowWith(orders, crisps.name));

        // Profile: edit the address, keep the password.
        await nav.getByRole('link', { name: 'Profile' }).click();
        await expectPath(page, `${home}/profile`);
        const address = page.getByLabel('Address');
        await eventually(() => page.getByLabel('Name').inputValue()).toBe(account.name);
        expect(await address.getAttribute('readonly')).not.toBeNull();
        await page.getByRole('button', { name: 'Edit Profile' }).click();
        await see(page.getByRole('button', { name: 'Save Changes' }));
        await address.fill('5 Riverside Walk');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await see(statusMessage(page, 'Profile updated.'));
        await eventually(() => address.getAttribute('readonly')).not.toBeNull();
        await page.reload();
        await eventually(() => address.inputValue()).toBe('5 Riverside Walk');
        // The password did not change.
        await ApiSession.signIn(baseUrl, account.email, account.password);

        await nav.getByRole('link', { name: 'Logout' }).click();
        await expectPath(page, '/login');
        await page.goto(`${home}/orders`);
        await expectPath(page, '/home');
      },
    );
  }

  storyTest(
    'a sales rep who asks for stock someone else just bought is told there is not enough',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { admin, account, crisps } = await shop(baseUrl, 'salesRep', 'Sid Slow');
      const rival = await admin.addUser('salesRep', 'Fay Fast');
      const rivalSession = await ApiSession.signIn(baseUrl, rival.email, rival.password);

      await story.signIn(account);
      const table = page.getByRole('table', { name: 'Products you can order' });
      await table.getByRole('button', { name: `Order ${crisps.name}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Place Order' });
      await dialog.getByLabel('Quantity').fill('3');

      await rivalSession.order(crisps._id, 2);
      story.expectHttpError(409, '/api/order/add');
      await dialog.getByRole('button', { name: 'Place Order' }).click();
      await see(alertMessage(dialog, 'Not enough stock'));
      expect(await dialog.isVisible()).toBe(true);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await gone(dialog);
      await eventually(() => cellText(table, crisps.name, 'Stock')).toBe('1');
    },
  );

  storyTest(
    'the Place Order dialog works from the keyboard: focus inside, Tab trapped, Escape closes',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { account, cola } = await shop(baseUrl, 'user', 'Kim Keys');

      await story.signIn(account);
      const table = page.getByRole('table', { name: 'Products you can order' });
      const orderButton = table.getByRole('button', { name: `Order ${cola.name}` });
      await orderButton.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Place Order' });
      await see(dialog);

      const focusIsIn = () => dialog.evaluate((node) => node.contains(document.activeElement));
      const focusedLabel = () =>
        page.evaluate(() => {
          const active = document.activeElement as HTMLInputElement | null;
          return active?.labels?.[0]?.textContent ?? active?.textContent ?? '';
        });
      await eventually(focusIsIn).toBe(true);
      expect(await focusedLabel()).toBe('Quantity');

      const seen = new Set<string>();
      for (let step = 0; step < 6; step += 1) {
        await page.keyboard.press('Tab');
        expect(await focusIsIn()).toBe(true);
        seen.add(await focusedLabel());
      }
      expect([...seen]).toEqual(expect.arrayContaining(['Quantity', 'Cancel', 'Place Order']));
      for (let step = 0; step < 6; step += 1) {
        await page.keyboard.press('Shift+Tab');
        expect(await focusIsIn()).toBe(true);
      }

      // Typing works from the keyboard too, then Escape closes without ordering.
      await dialog.getByLabel('Quantity').focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('4');
      await eventually(() => textOf(dialog.getByText(/^Total:/))).toBe('Total: $9.60');
      await page.keyboard.press('Escape');
      await gone(dialog);
      await eventually(() => orderButton.evaluate((node) => node === document.activeElement)).toBe(true);
      expect(await cellText(table, cola.name, 'Stock')).toBe('10');
    },
  );

  storyTest(
    'a sales rep whose account was deleted is sent back to the login page on the next click',
    async ({ story }) => {
      const { page } = story;
      const { admin, account, crisps } = await shop(story.baseUrl, 'salesRep', 'Gus Gone');
      await story.signIn(account);
      // The catalogue has loaded: the next call the app makes is the one the click below causes.
      await see(rowWith(page.getByRole('table', { name: 'Products you can order' }), crisps.name));

      await admin.deleteUser(account._id);
      story.expectHttpError(401, '/api/');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
      await expectPath(page, '/login');
      await see(alertMessage(page, 'Your session has ended. Please log in again.'));
      expect(await page.evaluate(() => localStorage.getItem('ims_token'))).toBeNull();
    },
  );

  storyTest('on a 375 px phone an employee still finds and orders a product', async ({ story }) => {
    const { page } = story;
    const { account, cola } = await shop(story.baseUrl, 'user', 'Pia Phone');
    await page.setViewportSize({ width: 375, height: 812 });
    await story.signIn(account);
    // The menu sits behind a Menu button in a top bar that writes the app's name out.
    await see(page.getByRole('banner').getByText('Inventory MS', { exact: true }));
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    expect(await menuLinks(page)).toEqual(MENU);
    await page.keyboard.press('Escape');
    await gone(page.getByRole('dialog', { name: 'Menu' }));

    await page.getByPlaceholder('Search products...').fill(cola.name);
    // The products are cards on a phone, each with its Order button.
    const card = page
      .getByRole('list', { name: 'Products you can order' })
      .getByRole('listitem')
      .filter({ hasText: cola.name });
    const order = card.getByRole('button', { name: `Order ${cola.name}` });
    await order.click();
    const dialog = page.getByRole('dialog', { name: 'Place Order' });
    await dialog.getByLabel('Quantity').fill('2');
    await dialog.getByRole('button', { name: 'Place Order' }).click();
    await see(statusMessage(page, 'order placed'));
    await eventually(async () => textOf(card.locator('[data-level]'))).toBe('8');
    // The page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await menu.click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Orders' }).click();
    await see(page.getByRole('heading', { name: 'My Orders', level: 1 }));
    await see(
      page.getByRole('list', { name: 'My orders' }).getByRole('listitem').filter({ hasText: cola.name }),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
