// Small page helpers shared by the stories; every one of them goes through roles and labels.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** An element's text as a reader sees it: whitespace runs collapsed, ends trimmed. */
export async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** The body rows of a table (the header row holds column headers, not cells). */
export function bodyRows(table: Locator): Locator {
  return table.getByRole('row').filter({ has: table.page().getByRole('cell') });
}

/** The body row whose cells include one with exactly this text. */
export function rowWith(table: Locator, text: string): Locator {
  return bodyRows(table).filter({ has: table.page().getByRole('cell', { name: text, exact: true }) });
}

async function columnIndex(table: Locator, header: string): Promise<number> {
  const headers = await table.getByRole('columnheader').allTextContents();
  const index = headers.findIndex((text) => text.trim().toLowerCase() === header.toLowerCase());
  if (index < 0) throw new Error(`No column "${header}" in [${headers.join(', ')}]`);
  return index;
}

/** The texts of one column, by its header, for every body row. */
export async function columnTexts(table: Locator, header: string): Promise<string[]> {
  const index = await columnIndex(table, header);
  const rows = await bodyRows(table).all();
  return Promise.all(rows.map(async (row) => textOf(row.getByRole('cell').nth(index))));
}

/** The text in one column, by its header, of the row that has a cell with exactly this text. */
export async function cellText(table: Locator, rowText: string, header: string): Promise<string> {
  const index = await columnIndex(table, header);
  return textOf(rowWith(table, rowText).getByRole('cell').nth(index));
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Waits until the address bar shows this path. */
export async function expectPath(page: Page, path: string): Promise<void> {
  await eventually(() => pathOf(page)).toBe(path);
}

/** expect.poll with the patience of a browser: up to 10 s. */
export function eventually<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 10_000, interval: 50 });
}

/** Waits until the locator is visible; the error names the locator when it never is. */
export async function see(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible' });
}

/** Waits until the locator is gone (hidden or detached). */
export async function gone(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'hidden' });
}

/** The main menu's links, in order. */
export function menuLinks(page: Page): Promise<string[]> {
  return page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.textContent?.trim() ?? ''));
}

/** A success notification (role="status") with this exact text. */
export function statusMessage(page: Page, text: string): Locator {
  return page.getByRole('status').filter({ hasText: new RegExp(`^${escapeRegExp(text)}$`) });
}

/** An error notification or form error (role="alert") containing this text. */
export function alertMessage(scope: Page | Locator, text: string): Locator {
  return scope.getByRole('alert').filter({ hasText: text });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The value shown next to a label in a description list (the dashboard tiles). */
export async function termValue(scope: Page | Locator, label: string): Promise<string> {
  const term = scope.getByRole('term').filter({ hasText: new RegExp(`^${escapeRegExp(label)}$`) });
  return textOf(term.locator('xpath=following-sibling::*[1]'));
}

export type Colour = 'red' | 'yellow' | 'green' | 'other';

/** The colour family of an element's background, from the hue of its computed colour. */
export async function backgroundColour(element: Locator): Promise<Colour> {
  const css = await element.evaluate((node) => getComputedStyle(node).backgroundColor);
  return colourFamily(css);
}

export function colourFamily(css: string): Colour {
  const numbers = (css.match(/-?\d*\.?\d+/g) ?? []).map(Number);
  let hue: number | undefined;
  if (css.startsWith('oklch')) {
    // oklch(L C H): red sits near 25°, yellow near 100°, green near 150°.
    hue = numbers[2];
    if (hue === undefined) return 'other';
    if (hue < 50 || hue >= 340) return 'red';
    if (hue < 115) return 'yellow';
    if (hue < 175) return 'green';
    return 'other';
  }
  const [r = 0, g = 0, b = 0] = numbers;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return 'other';
  const d = max - min;
  hue = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  hue = (hue * 60 + 360) % 360;
  if (hue < 20 || hue >= 340) return 'red';
  if (hue < 70) return 'yellow';
  if (hue < 170) return 'green';
  return 'other';
}

/**
 * Past the till (DESIGN §13): the counter sells in an open session, so when it asks to open the
 * till first, open it with `float`; then the counter is there.
 */
export async function throughTill(page: Page, float = '100.00'): Promise<void> {
  const counter = page.getByRole('heading', { name: 'New sale', level: 1 });
  const open = page.getByRole('heading', { name: /^Open /, level: 1 });
  await see(counter.or(open));
  if (await open.isVisible()) {
    await page.getByLabel(/^Opening float/).fill(float);
    await page.getByRole('button', { name: 'Open till' }).click();
  }
  await see(counter);
}
