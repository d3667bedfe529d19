import { createMemoryRouter, RouterProvider } from 'react-router';
import {
  CategoryReportResponse,
  CustomerReportResponse,
  ItemReportResponse,
  NeverSoldResponse,
  ProductReportResponse,
  type ProductReportSort,
  type ReportGroup,
  SalesReportResponse,
  StaffReportResponse,
  StockReportResponse,
  TaxReportResponse,
} from '../../../shared/reports';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { ReportsPage } from './reports-page';

/**
 * Test data and a router for the reports screen's tests (not part of the app). Every answer is
 * parsed with the shared schema, so a fake answer cannot drift from the contract.
 */

type Reply = { status?: number; body: unknown };
export type Handler = (call: FetchCall) => Reply | Promise<Reply>;

const money = (value: number) => Math.round(value * 100) / 100;

/**
 * A period's figures: `orders` orders of `units` units at `price` (net), costing `cost` each, with
 * `discount` given and `tax` collected in all.
 */
export function period(start: string, orders = 0, units = 0, price = 2, cost = 1, discount = 0, tax = 0) {
  const revenue = money(units * price);
  const spent = money(units * cost);
  return { start, orders, units, revenue, cost: spent, margin: money(revenue - spent), discount, tax };
}

type Figure = 'orders' | 'units' | 'revenue' | 'cost' | 'margin' | 'discount' | 'tax';
const FIGURES: Figure[] = ['orders', 'units', 'revenue', 'cost', 'margin', 'discount', 'tax'];

/** What GET /api/reports/sales answers for `query`, with these periods and their totals. */
export function salesAnswer(query: Record<string, string>, periods: ReturnType<typeof period>[]) {
  const sum = (name: Figure) => money(periods.reduce((total, one) => total + one[name], 0));
  return SalesReportResponse.parse({
    success: true,
    from: query.from,
    to: query.to,
    groupBy: (query.groupBy ?? 'day') as ReportGroup,
    periods,
    totals: Object.fromEntries(FIGURES.map((name) => [name, sum(name)])),
  });
}

/**
 * Every period of the asked range, as the server answers (days, weeks from Monday, months; the
 * first one cut at `from`), each with the sum of the days' `figures` in it (zeros when none).
 */
export function dailySales(
  query: Record<string, string>,
  figures: Record<string, ReturnType<typeof period>> = {},
) {
  const group = query.groupBy ?? 'day';
  const periods: ReturnType<typeof period>[] = [];
  for (let start = query.from as string; start <= (query.to as string); ) {
    const next = new Date(`${start}T12:00:00Z`);
    if (group === 'month') next.setUTCMonth(next.getUTCMonth() + 1, 1);
    else if (group === 'week') next.setUTCDate(next.getUTCDate() + 7 - ((next.getUTCDay() + 6) % 7));
    else next.setUTCDate(next.getUTCDate() + 1);
    const end = next.toISOString().slice(0, 10);
    const days = Object.entries(figures).filter(([day]) => day >= start && day < end);
    const sum = (name: Figure) => money(days.reduce((total, [, one]) => total + one[name], 0));
    periods.push({
      start,
      orders: sum('orders'),
      units: sum('units'),
      revenue: sum('revenue'),
      cost: sum('cost'),
      margin: sum('margin'),
      discount: sum('discount'),
      tax: sum('tax'),
    });
    start = end;
  }
  return salesAnswer(query, periods);
}

export const productRow = (
  id: string,
  name: string,
  units: number,
  revenue: number,
  margin: number,
  item: { _id: string; name: string } | null = null,
) => ({
  product: { _id: id, name },
  item,
  category: { name: 'Stationery' },
  units,
  revenue,
  margin,
});

export function productsAnswer(query: Record<string, string>, rows: ReturnType<typeof productRow>[]) {
  const sort = (query.sort ?? 'revenue') as ProductReportSort;
  const sorted = [...rows].sort((a, b) => b[sort] - a[sort]);
  return ProductReportResponse.parse({
    success: true,
    from: query.from,
    to: query.to,
    sort,
    products: sorted.slice(0, Number(query.limit ?? 10)),
  });
}

/** A line of the items report: an item's variants summed, or a product on its own (`variants` 0). */
export const itemRow = (
  id: string,
  name: string,
  variants: number,
  units: number,
  revenue: number,
  margin: number,
) => ({
  item: variants > 0 ? { _id: id, name } : null,
  product: variants > 0 ? null : { _id: id, name },
  category: { name: 'Clothing' },
  variants: Math.max(variants, 1),
  units,
  revenue,
  margin,
});

export function itemsAnswer(query: Record<string, string>, rows: ReturnType<typeof itemRow>[]) {
  const sort = (query.sort ?? 'revenue') as ProductReportSort;
  const sorted = [...rows].sort((a, b) => b[sort] - a[sort]);
  return ItemReportResponse.parse({
    success: true,
    from: query.from,
    to: query.to,
    sort,
    items: sorted.slice(0, Number(query.limit ?? 10)),
  });
}

export function neverSoldAnswer(query: Record<string, string>, total: number) {
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.pageSize ?? 20);
  const first = (page - 1) * pageSize;
  const count = Math.max(0, Math.min(pageSize, total - first));
  return NeverSoldResponse.parse({
    success: true,
    from: query.from,
    to: query.to,
    products: Array.from({ length: count }, (_, index) => ({
      _id: `p${first + index + 1}`,
      name: `Dusty Item ${String(first + index + 1).padStart(3, '0')}`,
      stock: 4,
      category: { name: 'Storage' },
    })),
    total,
    page,
    pageSize,
  });
}

export function categoriesAnswer(query: Record<string, string>) {
  return CategoryReportResponse.parse({
    success: true,
    from: query.from,
    to: query.to,
    categories: [
      { name: 'Stationery', units: 30, revenue: 75, margin: 30, share: 0.75 },
      { name: 'Storage', units: 5, revenue: 25, margin: -2.5, share: 0.25 },
    ],
  });
}

export function staffAnswer(query: Record<string, string>) {
  return StaffReportResponse.parse({
    success: true,
    from: query.from,
    to: query.to,
    staff: [
      { user: { _id: 'u1', name: 'Rita Rep', role: 'salesRep' }, orders: 7, units: 20, revenue: 60 },
      { user: null, orders: 2, units: 3, revenue: 9.5 },
    ],
  });
}

export function customerAnswer(query: Record<string, string>) {
  return CustomerReportResponse.parse({
    success: true,
    from: query.from,
    to: query.to,
    customers: [
      { customer: { _id: 'cu1', name: 'Carla Customer' }, sales: 4, units: 11, revenue: 42.5 },
      { customer: null, sales: 1, units: 2, revenue: 3 },
    ],
  });
}

export function stockAnswer() {
  return StockReportResponse.parse({
    success: true,
    categories: [
      { name: 'Stationery', products: 3, units: 120, value: 180.5 },
      { name: 'Storage', products: 1, units: 4, value: 0 },
    ],
    totals: { products: 4, units: 124, value: 180.5 },
  });
}

/** Two rates and the sales made before taxes ('' and 0), with their totals. */
export function taxAnswer(query: Record<string, string>) {
  return TaxReportResponse.parse({
    success: true,
    from: query.from,
    to: query.to,
    rates: [
      { name: '', rate: 0, base: 12.5, tax: 0 },
      { name: 'Reduced', rate: 5, base: 40, tax: 2 },
      { name: 'NYC sales tax', rate: 8.875, base: 200, tax: 17.75 },
    ],
    totals: { base: 252.5, tax: 19.75 },
  });
}

export const MAIN = '11111111-1111-4111-8111-111111111111';
export const ROOM = '22222222-2222-4222-8222-222222222222';

/** The store's locations: the main store and a stockroom. */
export function locationsAnswer() {
  return {
    success: true,
    locations: [
      { _id: MAIN, name: 'Main store', kind: 'store', address: '', active: true },
      { _id: ROOM, name: 'Back room', kind: 'stockroom', address: '', active: true },
    ],
  };
}

/** The reports screen at `path` (and anywhere else, "Elsewhere"), on a fake server of `handlers`. */
export function renderReports(path: string, handlers: Record<string, Handler>) {
  signIn(userOf('admin'));
  const mock = mockFetch({ 'GET /api/locations': () => ({ body: locationsAnswer() }), ...handlers });
  const router = createMemoryRouter(
    [
      { path: '/admin-dashboard/reports', element: <ReportsPage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const rendered = renderWithClient(<RouterProvider router={router} />);
  return { ...mock, ...rendered, router };
}

export const callsTo = (calls: readonly FetchCall[], path: string) =>
  calls.filter((call) => call.method === 'GET' && call.path === path);
