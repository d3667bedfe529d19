import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { z } from 'zod';
import {
  LOTION_NAME,
  SQUARE_HEADERS,
  SQUARE_ROWS,
  squareCatalogueCsv,
  squareRows,
} from '../src/server/test/preset-files';
import { ItemResponse } from '../src/shared/items';
import { LocationListResponse, LocationResponse, ProductLocationsResponse } from '../src/shared/locations';
import { ProductListResponse } from '../src/shared/products';
import { SaleListResponse, SaleResponse } from '../src/shared/sales';
import { apiCall, callAs, newAdmin, unique } from './support/api';
import { expectPath, see, termValue, throughTill } from './support/page';
import { stories, storyTest } from './support/story';

const column = (header: (typeof SQUARE_HEADERS)[number]) => SQUARE_HEADERS.indexOf(header);

stories('variants brought from Square', () => {
  storyTest(
    'an admin imports a Square item library of 300 variations read as Square, and a clerk sells the 12 oz lotion by its barcode at the counter',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const tag = unique();
      const { account, session: admin } = await newAdmin(baseUrl, `Quinn Square ${tag}`);
      const clerk = await admin.addUser('salesRep', `Cass Counter ${tag}`);

      // The shop's two Square locations: the main store is Main Street, and Harbour Road is new.
      const { locations } = await callAs(baseUrl, admin.token, 'GET', '/locations', LocationListResponse);
      const main = locations.find((place) => place.name === 'Main store');
      if (!main) throw new Error('The store has no main store.');
      await apiCall(baseUrl, 'PUT', `/locations/${main._id}`, LocationResponse, {
        token: admin.token,
        body: { name: 'Main Street' },
      });
      await callAs(baseUrl, admin.token, 'POST', '/locations', LocationResponse, {
        name: 'Harbour Road',
        kind: 'store',
      });

      // The file as Square exports it; the 12 oz bottle's row says its barcode and its stock.
      const rows = squareRows({ tag });
      const lotion12 = rows.find((cells) => cells[column('SKU')] === `SQ-LOT-12-${tag}`);
      if (!lotion12) throw new Error('The Square file has no 12 oz lotion.');
      const barcode = lotion12[column('GTIN')] as string;
      const atMainStreet = Number(lotion12[column('Current Quantity Main Street')]);
      const atHarbourRoad = Number(lotion12[column('Current Quantity Harbour Road')]);
      expect(atMainStreet).toBeGreaterThan(0);
      const folder = mkdtempSync(join(tmpdir(), 'ims-square-'));
      const file = join(folder, 'square-item-library.csv');
      writeFileSync(file, squareCatalogueCsv({ tag }));

      await story.signIn(account);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
      await page.getByRole('link', { name: 'Import' }).click();
      await expectPath(page, '/admin-dashboard/products/import');
      await page.getByLabel('Products file', { exact: true }).setInputFiles(file);
      await page.getByRole('button', { name: 'Upload and map columns' }).click();

      // The layout is guessed from the headers; its columns are matched, both locations' quantities too.
      await see(page.getByRole('heading', { name: 'Match the columns' }));
      await expect.poll(() => page.getByLabel('Read as').inputValue()).toBe('square');
      const columns = page.getByRole('group', { name: 'Columns' });
      await expect.poll(() => columns.getByLabel('Item', { exact: true }).inputValue()).toBe('Item Name');
      expect(await columns.getByLabel('Barcode', { exact: true }).inputValue()).toBe('GTIN');
      expect(await columns.getByLabel('Stock at Harbour Road', { exact: true }).inputValue()).toBe(
        'Current Quantity Harbour Road',
      );
      // The shop's categories and vendors come with the file.
      await page.getByLabel('Create missing categories').check();
      await page.getByLabel('Create missing suppliers').check();
      await page.getByRole('button', { name: 'Check file' }).click();

      // Every variation is a product to create; none is an error.
      await see(page.getByRole('heading', { name: 'Check the result' }));
      expect(await termValue(page, 'To create')).toBe(String(SQUARE_ROWS));
      expect(await termValue(page, 'With errors')).toBe('0');
      await page.getByRole('button', { name: `Import ${SQUARE_ROWS} products` }).click();
      await see(page.getByRole('heading', { name: 'Import finished' }));
      expect(await termValue(page, 'Created')).toBe(String(SQUARE_ROWS));

      // The lotion is one item in three bottles, each a product with its own barcode.
      const found = await callAs(
        baseUrl,
        admin.token,
        'GET',
        `/products?search=${encodeURIComponent(barcode)}&page=1&pageSize=5`,
        ProductListResponse,
      );
      const variant = found.products.find((product) => product.barcode === barcode);
      if (!variant?.item) throw new Error('The 12 oz lotion was not imported as a variant.');
      expect(variant.name).toBe(`${LOTION_NAME} ${tag} — 12 oz`);
      expect(variant.optionValues).toEqual({ Size: '12 oz' });
      const { item } = await callAs(baseUrl, admin.token, 'GET', `/items/${variant.item._id}`, ItemResponse);
      expect(item.options).toEqual([{ name: 'Size', values: ['8 oz', '12 oz', '16 oz'] }]);
      expect(item.variants.map((product) => product.optionValues?.Size)).toEqual(['8 oz', '12 oz', '16 oz']);
      const stockOf = () =>
        callAs(baseUrl, admin.token, 'GET', `/products/${variant._id}/stock`, ProductLocationsResponse);
      const stockAt = (answer: z.infer<typeof ProductLocationsResponse>, name: string) =>
        answer.locations.find((line) => line.location.name === name)?.stock;
      const before = await stockOf();
      expect(stockAt(before, 'Main Street')).toBe(atMainStreet);
      expect(stockAt(before, 'Harbour Road')).toBe(atHarbourRoad);

      // At the counter on Main Street the clerk scans the 12 oz bottle: that variant, not its item, is added.
      const counter = await story.otherPerson();
      await counter.signIn(clerk);
      await counter.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'New sale' })
        .click();
      await throughTill(counter.page);
      const search = counter.page.getByRole('combobox', { name: 'Scan or search a product' });
      await search.fill(barcode);
      await search.press('Enter');
      const cart = counter.page.getByRole('list', { name: 'Cart' });
      await see(cart.getByRole('listitem', { name: new RegExp(`^${variant.name}, quantity 1`) }));
      expect(await cart.getByRole('listitem').count()).toBe(1);
      await counter.page.getByText('Cash', { exact: true }).click();
      await counter.page.getByRole('button', { name: 'Complete sale' }).click();
      const receipt = counter.page.getByRole('link', { name: /^Receipt S-\d{6}$/ });
      await see(receipt);

      // One sale of the 12 oz; one bottle fewer on Main Street, Harbour Road's untouched.
      const number = ((await receipt.textContent()) ?? '').replace('Receipt ', '');
      const listed = await callAs(baseUrl, admin.token, 'GET', `/sales?search=${number}`, SaleListResponse);
      expect(listed.sales).toHaveLength(1);
      const { sale } = await callAs(
        baseUrl,
        admin.token,
        'GET',
        `/sales/${listed.sales[0]?._id}`,
        SaleResponse,
      );
      expect(sale.lines.map((line) => [line.product._id, line.product.name, line.quantity])).toEqual([
        [variant._id, variant.name, 1],
      ]);
      const after = await stockOf();
      expect(stockAt(after, 'Main Street')).toBe(atMainStreet - 1);
      expect(stockAt(after, 'Harbour Road')).toBe(atHarbourRoad);
    },
  );
});
