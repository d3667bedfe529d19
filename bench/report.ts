import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kB, LOGIN_BUDGET_BYTES } from '../scripts/login-weight.mjs';
import {
  BILL_DRAFT_ROW,
  BILL_LINES,
  BILL_PAY_ROW,
  BILL_POST_ROW,
  type BillCheck,
  type BillRun,
  billCheckLine,
  billProblems,
} from './bills';
import type { ExportResult } from './csv-export';
import type { DirectResult } from './direct-sql';
import type { LoadResult } from './http-load';
import { IMPORT_ROWS, IMPORT_UPDATES, type ImportRun } from './import';
import { DATA_SET, type LedgerCheck, ledgerProblems } from './load-data';
import { type LotCheck, type LotProducts, lotProblems } from './lots';
import {
  OFFLINE_LINES,
  OFFLINE_ONLINE_ROW,
  OFFLINE_RESENT,
  OFFLINE_ROW,
  OFFLINE_SALES,
  type OfflineCheck,
  type OfflineRun,
  offlineCheckLine,
  offlineProblems,
} from './offline';
import type { StockCheck } from './orders-check';
import { RECEIVE_LINES } from './purchasing';
import { FLAT_OUT_SALE_LINES, type SalesCheck, STEADY_SALE_LINES } from './sales';
import {
  BARE_STEADY,
  BOOKS_REPORTS,
  type BooksCheckRun,
  DASHBOARD_AFTER_IMPORT,
  DASHBOARD_ALONE_FLAT,
  DASHBOARD_ALONE_STEADY,
  DASHBOARD_DURING_IMPORT,
  LOT_SALE_ROW,
  LOT_SALES_FLAT_OUT,
  log,
  median,
  ORDER_CLIENTS,
  POSTING_TURNS,
  percentile,
  postingRow,
  quick,
  REFUND_RATE,
  REFUND_ROW,
  REPORT_RATE,
  REPORTS,
  reportRow,
  root,
  SALE_ALONE,
  SALE_RATE,
  SALE_ROW,
  SALES_FLAT_OUT,
  SEARCH_ALONE_FLAT,
  SEARCHERS,
  SECONDS,
  SHORT_SEARCHES,
  STEADY_RATE,
  type StockCheckRun,
  SUGGESTIONS_ALONE,
  SUGGESTIONS_RATE,
  saleBeside,
  searchers,
  size,
  TARGETS,
  target,
} from './settings';
import {
  type PostRun,
  SCAN_CLIENTS,
  SCAN_FLOOR,
  SCAN_PACE_MS,
  SCAN_ROW,
  SCANS_EACH,
  type ScanRun,
  STOCKTAKE_LEDGER_ALONE,
  stocktakeProblems,
} from './stocktakes';
import type { SessionCheck } from './till';
import { TRANSFER_LINES, type TransferRun } from './transfers';

/**
 * A row of the targets table: the figure measured against its target and, where the run measured
 * one, the limit it stands on (PostgreSQL alone, the bare route, direct SQL), each with its ratio.
 */
interface TargetRow {
  target: string;
  /** The figure as printed; else `value` with its unit. */
  measured?: string;
  value?: number;
  /** The target's own number, for measured ÷ target. */
  goal?: number;
  unit?: string;
  digits?: number;
  ok: boolean;
  limit?: { name: string; value: number; unit: string; digits?: number } | undefined;
}

function targetTable(rows: TargetRow[], verdict: (ok: boolean) => string): string[] {
  const figure = (value: number, unit = '', digits = 1) =>
    `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
  return [
    '| target | measured | ÷ target | limit measured beside it | ÷ limit | |',
    '|---|---|---:|---|---:|---|',
    ...rows.map((row) => {
      const measured =
        row.measured ?? (row.value === undefined ? '—' : figure(row.value, row.unit, row.digits));
      const ofTarget = row.value !== undefined && row.goal ? (row.value / row.goal).toFixed(2) : '—';
      const limit = row.limit
        ? `${row.limit.name} ${figure(row.limit.value, row.limit.unit, row.limit.digits)}`
        : '—';
      const ofLimit =
        row.limit && row.value !== undefined && row.limit.value > 0
          ? `${(row.value / row.limit.value).toFixed(1)}×`
          : '—';
      return `| ${row.target} | ${measured} | ${ofTarget} | ${limit} | ${ofLimit} | ${verdict(row.ok)} |`;
    }),
    ...rows
      .filter((row) => !row.ok && row.limit && row.goal !== undefined && row.limit.value >= row.goal)
      .map(
        (row) =>
          `\nMissed where the limit itself misses: ${row.target}. The limit beside it (${row.limit?.name} ${figure(row.limit?.value ?? 0, row.limit?.unit, row.limit?.digits)}) is already over the target on this machine; the route adds ${row.value !== undefined && row.limit ? (row.value / row.limit.value).toFixed(1) : '—'}× on it.`,
      ),
    '',
    "÷ target: the measured figure divided by the target (below 1 meets a ceiling, 1 or more a floor). ÷ limit: divided by the limit measured beside it in this run: PostgreSQL alone is the route's own statement run from the benchmark process at the same pace, without HTTP or the server; the bare route is GET /api/live, HTTP and the server without the database.",
  ];
}

/**
 * DESIGN §18's speed: the post of the stocktake beside its movements written alone, the scans'
 * p99 beside the bare route asked by the same clients, and the scans all counted.
 */
function stocktakeRows(
  post: PostRun | undefined,
  scans: ScanRun | undefined,
  ledgerAloneMs: number,
  byName: (name: string) => LoadResult | undefined,
): TargetRow[] {
  const scanned = byName(SCAN_ROW);
  const floor = byName(SCAN_FLOOR);
  const sent = scans?.sent ?? SCAN_CLIENTS * SCANS_EACH;
  const people = scans?.people;
  return [
    post
      ? {
          target: `post a stocktake of ${post.lines.toLocaleString('en-US')} lines < ${TARGETS.stocktakePostSeconds} s (every line counted in ${post.counts.length} requests of set counts, ${post.differing} off)`,
          value: post.postMs / 1000,
          goal: TARGETS.stocktakePostSeconds,
          unit: 's',
          digits: 2,
          ok: post.postMs / 1000 < TARGETS.stocktakePostSeconds && post.problems.length === 0,
          limit: { name: STOCKTAKE_LEDGER_ALONE, value: ledgerAloneMs / 1000, unit: 's', digits: 2 },
        }
      : { target: 'post a stocktake', measured: 'not measured', ok: false },
    people && floor && scans
      ? {
          target: `scan into a ${scans.lines.toLocaleString('en-US')}-line stocktake p99 < ${TARGETS.scanP99} ms, ${SCAN_CLIENTS} people scanning at once, each every ${SCAN_PACE_MS} ms (${people.rps.toFixed(0)} scans/s, p50 ${people.p50.toFixed(1)} ms)`,
          value: people.p99,
          goal: TARGETS.scanP99,
          unit: 'ms',
          ok: people.p99 < TARGETS.scanP99 && scans.problems.length === 0,
          limit: { name: `${SCAN_FLOOR} p99`, value: floor.p99, unit: 'ms' },
        }
      : { target: 'scan into a stocktake', measured: 'not measured', ok: false },
    scanned && floor && scans
      ? {
          target: `scans flat out, ${SCAN_CLIENTS} clients one after another (no target: what the route takes at its most)`,
          measured: `${scanned.rps.toFixed(0)} scans/s, p50 ${scanned.p50.toFixed(1)} ms, p99 ${scanned.p99.toFixed(1)} ms (${scanned.note}); ${(scanned.p99 / floor.p99).toFixed(1)}× the bare route's p99 ${floor.p99.toFixed(1)} ms from the same clients`,
          ok: scans.problems.length === 0,
        }
      : { target: 'scans flat out', measured: 'not measured', ok: false },
    scans
      ? {
          target: `${sent} racing scans (flat out and paced): every add counted`,
          measured: `${scans.counted} units counted for ${sent} scans${scans.problems.length ? `; ${scans.problems.join('; ')}` : ''}`,
          ok: scans.counted === sent && scans.problems.length === 0,
        }
      : { target: 'racing scans all counted', measured: 'not measured', ok: false },
  ];
}

/**
 * DESIGN §21: the offline queue drained beside as many online sales from one client, and what the
 * database held after it (each offline id once, stock = initial − sold); `ledger` is the ledger's
 * own check after the run (stock = Σ movements, every sale its entry).
 */
function offlineRows(
  run: OfflineRun | undefined,
  check: OfflineCheck | undefined,
  ledger: string[],
  byName: (name: string) => LoadResult | undefined,
): TargetRow[] {
  const drained = byName(OFFLINE_ROW);
  const online = byName(OFFLINE_ONLINE_ROW);
  if (!run || !drained || !online)
    return [
      { target: `offline queue of ${OFFLINE_SALES} sales drained`, measured: 'not measured', ok: false },
    ];
  const problems = offlineProblems(run, check);
  return [
    {
      target: `offline queue of ${OFFLINE_SALES} sales drained < ${TARGETS.offlineDrainSeconds} s (${OFFLINE_LINES} lines each, one after another, oldest first; a sale p50 ${drained.p50.toFixed(1)} ms, p99 ${drained.p99.toFixed(1)} ms)`,
      value: run.offline.seconds,
      goal: TARGETS.offlineDrainSeconds,
      unit: 's',
      ok: run.offline.seconds < TARGETS.offlineDrainSeconds && problems.length === 0,
      limit: {
        name: `${OFFLINE_ONLINE_ROW} (p99 ${online.p99.toFixed(1)} ms)`,
        value: run.online.seconds,
        unit: 's',
      },
    },
    {
      target: `offline queue: every sale recorded once (the first ${OFFLINE_RESENT} sent again answer 200 with the same sale), stock = initial − sold = Σ movements, every sale its entry, the books check holds`,
      measured: problems.length ? problems.join('; ') : offlineCheckLine(run, check),
      ok: problems.length === 0 && ledger.length === 0,
    },
  ];
}

/**
 * DESIGN §20: each bill posted and paid, one after another, beside the bare route's p99, and
 * what the database held after them (every bill paid, 2000 = the open bills).
 */
function billRows(
  run: BillRun | undefined,
  check: BillCheck | undefined,
  floor: TargetRow['limit'],
  byName: (name: string) => LoadResult | undefined,
): TargetRow[] {
  const drafted = byName(BILL_DRAFT_ROW);
  const posted = byName(BILL_POST_ROW);
  const paid = byName(BILL_PAY_ROW);
  if (!run || !drafted || !posted || !paid)
    return [{ target: `post and pay a ${BILL_LINES}-line bill`, measured: 'not measured', ok: false }];
  const problems = billProblems(run, check);
  return [
    {
      target: `post a ${BILL_LINES}-line bill p99 < ${TARGETS.billPostP99} ms (${posted.requests} in a row, each drafted from a received purchase order just before: draft p99 ${drafted.p99.toFixed(1)} ms)`,
      value: posted.p99,
      goal: TARGETS.billPostP99,
      unit: 'ms',
      ok: posted.p99 < TARGETS.billPostP99 && (posted.statuses['200'] ?? 0) === run.expected,
      limit: floor,
    },
    {
      target: `pay a bill in full by bank transfer p99 < ${TARGETS.billPayP99} ms (${paid.requests} in a row)`,
      value: paid.p99,
      goal: TARGETS.billPayP99,
      unit: 'ms',
      ok: paid.p99 < TARGETS.billPayP99 && (paid.statuses['201'] ?? 0) === run.expected,
      limit: floor,
    },
    {
      target:
        'bills: every bill paid, 2000 Accounts payable = the open bills − the payments’ credit = the payables report, the books check holds',
      measured: problems.length ? problems.join('; ') : billCheckLine(run, check),
      ok: problems.length === 0,
    },
  ];
}

/** Writes the results file and prints it; answers what broke the ledger, if anything did. */
export function report(r: {
  loadSeconds: number;
  timings: Record<string, number>;
  loadedLedger: LedgerCheck;
  finalLedger: LedgerCheck;
  direct: DirectResult;
  directCheck: StockCheck;
  httpCheck: StockCheck;
  salesStock: StockCheck;
  salesWhole: SalesCheck;
  sessionCheck: SessionCheck | undefined;
  lotSteady: LotProducts;
  lotSteadyCheck: LotCheck;
  lotFlat: LotProducts;
  lotFlatCheck: LotCheck;
  barcodeFound: string;
  results: LoadResult[];
  catalogue: number[];
  catalogueError: string;
  loginJs: number | undefined;
  loginJsError: string;
  stockCheck: StockCheckRun;
  booksCheck: BooksCheckRun;
  receipts: { ms: number[]; failures: string[] };
  transfers: TransferRun;
  stocktakePost: PostRun | undefined;
  stocktakeScans: ScanRun | undefined;
  stocktakeLedgerAloneMs: number;
  offline: OfflineRun | undefined;
  offlineCheck: OfflineCheck | undefined;
  bills: BillRun | undefined;
  billsCheck: BillCheck | undefined;
  openLines: number;
  suggested: { suppliers: number; lines: number };
  exported: ExportResult | undefined;
  imported: ImportRun | undefined;
  importWritten: { created: number; updated: number; openings: number } | undefined;
  adjustmentsWritten: number;
  busiestMovements: [number, number];
}): string[] {
  const byName = (name: string) => r.results.find((x) => x.name === name) as LoadResult;
  // DESIGN §19: the turns with and without posting, each side's mean rate over its turns.
  const turns = POSTING_TURNS.map((turn, n) => ({
    turn,
    x: r.results.find((x) => x.name === postingRow(turn, n + 1)),
  }));
  const rateOf = (turn: string) => {
    const mine = turns.filter((t) => t.turn === turn).map((t) => t.x?.rps ?? Number.NaN);
    return mine.reduce((a, b) => a + b, 0) / mine.length;
  };
  const postingRatio = turns.every((t) => t.x)
    ? {
        posting: rateOf('posting'),
        without: rateOf('without posting'),
        allAccepted: turns.every(
          (t) => t.x && (t.x.statuses['201'] ?? 0) === t.x.requests && t.x.errors === 0,
        ),
      }
    : undefined;
  const bare = byName('bare route (GET /api/live)');
  const orders = byName('place order (64 clients)');
  const accepted = orders.statuses['201'] ?? 0;
  const refused = orders.statuses['409'] ?? 0;
  const other = orders.requests - accepted - refused + orders.errors;
  const orderRatio = orders.rps / r.direct.rps;
  const catalogueMs = r.catalogue.length
    ? Math.max(...r.catalogue.slice(1)) || (r.catalogue[0] as number)
    : Number.NaN;
  const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
  const dashboard = byName('dashboard');
  const search = byName('products, search page of 20');
  const steadyDashboard = byName(`dashboard, steady ${STEADY_RATE} req/s`);
  const steadySearch = byName(`products, search page of 20, steady ${STEADY_RATE} req/s`);
  const adjust = byName('adjust stock (admin)');
  const adjusted = adjust.statuses['200'] ?? 0;
  const movementsPage = byName(`stock movements page of 20, steady ${STEADY_RATE} req/s`);
  const checkMedian = r.stockCheck.ms.length ? median(r.stockCheck.ms) : Number.NaN;
  const suggestions = byName(`reorder suggestions, steady ${SUGGESTIONS_RATE} req/s`);
  const receiptsSorted = [...r.receipts.ms].sort((a, b) => a - b);
  const receiveP50 = percentile(receiptsSorted, 0.5);
  const receiveP99 = percentile(receiptsSorted, 0.99);
  const transferP99 = percentile(
    [...r.transfers.send, ...r.transfers.receive].sort((a, b) => a - b),
    0.99,
  );
  const oversell =
    r.httpCheck.mismatches +
    r.httpCheck.negative +
    r.httpCheck.ledgerMismatches +
    r.httpCheck.unrecordedSales +
    r.directCheck.mismatches +
    r.directCheck.negative +
    r.directCheck.ledgerMismatches +
    r.directCheck.unrecordedSales;
  const barcode = byName(`product by barcode, steady ${STEADY_RATE} req/s`);
  const steadySale = byName(SALE_ROW);
  const salesFlat = byName(SALES_FLAT_OUT);
  const refund = byName(REFUND_ROW);
  const till = r.sessionCheck;
  const salesOversell =
    r.salesStock.mismatches +
    r.salesStock.negative +
    r.salesStock.ledgerMismatches +
    r.salesStock.unrecordedSales +
    r.salesWhole.partial +
    r.salesWhole.duplicateNumbers;
  const allOk = (x: LoadResult, code: string) => x.requests > 0 && x.requests === (x.statuses[code] ?? 0);
  const ledger = [
    ...(r.stockCheck.mismatches
      ? [`GET /api/stock/check reports ${r.stockCheck.mismatches} mismatches`]
      : []),
    ...(r.stockCheck.checked !== size.products
      ? [`GET /api/stock/check checked ${r.stockCheck.checked} of ${size.products} products`]
      : []),
    ...ledgerProblems(r.finalLedger),
  ];
  const im = r.imported;
  const iw = r.importWritten;
  const importProblems = [
    ...(im ? im.problems : ['the import did not run']),
    ...(iw && iw.created !== IMPORT_ROWS - IMPORT_UPDATES
      ? [`${iw.created} imported products, not ${IMPORT_ROWS - IMPORT_UPDATES}`]
      : []),
    ...(iw && iw.updated !== IMPORT_UPDATES
      ? [`${iw.updated} repriced products, not ${IMPORT_UPDATES}`]
      : []),
    ...(iw && iw.openings !== iw.created
      ? [`${iw.openings} opening movements for ${iw.created} imported products`]
      : []),
  ];
  const lotSale = byName(LOT_SALE_ROW);
  const lotFlat = byName(LOT_SALES_FLAT_OUT);
  const lotProblemsFound = [
    ...lotProblems(r.lotSteadyCheck, r.lotSteady).map((problem) => `steady lots: ${problem}`),
    ...lotProblems(r.lotFlatCheck, r.lotFlat).map((problem) => `flat-out lots: ${problem}`),
  ];
  const duringImport = r.results.find((x) => x.name === DASHBOARD_DURING_IMPORT);
  const afterImport = r.results.find((x) => x.name === DASHBOARD_AFTER_IMPORT);

  // Each target beside the limit measured in the same run that it stands on: PostgreSQL alone
  // (the route's own statement from this process, no HTTP), the bare route, or direct SQL.
  const bareSteady = r.results.find((x) => x.name === BARE_STEADY);
  const alone = (name: string) => r.results.find((x) => x.name === name);
  const p99Of = (x: LoadResult | undefined, label: string) =>
    x ? { name: `${label} p99`, value: x.p99, unit: 'ms' } : undefined;
  const steadyFloor = p99Of(bareSteady, `bare route, steady ${STEADY_RATE} req/s,`);
  const flatFloor = p99Of(bare, 'bare route flat out,');
  const rows: TargetRow[] = [
    {
      target: `dashboard p99 < ${TARGETS.dashboardP99} ms, at a steady ${STEADY_RATE} req/s`,
      value: steadyDashboard.p99,
      goal: TARGETS.dashboardP99,
      unit: 'ms',
      ok: steadyDashboard.p99 < TARGETS.dashboardP99,
      limit: p99Of(alone(DASHBOARD_ALONE_STEADY), 'PostgreSQL alone') ?? steadyFloor,
    },
    {
      target: `dashboard p99 < ${TARGETS.dashboardP99} ms, 16 clients flat out (${dashboard.rps.toFixed(0)} req/s)`,
      value: dashboard.p99,
      goal: TARGETS.dashboardP99,
      unit: 'ms',
      ok: dashboard.p99 < TARGETS.dashboardP99,
      limit: p99Of(alone(DASHBOARD_ALONE_FLAT), 'PostgreSQL alone, 16 clients flat out,') ?? flatFloor,
    },
    {
      target: `paged product search p99 < ${TARGETS.searchP99} ms, at a steady ${STEADY_RATE} req/s`,
      value: steadySearch.p99,
      goal: TARGETS.searchP99,
      unit: 'ms',
      ok: steadySearch.p99 < TARGETS.searchP99,
      limit: steadyFloor,
    },
    {
      target: `paged product search p99 < ${TARGETS.searchP99} ms, 16 clients flat out (${search.rps.toFixed(0)} req/s)`,
      value: search.p99,
      goal: TARGETS.searchP99,
      unit: 'ms',
      ok: search.p99 < TARGETS.searchP99,
      limit: p99Of(alone(SEARCH_ALONE_FLAT), 'PostgreSQL alone, 16 clients flat out,') ?? flatFloor,
    },
    {
      target: `stock movements page p99 < ${TARGETS.movementsP99} ms, at a steady ${STEADY_RATE} req/s`,
      value: movementsPage.p99,
      goal: TARGETS.movementsP99,
      unit: 'ms',
      ok: movementsPage.p99 < TARGETS.movementsP99 && allOk(movementsPage, '200'),
      limit: steadyFloor,
    },
    {
      target: `stock check < ${TARGETS.stockCheckMs} ms (median of ${r.stockCheck.ms.length})`,
      value: checkMedian,
      goal: TARGETS.stockCheckMs,
      unit: 'ms',
      digits: 0,
      ok: checkMedian < TARGETS.stockCheckMs,
    },
    r.booksCheck.ms.length
      ? {
          target: `books check (GET /api/accounting/check) over ${size.orders.toLocaleString('en-US')} sales: every check holds (median of ${r.booksCheck.ms.length}; no time target)`,
          measured: `${median(r.booksCheck.ms).toFixed(0)} ms; ${r.booksCheck.failed.length ? `failed: ${r.booksCheck.failed.join(', ')}` : 'every check holds'}`,
          ok: r.booksCheck.failed.length === 0,
        }
      : { target: 'books check', measured: 'not measured', ok: false },
    {
      target: 'stock check: stock = sum of movements for every product',
      measured: `${r.stockCheck.mismatches} mismatches over ${r.stockCheck.checked.toLocaleString('en-US')} products`,
      ok: ledger.length === 0,
    },
    {
      target: `receive a ${RECEIVE_LINES}-line purchase order p99 < ${TARGETS.receiveP99} ms (${r.receipts.ms.length} in a row)`,
      value: receiveP99,
      goal: TARGETS.receiveP99,
      unit: 'ms',
      ok: receiveP99 < TARGETS.receiveP99 && r.receipts.ms.length > 0 && r.receipts.failures.length === 0,
      limit: steadyFloor,
    },
    {
      target: `send and receive a ${TRANSFER_LINES}-line transfer p99 < ${TARGETS.transferP99} ms (${r.transfers.send.length} sends and ${r.transfers.receive.length} receipts in a row)`,
      value: transferP99,
      goal: TARGETS.transferP99,
      unit: 'ms',
      ok:
        transferP99 < TARGETS.transferP99 &&
        r.transfers.send.length > 0 &&
        r.transfers.receive.length > 0 &&
        r.transfers.failures.length === 0,
      limit: steadyFloor,
    },
    ...billRows(r.bills, r.billsCheck, steadyFloor, byName),
    ...stocktakeRows(r.stocktakePost, r.stocktakeScans, r.stocktakeLedgerAloneMs, byName),
    {
      target: `reorder suggestions p99 < ${TARGETS.suggestionsP99} ms, at a steady ${SUGGESTIONS_RATE} req/s`,
      value: suggestions.p99,
      goal: TARGETS.suggestionsP99,
      unit: 'ms',
      ok: suggestions.p99 < TARGETS.suggestionsP99 && allOk(suggestions, '200'),
      limit: p99Of(alone(SUGGESTIONS_ALONE), 'PostgreSQL alone') ?? steadyFloor,
    },
    r.exported
      ? {
          target: `orders CSV export ≥ ${TARGETS.exportRowsPerSecond.toLocaleString('en-US')} rows/s (${r.exported.rows.toLocaleString('en-US')} rows)`,
          value: r.exported.rowsPerSecond,
          goal: TARGETS.exportRowsPerSecond,
          unit: 'rows/s',
          digits: 0,
          ok: r.exported.status === 200 && r.exported.rowsPerSecond >= TARGETS.exportRowsPerSecond,
        }
      : { target: 'orders CSV export', measured: 'not measured', ok: false },
    r.exported
      ? {
          target: `server memory growth during the export < ${TARGETS.exportMemoryMb} MB`,
          value: r.exported.memoryPeakMb - r.exported.memoryBeforeMb,
          goal: TARGETS.exportMemoryMb,
          unit: 'MB',
          digits: 0,
          measured: `${(r.exported.memoryPeakMb - r.exported.memoryBeforeMb).toFixed(0)} MB (${r.exported.memoryBeforeMb.toFixed(0)} → ${r.exported.memoryPeakMb.toFixed(0)})`,
          ok: r.exported.memoryPeakMb - r.exported.memoryBeforeMb < TARGETS.exportMemoryMb,
        }
      : { target: 'server memory during the export', measured: 'not measured', ok: false },
    ...REPORTS.map((report): TargetRow => {
      const x = byName(reportRow(report.name));
      return {
        target: `report ${report.name} over a year p99 < ${TARGETS.reportP99} ms, at a steady ${REPORT_RATE} req/s`,
        value: x.p99,
        goal: TARGETS.reportP99,
        unit: 'ms',
        ok: x.p99 < TARGETS.reportP99 && allOk(x, '200'),
        limit: steadyFloor,
      };
    }),
    ...BOOKS_REPORTS.map((report): TargetRow => {
      const x = byName(reportRow(report.name));
      return {
        target: `${report.name} over a year of ${size.orders.toLocaleString('en-US')} sales p99 < ${TARGETS.booksP99} ms, at a steady ${REPORT_RATE} req/s`,
        value: x.p99,
        goal: TARGETS.booksP99,
        unit: 'ms',
        ok: x.p99 < TARGETS.booksP99 && allOk(x, '200'),
        limit: steadyFloor,
      };
    }),
    postingRatio === undefined
      ? {
          target: 'sales flat out with posting ≥ 80 % of without',
          measured: 'not measured (PostgreSQL only)',
          ok: false,
        }
      : {
          target: `sales flat out with posting ≥ ${TARGETS.postingRatio * 100} % of the same sales without it (in turns)`,
          value: postingRatio.posting,
          goal: TARGETS.postingRatio * postingRatio.without,
          unit: 'req/s',
          digits: 0,
          measured: `${((postingRatio.posting / postingRatio.without) * 100).toFixed(0)} % (${postingRatio.posting.toFixed(0)} req/s)`,
          ok: postingRatio.posting >= TARGETS.postingRatio * postingRatio.without && postingRatio.allAccepted,
          limit: { name: 'without posting', value: postingRatio.without, unit: 'req/s', digits: 0 },
        },
    {
      target: `product by barcode at ${size.products.toLocaleString('en-US')} products p99 < ${TARGETS.barcodeP99} ms, at a steady ${STEADY_RATE} req/s`,
      value: barcode.p99,
      goal: TARGETS.barcodeP99,
      unit: 'ms',
      ok: barcode.p99 < TARGETS.barcodeP99 && allOk(barcode, '200') && r.barcodeFound === 'yes',
      limit: steadyFloor,
    },
    {
      target: `${STEADY_SALE_LINES}-line sale p99 < ${TARGETS.saleP99} ms, at a steady ${SALE_RATE} req/s`,
      value: steadySale.p99,
      goal: TARGETS.saleP99,
      unit: 'ms',
      ok: steadySale.p99 < TARGETS.saleP99 && allOk(steadySale, '201'),
      limit: steadyFloor,
    },
    {
      target: `sales flat out (${salesFlat.rps.toFixed(0)} req/s): zero oversell, every sale whole, numbers unique`,
      measured: `${salesOversell} problems`,
      ok: salesOversell === 0 && r.salesStock.products === 20 && (salesFlat.statuses['201'] ?? 0) > 0,
    },
    {
      target: `${STEADY_SALE_LINES}-line sale over lot-tracked products p99 < ${TARGETS.saleP99} ms, at a steady ${SALE_RATE} req/s`,
      value: lotSale.p99,
      goal: TARGETS.saleP99,
      unit: 'ms',
      ok: lotSale.p99 < TARGETS.saleP99 && allOk(lotSale, '201'),
      limit: steadyFloor,
    },
    {
      target: `FEFO sales flat out over small lots (${lotFlat.rps.toFixed(0)} req/s): 0 oversell, no expired unit sold, lot = Σ movements, product = Σ lots = Σ movements`,
      measured: lotProblemsFound.length ? lotProblemsFound.join('; ') : '0 problems',
      ok:
        lotProblemsFound.length === 0 &&
        (lotFlat.statuses['201'] ?? 0) > 0 &&
        (lotFlat.statuses['409'] ?? 0) > 0,
    },
    {
      target: `refund of one line p99 < ${TARGETS.refundP99} ms, at a steady ${REFUND_RATE} req/s`,
      value: refund.p99,
      goal: TARGETS.refundP99,
      unit: 'ms',
      ok: refund.p99 < TARGETS.refundP99 && allOk(refund, '201'),
      limit: steadyFloor,
    },
    ...offlineRows(r.offline, r.offlineCheck, ledger, byName),
    till
      ? {
          target: `sales flat out in one till session: its report adds up (${till.sales} sales, ${till.total} taken, expected cash ${till.expectedCash})`,
          measured: `${till.differences.length + till.unpaid} differences${till.differences.length ? `: ${till.differences.join('; ')}` : ''}`,
          ok: till.differences.length === 0 && till.unpaid === 0 && till.sales > 0,
        }
      : {
          target: 'sales flat out in one till session: its report adds up',
          measured: 'not measured',
          ok: false,
        },
    {
      target: 'order placement ≥ 50 % of direct SQL (both write the sale movement)',
      value: orders.rps,
      goal: TARGETS.orderRatio * r.direct.rps,
      unit: 'req/s',
      digits: 0,
      measured: `${(orderRatio * 100).toFixed(0)} % (${orders.rps.toFixed(0)} req/s)`,
      ok: orderRatio >= TARGETS.orderRatio,
      limit: { name: 'direct SQL', value: r.direct.rps, unit: 'req/s', digits: 0 },
    },
    {
      target: 'zero oversell',
      measured: `${oversell} problems`,
      ok: oversell === 0 && r.httpCheck.products === 20,
    },
    im
      ? {
          target: `catalogue import of ${im.rows.toLocaleString('en-US')} rows (${(im.bytes / 1e6).toFixed(1)} MB CSV) checked < ${TARGETS.importCheckSeconds} s`,
          value: im.checkSeconds,
          goal: TARGETS.importCheckSeconds,
          unit: 's',
          measured: `${im.checkSeconds.toFixed(1)} s (upload ${im.uploadSeconds.toFixed(1)} s)`,
          ok: im.checkSeconds < TARGETS.importCheckSeconds && im.summary?.errors === 0,
        }
      : { target: 'catalogue import checked', measured: 'not measured', ok: false },
    im
      ? {
          target: `catalogue import applied < ${TARGETS.importApplySeconds} s (${im.summary?.create ?? 0} created, ${im.summary?.update ?? 0} updated)`,
          value: im.applySeconds,
          goal: TARGETS.importApplySeconds,
          unit: 's',
          measured: `${im.applySeconds.toFixed(1)} s; ${importProblems.length ? importProblems.join('; ') : 'every row written once, stock = Σ movements'}`,
          ok:
            im.applySeconds < TARGETS.importApplySeconds &&
            importProblems.length === 0 &&
            ledger.length === 0,
        }
      : { target: 'catalogue import applied', measured: 'not measured', ok: false },
    im
      ? {
          target: `server memory growth during the import < ${TARGETS.importMemoryMb} MB`,
          value: im.memoryPeakMb - im.memoryBeforeMb,
          goal: TARGETS.importMemoryMb,
          unit: 'MB',
          digits: 0,
          measured: `${(im.memoryPeakMb - im.memoryBeforeMb).toFixed(0)} MB (${im.memoryBeforeMb.toFixed(0)} → ${im.memoryPeakMb.toFixed(0)})`,
          ok: im.memoryPeakMb - im.memoryBeforeMb < TARGETS.importMemoryMb,
        }
      : { target: 'server memory during the import', measured: 'not measured', ok: false },
    duringImport
      ? {
          target: `dashboard while the import applies${im?.applyOutlasted ? '' : ' (the apply ended inside the window)'}, steady ${STEADY_RATE} req/s: every answer 200, p99 printed beside it alone`,
          value: duringImport.p99,
          unit: 'ms',
          measured: `p99 ${duringImport.p99.toFixed(1)} ms, ${afterImport ? `${afterImport.p99.toFixed(1)} ms` : 'not measured'} alone after it, over the larger catalogue`,
          ok: allOk(duringImport, '200'),
          limit: { name: 'dashboard alone before the import p99', value: steadyDashboard.p99, unit: 'ms' },
        }
      : { target: 'dashboard while the import applies', measured: 'not measured', ok: false },
    afterImport
      ? {
          target: `dashboard after the import p99 < ${TARGETS.dashboardP99} ms and within 2× of its own before it, at a steady ${STEADY_RATE} req/s`,
          value: afterImport.p99,
          goal: TARGETS.dashboardP99,
          unit: 'ms',
          measured: `${afterImport.p99.toFixed(1)} ms (${(afterImport.p99 / steadyDashboard.p99).toFixed(1)}× the ${steadyDashboard.p99.toFixed(1)} ms before it; p50 ${afterImport.p50.toFixed(1)} ms)`,
          ok:
            allOk(afterImport, '200') &&
            afterImport.p99 < TARGETS.dashboardP99 &&
            afterImport.p99 <= 2 * steadyDashboard.p99,
          limit: { name: 'dashboard before the import p99', value: steadyDashboard.p99, unit: 'ms' },
        }
      : { target: 'dashboard after the import', measured: 'not measured', ok: false },
    ...SHORT_SEARCHES.map((term): TargetRow => {
      const beside = r.results.find((x) => x.name === saleBeside(term));
      const searched = r.results.find((x) => x.name === searchers(term));
      const alone = r.results.find((x) => x.name === SALE_ALONE);
      if (!beside || !searched || !alone)
        return { target: `sale beside searches of "${term}"`, measured: 'not measured', ok: false };
      const answered = Object.entries(searched.statuses)
        .map(([code, n]) => `${n} × ${code}`)
        .join(', ');
      return {
        target: `${STEADY_SALE_LINES}-line sale p99 < ${TARGETS.saleP99} ms at a steady ${SALE_RATE} req/s beside ${SEARCHERS} clients of one employee searching "${term}" flat out (${searched.rps.toFixed(0)} req/s: ${answered})`,
        value: beside.p99,
        goal: TARGETS.saleP99,
        unit: 'ms',
        ok: beside.p99 < TARGETS.saleP99 && allOk(beside, '201'),
        limit: { name: 'the same sale alone just before p99', value: alone.p99, unit: 'ms' },
      };
    }),
    r.catalogue.length
      ? {
          target: `catalogue interactive < ${TARGETS.catalogueMs} ms (warm)`,
          value: catalogueMs,
          goal: TARGETS.catalogueMs,
          unit: 'ms',
          digits: 0,
          ok: catalogueMs < TARGETS.catalogueMs,
        }
      : {
          target: `catalogue interactive < ${TARGETS.catalogueMs} ms (warm)`,
          measured: 'not measured',
          ok: false,
        },
    r.loginJs !== undefined
      ? {
          target: `login page JavaScript (gzip) < ${kB(LOGIN_BUDGET_BYTES)}`,
          value: r.loginJs,
          goal: LOGIN_BUDGET_BYTES,
          measured: kB(r.loginJs),
          ok: r.loginJs < LOGIN_BUDGET_BYTES,
        }
      : {
          target: `login page JavaScript (gzip) < ${kB(LOGIN_BUDGET_BYTES)}`,
          measured: `not measured (${r.loginJsError})`,
          ok: false,
        },
  ];
  const lines = [
    `# Benchmark: ${target}${quick ? ' (quick)' : ''}`,
    '',
    `Run ${new Date().toISOString()} on ${process.platform}/${process.arch}, Node ${process.version}. Data set: ${size.products.toLocaleString('en-US')} products, ${DATA_SET.categories} categories, ${DATA_SET.suppliers} suppliers, ${DATA_SET.users} users, ${size.orders.toLocaleString('en-US')} orders over ${DATA_SET.days} days. Scenarios run ${SECONDS} s each.`,
    '',
    `Load: ${r.loadSeconds.toFixed(1)} s (${Object.entries(r.timings)
      .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
      .join(', ')}).`,
    `Ledger after loading: ${r.loadedLedger.movements.toLocaleString('en-US')} stock movements (${r.loadedLedger.initial.toLocaleString('en-US')} opening, ${r.loadedLedger.sales.toLocaleString('en-US')} sales); ${r.loadedLedger.mismatches} products whose stock ≠ the sum of their movements, ${r.loadedLedger.negative} movements below zero.`,
    '',
    '| scenario | clients | req/s | p50 ms | p99 ms | non-2xx | errors | vs limit |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...r.results.map((x) => {
      const non2xx = Object.entries(x.statuses)
        .filter(([code]) => !code.startsWith('2'))
        .reduce((a, [, n]) => a + n, 0);
      const limit =
        x === orders
          ? `${(orderRatio * 100).toFixed(0)} % of direct SQL`
          : x === bare ||
              [
                BARE_STEADY,
                DASHBOARD_ALONE_STEADY,
                DASHBOARD_ALONE_FLAT,
                SEARCH_ALONE_FLAT,
                SUGGESTIONS_ALONE,
                SCAN_FLOOR,
                OFFLINE_ONLINE_ROW,
              ].includes(x.name)
            ? 'limit'
            : `${((x.rps / bare.rps) * 100).toFixed(1)} % of bare route`;
      return `| ${x.name} | ${x.connections} | ${x.rps.toFixed(0)} | ${x.p50.toFixed(1)} | ${x.p99.toFixed(1)} | ${non2xx} | ${x.errors} | ${limit} |`;
    }),
    `| direct SQL order statement (no HTTP) | ${ORDER_CLIENTS} | ${r.direct.rps.toFixed(0)} | ${r.direct.p50.toFixed(1)} | ${r.direct.p99.toFixed(1)} | ${r.direct.refused} refused | 0 | limit |`,
    '',
    `Orders over HTTP: ${accepted} accepted, ${refused} refused with 'Not enough stock', ${other} other. Stock check over ${r.httpCheck.products} products: ${r.httpCheck.mismatches} where initial − accepted ≠ final, ${r.httpCheck.negative} below zero, ${r.httpCheck.soldOut} sold out; ${r.httpCheck.acceptedOrders} order rows for ${r.httpCheck.acceptedUnits} units.`,
    `Direct SQL: ${r.direct.accepted} accepted, ${r.direct.refused} refused; stock check: ${r.directCheck.mismatches} mismatches, ${r.directCheck.negative} below zero.`,
    `Both order runs against the ledger: ${r.httpCheck.ledgerMismatches + r.directCheck.ledgerMismatches} products whose stock ≠ the sum of their movements, ${r.httpCheck.unrecordedSales + r.directCheck.unrecordedSales} accepted orders without their sale movement.`,
    `Adjustments: ${adjusted} answered 200, ${r.adjustmentsWritten} adjustment movements written (the requests in flight when the run stops are written but not counted), ${adjust.requests - adjusted + adjust.errors} other answers. Movements page over ${r.busiestMovements[0] === r.busiestMovements[1] ? r.busiestMovements[0] : `${r.busiestMovements[0]}–${r.busiestMovements[1]}`} movements per product.`,
    `Stock check (GET /api/stock/check) over ${r.stockCheck.checked.toLocaleString('en-US')} products and ${r.finalLedger.movements.toLocaleString('en-US')} movements: ${r.stockCheck.ms.map((n) => n.toFixed(0)).join(', ')} ms (median ${checkMedian.toFixed(0)} ms), ${r.stockCheck.mismatches} mismatches. Ledger checked in SQL after the run: ${ledgerProblems(r.finalLedger).join('; ') || 'holds'}.`,
    `Purchasing: ${r.receipts.ms.length} purchase orders of ${RECEIVE_LINES} lines received in full, one request each, one after another: p50 ${receiveP50.toFixed(1)} ms, p99 ${receiveP99.toFixed(1)} ms, ${r.receipts.failures.length} not answered 200. Reorder suggestions over ${size.products.toLocaleString('en-US')} products with ${r.openLines.toLocaleString('en-US')} open purchase order lines on order: ${r.suggested.lines.toLocaleString('en-US')} products to reorder from ${r.suggested.suppliers} suppliers in each answer.`,
    `Sales: the steady run sold ${STEADY_SALE_LINES} lines a sale (${steadySale.statuses['201'] ?? 0} answered 201 of ${steadySale.requests}); flat out, ${salesFlat.statuses['201'] ?? 0} sales of ${FLAT_OUT_SALE_LINES} lines accepted and ${salesFlat.statuses['409'] ?? 0} refused whole for stock, over ${r.salesStock.products} products: ${r.salesStock.mismatches} where initial − sold ≠ final, ${r.salesStock.negative} below zero, ${r.salesStock.soldOut} sold out, ${r.salesStock.ledgerMismatches} whose stock ≠ the sum of their movements, ${r.salesStock.unrecordedSales} lines without their sale movement; ${r.salesWhole.sales} sales checked, ${r.salesWhole.partial} not whole; receipt numbers over every sale of the run: ${r.salesWhole.duplicateNumbers} given twice. Barcode lookup (GET /api/products/code/:code) found the scanned product: ${r.barcodeFound}.`,
    `Lots (DESIGN §15): the steady run sold ${lotSale.statuses['201'] ?? 0} of ${lotSale.requests} sales of ${STEADY_SALE_LINES} lines over ${r.lotSteadyCheck.products} lot-tracked products (${r.lotSteadyCheck.lots} lots), ${r.lotSteadyCheck.acrossLots} of its lines across two lots; flat out, ${lotFlat.statuses['201'] ?? 0} sales accepted and ${lotFlat.statuses['409'] ?? 0} refused ('Only N unexpired in stock') over ${r.lotFlatCheck.products} products with two small lots and an expired one each: ${r.lotFlatCheck.acrossLots} lines across two lots, ${r.lotFlatCheck.expiredTaken} expired units sold (${r.lotFlatCheck.expiredLeft} of ${r.lotFlat.expiredUnits} left), ${r.lotFlatCheck.lotMismatches} lots ≠ the sum of their movements, ${r.lotFlatCheck.productMismatches} products ≠ the sum of their lots or movements, ${r.lotFlatCheck.unwholeOrders} orders whose lots do not add up.`,
    r.catalogue.length
      ? `Catalogue page interactive in Chromium (rows shown, search usable): ${r.catalogue.map((n) => n.toFixed(0)).join(', ')} ms (first is cold).`
      : `Catalogue page interactive in Chromium: not measured (${r.catalogueError}).`,
    '',
    ...targetTable(rows, verdict),
    '',
  ];
  const markdown = lines.join('\n');
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${target}${quick ? '-quick' : ''}.md`);
  writeFileSync(file, markdown);
  log('');
  log(markdown);
  log(`Written to ${file}`);
  return [
    ...ledger,
    ...importProblems,
    ...lotProblemsFound,
    ...stocktakeProblems(r.stocktakePost, r.stocktakeScans),
    ...offlineProblems(r.offline, r.offlineCheck),
    ...billProblems(r.bills, r.billsCheck),
  ];
}
