import { expect } from 'vitest';
import { ApiSession } from './support/api';
import {
  alertMessage,
  bodyRows,
  columnTexts,
  eventually,
  expectPath,
  gone,
  menuLinks,
  rowWith,
  see,
  statusMessage,
} from './support/page';
import { SUPER_ADMIN } from './support/server';
import { stories, storyTest } from './support/story';

const owner = { ...SUPER_ADMIN, role: 'superAdmin' as const };

stories('super admin', () => {
  storyTest(
    'a visitor reads the landing page, is kept out of the admin area and signs in from the Login link',
    async ({ story }) => {
      const { page } = story;
      await page.goto('/admin-dashboard');
      await expectPath(page, '/home');
      await see(page.getByRole('heading', { name: 'Simplify your Retail Operations.', level: 1 }));
      expect(await page.getByRole('main').getByRole('heading', { level: 3 }).count()).toBe(5);
      await see(page.getByText(/no credit card required/i));
      await see(page.getByText(/2025/));

      await page.goto('/retail');
      await see(page.getByRole('heading', { name: 'Simplify your Retail Operations.', level: 1 }));
      await page.goto('/no/such/page');
      await see(page.getByRole('heading', { name: 'Page not found' }));
      await page.getByRole('link', { name: 'Back to the home page' }).click();
      await expectPath(page, '/home');

      await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Login' }).click();
      await expectPath(page, '/login');
      // While the server thinks, the button says so and cannot be pressed twice.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/auth/login', async (route) => {
        await held;
        await route.continue();
      });
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Login' }).click();
      const busy = page.getByRole('button', { name: 'Logging in...' });
      await see(busy);
      expect(await busy.isDisabled()).toBe(true);
      release();
      await expectPath(page, '/superAdmin-dashboard');
      await see(page.getByRole('heading', { name: 'Super Admin Dashboard', level: 1 }));
    },
  );

  storyTest(
    'superAdmin signs in, adds an admin, finds and deletes users, sees the profile and logs out',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const api = await ApiSession.superAdmin(baseUrl);
      await api.addUser('admin', 'Priya Patel');
      const leaving = await api.addUser('admin', 'Marco Rossi');

      // A wrong password is refused with the server's sentence, inline.
      story.expectHttpError(401, '/api/auth/login');
      await page.goto('/login');
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Login' }).click();
      await see(alertMessage(page, 'Invalid email or password'));
      await expectPath(page, '/login');

      await story.signIn(owner);
      await see(page.getByRole('heading', { name: 'Super Admin Dashboard', level: 1 }));
      expect(await menuLinks(page)).toEqual(['Super Dashboard', 'Users', 'Activity', 'Profile', 'Logout']);

      // Users Management: the only role a superAdmin gives is admin.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
      await expectPath(page, '/superAdmin-dashboard/users');
      await see(page.getByRole('heading', { name: 'Users Management', level: 1 }));
      const form = page.getByRole('region', { name: 'Add New User' });
      const roleChoices = await form
        .getByLabel('Role')
        .locator('option')
        .evaluateAll((options) =>
          options.map((option) => [(option as HTMLOptionElement).value, option.textContent]),
        );
      expect(roleChoices).toEqual([
        ['', 'Select Role'],
        ['admin', 'Admin'],
      ]);

      const users = page.getByRole('table', { name: 'Users' });
      await see(rowWith(users, 'Marco Rossi'));
      await form.getByLabel('Name').fill('Nadia Novak');
      await form.getByLabel('Email').fill('nadia.novak@shop.test');
      await form.getByLabel('Password').fill('nadia-secret-1');
      await form.getByLabel('Address').fill('4 Quay Street');
      await form.getByLabel('Role').selectOption('admin');
      await form.getByRole('button', { name: 'Add User' }).click();
      await see(statusMessage(page, 'User Nadia Novak added.'));
      const added = rowWith(users, 'Nadia Novak');
      await see(added);
      expect(await added.getByRole('cell').allInnerTexts()).toEqual(
        expect.arrayContaining(['Nadia Novak', 'nadia.novak@shop.test', 'Admin']),
      );
      await eventually(() => form.getByLabel('Name').inputValue()).toBe('');
      await ApiSession.signIn(baseUrl, 'nadia.novak@shop.test', 'nadia-secret-1');

      // The search filters by name, ignoring case.
      const search = page.getByPlaceholder('Search users...');
      await search.fill('pRIy');
      await eventually(() => columnTexts(users, 'Name')).toEqual(['Priya Patel']);
      await search.fill('nobody by that name');
      await see(users.getByText('No User found'));
      await search.fill('');
      await eventually(() => bodyRows(users).count()).toBe(4);
      await see(rowWith(users, 'Super Admin').getByText('You'));

      // Deleting asks first; Cancel keeps the user, Delete removes them for good.
      await users.getByRole('button', { name: 'Delete Marco Rossi' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete user?' });
      await see(confirm);
      await see(confirm.getByText(leaving.email));
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await gone(confirm);
      await see(rowWith(users, 'Marco Rossi'));
      await users.getByRole('button', { name: 'Delete Marco Rossi' }).click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await see(statusMessage(page, 'User deleted.'));
      await gone(rowWith(users, 'Marco Rossi'));
      await page.reload();
      await see(rowWith(users, 'Nadia Novak'));
      expect(await columnTexts(users, 'Name')).not.toContain('Marco Rossi');
      const signInAfterDelete = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: leaving.email, password: leaving.password }),
      });
      expect(signInAfterDelete.status).toBe(401);

      // Profile: the account's own details, read-only until Edit Profile.
      await page.getByRole('link', { name: 'Profile' }).click();
      await expectPath(page, '/superAdmin-dashboard/profile');
      await see(page.getByRole('heading', { name: 'Profile', level: 1 }));
      const name = page.getByLabel('Name');
      await eventually(() => name.inputValue()).toBe('Super Admin');
      expect(await name.getAttribute('readonly')).not.toBeNull();
      expect(await page.getByLabel('Email').inputValue()).toBe(owner.email);
      await see(page.getByRole('button', { name: 'Edit Profile' }));

      // The dashboard link, then the guard: an admin page is not for a superAdmin.
      await page.getByRole('link', { name: 'Super Dashboard' }).click();
      await see(page.getByRole('heading', { name: 'Super Admin Dashboard', level: 1 }));
      await page.goto('/admin-dashboard');
      await expectPath(page, '/unauthorized');
      await see(page.getByText('Unauthorized...'));

      // Logout ends the session: back to the login page, the token no longer works on the server,
      // and the areas are closed again.
      await page.goto('/superAdmin-dashboard');
      const token = await page.evaluate(() => localStorage.getItem('ims_token'));
      expect(token).toBeTruthy();
      await page.getByRole('link', { name: 'Logout' }).click();
      await expectPath(page, '/login');
      expect(await page.evaluate(() => localStorage.getItem('ims_token'))).toBeNull();
      const afterLogout = await fetch(`${story.baseUrl}/api/users`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(afterLogout.status).toBe(401);
      await page.goto('/superAdmin-dashboard/users');
      await expectPath(page, '/home');
    },
  );
});
