import { expect } from 'vitest';
import { newAdmin, unique } from './support/api';
import {
  alertMessage,
  cellText,
  expectPath,
  gone,
  rowWith,
  see,
  statusMessage,
  textOf,
} from './support/page';
import { HOME, stories, storyTest } from './support/story';

stories('staff management', () => {
  storyTest(
    'an admin deactivates a rep, who is sent to sign in; reactivates them, resets their password; the rep signs in with the temporary one, chooses a new one and sells',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account: adminAccount, session: admin } = await newAdmin(baseUrl);
      const rep = await admin.addUser('salesRep', `Rhea Rep ${tag}`);
      const category = await admin.addCategory(`Tea ${tag}`);
      const supplier = await admin.addSupplier(`Leaf Co ${tag}`);
      const tea = await admin.addProduct({
        name: `Green tea ${tag}`,
        price: 4.5,
        stock: 6,
        category: category._id,
        supplier: supplier._id,
      });

      // The rep is at work in another browser.
      const repDesk = await story.otherPerson();
      await repDesk.signIn(rep);
      const catalogue = repDesk.page.getByRole('table', { name: 'Products you can order' });
      await see(rowWith(catalogue, tea.name));

      // The admin deactivates them.
      await story.signIn(adminAccount);
      await page.goto(`${HOME.admin}/users`);
      const users = page.getByRole('table', { name: 'Users' });
      await page.getByPlaceholder('Search users...').fill(rep.name);
      await see(rowWith(users, rep.name));
      expect(await cellText(users, rep.name, 'Status')).toBe('Active');

      // On a 1280 px laptop every column is in sight at once: no sideways scroll in the table,
      // the Status cell and all four actions inside the window.
      expect(page.viewportSize()).toEqual({ width: 1280, height: 900 });
      const scroller = users.locator('xpath=..');
      const [scrollWidth, clientWidth] = await scroller.evaluate((box) => [box.scrollWidth, box.clientWidth]);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      const row = rowWith(users, rep.name);
      const inSight = async (locator: ReturnType<typeof page.locator>) => {
        const box = await locator.boundingBox();
        if (!box) throw new Error('not laid out');
        return box.x >= 0 && box.y >= 0 && box.x + box.width <= 1280 && box.y + box.height <= 900;
      };
      const statusCell = row.getByRole('cell').filter({ hasText: /^Active$/ });
      expect(await inSight(statusCell)).toBe(true);
      for (const action of ['Edit', 'Deactivate', 'Reset the password of', 'Delete']) {
        expect(await inSight(row.getByRole('button', { name: `${action} ${rep.name}` })), action).toBe(true);
      }
      await page.getByRole('button', { name: `Deactivate ${rep.name}` }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Deactivate user?' });
      await confirm.getByRole('button', { name: 'Deactivate' }).click();
      await see(statusMessage(page, `${rep.name} deactivated.`));
      await expect.poll(() => cellText(users, rep.name, 'Status')).toBe('Deactivated');

      // The rep's next action sends them to sign in, and signing in says why not.
      story.expectHttpError(401, '/api/');
      story.expectHttpError(403, '/api/auth/login');
      await repDesk.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Orders' })
        .click();
      await expectPath(repDesk.page, '/login');
      await repDesk.page.getByLabel('Email').fill(rep.email);
      await repDesk.page.getByLabel('Password').fill(rep.password);
      await repDesk.page.getByRole('button', { name: 'Login' }).click();
      await see(alertMessage(repDesk.page, 'This account is deactivated.'));

      // Reactivated, then a password reset: the temporary password is shown once.
      await page.getByRole('button', { name: `Reactivate ${rep.name}` }).click();
      await page
        .getByRole('alertdialog', { name: 'Reactivate user?' })
        .getByRole('button', { name: 'Reactivate' })
        .click();
      await expect.poll(() => cellText(users, rep.name, 'Status')).toBe('Active');
      await page.getByRole('button', { name: `Reset the password of ${rep.name}` }).click();
      await page
        .getByRole('alertdialog', { name: 'Reset password?' })
        .getByRole('button', { name: 'Reset password' })
        .click();
      const shown = page.getByRole('dialog', { name: 'Temporary password' });
      await see(shown);
      const temporary = await textOf(shown.locator('code'));
      expect(temporary).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
      await shown.getByRole('button', { name: 'Done' }).click();
      await gone(shown);
      await expect.poll(() => cellText(users, rep.name, 'Status')).toBe('ActiveMust change password');

      // The old password no longer works; the temporary one leads only to choosing a new one.
      await repDesk.page.getByLabel('Password').fill(rep.password);
      await repDesk.page.getByRole('button', { name: 'Login' }).click();
      await see(alertMessage(repDesk.page, 'Invalid email or password'));
      await repDesk.page.getByLabel('Password').fill(temporary);
      await repDesk.page.getByRole('button', { name: 'Login' }).click();
      await expectPath(repDesk.page, '/change-password');
      await see(repDesk.page.getByRole('heading', { name: 'Choose a new password' }));
      await repDesk.page.goto(`${HOME.salesRep}/orders`);
      await expectPath(repDesk.page, '/change-password');
      await repDesk.page.getByLabel('Temporary password').fill(temporary);
      await repDesk.page.getByLabel('New password', { exact: true }).fill(`rhea own ${tag}`);
      await repDesk.page.getByLabel('Confirm new password').fill(`rhea own ${tag}`);
      await repDesk.page.getByRole('button', { name: 'Save new password' }).click();
      await expectPath(repDesk.page, HOME.salesRep);

      // Back at work: the rep sells.
      const again = repDesk.page.getByRole('table', { name: 'Products you can order' });
      await again.getByRole('button', { name: `Order ${tea.name}` }).click();
      const dialog = repDesk.page.getByRole('dialog', { name: 'Place Order' });
      await dialog.getByLabel('Quantity').fill('2');
      await dialog.getByRole('button', { name: 'Place Order' }).click();
      await see(statusMessage(repDesk.page, 'order placed'));
      await expect.poll(() => cellText(again, tea.name, 'Stock')).toBe('4');
    },
  );
});
