import { expect } from 'vitest';
import { BooksCheckResponse } from '../src/shared/accounting';
import { BillListResponse, PayablesResponse, ReceivedNotBilledResponse } from '../src/shared/bills';
import { centsNumber, toCents } from '../src/shared/money';
import { PurchaseOrderResponse } from '../src/shared/purchasing';
import { RegisterResponse, SessionResponse } from '../src/shared/till';
import { formatMoney } from '../src/web/lib/format';
import { callAs, newAdmin, read, unique } from './support/api';
import { eventually, see, termValue, textOf } from './support/page';
import { HOME, stories, storyTest } from './support/story';

const c = (amount: string) => toCents(amount);
const money = (cents: bigint) => formatMoney(centsNumber(cents));

// This file owns its server: its books hold this purchase order, its bill and its payment.
stories('suppliers’ bills', () => {
  storyTest(
    'an admin receives a purchase order, bills it from the order at a slightly higher price, pays half in cash from the open till; the payables, the till’s report and the books check agree',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account, session: admin } = await newAdmin(baseUrl, `Bea Bills ${tag}`);
      const category = await admin.addCategory(`Pantry ${tag}`);
      const supplierName = `Pantry Wholesale ${tag}`;
      const supplier = await admin.addSupplier(supplierName);
      const product = await admin.addProduct({
        name: `Oat milk ${tag}`,
        price: 3.5,
        cost: 1.8,
        stock: 0,
        category: category._id,
        supplier: supplier._id,
      });
      // 12 cartons ordered at 1.80; the supplier's invoice says 1.85 each.
      const units = 12n;
      const ordered = c('1.80');
      const billed = c('1.85');
      const total = units * billed;
      const half = total / 2n;
      expect(money(total)).toBe('$22.20');
      const { token } = admin;
      const po = await callAs(baseUrl, token, 'POST', '/purchase-orders', PurchaseOrderResponse, {
        supplier: supplier._id,
        lines: [{ product: product._id, quantity: Number(units), unitCost: centsNumber(ordered) }],
      });
      const order = po.purchaseOrder;
      await callAs(baseUrl, token, 'POST', `/purchase-orders/${order._id}/order`, PurchaseOrderResponse);
      const register = await callAs(baseUrl, token, 'POST', '/registers', RegisterResponse, {
        name: `Back till ${tag}`,
      });
      const till = await callAs(
        baseUrl,
        token,
        'POST',
        `/registers/${register.register._id}/open`,
        SessionResponse,
        {
          openingFloat: 100,
        },
      );
      const float = c('100.00');

      // The goods arrive: received whole on the purchase order's page.
      await story.signIn(account);
      await page.goto(`${HOME.admin}/purchase-orders/${order._id}`);
      await see(page.getByRole('heading', { name: order.number }));
      await page.getByRole('button', { name: 'Receive', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Receive: ${order.number}` });
      await dialog.getByRole('button', { name: 'Receive all' }).click();
      await dialog.getByRole('button', { name: 'Receive', exact: true }).click();
      await eventually(
        async () =>
          (await read(admin, `/purchase-orders/${order._id}`, PurchaseOrderResponse)).purchaseOrder.status,
      ).toBe('received');
      const notBilled = await read(admin, '/accounting/received-not-billed', ReceivedNotBilledResponse);
      expect(notBilled.lines.find((line) => line.purchaseOrder._id === order._id)?.value).toBe(
        centsNumber(units * ordered),
      );

      // "Bill this": the bill comes filled from what was received; the price is the invoice's.
      await page.getByRole('link', { name: 'Bill this' }).click();
      await see(page.getByRole('heading', { name: 'New bill', level: 1 }));
      expect(await page.getByLabel(`Quantity of ${product.name}`).inputValue()).toBe(String(units));
      await page.getByLabel('Supplier’s reference').fill(`INV-${tag}`);
      await page.getByLabel(`Unit price of ${product.name}`).fill(centsNumber(billed).toFixed(2));
      const totals = page.getByLabel('Totals');
      await expect.poll(() => termValue(totals, 'Total')).toBe(money(total));
      await page.getByRole('button', { name: 'Save and post' }).click();
      const heading = page.getByRole('heading', { name: /^Bill BL-\d{6}$/, level: 1 });
      await see(heading);
      const number = (await textOf(heading)).replace('Bill ', '');
      expect(await termValue(page, 'Status')).toBe('Posted');
      const { bills } = await read(admin, `/bills?supplier=${supplier._id}`, BillListResponse);
      expect(bills.map((bill) => [bill.number, bill.status, bill.total, bill.open])).toEqual([
        [number, 'posted', centsNumber(total), centsNumber(total)],
      ]);

      // Half of it paid in cash from the till.
      await page.getByRole('link', { name: 'Pay', exact: true }).click();
      const form = page.getByRole('form', { name: `Pay ${supplierName}` });
      await see(form);
      await form.getByLabel(`Pay ${number}`).check();
      await form.getByLabel(`Amount on ${number}`).fill(centsNumber(half).toFixed(2));
      await form.getByLabel('Method').selectOption({ label: 'Cash' });
      await form.getByLabel('Cash from').selectOption({ value: till.session._id });
      await form.getByRole('button', { name: `Pay ${money(half)}` }).click();
      await eventually(
        async () => (await read(admin, `/bills?supplier=${supplier._id}`, BillListResponse)).bills[0]?.status,
      ).toBe('partiallyPaid');

      // The payables: half the bill still owed to the supplier, not due yet; in all, 2000's balance.
      await page.goto(`${HOME.admin}/accounting/payables`);
      const aging = page.getByRole('table', { name: /^What is owed to each supplier/ });
      const row = aging.getByRole('row').filter({ hasText: supplierName });
      await see(row);
      await expect.poll(async () => textOf(row.getByRole('cell').last())).toBe(money(total - half));
      const owed = await read(admin, '/accounting/payables', PayablesResponse);
      expect(owed.suppliers.find((s) => s.supplier._id === supplier._id)).toMatchObject({
        notDue: centsNumber(total - half),
        total: centsNumber(total - half),
      });

      // The till's report: the cash paid out of the drawer, which now holds the float less it.
      await page.goto(`${HOME.admin}/till/sessions/${till.session._id}`);
      const drawer = page.getByLabel('Cash drawer');
      await see(drawer);
      await expect.poll(() => termValue(drawer, 'Cash out')).toBe(money(half));
      expect(await termValue(drawer, 'Expected cash')).toBe(money(float - half));
      const live = await read(admin, `/register-sessions/${till.session._id}`, SessionResponse);
      expect(live.report.cashOut).toBe(centsNumber(half));

      // The books check: every check passes, 2000 and 2100 among them.
      await page.goto(`${HOME.admin}/accounting/check`);
      const { checks } = await read(admin, '/accounting/check', BooksCheckResponse);
      expect(checks.filter((check) => !check.ok)).toEqual([]);
      await see(page.getByText(`The books agree with the shop: all ${checks.length} checks pass.`));
      const payable = checks.find((check) => check.name.startsWith('2000'));
      expect(payable?.actual).toBe(centsNumber(total - half));
    },
  );
});
