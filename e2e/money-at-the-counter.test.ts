import { expect } from 'vitest';
import { centsNumber, isCartProblem, priceCart } from '../src/shared/money';
import { ProductResponse } from '../src/shared/products';
import { SaleListResponse, SaleResponse, saleNumberLabel } from '../src/shared/sales';
import { taxRateLabel } from '../src/shared/store';
import { formatMoney } from '../src/web/lib/format';
import { type ApiSession, newAdmin, unique } from './support/api';
import { alertMessage, eventually, expectPath, see, termValue, textOf, throughTill } from './support/page';
import { HOME, stories, storyTest } from './support/story';

/** A call with a session's token; the answer's body, parsed by `schema` when given. */
async function send<T = unknown>(
  session: ApiSession,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  schema?: { parse: (body: unknown) => T },
): Promise<T> {
  const res = await fetch(`${session.baseUrl}/api${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${session.token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload: unknown = await res.json();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status} ${JSON.stringify(payload)}`);
  return schema ? schema.parse(payload) : (payload as T);
}

stories('money at the counter', () => {
  storyTest(
    'a clerk gives a line discount within the limit, then a sale discount that needs a manager, who approves it with her PIN; the receipt’s tax lines and total are the API’s and the shared computation’s',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account: manager, session: admin } = await newAdmin(baseUrl, `Mona Manager ${tag}`);
      const clerk = await admin.addUser('salesRep', `Cody Clerk ${tag}`);
      await send(admin, 'PUT', '/users/me/pin', { pin: '4826', currentPassword: manager.password });
      // The store's own rules: prices without tax, staff may give up to 10 %.
      await send(admin, 'PUT', '/settings/store', { pricesIncludeTax: false, maxDiscountPercent: 10 });
      const standard = await send<{ taxRate: { _id: string; name: string; rate: number } }>(
        admin,
        'POST',
        '/tax-rates',
        { name: `Standard ${tag}`, rate: 8.875 },
      );
      const reduced = await send<{ taxRate: { _id: string; name: string; rate: number } }>(
        admin,
        'POST',
        '/tax-rates',
        { name: `Reduced ${tag}`, rate: 5 },
      );
      const category = await admin.addCategory(`Deli ${tag}`);
      const supplier = await admin.addSupplier(`Deli Supply ${tag}`);
      const made = (name: string, price: number, barcode: string, taxRate: string) =>
        admin.addProduct({
          name: `${name} ${tag}`,
          price,
          stock: 20,
          barcode,
          category: category._id,
          supplier: supplier._id,
          taxRate,
        });
      const cheese = await made('Aged Cheddar', 19.99, `41${tag}01`, standard.taxRate._id);
      const bread = await made('Sourdough', 4.5, `41${tag}02`, reduced.taxRate._id);

      await story.signIn(clerk);
      await page.goto(`${HOME.salesRep}/sales/new`);
      await throughTill(page);
      const cart = page.getByRole('list', { name: 'Cart' });
      for (const product of [cheese, bread]) {
        await page.getByRole('combobox', { name: 'Scan or search a product' }).fill(product.barcode ?? '');
        await page.keyboard.press('Enter');
        await see(cart.getByRole('listitem', { name: new RegExp(`^${product.name},`) }));
      }
      await page.getByLabel(`Quantity of ${bread.name}`).fill('2');

      // 10 % off the cheese: exactly the limit, so no one is asked.
      await page.getByRole('button', { name: `Discount on ${cheese.name}` }).click();
      await page.getByLabel(`Discount percent on ${cheese.name}`).fill('10');
      await page.keyboard.press('Enter');
      await see(page.getByRole('button', { name: `Discount on ${cheese.name}: 10%` }));

      // 3.00 off the whole sale: shared over the lines, it takes both above 10 %.
      await page.getByRole('button', { name: 'Discount on the sale' }).click();
      await page.getByText('Amount', { exact: true }).click();
      await page.getByLabel('Discount amount on the sale').fill('3');
      await page.keyboard.press('Enter');

      const expected = priceCart({
        lines: [
          {
            unitPrice: 19.99,
            quantity: 1,
            taxRate: standard.taxRate,
            discount: { type: 'percent', value: 10 },
          },
          { unitPrice: 4.5, quantity: 2, taxRate: reduced.taxRate },
        ],
        discount: { type: 'amount', value: 3 },
        pricesIncludeTax: false,
      });
      if (isCartProblem(expected)) throw new Error('the expected cart cannot be priced');
      const money = (cents: bigint) => formatMoney(centsNumber(cents));
      // 19.99 − 2.00 − 2.00 = 15.99 + 1.42 tax; 9.00 − 1.00 = 8.00 + 0.40 tax: 25.81.
      expect(money(expected.total)).toBe('$25.81');
      await expect.poll(() => termValue(page, 'Total')).toBe(money(expected.total));
      expect(await termValue(page, 'Discounts')).toBe(`−${money(expected.discount)}`);
      for (const tax of expected.taxes)
        expect(await termValue(page, `${taxRateLabel(tax)} on ${money(tax.base)}`)).toBe(money(tax.tax));

      await page.getByRole('button', { name: 'Complete sale' }).click();
      const dialog = page.getByRole('dialog', { name: 'Manager approval' });
      await see(dialog);
      await dialog.getByLabel("Manager's email").fill(manager.email);
      // A wrong PIN is refused in the dialog, saying so, and the cart stays.
      story.expectHttpError(403, '/api/sales');
      await dialog.getByLabel('PIN').fill('1111');
      await dialog.getByRole('button', { name: 'Approve and complete sale' }).click();
      await see(dialog.getByText(`That PIN is not right for ${manager.email.toLowerCase()}.`));
      expect(await cart.getByRole('listitem').count()).toBe(2);
      await dialog.getByLabel('PIN').fill('4826');
      await dialog.getByRole('button', { name: 'Approve and complete sale' }).click();

      const receiptLink = page.getByRole('link', { name: /^Receipt S-\d{6}$/ });
      await see(receiptLink);
      await receiptLink.click();
      const heading = page.getByRole('heading', { name: /^Receipt S-\d{6}$/ });
      await see(heading);
      const id = page.url().split('/').at(-1) ?? '';
      await expectPath(page, `${HOME.salesRep}/sales/${id}`);
      const { sale } = await send(admin, 'GET', `/sales/${id}`, undefined, SaleResponse);
      expect(await textOf(heading)).toBe(`Receipt ${saleNumberLabel(sale.number)}`);

      // The API stored what the shared computation gives, and the receipt shows the API's figures.
      expect(sale.total).toBe(centsNumber(expected.total));
      expect(sale.discount).toBe(centsNumber(expected.discount));
      expect(sale.taxes).toEqual(
        expected.taxes.map((tax) => ({
          name: tax.name,
          rate: tax.rate,
          base: centsNumber(tax.base),
          tax: centsNumber(tax.tax),
        })),
      );
      const receipt = page.getByRole('article', { name: `Receipt ${saleNumberLabel(sale.number)}` });
      expect(await termValue(receipt, 'Total')).toBe(formatMoney(sale.total));
      expect(await termValue(receipt, 'Subtotal')).toBe(formatMoney(sale.subtotal));
      expect(await termValue(receipt, 'Discounts')).toBe(`−${formatMoney(sale.discount)}`);
      for (const tax of sale.taxes)
        expect(await termValue(receipt, `${taxRateLabel(tax)} on ${formatMoney(tax.base)}`)).toBe(
          formatMoney(tax.tax),
        );
    },
  );

  storyTest(
    'an admin switches “prices include tax” while a clerk’s counter is open in another browser: the counter shows the new total before the sale, and when the switch comes just before Complete sale the server refuses the old total, the counter shows the new one, and each sale recorded is what the screen showed, cash and change right',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account: manager, session: admin } = await newAdmin(baseUrl, `Paula Owner ${tag}`);
      const clerk = await admin.addUser('salesRep', `Sid Seller ${tag}`);
      await send(admin, 'PUT', '/settings/store', { pricesIncludeTax: false });
      const city = await send<{ taxRate: { _id: string } }>(admin, 'POST', '/tax-rates', {
        name: `City ${tag}`,
        rate: 6.75,
      });
      const category = await admin.addCategory(`Larder ${tag}`);
      const supplier = await admin.addSupplier(`Larder Supply ${tag}`);
      const made = (name: string, price: number, barcode: string) =>
        admin.addProduct({
          name: `${name} ${tag}`,
          price,
          stock: 10,
          barcode,
          category: category._id,
          supplier: supplier._id,
          taxRate: city.taxRate._id,
        });
      const cheddar = await made('Cheddar', 7.74, `43${tag}01`);
      const soup = await made('Tomato Soup', 4.36, `43${tag}02`);

      // The clerk's counter is open with the cheddar: 7.74 + 6.75 % tax = 8.26.
      await story.signIn(clerk);
      await page.goto(`${HOME.salesRep}/sales/new`);
      await throughTill(page);
      const cart = page.getByRole('list', { name: 'Cart' });
      const scan = async (product: { name: string; barcode: string | null }) => {
        await page.getByRole('combobox', { name: 'Scan or search a product' }).fill(product.barcode ?? '');
        await page.keyboard.press('Enter');
        await see(cart.getByRole('listitem', { name: new RegExp(`^${product.name},`) }));
      };
      await scan(cheddar);
      await eventually(() => termValue(page, 'Total')).toBe('$8.26');

      // In another browser the owner ticks "Prices include tax" on the store's settings.
      const owner = await story.otherPerson();
      await owner.signIn(manager);
      await owner.page.goto(`${HOME.admin}/store`);
      const included = owner.page.getByLabel('Prices include tax');
      await included.check();
      await owner.page.getByRole('button', { name: 'Save settings' }).click();
      await see(owner.page.getByText('Store settings saved.'));

      // The counter, left open as it was (no reload, no focus back: headless windows never lose
      // it), reads the store again within half a minute and shows the new total before any sale.
      await expect.poll(() => termValue(page, 'Total'), { timeout: 40_000, interval: 100 }).toBe('$7.74');
      await page.getByLabel('Cash tendered').fill('10');
      await eventually(() => textOf(page.getByRole('status', { name: 'Change' }))).toBe('$2.26');
      await page.getByRole('button', { name: 'Complete sale' }).click();
      const done = page.getByText(/^Sale S-\d{6} completed$/);
      await see(done);
      const first = /S-(\d{6})/.exec(await textOf(done))?.[1];
      const firstSale = await saleNumbered(admin, Number(first));
      expect(firstSale).toMatchObject({
        total: 7.74,
        tax: 0.49,
        change: 2.26,
        payments: [{ method: 'cash', amount: 7.74, tendered: 10 }],
      });

      // The soup at $4.36 on the screen; the owner unticks the box just before the clerk completes.
      await scan(soup);
      await eventually(() => termValue(page, 'Total')).toBe('$4.36');
      await page.getByLabel('Cash tendered').fill('5');
      await eventually(() => textOf(page.getByRole('status', { name: 'Change' }))).toBe('$0.64');
      await send(admin, 'PUT', '/settings/store', { pricesIncludeTax: false });
      story.expectHttpError(409, '/api/sales');
      await page.getByRole('button', { name: 'Complete sale' }).click();
      await see(
        alertMessage(
          page,
          'The total is now $4.65, not $4.36 (prices or tax changed): check it with the customer and complete the sale again.',
        ),
      );
      // Nothing was taken: the screen shows the new total and the change from it, then completes.
      await eventually(() => termValue(page, 'Total')).toBe('$4.65');
      await eventually(() => textOf(page.getByRole('status', { name: 'Change' }))).toBe('$0.35');
      expect((await productNow(admin, soup._id)).stock).toBe(10);
      await page.getByRole('button', { name: 'Complete sale' }).click();
      const second = page.getByText(/^Sale S-\d{6} completed$/);
      await eventually(async () => /S-(\d{6})/.exec(await textOf(second))?.[1]).not.toBe(first);
      const secondSale = await saleNumbered(admin, Number(/S-(\d{6})/.exec(await textOf(second))?.[1]));
      expect(secondSale).toMatchObject({
        total: 4.65,
        tax: 0.29,
        change: 0.35,
        payments: [{ method: 'cash', amount: 4.65, tendered: 5 }],
      });
      // One receipt number after the other: the refusal drew none.
      expect(secondSale.number).toBe(firstSale.number + 1);
      expect((await productNow(admin, soup._id)).stock).toBe(9);
    },
  );
});

/** The sale with this receipt number, as the API answers it. */
async function saleNumbered(session: ApiSession, number: number) {
  const list = await send(session, 'GET', `/sales?search=${number}`, undefined, SaleListResponse);
  const found = list.sales.find((one) => one.number === number);
  if (!found) throw new Error(`No sale S-${number}`);
  return (await send(session, 'GET', `/sales/${found._id}`, undefined, SaleResponse)).sale;
}

/** A product as the API answers it now (its stock). */
async function productNow(session: ApiSession, id: string) {
  return (await send(session, 'GET', `/products/${id}`, undefined, ProductResponse)).product;
}
