import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  CategoryReportResponse,
  CustomerReportResponse,
  DEFAULT_PRODUCT_REPORT_LIMIT,
  ItemReportResponse,
  NeverSoldResponse,
  ProductReportResponse,
  type ProductReportSort,
  type ReportGroup,
  SalesReportResponse,
  StaffReportResponse,
  StockByLocationResponse,
  StockReportResponse,
  TaxReportResponse,
} from '../../../shared/reports';
import { api } from '../../lib/api';
import { withQuery } from '../../lib/paging';
import type { DateRange } from './report-range';

/** Never-sold products shown per page. */
export const NEVER_SOLD_PAGE_SIZE = 20;

/**
 * The API path of each report for a view: the screen asks it, and Download CSV asks the same
 * path with format=csv, so the file holds what the screen shows.
 */
export const reportPaths = {
  sales: (range: DateRange, groupBy: ReportGroup) => withQuery('/reports/sales', { ...range, groupBy }),
  products: (range: DateRange, sort: ProductReportSort) =>
    withQuery('/reports/products', { ...range, sort, limit: DEFAULT_PRODUCT_REPORT_LIMIT }),
  items: (range: DateRange, sort: ProductReportSort) =>
    withQuery('/reports/items', { ...range, sort, limit: DEFAULT_PRODUCT_REPORT_LIMIT }),
  neverSold: (range: DateRange, page: number) =>
    withQuery('/reports/products/never-sold', { ...range, page, pageSize: NEVER_SOLD_PAGE_SIZE }),
  categories: (range: DateRange) => withQuery('/reports/categories', range),
  staff: (range: DateRange) => withQuery('/reports/staff', range),
  customers: (range: DateRange) => withQuery('/reports/customers', range),
  tax: (range: DateRange) => withQuery('/reports/tax', range),
  stock: (location = '') => withQuery('/reports/stock', { location }),
  stockByLocation: (location = '') => withQuery('/reports/stock/locations', { location }),
};

const NO_SALES = 'No sales in this range.';

/**
 * Each report's fixed words, by the same names as its path: the section's title, what the report
 * is called while it loads and when it fails, and what it says when there is nothing to show.
 */
export const reportWords = {
  sales: { title: 'Sales over time', what: 'the sales report', empty: NO_SALES },
  products: {
    title: `Top ${DEFAULT_PRODUCT_REPORT_LIMIT} products`,
    what: 'the top products',
    empty: NO_SALES,
  },
  items: {
    title: `Top ${DEFAULT_PRODUCT_REPORT_LIMIT} items`,
    what: 'the top items',
    empty: NO_SALES,
  },
  neverSold: {
    title: 'Products never sold',
    what: 'the products never sold',
    empty: 'Every product sold in this range.',
  },
  categories: { title: 'Sales by category', what: 'the category report', empty: NO_SALES },
  staff: { title: 'Sales by staff member', what: 'the staff report', empty: NO_SALES },
  customers: {
    title: 'Top customers',
    what: 'the customers report',
    empty: 'No sales to customers in this range.',
  },
  tax: { title: 'Tax by rate', what: 'the tax report', empty: NO_SALES },
  stock: { title: 'Stock value by category', what: 'the stock value', empty: 'No products in stock.' },
  stockByLocation: {
    title: 'Stock value by location',
    what: 'the stock value by location',
    empty: 'No locations.',
  },
} satisfies Record<keyof typeof reportPaths, { title: string; what: string; empty: string }>;

// Only this screen reads reports, so their keys live here. Every sale changes them: they are
// asked again whenever the screen opens, and the figures shown stay (dimmed) while a new range
// or grouping loads.
const reportQuery = <S extends z.ZodType>(path: string, schema: S) =>
  queryOptions({
    queryKey: ['reports', path],
    queryFn: ({ signal }) => api(path, { schema, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const salesReportQuery = (range: DateRange, groupBy: ReportGroup) =>
  reportQuery(reportPaths.sales(range, groupBy), SalesReportResponse);
export const productReportQuery = (range: DateRange, sort: ProductReportSort) =>
  reportQuery(reportPaths.products(range, sort), ProductReportResponse);
export const itemReportQuery = (range: DateRange, sort: ProductReportSort) =>
  reportQuery(reportPaths.items(range, sort), ItemReportResponse);
export const neverSoldQuery = (range: DateRange, page: number) =>
  reportQuery(reportPaths.neverSold(range, page), NeverSoldResponse);
export const categoryReportQuery = (range: DateRange) =>
  reportQuery(reportPaths.categories(range), CategoryReportResponse);
export const staffReportQuery = (range: DateRange) =>
  reportQuery(reportPaths.staff(range), StaffReportResponse);
export const customerReportQuery = (range: DateRange) =>
  reportQuery(reportPaths.customers(range), CustomerReportResponse);
export const taxReportQuery = (range: DateRange) => reportQuery(reportPaths.tax(range), TaxReportResponse);
export const stockReportQuery = (location = '') =>
  reportQuery(reportPaths.stock(location), StockReportResponse);
export const stockByLocationQuery = (location = '') =>
  reportQuery(reportPaths.stockByLocation(location), StockByLocationResponse);
