import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  categoriesAnswer,
  customerAnswer,
  dailySales,
  type Handler,
  neverSoldAnswer,
  period,
  productRow,
  productsAnswer,
  renderReports,
  staffAnswer,
  stockAnswer,
} from './reports-test-data';

const REPORTS = '/admin-dashboard/reports';

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
  vi.restoreAllMocks();
});

/**
 * May 28: 2 orders of 3 units at 2.00 net (cost 1.00), 0.50 off, 0.48 tax; May 30: 1 order of 5
 * units at 2.50 net (cost 1.50), no discount, 1.00 tax.
 */
const sales: Handler = ({ query }) => ({
  body: dailySales(query, {
    '2025-05-28': period('2025-05-28', 2, 3, 2, 1, 0.5, 0.48),
    '2025-05-30': period('2025-05-30', 1, 5, 2.5, 1.5, 0, 1),
  }),
});

const salesTable = () => screen.getByRole('table', { name: /^Sales per / });

/** The texts of the cells (not the row header) of the row named `name`. */
function rowOf(table: HTMLElement, name: string): string[] {
  const row = within(table).getByRole('rowheader', { name }).closest('tr') as HTMLElement;
  return within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent ?? '');
}

const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const search = (router: { state: { location: { search: string } } }) =>
  Object.fromEntries(new URLSearchParams(router.state.location.search));

/** The bars drawn, left to right, as their heights. */
function barHeights(): number[] {
  return [...document.querySelectorAll('figure path.recharts-rectangle')]
    .map((bar) => ({ x: Number(bar.getAttribute('x')), height: Number(bar.getAttribute('height')) }))
    .sort((a, b) => a.x - b.x)
    .map((bar) => bar.height);
}

describe('reports: sales over time', () => {
  it("opens on the last 30 days by day, asks for exactly those days, and its table shows the answer's numbers", async () => {
    const { calls } = renderReports(REPORTS, { 'GET /api/reports/sales': sales });
    const table = await screen.findByRole('table', { name: 'Sales per day, May 1, 2025 – May 30, 2025' });
    expect(callsTo(calls, '/api/reports/sales').map((call) => call.query)).toEqual([
      { from: '2025-05-01', to: '2025-05-30', groupBy: 'day' },
    ]);
    expect((screen.getByLabelText('Date range') as HTMLSelectElement).value).toBe('last-30-days');
    expect(screen.getByRole('tab', { name: 'Sales over time' }).getAttribute('aria-selected')).toBe('true');
    // Every day of the range is a row, zeros too.
    expect(bodyRows(table).filter((row) => row.closest('tbody'))).toHaveLength(30);
    // Revenue is net; the discounts given and the tax collected stand beside it.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Period', 'Orders', 'Units', 'Revenue', 'Cost', 'Margin', 'Discounts', 'Tax']);
    expect(rowOf(table, 'May 28, 2025')).toEqual(['2', '3', '$6.00', '$3.00', '$3.00', '$0.50', '$0.48']);
    expect(rowOf(table, 'May 29, 2025')).toEqual(['0', '0', '$0.00', '$0.00', '$0.00', '$0.00', '$0.00']);
    expect(rowOf(table, 'May 30, 2025')).toEqual(['1', '5', '$12.50', '$7.50', '$5.00', '$0.00', '$1.00']);
    expect(rowOf(table, 'Total')).toEqual(['3', '8', '$18.50', '$10.50', '$8.00', '$0.50', '$1.48']);
    const tiles = screen
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextSibling?.textContent]);
    expect(tiles).toEqual([
      ['Revenue', '$18.50'],
      ['Orders', '3'],
      ['Units', '8'],
      ['Margin', '$8.00'],
      ['Discounts', '$0.50'],
      ['Tax', '$1.48'],
    ]);
    // Two days sold something: two bars, the taller one on May 30.
    const [may28, may30] = barHeights();
    expect(barHeights()).toHaveLength(2);
    expect(may30).toBeGreaterThan(may28 as number);
  });

  it('switching the metric redraws the chart with that figure', async () => {
    // May 29: 3 units for 6.00; May 30: 1 unit for 10.00. By revenue May 30 is the taller bar,
    // by units May 29.
    const { router } = renderReports(REPORTS, {
      'GET /api/reports/sales': ({ query }) => ({
        body: dailySales(query, {
          '2025-05-29': period('2025-05-29', 1, 3, 2, 1),
          '2025-05-30': period('2025-05-30', 1, 1, 10, 1),
        }),
      }),
    });
    await screen.findByRole('table', { name: /^Sales per day/ });
    const chart = () => screen.getByRole('figure');
    expect(within(chart()).getByText('Revenue per day')).toBeTruthy();
    let [may29, may30] = barHeights();
    expect(may30).toBeGreaterThan(may29 as number);

    await userEvent.click(screen.getByRole('radio', { name: 'Units' }));
    expect(within(chart()).getByText('Units per day')).toBeTruthy();
    [may29, may30] = barHeights();
    expect(may29).toBeGreaterThan(may30 as number);
    expect(may29 as number).toBeCloseTo((may30 as number) * 3, 2);
    expect(search(router)).toEqual({ metric: 'units' });
    // The table keeps every figure whatever the chart shows.
    expect(rowOf(salesTable(), 'May 30, 2025')).toEqual([
      '1',
      '1',
      '$10.00',
      '$1.00',
      '$9.00',
      '$0.00',
      '$0.00',
    ]);

    await userEvent.click(screen.getByRole('radio', { name: 'Orders' }));
    expect(within(chart()).getByText('Orders per day')).toBeTruthy();
    [may29, may30] = barHeights();
    expect(may29).toBe(may30);
  });

  it('keeps the preset, grouping and metric in the address, so a reload shows the same view', async () => {
    const { calls, router, unmount } = renderReports(REPORTS, { 'GET /api/reports/sales': sales });
    await screen.findByRole('table', { name: /^Sales per day/ });

    await userEvent.selectOptions(screen.getByLabelText('Date range'), 'this-year');
    // 151 days: by week unless told otherwise.
    await screen.findByRole('table', { name: 'Sales per week, Jan 1, 2025 – May 30, 2025' });
    expect(callsTo(calls, '/api/reports/sales').at(-1)?.query).toEqual({
      from: '2025-01-01',
      to: '2025-05-30',
      groupBy: 'week',
    });
    await userEvent.selectOptions(screen.getByLabelText('Group by'), 'month');
    await screen.findByRole('table', { name: /^Sales per month/ });
    expect(callsTo(calls, '/api/reports/sales').at(-1)?.query.groupBy).toBe('month');
    await userEvent.click(screen.getByRole('radio', { name: 'Margin' }));
    expect(search(router)).toEqual({ range: 'this-year', group: 'month', metric: 'margin' });

    // A reload: the same address on a fresh screen shows the same view.
    const address = `${REPORTS}${router.state.location.search}`;
    unmount();
    const again = renderReports(address, { 'GET /api/reports/sales': sales });
    await screen.findByRole('table', { name: 'Sales per month, Jan 1, 2025 – May 30, 2025' });
    expect(callsTo(again.calls, '/api/reports/sales').map((call) => call.query)).toEqual([
      { from: '2025-01-01', to: '2025-05-30', groupBy: 'month' },
    ]);
    expect((screen.getByLabelText('Date range') as HTMLSelectElement).value).toBe('this-year');
    expect((screen.getByLabelText('Group by') as HTMLSelectElement).value).toBe('month');
    expect((screen.getByRole('radio', { name: 'Margin' }) as HTMLInputElement).checked).toBe(true);

    // Another range lets the grouping follow the range again.
    await userEvent.selectOptions(screen.getByLabelText('Date range'), 'last-7-days');
    await screen.findByRole('table', { name: 'Sales per day, May 24, 2025 – May 30, 2025' });
    expect(search(again.router)).toEqual({ range: 'last-7-days', metric: 'margin' });
  });

  it("keeps the tab and the top products' order in the address", async () => {
    const { calls, router } = renderReports(`${REPORTS}?range=last-7-days`, {
      'GET /api/reports/sales': sales,
      'GET /api/reports/products': ({ query }) => ({
        body: productsAnswer(query, [productRow('p1', 'Blue Pen', 10, 20, 5)]),
      }),
    });
    await userEvent.click(await screen.findByRole('tab', { name: 'Top products' }));
    const panel = screen.getByRole('tabpanel', { name: 'Top products' });
    await within(panel).findByRole('table', { name: /^Top products by revenue/ });
    await userEvent.click(within(panel).getByRole('radio', { name: 'Units' }));
    await within(panel).findByRole('table', { name: /^Top products by units/ });
    expect(callsTo(calls, '/api/reports/products').at(-1)?.query).toEqual({
      from: '2025-05-24',
      to: '2025-05-30',
      sort: 'units',
      limit: '10',
    });
    expect(search(router)).toEqual({ range: 'last-7-days', tab: 'products', sort: 'units' });
  });

  it('moves between the tabs with the arrow keys, Home and End', async () => {
    const { router } = renderReports(REPORTS, {
      'GET /api/reports/sales': sales,
      'GET /api/reports/categories': ({ query }) => ({ body: categoriesAnswer(query) }),
      'GET /api/reports/stock': () => ({ body: stockAnswer() }),
    });
    const first = await screen.findByRole('tab', { name: 'Sales over time' });
    expect(screen.getAllByRole('tab').filter((tab) => tab.tabIndex === 0)).toEqual([first]);
    first.focus();
    await userEvent.keyboard('{ArrowRight}');
    const categories = screen.getByRole('tab', { name: 'By category' });
    expect(document.activeElement).toBe(categories);
    expect(categories.getAttribute('aria-selected')).toBe('true');
    expect(search(router)).toEqual({ tab: 'categories' });
    expect(screen.getByRole('tabpanel', { name: 'By category' })).toBeTruthy();
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Stock value' }));
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(first);
    expect(search(router)).toEqual({});
  });

  it('keeps a custom range as two dates, and refuses a from date after the to date without asking', async () => {
    const { calls, router } = renderReports(REPORTS, { 'GET /api/reports/sales': sales });
    await screen.findByRole('table', { name: /^Sales per day/ });
    await userEvent.selectOptions(screen.getByLabelText('Date range'), 'custom');
    // It starts from the days shown.
    expect(search(router)).toEqual({ range: 'custom', from: '2025-05-01', to: '2025-05-30' });
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2025-05-01');

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-05-20' } });
    await screen.findByRole('table', { name: 'Sales per day, May 20, 2025 – May 30, 2025' });
    expect(search(router)).toEqual({ range: 'custom', from: '2025-05-20', to: '2025-05-30' });

    const asked = callsTo(calls, '/api/reports/sales').length;
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-05-10' } });
    expect(await screen.findByText('The from date must be on or before the to date.')).toBeTruthy();
    expect(screen.getByLabelText('To').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Choose a valid date range to see this report.')).toBeTruthy();
    expect(callsTo(calls, '/api/reports/sales')).toHaveLength(asked);
  });

  it('says "No sales in this range." when every period is zero', async () => {
    renderReports(`${REPORTS}?range=today`, {
      'GET /api/reports/sales': ({ query }) => ({ body: dailySales(query) }),
    });
    expect(await screen.findByText('No sales in this range.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('figure')).toBeNull();
  });

  it("shows the server's sentence when a report fails, and Try again asks once more", async () => {
    let failures = 1;
    const { calls } = renderReports(REPORTS, {
      'GET /api/reports/sales': (call) => {
        if (failures-- > 0)
          return { status: 503, body: { success: false, error: 'The reports are busy. Try again.' } };
        return sales(call);
      },
    });
    // Said where the report would be (the notice in the corner says it too).
    expect(
      await screen.findByText('The sales report could not be loaded: The reports are busy. Try again.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('table', { name: /^Sales per day/ });
    expect(callsTo(calls, '/api/reports/sales')).toHaveLength(2);
  });

  it('Download CSV asks for the report of the range and grouping shown, as CSV', async () => {
    const { calls } = renderReports(`${REPORTS}?range=this-month&group=week`, {
      'GET /api/reports/sales': (call) =>
        call.query.format === 'csv' ? { body: 'period start,orders\r\n' } : sales(call),
    });
    const created = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await screen.findByRole('table', { name: 'Sales per week, May 1, 2025 – May 30, 2025' });
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toEqual(['sales-by-week-2025-05-01-to-2025-05-30.csv']));
    expect(callsTo(calls, '/api/reports/sales').at(-1)?.query).toEqual({
      from: '2025-05-01',
      to: '2025-05-30',
      groupBy: 'week',
      format: 'csv',
    });
  });
});

describe('reports: the other tabs', () => {
  it('by category: the chart and a table with each share of the revenue', async () => {
    const { calls } = renderReports(`${REPORTS}?tab=categories&range=last-7-days`, {
      'GET /api/reports/categories': ({ query }) => ({ body: categoriesAnswer(query) }),
    });
    const table = await screen.findByRole('table', {
      name: 'Sales by category, May 24, 2025 – May 30, 2025',
    });
    expect(callsTo(calls, '/api/reports/categories')[0]?.query).toEqual({
      from: '2025-05-24',
      to: '2025-05-30',
    });
    expect(rowOf(table, 'Stationery')).toEqual(['30', '$75.00', '$30.00', '75.0%']);
    expect(rowOf(table, 'Storage')).toEqual(['5', '$25.00', '-$2.50', '25.0%']);
    expect(within(screen.getByRole('figure')).getByText('Revenue by category')).toBeTruthy();
    expect(barHeights()).toHaveLength(2);
  });

  it('top products: ten at most, ranked by the order chosen', async () => {
    const rows = Array.from({ length: 12 }, (_, index) =>
      productRow(`p${index}`, `Product ${index}`, index, 100 - index, index % 3),
    );
    renderReports(`${REPORTS}?tab=products&sort=units`, {
      'GET /api/reports/products': ({ query }) => ({ body: productsAnswer(query, rows) }),
    });
    const table = await screen.findByRole('table', { name: /^Top products by units/ });
    expect(bodyRows(table)).toHaveLength(10);
    expect(rowOf(table, 'Product 11')).toEqual(['1', 'Stationery', '11', '$89.00', '$2.00']);
    expect((screen.getByRole('radio', { name: 'Units' }) as HTMLInputElement).checked).toBe(true);
  });

  it('never sold: a page at a time, the page kept in the address', async () => {
    const { calls, router } = renderReports(`${REPORTS}?tab=never-sold`, {
      'GET /api/reports/products/never-sold': ({ query }) => ({ body: neverSoldAnswer(query, 45) }),
    });
    const table = await screen.findByRole('table', { name: /^Products never sold/ });
    expect(bodyRows(table)).toHaveLength(20);
    expect(rowOf(table, 'Dusty Item 001')).toEqual(['Storage', '4']);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('rowheader', { name: 'Dusty Item 021' });
    expect(search(router)).toEqual({ tab: 'never-sold', page: '2' });
    expect(callsTo(calls, '/api/reports/products/never-sold').at(-1)?.query).toEqual({
      from: '2025-05-01',
      to: '2025-05-30',
      page: '2',
      pageSize: '20',
    });
    expect(screen.getByText('Showing 21–40 of 45')).toBeTruthy();
  });

  it('never sold: says so when every product sold', async () => {
    renderReports(`${REPORTS}?tab=never-sold`, {
      'GET /api/reports/products/never-sold': ({ query }) => ({ body: neverSoldAnswer(query, 0) }),
    });
    expect(await screen.findByText('Every product sold in this range.')).toBeTruthy();
  });

  it('by staff member: names and roles, and sales of someone since removed', async () => {
    renderReports(`${REPORTS}?tab=staff`, {
      'GET /api/reports/staff': ({ query }) => ({ body: staffAnswer(query) }),
    });
    const table = await screen.findByRole('table', { name: /^Sales by staff member/ });
    expect(rowOf(table, 'Rita Rep')).toEqual(['Sales Rep.', '7', '20', '$60.00']);
    expect(rowOf(table, 'Staff since removed')).toEqual(['—', '2', '3', '$9.50']);
  });

  it('by customer: the best first, each linking to their page, and customers since deleted together', async () => {
    const { calls } = renderReports(`${REPORTS}?tab=customers`, {
      'GET /api/reports/customers': ({ query }) => ({ body: customerAnswer(query) }),
    });
    const table = await screen.findByRole('table', { name: /^Top customers by revenue/ });
    expect(rowOf(table, 'Carla Customer')).toEqual(['4', '11', '$42.50']);
    expect(rowOf(table, 'Customers since deleted')).toEqual(['1', '2', '$3.00']);
    expect(within(table).getByRole('link', { name: 'Carla Customer' }).getAttribute('href')).toBe(
      '/admin-dashboard/customers/cu1',
    );
    expect(Object.keys(callsTo(calls, '/api/reports/customers')[0]?.query ?? {}).sort()).toEqual([
      'from',
      'to',
    ]);
  });

  it('stock value: now, at cost, asked without a range, with its CSV', async () => {
    const { calls } = renderReports(`${REPORTS}?tab=stock&range=today`, {
      'GET /api/reports/stock': () => ({ body: stockAnswer() }),
    });
    const table = await screen.findByRole('table', { name: 'Stock value by category, now, at cost' });
    expect(screen.getByText(/does not depend on the date range/)).toBeTruthy();
    expect(callsTo(calls, '/api/reports/stock')[0]?.query).toEqual({});
    expect(rowOf(table, 'Stationery')).toEqual(['3', '120', '$180.50']);
    expect(rowOf(table, 'Total')).toEqual(['4', '124', '$180.50']);
  });

  it('stock value: says so when nothing is in stock', async () => {
    renderReports(`${REPORTS}?tab=stock`, {
      'GET /api/reports/stock': () => ({
        body: { success: true, categories: [], totals: { products: 0, units: 0, value: 0 } },
      }),
    });
    expect(await screen.findByText('No products in stock.')).toBeTruthy();
  });
});
