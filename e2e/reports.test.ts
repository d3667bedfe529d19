import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { parseCsv } from '../src/server/test/parse-csv';
import { REPORT_CSV_HEADERS } from '../src/shared/reports';
import { ApiSession, newAdmin } from './support/api';
import { eventually, expectPath, see, textOf } from './support/page';
import { stories, storyTest } from './support/story';

/** The cells of a table's body rows (the period in its row header first), as a reader sees them. */
async function tableRows(table: Locator): Promise<string[][]> {
  const rows = await table.locator('tbody tr').all();
  return Promise.all(
    rows.map(async (row) => Promise.all((await row.locator('th, td').all()).map((cell) => textOf(cell)))),
  );
}

/** The cells of the row whose header is `name` (Total, a category), after the header. */
async function rowCells(table: Locator, name: string): Promise<string[]> {
  const row = table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name, exact: true }) });
  return Promise.all((await row.getByRole('cell').all()).map((cell) => textOf(cell)));
}

/** The bars the chart draws (a period with nothing sold has none). */
const bars = (page: Page) => page.getByRole('figure').locator('.recharts-bar-rectangle path');

/** The days a bar stands for must be the rows whose figure is not zero: the chart and table agree. */
async function expectChartToMatchTable(page: Page, table: Locator, column: number) {
  const rows = await tableRows(table);
  const selling = rows.filter((cells) => !/^\$?0(\.00)?$/.test(cells[column] ?? ''));
  await eventually(() => bars(page).count()).toBe(selling.length);
  return rows;
}

stories('reports', () => {
  storyTest(
    'an admin opens Reports after a few sales: the chart and the table agree with the orders placed over several ranges, the view survives a reload, and the sales CSV adds up',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { account, session: admin } = await newAdmin(baseUrl, 'Rhea Reports');
      const stationery = await admin.addCategory('Stationery');
      const tools = await admin.addCategory('Tools');
      const supplier = await admin.addSupplier('Paper Mill Ltd');
      const pen = await admin.addProduct({
        name: 'Blue Pen',
        price: 2.5,
        cost: 1,
        stock: 50,
        category: stationery._id,
        supplier: supplier._id,
      });
      const stapler = await admin.addProduct({
        name: 'Red Stapler',
        price: 8,
        cost: 5,
        stock: 10,
        category: tools._id,
        supplier: supplier._id,
      });
      await admin.addProduct({
        name: 'Dusty Ruler',
        price: 1,
        stock: 3,
        category: stationery._id,
        supplier: supplier._id,
      });
      const sam = await admin.addUser('salesRep', 'Sam Seller');
      const cleo = await admin.addUser('user', 'Cleo Clerk');
      const samSession = await ApiSession.signIn(baseUrl, sam.email, sam.password);
      const cleoSession = await ApiSession.signIn(baseUrl, cleo.email, cleo.password);
      const placed = [
        await samSession.order(pen._id, 3),
        await samSession.order(stapler._id, 1),
        await cleoSession.order(pen._id, 2),
      ];
      // 3 × 2.50 + 8.00 + 2 × 2.50 = 20.50 for 6 units, costing 3 + 5 + 2 = 10.00.
      const revenue = placed.reduce((sum, order) => sum + order.totalPrice, 0);
      expect(revenue).toBe(20.5);

      await story.signIn(account);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
      await expectPath(page, '/admin-dashboard/reports');
      const today = await page.evaluate(() => {
        const now = new Date();
        const two = (n: number) => String(n).padStart(2, '0');
        return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
      });

      // Sales over time comes first: the last 30 days by day, every day a row, one bar for today.
      let table = page.getByRole('table', { name: /^Sales per day, / });
      await see(table);
      let rows = await expectChartToMatchTable(page, table, 3);
      expect(rows).toHaveLength(30);
      expect(await rowCells(table, 'Total')).toEqual([
        '3',
        '6',
        '$20.50',
        '$10.00',
        '$10.50',
        '$0.00',
        '$0.00',
      ]);

      // Today: one period, one bar, and the bar's figure is the table's.
      await page.getByLabel('Date range').selectOption('today');
      table = page.getByRole('table', { name: /^Sales per day, / });
      await eventually(async () => (await tableRows(table)).length).toBe(1);
      rows = await expectChartToMatchTable(page, table, 3);
      expect(rows[0]?.slice(1)).toEqual(['3', '6', '$20.50', '$10.00', '$10.50', '$0.00', '$0.00']);
      await bars(page).first().hover();
      await eventually(() => textOf(page.locator('.recharts-tooltip-wrapper'))).toContain('$20.50');
      // The choice is the address's: it shows checked once the address has it.
      const units = page.getByRole('radio', { name: 'Units' });
      await units.click();
      await eventually(() => units.isChecked()).toBe(true);
      await see(page.getByRole('figure', { name: 'Units per day' }));
      await bars(page).first().hover();
      await eventually(() => textOf(page.locator('.recharts-tooltip-wrapper'))).toMatch(/Units\s*:?\s*6\b/);

      // This year, by month: one row per month so far, a bar only for this one.
      await page.getByLabel('Date range').selectOption('this-year');
      await page.getByLabel('Group by').selectOption('month');
      table = page.getByRole('table', { name: /^Sales per month, / });
      // The table may first show the range before's answer: wait for this range's months.
      await eventually(async () => (await tableRows(table)).length).toBe(Number(today.slice(5, 7)));
      rows = await expectChartToMatchTable(page, table, 2);
      expect(rows).toHaveLength(Number(today.slice(5, 7)));
      expect(await rowCells(table, 'Total')).toEqual([
        '3',
        '6',
        '$20.50',
        '$10.00',
        '$10.50',
        '$0.00',
        '$0.00',
      ]);

      // The view is in the address: a reload shows it again.
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
        range: 'this-year',
        group: 'month',
        metric: 'units',
      });
      await page.reload();
      await see(page.getByRole('table', { name: /^Sales per month, / }));
      expect(await page.getByLabel('Date range').inputValue()).toBe('this-year');
      expect(await page.getByRole('radio', { name: 'Units' }).isChecked()).toBe(true);

      // Today's sales as a spreadsheet: the header of the contract, and the totals placed.
      await page.getByLabel('Date range').selectOption('today');
      await see(page.getByRole('table', { name: /^Sales per day, / }));
      const saved = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const download = await saved;
      expect(download.suggestedFilename()).toBe(`sales-by-day-${today}-to-${today}.csv`);
      const csv = parseCsv(readFileSync((await download.path()) as string, 'utf8'));
      expect(csv).toEqual([[...REPORT_CSV_HEADERS.sales], [today, '3', '6', '20.5', '10', '10.5', '0', '0']]);

      // The other reports of the same sales.
      await page.getByRole('tab', { name: 'Top products' }).click();
      table = page.getByRole('table', { name: /^Top products by revenue, / });
      await see(table);
      expect((await tableRows(table)).map((cells) => cells.slice(0, 2))).toEqual([
        ['1', 'Blue Pen'],
        ['2', 'Red Stapler'],
      ]);
      await eventually(() => bars(page).count()).toBe(2);
      await page.getByRole('tab', { name: 'By staff member' }).click();
      table = page.getByRole('table', { name: /^Sales by staff member, / });
      await see(table);
      expect(await rowCells(table, 'Sam Seller')).toEqual(['Sales Rep.', '2', '4', '$15.50']);
      expect(await rowCells(table, 'Cleo Clerk')).toEqual(['Employee', '1', '2', '$5.00']);
      await page.getByRole('tab', { name: 'Never sold' }).click();
      table = page.getByRole('table', { name: /^Products never sold, / });
      await see(table);
      expect((await tableRows(table)).map((cells) => cells[0])).toEqual(['Dusty Ruler']);
      // Tax by rate: catalogue orders carry no rate, so all of it is under "No tax rate"; on a
      // phone the table fits the page.
      await page.setViewportSize({ width: 375, height: 812 });
      await page.getByRole('tab', { name: 'Tax' }).click();
      table = page.getByRole('table', { name: /^Tax by rate, / });
      await see(table);
      expect(await rowCells(table, 'No tax rate')).toEqual(['0%', '$20.50', '$0.00']);
      expect(await rowCells(table, 'Total')).toEqual(['', '$20.50', '$0.00']);
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true);
      const taxDownload = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const taxCsv = parseCsv(readFileSync((await (await taxDownload).path()) as string, 'utf8'));
      expect(taxCsv).toEqual([[...REPORT_CSV_HEADERS.tax], ['', '0', '20.5', '0']]);
      await page.setViewportSize({ width: 1280, height: 800 });
      // Stock now at cost: 45 pens at 1.00 and 9 staplers at 5.00; the ruler has no cost.
      await page.getByRole('tab', { name: 'Stock value' }).click();
      table = page.getByRole('table', { name: 'Stock value by category, now, at cost' });
      await see(table);
      expect(await rowCells(table, 'Total')).toEqual(['3', '57', '$90.00']);
      expect(new URL(page.url()).searchParams.get('tab')).toBe('stock');
    },
  );
});
