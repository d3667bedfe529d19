import { expect } from 'vitest';
import { centsNumber, toCents } from '../src/shared/money';
import { ProductResponse } from '../src/shared/products';
import { SessionResponse } from '../src/shared/till';
import { formatMoney } from '../src/web/lib/format';
import { newAdmin, read, unique } from './support/api';
import { expectPath, gone, see, termValue, textOf, throughTill } from './support/page';
import { HOME, stories, storyTest } from './support/story';

/** Cents of a money amount written in the test, so the expected cash is summed exactly. */
const c = (amount: string) => toCents(amount);
const money = (cents: bigint) => formatMoney(centsNumber(cents));

stories('the till', () => {
  storyTest(
    'a clerk opens the till with a float, sells for cash with change and split cash and card, refunds a unit in cash, pays a window cleaner from the drawer and closes the till 0.50 short; the Z report says so',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { session: admin } = await newAdmin(baseUrl, `Tara Admin ${tag}`);
      const clerk = await admin.addUser('salesRep', `Tom Till ${tag}`);
      const category = await admin.addCategory(`Cafe ${tag}`);
      const supplier = await admin.addSupplier(`Cafe Supply ${tag}`);
      // Simple prices and the store's default tax (none): totals are plain sums.
      const made = (name: string, price: number, barcode: string) =>
        admin.addProduct({
          name: `${name} ${tag}`,
          price,
          stock: 10,
          barcode,
          category: category._id,
          supplier: supplier._id,
        });
      const mug = await made('Mug', 8, `42${tag}01`);
      const tea = await made('Tea', 3.5, `42${tag}02`);

      // The figures of the day, as the clerk handles them.
      const float = '150.00';
      const firstTotal = '19.50'; // 2 mugs + 1 tea
      const firstTendered = '50.00';
      const firstChange = '30.50';
      const secondTotal = '15.00'; // 1 mug + 2 teas
      const secondCard = '9.00';
      const secondCash = '10.00';
      const secondChange = '4.00';
      const refunded = '8.00'; // one mug
      const payout = '12.50';
      const expectedCash =
        c(float) +
        (c(firstTendered) - c(firstChange)) +
        (c(secondCash) - c(secondChange)) -
        c(refunded) -
        c(payout);
      expect(money(expectedCash)).toBe('$155.00');
      const counted = expectedCash - c('0.50');

      await story.signIn(clerk);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New sale' }).click();
      await expectPath(page, `${HOME.salesRep}/sales/new`);

      // The counter sells only in an open till: the one till is chosen, its float asked.
      await see(page.getByRole('heading', { name: 'Open Till 1', level: 1 }));
      await throughTill(page, float);
      const till = page.getByRole('region', { name: 'Till' });
      await see(till.getByText('Till 1'));
      expect(await textOf(till.getByRole('paragraph'))).toContain(`session #1`);
      expect(await textOf(till.getByRole('paragraph'))).toContain(`by ${clerk.name}`);

      const cart = page.getByRole('list', { name: 'Cart' });
      const total = page
        .getByRole('term')
        .filter({ hasText: /^Total$/ })
        .locator('xpath=following-sibling::*[1]');
      const scan = async (product: typeof mug, quantity: number) => {
        await page.getByRole('combobox', { name: 'Scan or search a product' }).fill(product.barcode ?? '');
        await page.keyboard.press('Enter');
        await see(cart.getByRole('listitem', { name: new RegExp(`^${product.name},`) }));
        if (quantity !== 1) await page.getByLabel(`Quantity of ${product.name}`).fill(String(quantity));
      };
      const receiptLink = page.getByRole('link', { name: /^Receipt S-\d{6}$/ });

      // Sale 1: cash, 50 tendered, 30.50 change.
      await scan(mug, 2);
      await scan(tea, 1);
      await expect.poll(() => textOf(total)).toBe(`$${firstTotal}`);
      await page.getByText('Cash', { exact: true }).click();
      await page.getByLabel('Cash tendered').fill(firstTendered);
      await expect.poll(() => textOf(page.getByRole('status', { name: 'Change' }))).toBe(`$${firstChange}`);
      await page.getByRole('button', { name: 'Complete sale' }).click();
      await see(receiptLink);
      await see(page.getByText('The cart is empty.'));
      const firstNumber = (await textOf(receiptLink)).replace(/^Receipt /, '');

      // Sale 2: 9.00 on the card, then a 10 note for the rest: 4.00 change.
      await scan(mug, 1);
      await scan(tea, 2);
      await expect.poll(() => textOf(total)).toBe(`$${secondTotal}`);
      await page.getByRole('button', { name: 'Split payment' }).click();
      const next = page.getByRole('radiogroup', { name: 'Method of the next payment' });
      await next.getByText('Card', { exact: true }).click();
      await page.getByLabel('Amount by Card').fill(secondCard);
      await page.keyboard.press('Enter');
      await next.getByText('Cash', { exact: true }).click();
      await page.getByLabel('Cash tendered for this payment').fill(secondCash);
      await page.keyboard.press('Enter');
      const payments = page.getByRole('list', { name: 'Payments' });
      await expect
        .poll(async () => (await payments.getByRole('listitem').allTextContents()).map((t) => t.trim()))
        .toEqual([`Card$${secondCard}Remove`, `Cash tendered$${secondCash}Remove`]);
      expect(await termValue(page, 'Paid')).toBe(money(c(secondCard) + c(secondCash)));
      expect(await termValue(page, 'Change')).toBe(`$${secondChange}`);
      await page.getByRole('button', { name: 'Complete sale' }).click();
      await expect.poll(() => textOf(receiptLink)).not.toBe(`Receipt ${firstNumber}`);
      await see(page.getByText('The cart is empty.'));
      const secondNumber = (await textOf(receiptLink)).replace(/^Receipt /, '');
      expect(secondNumber).toMatch(/^S-\d{6}$/);

      // A mug of the first sale comes back: found by its receipt number, refunded in cash, restocked.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Refunds' }).click();
      await expectPath(page, `${HOME.salesRep}/refunds`);
      await page.getByLabel('Receipt number').fill(firstNumber);
      await page.getByRole('button', { name: 'Find' }).click();
      await see(page.getByRole('heading', { name: `Sale ${firstNumber}` }));
      await page.getByLabel(`Units of ${mug.name} to refund (at most 2)`).fill('1');
      await page.getByRole('radio', { name: 'Cash', exact: true }).check();
      await page.getByRole('radio', { name: 'Back on the shelf (restock)' }).check();
      await expect
        .poll(() => textOf(page.getByRole('status', { name: 'Money back' })))
        .toBe(`Money back for 1 unit: $${refunded}`);
      await page.getByRole('button', { name: `Refund $${refunded}` }).click();
      const refundHeading = page.getByRole('heading', { name: /^Refund R-\d{6}$/, level: 1 });
      await see(refundHeading);
      const refundNumber = (await textOf(refundHeading)).replace(/^Refund /, '');
      const refundReceipt = page.getByRole('article', { name: `Refund ${refundNumber}` });
      expect(await termValue(refundReceipt, 'Sale')).toBe(firstNumber);
      expect(await termValue(refundReceipt, 'Total refunded')).toBe(`$${refunded}`);
      expect(await termValue(refundReceipt, 'Refunded by')).toBe('Cash');
      expect(await termValue(refundReceipt, 'Units')).toBe('Back on the shelf');
      expect(await termValue(refundReceipt, 'Till session')).toBe('#1');
      // 10 − 2 − 1 + 1 mugs on the shelf.
      const { product: mugNow } = await read(admin, `/products/${mug._id}`, ProductResponse);
      expect(mugNow.stock).toBe(8);

      // The window cleaner is paid from the drawer.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New sale' }).click();
      await see(till);
      await till.getByRole('button', { name: 'Cash in/out' }).click();
      const cashDialog = page.getByRole('dialog', { name: 'Cash in or out · Till 1 #1' });
      await see(cashDialog);
      await cashDialog.getByText('Cash out', { exact: true }).click();
      await cashDialog.getByLabel('Amount').fill(payout);
      await cashDialog.getByLabel('Reason').fill('Window cleaner');
      await cashDialog.getByRole('button', { name: 'Take cash out' }).click();
      await gone(cashDialog);

      // The server's figures agree with the day's, summed here independently.
      const reportHref = (await till.getByRole('link', { name: 'X report' }).getAttribute('href')) ?? '';
      const sessionId = reportHref.split('/').at(-1) ?? '';
      const live = await read(admin, `/register-sessions/${sessionId}`, SessionResponse);
      expect(live.session.status).toBe('open');
      expect(live.session.openingFloat).toBe(centsNumber(c(float)));
      expect(live.report.expectedCash).toBe(centsNumber(expectedCash));
      expect(live.report.sales).toEqual({
        count: 2,
        total: centsNumber(c(firstTotal) + c(secondTotal)),
      });
      expect(live.report.refunds).toEqual({ count: 1, total: centsNumber(c(refunded)) });
      expect(live.report.cashOut).toBe(centsNumber(c(payout)));
      expect(live.report.cashIn).toBe(0);

      // Closing: the count typed as a total, 0.50 short of what the drawer should hold.
      await till.getByRole('button', { name: 'Close till' }).click();
      const closeDialog = page.getByRole('dialog', { name: 'Close Till 1 · session #1' });
      await see(closeDialog);
      await closeDialog.getByText('Type the total', { exact: true }).click();
      await closeDialog.getByLabel('Counted cash (USD)').fill(centsNumber(counted).toFixed(2));
      const count = closeDialog.getByLabel('Drawer count');
      await expect.poll(() => termValue(count, 'Expected')).toBe(money(expectedCash));
      await expect.poll(() => termValue(count, 'Counted')).toBe(money(counted));
      await expect.poll(() => termValue(count, 'Over / short')).toBe('Short by $0.50');
      await closeDialog.getByRole('button', { name: 'Close till' }).click();

      // The Z report.
      await expectPath(page, `${HOME.salesRep}/till/sessions/${sessionId}`);
      await see(page.getByRole('heading', { name: 'Z report · Till 1 · session #1', level: 1 }));
      const drawer = page.getByLabel('Cash drawer');
      expect(await termValue(drawer, 'Opening float')).toBe(`$${float}`);
      expect(await termValue(drawer, 'Cash out')).toBe(`$${payout}`);
      expect(await termValue(drawer, 'Expected cash')).toBe('$155.00');
      expect(await termValue(drawer, 'Counted cash')).toBe('$154.50');
      expect(await termValue(drawer, 'Difference')).toBe('Short by $0.50');
      const sales = page.getByLabel('Sales and refunds');
      expect(await termValue(sales, 'Sales (2)')).toBe('$34.50');
      expect(await termValue(sales, 'Refunds (1)')).toBe(`$${refunded}`);

      const closed = await read(admin, `/register-sessions/${sessionId}`, SessionResponse);
      expect(closed.session.status).toBe('closed');
      expect(closed.report.countedCash).toBe(centsNumber(counted));
      expect(closed.report.difference).toBe(-0.5);
      expect(closed.report.expectedCash).toBe(centsNumber(expectedCash));
    },
  );
});
