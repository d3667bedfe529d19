import { z } from 'zod';
import { checkRange, DateOnly, Named, Ok } from './common';
import { LocationId } from './locations';
import { ExportFormat, MAX_PAGE_SIZE, PageQuery } from './paging';
import { Role } from './roles';

/**
 * Reports (DESIGN §10, §12): figures in the server's time zone, net of returns, from the orders'
 * snapshots. A range is two days, both included; without them the last 30 days up to today.
 * Revenue is net: what the customers paid (after discounts) less its tax, less what returns gave
 * back (without their tax). An order whose product had no cost counts a cost of 0 (its margin is
 * its revenue). Orders placed before taxes and discounts count with tax 0 and discount 0.
 */
export const DEFAULT_RANGE_DAYS = 30;
/** The longest range a report covers, in years (a longer one is refused with 400). */
export const MAX_RANGE_YEARS = 3;

/**
 * `location` (DESIGN §17): the figures of the orders whose stock left from that location (an
 * inactive one too; unknown: 404); without it, the whole store.
 */
const RangeFields = z.object({
  from: DateOnly.optional(),
  to: DateOnly.optional(),
  format: ExportFormat,
  location: LocationId.optional(),
});

/** `fields` with the range's rules: from ≤ to, at most MAX_RANGE_YEARS years. */
function withRangeRules<T extends typeof RangeFields>(fields: T) {
  return fields.superRefine(checkRange(MAX_RANGE_YEARS));
}

/** from/to, both or either optional; the server fills what is missing. */
export const ReportRange = withRangeRules(RangeFields);
export type ReportRange = z.input<typeof ReportRange>;

/** The range a report answers for: what was asked, with the defaults filled in. */
export const RangeAnswer = z.object({
  from: z.string(),
  to: z.string(),
  /** The location the figures are of, when one was asked for. */
  location: Named.optional(),
});

/**
 * Orders, units, revenue (net), cost and margin (revenue − cost) of a period or a whole range;
 * `discount`, the discounts given on the lines sold net of returns (a returned unit takes its share
 * of its line's discount pro rata, as of its money: DESIGN §10, §12), and `tax`, the tax collected
 * net of returns.
 */
export const SalesFigures = z.object({
  orders: z.number().int(),
  units: z.number().int(),
  revenue: z.number(),
  cost: z.number(),
  margin: z.number(),
  discount: z.number(),
  tax: z.number(),
});
export type SalesFigures = z.infer<typeof SalesFigures>;

export const REPORT_GROUPS = ['day', 'week', 'month'] as const;
export const ReportGroup = z.enum(REPORT_GROUPS, { error: 'groupBy must be day, week or month.' });
export type ReportGroup = z.infer<typeof ReportGroup>;

/** Weeks start on Monday (ISO 8601). */
export const SalesReportQuery = withRangeRules(RangeFields.extend({ groupBy: ReportGroup.optional() }));
export type SalesReportQuery = z.input<typeof SalesReportQuery>;

/**
 * Every period of the range, in order, zeros too. `start` is the first day of the period that
 * lies in the range (the first week or month may begin before `from`; it is cut there).
 */
export const SalesReportResponse = Ok.extend({
  ...RangeAnswer.shape,
  groupBy: ReportGroup,
  periods: z.array(SalesFigures.extend({ start: z.string() })),
  totals: SalesFigures,
});
export type SalesReportResponse = z.infer<typeof SalesReportResponse>;

export const PRODUCT_REPORT_SORTS = ['revenue', 'units', 'margin'] as const;
export const ProductReportSort = z.enum(PRODUCT_REPORT_SORTS, {
  error: 'sort must be revenue, units or margin.',
});
export type ProductReportSort = z.infer<typeof ProductReportSort>;
export const DEFAULT_PRODUCT_REPORT_LIMIT = 10;

/** How many rows a ranked report (products, customers) lists. */
const ReportLimit = z.coerce
  .number({ error: 'limit must be a number.' })
  .int({ error: 'limit must be a whole number.' })
  .min(1, { error: 'limit must be at least 1.' })
  .max(MAX_PAGE_SIZE, { error: `limit must be at most ${MAX_PAGE_SIZE}.` })
  .optional();

export const ProductReportQuery = withRangeRules(
  RangeFields.extend({ sort: ProductReportSort.optional(), limit: ReportLimit }),
);
export type ProductReportQuery = z.input<typeof ProductReportQuery>;

/**
 * The best products of the range by `sort` (ties by name); products since deleted are left out. A
 * variant stays a line of its own (DESIGN §22), naming its `item`; null for a product on its own.
 */
export const ProductReportResponse = Ok.extend({
  ...RangeAnswer.shape,
  sort: ProductReportSort,
  products: z.array(
    z.object({
      product: z.object({ _id: z.string(), name: z.string() }),
      item: Named.nullable(),
      category: z.object({ name: z.string() }),
      units: z.number().int(),
      revenue: z.number(),
      margin: z.number(),
    }),
  ),
});
export type ProductReportResponse = z.infer<typeof ProductReportResponse>;

/** The items report takes what the products report takes: the range, sort, limit, location and format. */
export const ItemReportQuery = ProductReportQuery;
export type ItemReportQuery = ProductReportQuery;

/**
 * The best items of the range by `sort`, ties by name (DESIGN §22): each item's variants summed
 * (exactly the sum of their lines in the products report), `variants` how many of them sold; a
 * product on its own is a line of its own (item null, product named). Products since deleted are
 * left out, as in the products report; `category` is the item's (or the product's) today.
 */
export const ItemReportResponse = Ok.extend({
  ...RangeAnswer.shape,
  sort: ProductReportSort,
  items: z.array(
    z.object({
      item: Named.nullable(),
      product: Named.nullable(),
      category: z.object({ name: z.string() }),
      variants: z.number().int(),
      units: z.number().int(),
      revenue: z.number(),
      margin: z.number(),
    }),
  ),
});
export type ItemReportResponse = z.infer<typeof ItemReportResponse>;

export const NeverSoldQuery = withRangeRules(
  RangeFields.extend(PageQuery.pick({ page: true, pageSize: true }).shape),
);
export type NeverSoldQuery = z.input<typeof NeverSoldQuery>;

/** Products of today's catalogue with no units sold (net of returns) in the range, by name. */
export const NeverSoldResponse = Ok.extend({
  ...RangeAnswer.shape,
  products: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      stock: z.number().int(),
      category: z.object({ name: z.string() }),
    }),
  ),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type NeverSoldResponse = z.infer<typeof NeverSoldResponse>;

/** By the category each order was sold under (its snapshot); share is of the range's revenue, 0–1. */
export const CategoryReportResponse = Ok.extend({
  ...RangeAnswer.shape,
  categories: z.array(
    z.object({
      name: z.string(),
      units: z.number().int(),
      revenue: z.number(),
      margin: z.number(),
      share: z.number(),
    }),
  ),
});
export type CategoryReportResponse = z.infer<typeof CategoryReportResponse>;

/** By who placed the orders, most revenue first; user is null for staff since removed. */
export const StaffReportResponse = Ok.extend({
  ...RangeAnswer.shape,
  staff: z.array(
    z.object({
      user: z.object({ _id: z.string(), name: z.string(), role: Role }).nullable(),
      orders: z.number().int(),
      units: z.number().int(),
      revenue: z.number(),
    }),
  ),
});
export type StaffReportResponse = z.infer<typeof StaffReportResponse>;

export const DEFAULT_CUSTOMER_REPORT_LIMIT = 20;
export const CustomerReportQuery = withRangeRules(RangeFields.extend({ limit: ReportLimit }));
export type CustomerReportQuery = z.input<typeof CustomerReportQuery>;

/**
 * The customers who spent most in the range (net of returns), best first; customer is null for the
 * sales of customers since deleted, counted together.
 */
export const CustomerReportResponse = Ok.extend({
  ...RangeAnswer.shape,
  customers: z.array(
    z.object({
      customer: z.object({ _id: z.string(), name: z.string() }).nullable(),
      sales: z.number().int(),
      units: z.number().int(),
      revenue: z.number(),
    }),
  ),
});
export type CustomerReportResponse = z.infer<typeof CustomerReportResponse>;

/**
 * The tax of the range by rate (DESIGN §12), net of returns: each rate as the lines were sold
 * under it (their snapshot of name and percent), `base` their net (the revenue), `tax` their tax.
 * The lines sold without a rate, and every order placed before taxes, are under name '' and rate
 * 0. By rate, then name; a rate whose sales all came back is left out.
 */
export const TaxFigures = z.object({ base: z.number(), tax: z.number() });
export const TaxReportResponse = Ok.extend({
  ...RangeAnswer.shape,
  rates: z.array(TaxFigures.extend({ name: z.string(), rate: z.number() })),
  totals: TaxFigures,
});
export type TaxReportResponse = z.infer<typeof TaxReportResponse>;

/**
 * What the stock is worth now, at cost (a product without a cost counts 0), by category; with
 * `location`, what is held there (products: those holding units there).
 */
export const StockReportQuery = z.object({ format: ExportFormat, location: LocationId.optional() });
export const StockValue = z.object({
  products: z.number().int(),
  units: z.number().int(),
  value: z.number(),
});
export const StockReportResponse = Ok.extend({
  location: Named.optional(),
  categories: z.array(StockValue.extend({ name: z.string() })),
  totals: StockValue,
});
export type StockReportResponse = z.infer<typeof StockReportResponse>;

/**
 * GET /api/reports/stock/locations (DESIGN §17): each location's stock value at cost by name
 * (inactive ones too), or the one `location` names; products are those holding units there. Units
 * in transit belong to no location, so the totals are the store's stock less what is on the road.
 */
export const StockByLocationResponse = Ok.extend({
  locations: z.array(StockValue.extend({ location: Named, active: z.boolean() })),
  totals: StockValue,
});
export type StockByLocationResponse = z.infer<typeof StockByLocationResponse>;

/** The columns of each report's CSV, in order (one row per period, product, category, person). */
export const REPORT_CSV_HEADERS = {
  sales: ['period start', 'orders', 'units', 'revenue', 'cost', 'margin', 'discount', 'tax'],
  products: ['product id', 'product', 'category', 'units', 'revenue', 'margin'],
  items: ['item id', 'product id', 'name', 'category', 'variants', 'units', 'revenue', 'margin'],
  neverSold: ['product id', 'product', 'category', 'stock'],
  categories: ['category', 'units', 'revenue', 'margin', 'share'],
  staff: ['user id', 'name', 'role', 'orders', 'units', 'revenue'],
  customers: ['customer id', 'name', 'sales', 'units', 'revenue'],
  stock: ['category', 'products', 'units', 'value'],
  stockByLocation: ['location id', 'location', 'products', 'units', 'value'],
  tax: ['tax rate', 'rate', 'base', 'tax'],
} as const;
