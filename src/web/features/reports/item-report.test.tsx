import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  itemRow,
  itemsAnswer,
  productRow,
  productsAnswer,
  renderReports,
} from './reports-test-data';

const ITEMS = '/admin-dashboard/reports?tab=items';

// Today is Friday 30 May 2025 in the reader's calendar; the last 30 days start on 1 May.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2025, 4, 30, 12, 0));
  // The page has no layout here: the charts are given a box to draw in.
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
    x: 0,
    y: 0,
    top: 0,
    left: 0,
    right: 600,
    bottom: 280,
    width: 600,
    height: 280,
    toJSON: () => ({}),
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The texts of the cells (not the row header) of the row named `name`. */
function rowOf(table: HTMLElement, name: string): string[] {
  const row = within(table).getByRole('rowheader', { name }).closest('tr') as HTMLElement;
  return within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent ?? '');
}

const lines = [
  itemRow('i1', 'Classic Crew T-Shirt', 4, 12, 168, 105.6),
  itemRow('i2', 'Trail Runner Shoe', 3, 5, 395, 202.5),
  itemRow('p1', 'Canvas Tote', 0, 20, 147, 80),
];

describe('reports: by item', () => {
  it('ranks items with their variants summed beside the products tab, products on their own as lines', async () => {
    const { calls } = renderReports(ITEMS, {
      'GET /api/reports/items': ({ query }) => ({ body: itemsAnswer(query, lines) }),
    });
    const table = await screen.findByRole('table', {
      name: 'Top items by revenue, May 1, 2025 – May 30, 2025',
    });
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs.indexOf('By item')).toBe(tabs.indexOf('Top products') + 1);
    expect(screen.getByRole('tab', { name: 'By item' }).getAttribute('aria-selected')).toBe('true');
    expect(callsTo(calls, '/api/reports/items').map((call) => call.query)).toEqual([
      { from: '2025-05-01', to: '2025-05-30', sort: 'revenue', limit: '10' },
    ]);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Rank', 'Item', 'Category', 'Variants sold', 'Units', 'Revenue', 'Margin']);
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((header) => header.textContent),
    ).toEqual(['Trail Runner Shoe', 'Classic Crew T-Shirt', 'Canvas Tote']);
    expect(rowOf(table, 'Classic Crew T-Shirt')).toEqual(['2', 'Clothing', '4', '12', '$168.00', '$105.60']);
    expect(rowOf(table, 'Canvas Tote')).toEqual([
      '3',
      'Clothing',
      'Single product',
      '20',
      '$147.00',
      '$80.00',
    ]);
    expect(within(screen.getByRole('figure')).getByText('Revenue by item')).toBeTruthy();
  });

  it('asks again by the order chosen, kept in the address', async () => {
    const { calls, router } = renderReports(ITEMS, {
      'GET /api/reports/items': ({ query }) => ({ body: itemsAnswer(query, lines) }),
    });
    await screen.findByRole('table', { name: /^Top items by revenue/ });
    await userEvent.click(screen.getByRole('radio', { name: 'Units' }));
    const table = await screen.findByRole('table', { name: /^Top items by units/ });
    expect(nthHeader(table, 0)).toBe('Canvas Tote');
    expect(callsTo(calls, '/api/reports/items').at(-1)?.query).toMatchObject({ sort: 'units' });
    expect(router.state.location.search).toBe('?tab=items&sort=units');
  });

  it('says so when nothing was sold in the range', async () => {
    renderReports(ITEMS, {
      'GET /api/reports/items': ({ query }) => ({ body: itemsAnswer(query, []) }),
    });
    expect(await screen.findByText('No sales in this range.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says it is loading, then shows a failure with Try again, which asks once more', async () => {
    let failures = 1;
    let answer: (() => void) | undefined;
    const { calls } = renderReports(ITEMS, {
      'GET /api/reports/items': async ({ query }) => {
        if (failures-- > 0) {
          await new Promise<void>((resolve) => {
            answer = resolve;
          });
          return { status: 503, body: { success: false, error: 'The reports are busy. Try again.' } };
        }
        return { body: itemsAnswer(query, lines) };
      },
    });
    expect(await screen.findByText('Loading the top items...')).toBeTruthy();
    await waitFor(() => expect(answer).toBeDefined());
    answer?.();
    expect(
      await screen.findByText('The top items could not be loaded: The reports are busy. Try again.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('table', { name: /^Top items by revenue/ });
    expect(callsTo(calls, '/api/reports/items')).toHaveLength(2);
  });

  it('Download CSV asks for the items of the range and order shown, as CSV', async () => {
    const { calls } = renderReports(`${ITEMS}&sort=margin`, {
      'GET /api/reports/items': (call) =>
        call.query.format === 'csv' ? { body: 'item id\r\n' } : { body: itemsAnswer(call.query, lines) },
    });
    const created = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await screen.findByRole('table', { name: /^Top items by margin/ });
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toEqual(['items-by-margin-2025-05-01-to-2025-05-30.csv']));
    expect(callsTo(calls, '/api/reports/items').at(-1)?.query).toEqual({
      from: '2025-05-01',
      to: '2025-05-30',
      sort: 'margin',
      limit: '10',
      format: 'csv',
    });
  });

  it('top products: a variant names the item it belongs to', async () => {
    const rows = [
      productRow('v1', 'Classic Crew T-Shirt — M / Black', 6, 84, 52.8, {
        _id: 'i1',
        name: 'Classic Crew T-Shirt',
      }),
      productRow('p1', 'Canvas Tote', 20, 147, 80),
    ];
    renderReports('/admin-dashboard/reports?tab=products', {
      'GET /api/reports/products': ({ query }) => ({ body: productsAnswer(query, rows) }),
    });
    const table = await screen.findByRole('table', { name: /^Top products by revenue/ });
    expect(within(table).getByText('Variant of Classic Crew T-Shirt')).toBeTruthy();
    expect(within(table).getAllByText(/^Variant of/)).toHaveLength(1);
  });
});

/** The name of the table's `index`-th row. */
function nthHeader(table: HTMLElement, index: number): string | null {
  return within(table).getAllByRole('rowheader')[index]?.textContent ?? null;
}
