import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATA_SET } from './load-data';
import type { LotPlan } from './lots';
import { FLAT_OUT_SALE_LINES, STEADY_SALE_LINES } from './sales';

/** The benchmark's flags, data sizes, targets and row names, read by the scenarios and the report. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const args = new Set(process.argv.slice(2));
export const embedded = args.has('--embedded');
export const quick = args.has('--quick');
/** `--only <word>`: only the scenarios whose name holds the word, and no results file (bench/run.ts). */
export const ONLY = (() => {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--only');
  return at >= 0 ? argv[at + 1]?.toLowerCase() : undefined;
})();
export const SECONDS = quick ? 3 : 10;
export const ORDER_CLIENTS = 64;
export const size = quick
  ? { products: 10_000, orders: 100_000 }
  : { products: DATA_SET.products, orders: DATA_SET.orders };
export const target = embedded ? 'embedded' : 'postgres';

export const TARGETS = {
  dashboardP99: 50,
  searchP99: 30,
  orderRatio: 0.5,
  catalogueMs: 1000,
  movementsP99: 20,
  stockCheckMs: 2000,
  receiveP99: 200,
  transferP99: 500,
  suggestionsP99: 200,
  exportRowsPerSecond: 50_000,
  exportMemoryMb: 100,
  reportP99: 50,
  /** DESIGN §19: the trial balance and the P&L over the year's million sales. */
  booksP99: 100,
  /** DESIGN §19: sales flat out with posting, as a share of the same sales without it. */
  postingRatio: 0.8,
  saleP99: 50,
  barcodeP99: 10,
  refundP99: 50,
  importCheckSeconds: 15,
  importApplySeconds: 60,
  importMemoryMb: 300,
  stocktakePostSeconds: 5,
  scanP99: 50,
  /** DESIGN §21 (issue 42): a counter's queue of OFFLINE_SALES kept sales sent when it is back. */
  offlineDrainSeconds: 30,
  /** DESIGN §20 (issue 42): a bill of a received 50-line purchase order posted, and a bill paid. */
  billPostP99: 200,
  billPayP99: 200,
};
/** Steady rate of refunds at the counter (the figure). */
export const REFUND_RATE = 50;
export const REFUND_ROW = `refund of one line, steady ${REFUND_RATE} req/s`;
/** Steady rate of the 10-line sales (the figure): a busy store's counters together. */
export const SALE_RATE = 50;
export const SALE_ROW = `${STEADY_SALE_LINES}-line sale, steady ${SALE_RATE} req/s`;
export const SALES_FLAT_OUT = `${FLAT_OUT_SALE_LINES}-line sales (${ORDER_CLIENTS} clients)`;
/** DESIGN §15: the same 10-line sale over lot-tracked products, and FEFO sales flat out over small lots. */
export const LOT_SALE_ROW = `${STEADY_SALE_LINES}-line sale over lot-tracked products, steady ${SALE_RATE} req/s`;
export const LOT_SALES_FLAT_OUT = `${FLAT_OUT_SALE_LINES}-line sales over small lots (${ORDER_CLIENTS} clients)`;
/**
 * The steady run's lots: an expired one (never sold), a small one expiring in 10 days that the run
 * sells out, so sales cross into the next, and a large one. The flat-out run's: an expired one and
 * two small ones, which sell out.
 */
export const LOT_STEADY_PLAN: LotPlan[] = [
  { days: -1, units: 1000 },
  { days: 10, units: 12 },
  { days: 400, units: 1_000_000 },
];
export const LOT_FLAT_PLAN: LotPlan[] = [
  { days: -3, units: 25 },
  { days: 20, units: 30 },
  { days: 200, units: 30 },
];
/** Steady rate of the reorder suggestions (the figure): a page that few people open. */
export const SUGGESTIONS_RATE = 20;
/** Steady rate of each report, over the whole year of orders, like the suggestions. */
export const REPORT_RATE = 20;
/**
 * The reports of DESIGN §10, each over the data set's whole year (from 365 days ago to today,
 * in the server's zone): the range that reads the most kept days.
 */
export const REPORTS: Array<{ name: string; path: string }> = [
  { name: 'sales by day', path: '/api/reports/sales?groupBy=day' },
  { name: 'sales by month', path: '/api/reports/sales?groupBy=month' },
  { name: 'products by revenue', path: '/api/reports/products?sort=revenue' },
  { name: 'products by margin', path: '/api/reports/products?sort=margin' },
  { name: 'never sold, page of 20', path: '/api/reports/products/never-sold?pageSize=20' },
  { name: 'categories', path: '/api/reports/categories' },
  { name: 'staff', path: '/api/reports/staff' },
  { name: 'stock value', path: '/api/reports/stock' },
];
export const reportRow = (name: string) => `report: ${name}, steady ${REPORT_RATE} req/s`;
/** The books' reports of DESIGN §19 over the same year (kept per-day account totals). */
export const BOOKS_REPORTS: Array<{ name: string; path: string }> = [
  { name: 'trial balance', path: '/api/accounting/trial-balance' },
  { name: 'profit and loss', path: '/api/accounting/profit-and-loss' },
];
/**
 * DESIGN §19: sales flat out in turns, with the sale's entry posted at commit (as the app runs) and
 * without it (the posting trigger off, the rest the same), twice each in the order A B B A, so a
 * steady drift of the machine falls on both alike; before them a warm-up turn (with posting) that
 * is not counted, since the first flat-out run after a quiet spell is slower whatever it runs.
 */
export const POSTING_TURNS = ['without posting', 'posting', 'posting', 'without posting'] as const;
export const POSTING_WARM_UP = `${FLAT_OUT_SALE_LINES}-line sales (${ORDER_CLIENTS} clients), warm-up with posting (not counted)`;
export const postingRow = (turn: string, n: number) => `${SALES_FLAT_OUT}, ${turn} (turn ${n})`;
/** Purchase orders received one after another, and ordered ones left open (on order). */
export const PURCHASING = quick ? { open: 8, toReceive: 20 } : { open: 40, toReceive: 100 };
/** Bills made, posted and paid one after another (DESIGN §20), as many as the receipts above. */
export const BILLS = PURCHASING.toReceive;
/** Calls of GET /api/stock/check, one after another; the median is held against its target. */
export const STOCK_CHECK_CALLS = 5;
/** Requests per second of the steady-rate runs: more than a small store's staff could send. */
export const STEADY_RATE = 100;
/** The dashboard at a steady rate while a catalogue import applies (beside it alone, above). */
/** The limits the steady and flat-out rows stand on, measured in the same run (see targetTable). */
export const BARE_STEADY = `bare route, steady ${STEADY_RATE} req/s`;
export const DASHBOARD_ALONE_STEADY = `dashboard statement, PostgreSQL alone, steady ${STEADY_RATE} req/s`;
export const DASHBOARD_ALONE_FLAT = 'dashboard statement, PostgreSQL alone, 16 clients flat out';
export const SEARCH_ALONE_FLAT = 'products search page statement, PostgreSQL alone, 16 clients flat out';
export const SUGGESTIONS_ALONE = `reorder suggestions statement, PostgreSQL alone, steady ${SUGGESTIONS_RATE} req/s`;
export const DASHBOARD_DURING_IMPORT = `dashboard while an import applies, steady ${STEADY_RATE} req/s`;
/** The same after it, alone: what the catalogue's new size costs the dashboard by itself. */
export const DASHBOARD_AFTER_IMPORT = `dashboard after the import, steady ${STEADY_RATE} req/s`;
/**
 * Issue 34, finding 5: an employee's searches of a letter, flat out from a few clients, slowed
 * every sale. The 10-line sale at its steady rate alone, then beside SEARCHERS clients of one
 * employee searching each term flat out (a page of 100), over the catalogue the import left: "a"
 * as the finding had it, and "s", which starts a word of a fifth of the bench's names.
 */
export const SEARCHERS = 4;
export const SHORT_SEARCHES = ['a', 's'];
export const SALE_ALONE = `${STEADY_SALE_LINES}-line sale, steady ${SALE_RATE} req/s, alone before the searches`;
export const saleBeside = (term: string) =>
  `${STEADY_SALE_LINES}-line sale, steady ${SALE_RATE} req/s, beside ${SEARCHERS} clients searching "${term}"`;
export const searchers = (term: string) =>
  `search=${term}&pageSize=100, one employee, ${SEARCHERS} clients flat out`;

export const log = (line: string) => console.log(line);
export const ms = (n: number) => `${n.toFixed(1)} ms`;
/** The value below which `share` of the sorted values lie (nearest rank). */
export const percentile = (sorted: number[], share: number) =>
  sorted.length
    ? (sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] as number)
    : Number.NaN;
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** What GET /api/accounting/check answered, call by call (DESIGN §19): its time and failed checks. */
export interface BooksCheckRun {
  ms: number[];
  failed: string[];
}

/** What GET /api/stock/check answered, call by call. */
export interface StockCheckRun {
  ms: number[];
  checked: number;
  mismatches: number;
}
