import { expect } from 'vitest';
import { ApiSession, newAdmin, unique } from './support/api';
import { eventually, expectPath, gone, pathOf, rowWith, see, statusMessage, termValue } from './support/page';
import { stories, storyTest } from './support/story';

/** A sale made through the API, as the sale counter would make it. */
async function sell(
  baseUrl: string,
  seller: ApiSession,
  body: object,
): Promise<{ _id: string; number: number }> {
  const answer = await fetch(`${baseUrl}/api/sales`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${seller.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const payload = (await answer.json()) as { sale: { _id: string; number: number } };
  if (answer.status !== 201) throw new Error(`Selling failed: ${answer.status} ${JSON.stringify(payload)}`);
  return payload.sale;
}

stories('customers', () => {
  storyTest(
    'admin adds a customer, a rep sells to them, the admin sees the purchase on their page, edits and deletes them',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account, session } = await newAdmin(baseUrl);
      const category = await session.addCategory(`Tea ${tag}`);
      const supplier = await session.addSupplier(`Leaf Co ${tag}`);
      const teapot = await session.addProduct({
        name: `Teapot ${tag}`,
        price: 18.5,
        stock: 10,
        category: category._id,
        supplier: supplier._id,
      });
      const rep = await session.addUser('salesRep', `Sofia Sales ${tag}`);
      const repSession = await ApiSession.signIn(baseUrl, rep.email, rep.password);
      const name = `Ada Lovelace ${tag}`;
      const phone = `555-${tag}`;

      // The admin adds the customer from the Customers screen.
      await story.signIn(account);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
      await expectPath(page, '/admin-dashboard/customers');
      await see(page.getByRole('heading', { name: 'Customers', level: 1 }));
      await page.getByRole('button', { name: 'Add customer' }).click();
      const form = page.getByRole('dialog', { name: 'Add Customer' });
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Phone').fill(phone);
      await form.getByLabel('Email').fill(`ada-${tag}@example.com`);
      await form.getByRole('button', { name: 'Add Customer' }).click();
      await gone(form);
      await see(statusMessage(page, 'Customer added.'));

      // Found by phone; the search is in the address.
      const table = page.getByRole('table', { name: 'Customers' });
      await page.getByRole('searchbox').fill(phone);
      await eventually(() => new URL(page.url()).searchParams.get('q')).toBe(phone);
      await see(table.getByRole('link', { name }));
      await table.getByRole('link', { name }).click();
      await see(page.getByRole('heading', { name, level: 1 }));
      await see(page.getByText('No purchases yet.'));
      const customerPath = pathOf(page);
      const id = customerPath.split('/').pop() ?? '';

      // A rep sells them two teapots.
      const sale = await sell(baseUrl, repSession, {
        lines: [{ productId: teapot._id, quantity: 2 }],
        customer: id,
        payment: { method: 'card' },
      });
      const receipt = `S-${String(sale.number).padStart(6, '0')}`;

      await page.reload();
      const summary = page.getByRole('region', { name: 'Summary' });
      await eventually(() => termValue(summary, 'Sales')).toBe('1');
      expect(await termValue(summary, 'Total spent')).toBe('$37.00');
      const purchases = page.getByRole('table', { name: 'Purchases, newest first' });
      const link = purchases.getByRole('link', { name: receipt });
      await see(link);
      expect(await link.getAttribute('href')).toBe(`/admin-dashboard/sales/${sale._id}`);
      await see(rowWith(purchases, rep.name));

      // The sale's order names the sale and the customer in the orders list.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
      const orders = page.getByRole('table', { name: 'All orders' });
      await see(orders.getByRole('link', { name: receipt }));
      await see(orders.getByRole('link', { name }));
      await orders.getByRole('link', { name }).click();
      await expectPath(page, customerPath);

      // The admin corrects the phone number here, then deletes the customer from the list.
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Customer' });
      expect(await edit.getByLabel('Phone').inputValue()).toBe(phone);
      await edit.getByLabel('Phone').fill(`${phone}-1`);
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await see(statusMessage(page, 'Customer updated.'));
      await eventually(() => termValue(page.getByRole('region', { name: 'Details' }), 'Phone')).toBe(
        `${phone}-1`,
      );

      await page.getByRole('link', { name: 'Back to Customers' }).click();
      await expectPath(page, '/admin-dashboard/customers');
      await page.getByRole('searchbox').fill(tag);
      await table.getByRole('button', { name: `Delete ${name}` }).click();
      await page
        .getByRole('alertdialog', { name: 'Delete customer?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await see(statusMessage(page, 'Customer deleted.'));
      await see(page.getByText(`No customers match “${tag}”.`));
    },
  );

  storyTest(
    'a sales rep adds a customer and opens them, but cannot edit or delete anyone',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { session } = await newAdmin(baseUrl);
      const rep = await session.addUser('salesRep', `Sam Sales ${tag}`);
      const name = `Grace Hopper ${tag}`;

      await story.signIn(rep);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
      await expectPath(page, '/salesRep-dashboard/customers');
      await page.getByRole('button', { name: 'Add customer' }).click();
      const form = page.getByRole('dialog', { name: 'Add Customer' });
      await form.getByLabel('Name').fill(name);
      await form.getByRole('button', { name: 'Add Customer' }).click();
      await see(statusMessage(page, 'Customer added.'));
      await page.getByRole('searchbox').fill(tag);
      const table = page.getByRole('table', { name: 'Customers' });
      await see(table.getByRole('link', { name }));
      expect(await table.getByRole('button').count()).toBe(0);
      await table.getByRole('link', { name }).click();
      await see(page.getByRole('heading', { name, level: 1 }));
      expect(pathOf(page)).toMatch(/^\/salesRep-dashboard\/customers\/[^/]+$/);
      await see(page.getByText('No purchases yet.'));
      expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    },
  );
});
