import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { BooksCheckResponse, TrialBalanceResponse } from '../src/shared/accounting';
import { centsNumber, toCents } from '../src/shared/money';
import { formatMoney } from '../src/web/lib/format';
import { newAdmin, read, unique } from './support/api';
import { eventually, expectPath, gone, see, textOf, throughTill } from './support/page';
import { HOME, stories, storyTest } from './support/story';

/** Cents of an amount written in the test, so every expected figure is summed exactly. */
const c = (amount: string) => toCents(amount);
const money = (cents: bigint) => formatMoney(centsNumber(cents));

// This file owns its server: the books hold this day at the counter and the products' opening stock.
stories('the books', () => {
  storyTest(
    'an admin opens the till with a float, sells twice for cash, refunds a mug and closes the till 0.50 short; Accounting shows those net sales and their cost in the P&L, a trial balance whose totals agree with 0.50 debited to 6100, and every books check passing',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account, session: admin } = await newAdmin(baseUrl, `Ada Books ${tag}`);
      const category = await admin.addCategory(`Kitchen ${tag}`);
      const supplier = await admin.addSupplier(`Kitchen Supply ${tag}`);
      // No tax rate (a fresh store has none): a sale's net is its total.
      const prices = { mug: { price: '8.00', cost: '3.00' }, tea: { price: '3.50', cost: '1.25' } };
      const made = (name: string, figures: { price: string; cost: string }, barcode: string) =>
        admin.addProduct({
          name: `${name} ${tag}`,
          price: Number(figures.price),
          cost: Number(figures.cost),
          stock: 10,
          barcode,
          category: category._id,
          supplier: supplier._id,
        });
      const mug = await made('Mug', prices.mug, `44${tag}01`);
      const tea = await made('Tea', prices.tea, `44${tag}02`);

      // The day: sale 1 is 2 mugs and a tea, sale 2 a mug and 2 teas, both cash; a mug of sale 1
      // comes back in cash onto the shelf; the drawer is counted 0.50 short.
      const float = c('100.00');
      const sold = { first: { mug: 2n, tea: 1n }, second: { mug: 1n, tea: 2n } };
      const total = (units: { mug: bigint; tea: bigint }) =>
        units.mug * c(prices.mug.price) + units.tea * c(prices.tea.price);
      const cost = (units: { mug: bigint; tea: bigint }) =>
        units.mug * c(prices.mug.cost) + units.tea * c(prices.tea.cost);
      const firstTotal = total(sold.first);
      const secondTotal = total(sold.second);
      const refunded = c(prices.mug.price);
      const netSales = firstTotal + secondTotal - refunded;
      // Every unit was bought at its one cost, so it leaves (and comes back) at that cost.
      const costOfSales = cost(sold.first) + cost(sold.second) - c(prices.mug.cost);
      const expectedCash = float + firstTotal + secondTotal - refunded;
      const short = c('0.50');
      const counted = expectedCash - short;
      expect(money(netSales)).toBe('$26.50');
      expect(money(costOfSales)).toBe('$9.75');

      await story.signIn(account);
      await page.goto(`${HOME.admin}/sales/new`);
      await throughTill(page, centsNumber(float).toFixed(2));
      const till = page.getByRole('region', { name: 'Till' });
      const cart = page.getByRole('list', { name: 'Cart' });
      const totalShown = page
        .getByRole('term')
        .filter({ hasText: /^Total$/ })
        .locator('xpath=following-sibling::*[1]');
      const scan = async (product: typeof mug, quantity: bigint) => {
        await page.getByRole('combobox', { name: 'Scan or search a product' }).fill(product.barcode ?? '');
        await page.keyboard.press('Enter');
        await see(cart.getByRole('listitem', { name: new RegExp(`^${product.name},`) }));
        if (quantity !== 1n) await page.getByLabel(`Quantity of ${product.name}`).fill(String(quantity));
      };
      const receiptLink = page.getByRole('link', { name: /^Receipt S-\d{6}$/ });
      const sell = async (units: { mug: bigint; tea: bigint }, tendered: string) => {
        await scan(mug, units.mug);
        await scan(tea, units.tea);
        await expect.poll(() => textOf(totalShown)).toBe(money(total(units)));
        await page.getByText('Cash', { exact: true }).click();
        await page.getByLabel('Cash tendered').fill(tendered);
        const before = (await receiptLink.isVisible()) ? await textOf(receiptLink) : '';
        await page.getByRole('button', { name: 'Complete sale' }).click();
        await eventually(async () => ((await receiptLink.isVisible()) ? textOf(receiptLink) : '')).not.toBe(
          before,
        );
        await see(page.getByText('The cart is empty.'));
        return (await textOf(receiptLink)).replace(/^Receipt /, '');
      };
      const firstNumber = await sell(sold.first, '20.00');
      await sell(sold.second, centsNumber(secondTotal).toFixed(2));

      // A mug of the first sale comes back in cash, onto the shelf.
      const menu = page.getByRole('navigation', { name: 'Main' });
      await menu.getByRole('link', { name: 'Refunds', exact: true }).click();
      await expectPath(page, `${HOME.admin}/refunds`);
      await page.getByLabel('Receipt number').fill(firstNumber);
      await page.getByRole('button', { name: 'Find' }).click();
      await see(page.getByRole('heading', { name: `Sale ${firstNumber}` }));
      await page.getByLabel(`Units of ${mug.name} to refund (at most 2)`).fill('1');
      await page.getByRole('radio', { name: 'Cash', exact: true }).check();
      await page.getByRole('radio', { name: 'Back on the shelf (restock)' }).check();
      await page.getByRole('button', { name: `Refund ${money(refunded)}` }).click();
      await see(page.getByRole('heading', { name: /^Refund R-\d{6}$/, level: 1 }));

      // The till closes 0.50 short.
      await menu.getByRole('link', { name: 'New sale', exact: true }).click();
      await see(till);
      await till.getByRole('button', { name: 'Close till' }).click();
      const closeDialog = page.getByRole('dialog', { name: /^Close Till 1/ });
      await see(closeDialog);
      await closeDialog.getByText('Type the total', { exact: true }).click();
      await closeDialog.getByLabel('Counted cash (USD)').fill(centsNumber(counted).toFixed(2));
      await eventually(() => textOf(closeDialog.getByLabel('Drawer count'))).toContain('Short by $0.50');
      await closeDialog.getByRole('button', { name: 'Close till' }).click();
      await gone(closeDialog);
      await see(page.getByRole('heading', { name: /^Z report/, level: 1 }));

      // The Z report leads to its entries: the till opened with the float, and closed short.
      await page.getByRole('link', { name: 'Journal entry' }).click();
      const entries = page.getByRole('list', { name: 'Journal entries, newest first' });
      await eventually(() => entries.getByRole('article').count()).toBe(2);
      const closed = entries.getByRole('article').filter({ hasText: 'Till closed' });
      const shortLine = closed.getByRole('row').filter({ hasText: '6100 Cash over and short' });
      expect(await textOf(shortLine)).toContain(money(short));
      await see(closed.getByRole('link', { name: /^Till session #1$/ }));

      // Profit and loss, the month to date: exactly the day's net sales and their cost.
      await menu.getByRole('link', { name: 'Accounting', exact: true }).click();
      await expectPath(page, `${HOME.admin}/accounting`);
      await see(page.getByRole('heading', { name: 'Chart of accounts', level: 1 }));
      const tabs = page.getByRole('navigation', { name: 'Accounting' });
      await tabs.getByRole('link', { name: 'Profit and loss' }).click();
      const statement = page.getByRole('table', { name: /^Profit and loss, / });
      const statementRow = (label: string) =>
        statement.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
      await eventually(() => textOf(statementRow('Net sales'))).toBe(`Net sales${money(netSales)}`);
      expect(await textOf(statementRow('Cost of sales'))).toBe(`Cost of sales${money(costOfSales)}`);
      expect(await textOf(statementRow('Gross profit'))).toBe(`Gross profit${money(netSales - costOfSales)}`);
      expect(await textOf(statementRow('Net profit'))).toBe(
        `Net profit${money(netSales - costOfSales - short)}`,
      );
      await see(page.getByRole('table', { name: /^Profit and loss by month, / }));

      // The trial balance: its totals agree, and 6100 holds the 0.50 debit.
      await tabs.getByRole('link', { name: 'Trial balance' }).click();
      const trial = page.getByRole('table', { name: /^Trial balance, / });
      await see(trial);
      const headers = (await trial.getByRole('columnheader').allTextContents()).map((text) => text.trim());
      // Each row's account is its header; the cells follow it. A figure's cell also names its
      // column for phones (hidden here): the figure is what follows that name.
      const cellOf = async (row: Locator, header: string) =>
        (await textOf(row.getByRole('cell').nth(headers.indexOf(header) - 1))).replace(header, '').trim();
      const overShort = trial.getByRole('row').filter({ hasText: '6100 Cash over and short' });
      expect(await cellOf(overShort, 'Debit')).toBe(money(short));
      expect(await cellOf(overShort, 'Credit')).toBe(money(0n));
      const totals = trial
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 'Total', exact: true }) });
      const debits = await cellOf(totals, 'Debit');
      expect(await cellOf(totals, 'Credit')).toBe(debits);
      await see(page.getByText(`Debits ${debits}, credits ${debits}.`));
      const books = await read(admin, '/accounting/trial-balance', TrialBalanceResponse);
      expect(formatMoney(books.totals.debit)).toBe(debits);

      // The books check: every check passes.
      await tabs.getByRole('link', { name: 'Books check' }).click();
      const { checks } = await read(admin, '/accounting/check', BooksCheckResponse);
      await see(page.getByText(`The books agree with the shop: all ${checks.length} checks pass.`));
      const shown = page.getByRole('region', { name: 'Checks' }).getByRole('listitem');
      expect(await shown.count()).toBe(checks.length);
      expect(await shown.filter({ hasText: 'Fails:' }).count()).toBe(0);
    },
  );
});
