import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEFAULT_PAGE_SIZE } from '../../../shared/paging';
import {
  CategoryReportResponse,
  CustomerReportQuery,
  CustomerReportResponse,
  DEFAULT_CUSTOMER_REPORT_LIMIT,
  DEFAULT_PRODUCT_REPORT_LIMIT,
  DEFAULT_RANGE_DAYS,
  ItemReportQuery,
  ItemReportResponse,
  NeverSoldQuery,
  NeverSoldResponse,
  ProductReportQuery,
  ProductReportResponse,
  REPORT_CSV_HEADERS,
  ReportRange,
  SalesReportQuery,
  SalesReportResponse,
  StaffReportResponse,
  StockByLocationResponse,
  StockReportQuery,
  StockReportResponse,
  TaxReportResponse,
} from '../../../shared/reports';
import { CSV_BATCH, sendCsv } from '../../lib/csv-stream';
import { type LocationRef, locationFor } from '../locations/location-for';
import { customerReport } from './customer-report';
import { topItems } from './item-report';
import {
  categoryReportAt,
  customerReportAt,
  neverSoldAt,
  neverSoldCsvBatchAt,
  salesReportAt,
  staffReportAt,
  stockByLocation,
  stockReportAt,
  taxReportAt,
  topProductsAt,
} from './location-reports';
import { resolveRange, todayIn } from './reports.range';
import {
  categoryReport,
  type NameCursor,
  neverSold,
  neverSoldCsvBatch,
  type Range,
  salesReport,
  staffReport,
  stockReport,
  taxReport,
  topProducts,
} from './reports.repository';

const RANGE_TEXT = `from and to are days (YYYY-MM-DD, both included) in the server time zone; without them the last ${DEFAULT_RANGE_DAYS} days up to today (to alone: the ${DEFAULT_RANGE_DAYS} days ending then; from alone: the ${DEFAULT_RANGE_DAYS} days from then, up to today). 400 when from is after to or the range is longer than 3 years. Figures are net of returns; revenue is net of discounts and tax too. The answer names the range it covers. format=csv answers the report as CSV. location (an id) gives the figures of the orders whose stock left from that location (an inactive one too; unknown: 404), counted from its orders; the answer names it.`;

/** The file's name: the report, its location's id when it has one, its range. */
const csvName = (report: string, range?: Range, location?: LocationRef) => {
  const at = location ? `-at-${location.id}` : '';
  return range ? `${report}${at}-${range.from}-to-${range.to}.csv` : `${report}${at}.csv`;
};

/** The answer's naming of the location asked for (nothing without one). */
const named = (location: LocationRef | undefined) =>
  location ? { location: { _id: location.id, name: location.name } } : {};

export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const rangeOf = (query: ReportRange) => resolveRange(query, todayIn(app.config.timeZone));
  /** The location `?location=` names (inactive allowed; unknown or not an id: 404), or none. */
  const locationOf = (query: { location?: string }) =>
    query.location === undefined
      ? Promise.resolve(undefined)
      : locationFor(app.database, query.location, { inactive: 'allowed' });

  app.get(
    '/reports/sales',
    {
      config: { permission: 'reports:read', expensiveRead: true },
      schema: {
        tags: ['reports'],
        summary:
          'Orders, units, revenue, cost, margin, discounts and tax per day, week (from Monday) or month',
        description: `Every period of the range, zeros too, each named by its first day inside the range; and the totals. Revenue is net (without tax, after discounts); margin is revenue − cost; discount is what the lines sold were given off, net of returns (a returned unit takes its line's discount with it pro rata, round(discount × returned / quantity), so a line wholly returned counts none); tax is the tax collected. groupBy defaults to day. ${RANGE_TEXT}`,
        querystring: SalesReportQuery,
        response: { 200: SalesReportResponse },
      },
    },
    async (request, reply) => {
      const range = rangeOf(request.query);
      const location = await locationOf(request.query);
      const groupBy = request.query.groupBy ?? 'day';
      const { periods, totals } = location
        ? await salesReportAt(app.database, range, location.id, groupBy)
        : await salesReport(app.database, range, groupBy);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          csvName(`sales-by-${groupBy}`, range, location),
          REPORT_CSV_HEADERS.sales,
          async () => ({
            rows: periods.map((p) => [
              p.start,
              p.orders,
              p.units,
              p.revenue,
              p.cost,
              p.margin,
              p.discount,
              p.tax,
            ]),
          }),
        );
      return { success: true as const, ...range, ...named(location), groupBy, periods, totals };
    },
  );

  app.get(
    '/reports/products',
    {
      config: { permission: 'reports:read', expensiveRead: true },
      schema: {
        tags: ['reports'],
        summary: 'The best-selling products of the range',
        description: `By revenue (default), units or margin, ties by name; limit defaults to ${DEFAULT_PRODUCT_REPORT_LIMIT}, at most 100. Only products that sold in the range and still exist. ${RANGE_TEXT}`,
        querystring: ProductReportQuery,
        response: { 200: ProductReportResponse },
      },
    },
    async (request, reply) => {
      const range = rangeOf(request.query);
      const location = await locationOf(request.query);
      const sort = request.query.sort ?? 'revenue';
      const limit = request.query.limit ?? DEFAULT_PRODUCT_REPORT_LIMIT;
      const products = location
        ? await topProductsAt(app.database, range, location.id, sort, limit)
        : await topProducts(app.database, range, sort, limit);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          csvName(`products-by-${sort}`, range, location),
          REPORT_CSV_HEADERS.products,
          async () => ({
            rows: products.map((p) => [
              p.product._id,
              p.product.name,
              p.category.name,
              p.units,
              p.revenue,
              p.margin,
            ]),
          }),
        );
      return { success: true as const, ...range, ...named(location), sort, products };
    },
  );

  app.get(
    '/reports/items',
    {
      config: { permission: 'reports:read', expensiveRead: true },
      schema: {
        tags: ['reports'],
        summary: 'The best-selling items of the range, each item its variants summed',
        description: `Each item's variants summed (units, revenue, margin: exactly the sum of their lines in the products report) with how many of them sold; a product that is no item's variant is a line of its own (item null, product named). By revenue (default), units or margin, ties by name; limit defaults to ${DEFAULT_PRODUCT_REPORT_LIMIT}, at most 100. Only products that sold in the range and still exist. ${RANGE_TEXT}`,
        querystring: ItemReportQuery,
        response: { 200: ItemReportResponse },
      },
    },
    async (request, reply) => {
      const range = rangeOf(request.query);
      const location = await locationOf(request.query);
      const sort = request.query.sort ?? 'revenue';
      const limit = request.query.limit ?? DEFAULT_PRODUCT_REPORT_LIMIT;
      const items = await topItems(app.database, range, sort, limit, location?.id);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          csvName(`items-by-${sort}`, range, location),
          REPORT_CSV_HEADERS.items,
          async () => ({
            rows: items.map((line) => [
              line.item?._id ?? '',
              line.product?._id ?? '',
              line.item?.name ?? line.product?.name ?? '',
              line.category.name,
              line.variants,
              line.units,
              line.revenue,
              line.margin,
            ]),
          }),
        );
      return { success: true as const, ...range, ...named(location), sort, items };
    },
  );

  app.get(
    '/reports/products/never-sold',
    {
      config: { permission: 'reports:read', expensiveRead: true },
      schema: {
        tags: ['reports'],
        summary: 'Products of today’s catalogue that sold nothing in the range',
        description: `By name, one page (pageSize defaults to ${DEFAULT_PAGE_SIZE}); total counts them all. A product whose every sale in the range came back counts as never sold. format=csv answers all of them. ${RANGE_TEXT}`,
        querystring: NeverSoldQuery,
        response: { 200: NeverSoldResponse },
      },
    },
    async (request, reply) => {
      const range = rangeOf(request.query);
      const location = await locationOf(request.query);
      if (request.query.format === 'csv')
        return sendCsv<NameCursor>(
          reply,
          csvName('never-sold', range, location),
          REPORT_CSV_HEADERS.neverSold,
          (after) =>
            location
              ? neverSoldCsvBatchAt(app.database, range, location.id, after, CSV_BATCH)
              : neverSoldCsvBatch(app.database, range, after, CSV_BATCH),
        );
      const { page = 1, pageSize = DEFAULT_PAGE_SIZE } = request.query;
      const window = { limit: pageSize, offset: (page - 1) * pageSize };
      const { products, total } = location
        ? await neverSoldAt(app.database, range, location.id, window)
        : await neverSold(app.database, range, window);
      return { success: true as const, ...range, ...named(location), products, total, page, pageSize };
    },
  );

  app.get(
    '/reports/categories',
    {
      config: { permission: 'reports:read', expensiveRead: true },
      schema: {
        tags: ['reports'],
        summary: 'Units, revenue and margin by category, with each one’s share of the revenue',
        description: `By the category each order was sold under, most revenue first; share is of the range's revenue (0 to 1, 4 decimals). ${RANGE_TEXT}`,
        querystring: ReportRange,
        response: { 200: CategoryReportResponse },
      },
    },
    async (request, reply) => {
      const range = rangeOf(request.query);
      const location = await locationOf(request.query);
      const categories = location
        ? await categoryReportAt(app.database, range, location.id)
        : await categoryReport(app.database, range);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          csvName('categories', range, location),
          REPORT_CSV_HEADERS.categories,
          async () => ({
            rows: categories.map((c) => [c.name, c.units, c.revenue, c.margin, c.share]),
          }),
        );
      return { success: true as const, ...range, ...named(location), categories };
    },
  );

  app.get(
    '/reports/staff',
    {
      config: { permission: 'reports:read', expensiveRead: true },
      schema: {
        tags: ['reports'],
        summary: 'Orders, units and revenue by who placed them',
        description: `Most revenue first; the orders of staff since removed are one row whose user is null. ${RANGE_TEXT}`,
        querystring: ReportRange,
        response: { 200: StaffReportResponse },
      },
    },
    async (request, reply) => {
      const range = rangeOf(request.query);
      const location = await locationOf(request.query);
      const staff = location
        ? await staffReportAt(app.database, range, location.id)
        : await staffReport(app.database, range);
      if (request.query.format === 'csv')
        return sendCsv(reply, csvName('staff', range, location), REPORT_CSV_HEADERS.staff, async () => ({
          rows: staff.map((s) => [
            s.user?._id ?? '',
            s.user?.name ?? REMOVED_STAFF,
            s.user?.role ?? '',
            s.orders,
            s.units,
            s.revenue,
          ]),
        }));
      return { success: true as const, ...range, ...named(location), staff };
    },
  );

  app.get(
    '/reports/customers',
    {
      config: { permission: 'reports:read', expensiveRead: true },
      schema: {
        tags: ['reports'],
        summary: 'The customers who spent most',
        description: `Sales, units and revenue of the best customers by revenue (limit, default ${DEFAULT_CUSTOMER_REPORT_LIMIT}); the sales of customers since deleted are one row whose customer is null. ${RANGE_TEXT}`,
        querystring: CustomerReportQuery,
        response: { 200: CustomerReportResponse },
      },
    },
    async (request, reply) => {
      const range = rangeOf(request.query);
      const location = await locationOf(request.query);
      const limit = request.query.limit ?? DEFAULT_CUSTOMER_REPORT_LIMIT;
      const customers = location
        ? await customerReportAt(app.database, range, location.id, limit)
        : await customerReport(app.database, range, limit);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          csvName('customers', range, location),
          REPORT_CSV_HEADERS.customers,
          async () => ({
            rows: customers.map((c) => [
              c.customer?._id ?? '',
              c.customer?.name ?? REMOVED_CUSTOMERS,
              c.sales,
              c.units,
              c.revenue,
            ]),
          }),
        );
      return { success: true as const, ...range, ...named(location), customers };
    },
  );

  app.get(
    '/reports/tax',
    {
      config: { permission: 'reports:read', expensiveRead: true },
      schema: {
        tags: ['reports'],
        summary: 'The tax of the range by rate: the net sold under each rate and its tax',
        description: `Each rate as the lines were sold under it (name and percent then); base is their net (revenue), tax their tax, both net of returns; and the totals. Lines sold without a rate and orders placed before taxes are under name '' and rate 0. ${RANGE_TEXT}`,
        querystring: ReportRange,
        response: { 200: TaxReportResponse },
      },
    },
    async (request, reply) => {
      const range = rangeOf(request.query);
      const location = await locationOf(request.query);
      const { rates, totals } = location
        ? await taxReportAt(app.database, range, location.id)
        : await taxReport(app.database, range);
      if (request.query.format === 'csv')
        return sendCsv(reply, csvName('tax', range, location), REPORT_CSV_HEADERS.tax, async () => ({
          rows: rates.map((r) => [r.name, r.rate, r.base, r.tax]),
        }));
      return { success: true as const, ...range, ...named(location), rates, totals };
    },
  );

  app.get(
    '/reports/stock',
    {
      config: { permission: 'reports:read', expensiveRead: true },
      schema: {
        tags: ['reports'],
        summary: 'What the stock is worth now, at cost, by category',
        description:
          'Products, units in stock and their value at cost (a product without a cost counts 0) for every category, most value first, and the totals. With location (an id; inactive too; unknown: 404), what is held there (products: those holding units there). format=csv answers it as CSV.',
        querystring: StockReportQuery,
        response: { 200: StockReportResponse },
      },
    },
    async (request, reply) => {
      const location = await locationOf(request.query);
      const { categories, totals } = location
        ? await stockReportAt(app.database, location.id)
        : await stockReport(app.database);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          csvName('stock-value', undefined, location),
          REPORT_CSV_HEADERS.stock,
          async () => ({
            rows: categories.map((c) => [c.name, c.products, c.units, c.value]),
          }),
        );
      return { success: true as const, ...named(location), categories, totals };
    },
  );

  app.get(
    '/reports/stock/locations',
    {
      config: { permission: 'reports:read', expensiveRead: true },
      schema: {
        tags: ['reports'],
        summary: 'What the stock held at each location is worth now, at cost',
        description:
          'Every location by name (inactive ones too), or the one location names (unknown: 404): the products holding units there, the units and their value at cost (a product without a cost counts 0), and the totals. Units in transit belong to no location. format=csv answers it as CSV.',
        querystring: StockReportQuery,
        response: { 200: StockByLocationResponse },
      },
    },
    async (request, reply) => {
      const location = await locationOf(request.query);
      const { locations, totals } = await stockByLocation(app.database, location?.id ?? null);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          csvName('stock-value-by-location', undefined, location),
          REPORT_CSV_HEADERS.stockByLocation,
          async () => ({
            rows: locations.map((l) => [l.location._id, l.location.name, l.products, l.units, l.value]),
          }),
        );
      return { success: true as const, locations, totals };
    },
  );
};

/** The customers CSV's name for the sales of customers since deleted (customer null in JSON). */
const REMOVED_CUSTOMERS = 'Customers since deleted';

/** The staff CSV's name for the orders of people since removed (user null in JSON). */
const REMOVED_STAFF = 'Staff since removed';
