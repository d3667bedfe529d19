import { expect } from 'vitest';
import { LocationResponse, ProductLocationsResponse } from '../src/shared/locations';
import { MovementListResponse } from '../src/shared/stock';
import { callAs, newAdmin, unique } from './support/api';
import { see, throughTill } from './support/page';
import { stories, storyTest } from './support/story';

stories('locations and transfers', () => {
  storyTest(
    'an admin sends 10 units from the stockroom to the main store, receives 5, sells 3 of them at the counter there, receives the rest with 1 lost, and every stock figure and movement says so',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account, session: admin } = await newAdmin(baseUrl, `Sam Stockkeeper ${tag}`);
      const category = await admin.addCategory(`Pantry ${tag}`);
      const supplier = await admin.addSupplier(`Harbour Foods ${tag}`);
      const product = await admin.addProduct({
        name: `Olive Oil ${tag}`,
        price: 9.5,
        stock: 0,
        barcode: `66${tag}01`,
        category: category._id,
        supplier: supplier._id,
      });
      const { location: stockroom } = await callAs(
        baseUrl,
        admin.token,
        'POST',
        '/locations',
        LocationResponse,
        {
          name: `Stockroom ${tag}`,
          kind: 'stockroom',
        },
      );
      const stockAt = async () =>
        callAs(baseUrl, admin.token, 'GET', `/products/${product._id}/stock`, ProductLocationsResponse);
      const main = (await stockAt()).locations.find((line) => line.location.name === 'Main store')?.location;
      expect(main).toBeDefined();
      // Ten units are in the stockroom, none in the main store.
      await fetch(`${baseUrl}/api/products/${product._id}/adjust`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ quantity: 10, reason: 'received', location: stockroom._id }),
      }).then((res) => expect(res.status).toBe(200));

      // The transfer, drafted and sent on its screens.
      await story.signIn(account);
      await page.goto(`${baseUrl}/admin-dashboard/transfers/new`);
      await page.getByLabel('From', { exact: true }).selectOption({ label: stockroom.name });
      await page.getByLabel('To', { exact: true }).selectOption({ label: 'Main store' });
      await page.getByRole('combobox', { name: 'Add a product' }).fill(product.name);
      await page.getByRole('option', { name: new RegExp(product.name) }).click();
      await page.getByLabel(`Quantity of ${product.name}`).fill('10');
      await page.getByRole('button', { name: 'Save draft' }).click();
      const heading = page.getByRole('heading', { name: /^TR-\d{6}$/, level: 1 });
      await see(heading);
      const number = (await heading.textContent()) as string;
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page
        .getByRole('alertdialog', { name: `Send ${number}?` })
        .getByRole('button', { name: 'Send', exact: true })
        .click();
      await see(page.getByText(`${number} is on its way to Main store.`));
      const onTheRoad = await stockAt();
      expect(onTheRoad.inTransit).toBe(10);
      expect(onTheRoad.locations.find((line) => line.location._id === stockroom._id)?.stock).toBe(0);
      expect(onTheRoad.locations.find((line) => line.location._id === main?._id)?.stock).toBe(0);

      // Five arrive.
      const transferPage = page.url();
      const receive = async (received: string, lost: string) => {
        await page.getByRole('button', { name: 'Receive', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: `Receive ${number} at Main store` });
        await dialog.getByLabel(`Received: ${product.name}`).fill(received);
        await dialog.getByLabel(`Lost: ${product.name}`).fill(lost);
        await dialog.getByRole('button', { name: 'Receive', exact: true }).click();
        await see(page.getByText(new RegExp(`received at Main store.*\\(${number}\\)`)));
      };
      await receive('5', '0');
      expect((await stockAt()).inTransit).toBe(5);

      // Three of them sold at the counter, whose till is the main store's.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New sale' }).click();
      await throughTill(page);
      const search = page.getByRole('combobox', { name: 'Scan or search a product' });
      await search.fill(product.barcode ?? '');
      await search.press('Enter');
      await page.getByLabel(`Quantity of ${product.name}`).fill('3');
      await page.getByText('Card', { exact: true }).click();
      await page.getByRole('button', { name: 'Complete sale' }).click();
      await see(page.getByRole('link', { name: /^Receipt S-\d{6}$/ }));

      // The rest arrive, one of them broken on the way.
      await page.goto(transferPage);
      await see(page.getByRole('heading', { name: number, level: 1 }));
      await receive('4', '1');
      await see(page.getByText('Received', { exact: true }).first());

      const after = await stockAt();
      expect(after.inTransit).toBe(0);
      expect(after.locations.find((line) => line.location._id === main?._id)?.stock).toBe(6);
      expect(after.locations.find((line) => line.location._id === stockroom._id)?.stock).toBe(0);
      const movements = await callAs(
        baseUrl,
        admin.token,
        'GET',
        `/products/${product._id}/movements?page=1&pageSize=50`,
        MovementListResponse,
      );
      const story_ = movements.movements
        .slice()
        .reverse()
        .map((m) => [m.kind, m.quantity, m.location?.name, m.stockAfter, m.transfer?.number ?? null]);
      // One transaction's movements share their time, so their order in the list is not theirs:
      // compared in a fixed order.
      const sorted = (rows: unknown[][]) => rows.map((row) => JSON.stringify(row)).sort();
      expect(sorted(story_)).toEqual(
        sorted([
          ['initial', 0, 'Main store', 0, null],
          ['adjustment', 10, stockroom.name, 10, null],
          ['transferOut', -10, stockroom.name, 0, number],
          ['transferIn', 5, 'Main store', 5, number],
          ['sale', -3, 'Main store', 2, null],
          // The rest arrive together: the 4 received and the 1 lost, which is written off there.
          ['transferIn', 5, 'Main store', 7, number],
          ['transferLoss', -1, 'Main store', 6, number],
        ]),
      );
      // The product's stock page says the same, by location.
      await page.goto(`${baseUrl}/admin-dashboard/products/${product._id}/stock`);
      const byLocation = page.getByRole('table', { name: `Stock of ${product.name} by location` });
      await see(byLocation.getByRole('row', { name: /Main store.*6/ }));
    },
  );
});
