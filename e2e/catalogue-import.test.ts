import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseCsv } from '../src/server/test/parse-csv';
import { csvRow } from '../src/shared/csv';
import { newAdmin, unique } from './support/api';
import { expectPath, see, termValue } from './support/page';
import { stories, storyTest } from './support/story';

const ROWS = 500;

/** How many products the catalogue holds whose name has these words (GET /api/products's total). */
async function productCount(baseUrl: string, token: string, words: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/products?search=${encodeURIComponent(words)}&page=1&pageSize=1`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { total: number };
  if (!res.ok) throw new Error(`GET /api/products answered ${res.status}`);
  return body.total;
}

stories('the catalogue import', () => {
  storyTest(
    'an admin uploads a 500-row file with 3 bad rows, imports the rest, fixes the 3 in the downloaded failed rows and imports them too',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account, session: admin } = await newAdmin(baseUrl, `Ida Import ${tag}`);
      const category = `Pantry ${tag}`;
      const supplier = `Wholesale ${tag}`;
      await admin.addCategory(category);
      await admin.addSupplier(supplier);

      // The store's spreadsheet, headed as its old till exported it.
      const header = ['Item name', 'SKU', 'Category', 'Vendor', 'Retail price', 'Qty'];
      const rows: string[][] = [];
      for (let i = 1; i <= ROWS; i++)
        rows.push([
          `Pantry item ${tag} ${i}`,
          `P${tag}-${i}`,
          category,
          supplier,
          `${(i % 50) + 1}.25`,
          String(i % 30),
        ]);
      // Three mistakes: a price in words, a negative stock, a category the store does not have.
      rows[41] = [`Pantry item ${tag} 42`, `P${tag}-42`, category, supplier, 'three', '4'];
      rows[249] = [`Pantry item ${tag} 250`, `P${tag}-250`, category, supplier, '2.25', '-5'];
      rows[457] = [`Pantry item ${tag} 458`, `P${tag}-458`, `Pantyr ${tag}`, supplier, '9.25', '8'];
      const folder = mkdtempSync(join(tmpdir(), 'ims-import-'));
      const file = join(folder, 'pantry.csv');
      writeFileSync(file, [header, ...rows].map((row) => csvRow(row)).join(''));

      await story.signIn(account);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
      await page.getByRole('link', { name: 'Import' }).click();
      await expectPath(page, '/admin-dashboard/products/import');
      await see(page.getByRole('heading', { name: 'Upload your products file' }));
      await page.getByLabel('Products file', { exact: true }).setInputFiles(file);
      await page.getByRole('button', { name: 'Upload and map columns' }).click();

      // The columns are matched by their headers; the preview shows the first rows.
      await see(page.getByRole('heading', { name: 'Match the columns' }));
      const columns = page.getByRole('group', { name: 'Columns' });
      await expect.poll(() => columns.getByLabel('Name', { exact: true }).inputValue()).toBe('Item name');
      expect(await columns.getByLabel('Supplier', { exact: true }).inputValue()).toBe('Vendor');
      expect(await columns.getByLabel('Price', { exact: true }).inputValue()).toBe('Retail price');
      expect(await columns.getByLabel('Stock', { exact: true }).inputValue()).toBe('Qty');
      await see(page.getByText(`Pantry item ${tag} 1`, { exact: true }).first());
      await page.getByRole('button', { name: 'Check file' }).click();

      // The dry run: 497 to create, 3 with errors, each named by its line and column.
      await see(page.getByRole('heading', { name: 'Check the result' }));
      expect(await termValue(page, 'To create')).toBe('497');
      expect(await termValue(page, 'With errors')).toBe('3');
      await page.getByLabel('Show').selectOption('error');
      const table = page.getByRole('table').filter({ hasText: 'Line' }).last();
      await expect.poll(() => table.getByRole('row').count()).toBe(4);
      const lines = await table.getByRole('row').allInnerTexts();
      expect(lines.slice(1).map((line) => line.match(/\d+/)?.[0])).toEqual(['43', '251', '459']);
      expect(lines[1]).toMatch(/Retail price/);
      expect(lines[2]).toMatch(/Qty/);
      expect(lines[3]).toMatch(/Category/);
      expect(await productCount(baseUrl, admin.token, `Pantry item ${tag}`)).toBe(0);

      // Import the 497; the progress ends in the summary.
      await page.getByRole('button', { name: 'Import 497 products' }).click();
      await see(page.getByRole('heading', { name: 'Import finished' }));
      expect(await termValue(page, 'Created')).toBe('497');
      expect(await termValue(page, 'Skipped (errors)')).toBe('3');

      // The failed rows, as they were, with why.
      const saved = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download failed rows' }).click();
      const download = await saved;
      const failed = parseCsv(readFileSync((await download.path()) as string, 'utf8'));
      expect(failed[0]).toEqual([...header, 'Error']);
      expect(failed.slice(1).map((row) => row.slice(0, 6))).toEqual([rows[41], rows[249], rows[457]]);
      expect(failed.slice(1).every((row) => (row[6] ?? '').length > 0)).toBe(true);

      // Fixed in that same file (the Error column may stay: it is not mapped) and imported.
      const fixed = failed.map((row, i) => {
        if (i === 0) return row;
        const cells = [...row];
        cells[2] = category;
        cells[4] = '3.25';
        cells[5] = '5';
        return cells;
      });
      const fixedFile = join(folder, 'pantry-errors.csv');
      writeFileSync(fixedFile, fixed.map((row) => csvRow(row)).join(''));
      await page.getByRole('link', { name: /import another file/i }).click();
      await see(page.getByRole('heading', { name: 'Upload your products file' }));
      await page.getByLabel('Products file', { exact: true }).setInputFiles(fixedFile);
      await page.getByRole('button', { name: 'Upload and map columns' }).click();
      await see(page.getByRole('heading', { name: 'Match the columns' }));
      await page.getByRole('button', { name: 'Check file' }).click();
      await see(page.getByRole('heading', { name: 'Check the result' }));
      expect(await termValue(page, 'To create')).toBe('3');
      expect(await termValue(page, 'With errors')).toBe('0');
      await page.getByRole('button', { name: 'Import 3 products' }).click();
      await see(page.getByRole('heading', { name: 'Import finished' }));
      expect(await termValue(page, 'Created')).toBe('3');

      // Every row of the store's file is one product now, and none twice.
      expect(await productCount(baseUrl, admin.token, `Pantry item ${tag}`)).toBe(ROWS);
    },
  );
});
