import { expect } from 'vitest';
import { addDays } from '../src/shared/lots';
import { PurchaseOrderResponse } from '../src/shared/purchasing';
import { SaleResponse } from '../src/shared/sales';
import { newAdmin, unique } from './support/api';
import { columnTexts, expectPath, see, textOf, throughTill } from './support/page';
import { HOME, stories, storyTest } from './support/story';

/** POST with an admin's token; the answer parsed with the shared schema. */
async function post<T>(
  baseUrl: string,
  token: string,
  path: string,
  body: unknown,
  schema: { parse: (body: unknown) => T },
): Promise<T> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const payload: unknown = await res.json();
  if (!res.ok) throw new Error(`POST /api${path} answered ${res.status} ${JSON.stringify(payload)}`);
  return schema.parse(payload);
}

stories('lots and expiry', () => {
  storyTest(
    'an admin receives a purchase order into two lots, sells across them first-expiry-first-out at the counter, sees the expired lot refused, and traces a lot to its customer',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account, session: admin } = await newAdmin(baseUrl, `Rhea Pharmacist ${tag}`);
      const category = await admin.addCategory(`Prescriptions ${tag}`);
      const supplier = await admin.addSupplier(`Meridian ${tag}`);
      const medicine = await admin.addProduct({
        name: `Amoxicillin ${tag}`,
        price: 12.5,
        stock: 0,
        barcode: `77${tag}01`,
        category: category._id,
        supplier: supplier._id,
        tracking: 'lot',
      });
      const patient = await admin.addCustomer({ name: `Paula Patient ${tag}`, phone: '555-0199' });
      const today = new Date().toISOString().slice(0, 10);
      // Four units of a lot that expired two days ago are still on the shelf.
      await fetch(`${baseUrl}/api/products/${medicine._id}/adjust`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          quantity: 4,
          reason: 'found',
          lot: { number: `OLD-${tag}`, expiresOn: addDays(today, -2) },
        }),
      }).then((res) => expect(res.status).toBe(200));
      const { purchaseOrder } = await post(
        baseUrl,
        admin.token,
        '/purchase-orders',
        { supplier: supplier._id, lines: [{ product: medicine._id, quantity: 10, unitCost: 5 }] },
        PurchaseOrderResponse,
      );
      await post(
        baseUrl,
        admin.token,
        `/purchase-orders/${purchaseOrder._id}/order`,
        {},
        PurchaseOrderResponse,
      );

      // Receiving: the line's ten units split into two lots, the sooner one of three.
      await story.signIn(account);
      await page.goto(`${baseUrl}/admin-dashboard/purchase-orders/${purchaseOrder._id}`);
      await page.getByRole('button', { name: 'Receive', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Receive: ${purchaseOrder.number}` });
      await dialog.getByLabel(`Receive now: ${medicine.name}`).fill('10');
      const lots = dialog.getByRole('group', { name: `Lots of ${medicine.name}` });
      const lot = (n: number) => lots.getByRole('group', { name: `Lot ${n}` });
      await lot(1).getByLabel('Lot number').fill(`A-${tag}`);
      await lot(1).getByLabel('Expires on').fill(addDays(today, 20));
      await lot(1).getByLabel('Quantity').fill('3');
      await dialog.getByRole('button', { name: `Add lot to ${medicine.name}` }).click();
      await lot(2).getByLabel('Lot number').fill(`B-${tag}`);
      await lot(2).getByLabel('Expires on').fill(addDays(today, 200));
      await lot(2).getByLabel('Quantity').fill('7');
      await see(lots.getByText('The lots hold all 10 received.'));
      await dialog.getByRole('button', { name: 'Receive', exact: true }).click();
      await see(page.getByText('Received', { exact: true }).first());

      // The stock page lists the three lots, the expired one said so in words.
      await page.goto(`${baseUrl}/admin-dashboard/products/${medicine._id}/stock`);
      const lotTable = page.getByRole('table', { name: `Lots of ${medicine.name}` });
      await see(lotTable.getByText(`A-${tag}`));
      expect(await columnTexts(lotTable, 'Lot')).toEqual([`OLD-${tag}`, `A-${tag}`, `B-${tag}`]);
      await see(lotTable.getByText('Expired'));

      // The counter: five units take lot A's three and two of B, and say so before the sale.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New sale' }).click();
      await expectPath(page, `${HOME.admin}/sales/new`);
      await throughTill(page);
      const search = page.getByRole('combobox', { name: 'Scan or search a product' });
      await search.fill(medicine.barcode ?? '');
      await search.press('Enter');
      const cart = page.getByRole('list', { name: 'Cart' });
      await see(cart.getByRole('listitem', { name: new RegExp(`^${medicine.name},`) }));
      await page.getByLabel(`Quantity of ${medicine.name}`).fill('5');
      await see(cart.getByText(`Lots A-${tag} (3), B-${tag} (2)`));
      await page.getByRole('combobox', { name: 'Find a customer' }).fill('Paula');
      await page.getByRole('option', { name: new RegExp(patient.name) }).click();
      await page.getByText('Card', { exact: true }).click();
      await page.getByRole('button', { name: 'Complete sale' }).click();
      const receiptLink = page.getByRole('link', { name: /^Receipt S-\d{6}$/ });
      await see(receiptLink);
      const saleId = (await receiptLink.getAttribute('href'))?.split('/').pop() as string;
      const sale = await fetch(`${baseUrl}/api/sales/${saleId}`, {
        headers: { Authorization: `Bearer ${admin.token}` },
      }).then(async (res) => SaleResponse.parse(await res.json()).sale);
      expect(sale.lines[0]?.lots.map((taken) => [taken.lot.number, taken.quantity])).toEqual([
        [`A-${tag}`, 3],
        [`B-${tag}`, 2],
      ]);

      // Six more would need the expired lot: the counter says so, and the server refuses the sale.
      await search.fill(medicine.barcode ?? '');
      await search.press('Enter');
      await see(cart.getByRole('listitem', { name: new RegExp(`^${medicine.name},`) }));
      await page.getByLabel(`Quantity of ${medicine.name}`).fill('6');
      const short = `Only 5 of ${medicine.name} unexpired in stock.`;
      await see(cart.getByText(short));
      story.expectHttpError(409, '/api/sales');
      await page.getByText('Card', { exact: true }).click();
      await page.getByRole('button', { name: 'Complete sale' }).click();
      await see(page.getByRole('alert').filter({ hasText: short }).first());

      // The recall: lot A's trace names the receipt, the purchase order and the customer.
      await page.goto(`${baseUrl}/admin-dashboard/products/${medicine._id}/stock`);
      await lotTable.getByRole('link', { name: `A-${tag}` }).click();
      await see(page.getByRole('heading', { name: `Recall trace: ${medicine.name}, lot A-${tag}` }));
      const trace = page.getByRole('table', {
        name: `Movements of lot A-${tag} of ${medicine.name}, oldest first`,
      });
      await see(trace.getByText(patient.name));
      await see(trace.getByRole('link', { name: purchaseOrder.number }));
      await see(trace.getByRole('link', { name: `S-${String(sale.number).padStart(6, '0')}` }));
      expect(await textOf(page.getByText(/customers? named/))).toContain('1 customer named');
      await see(page.getByRole('button', { name: 'Print' }));
    },
  );
});
