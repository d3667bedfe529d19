import { todayIn } from '../../src/server/modules/reports/reports.range';
import { timeExport } from '../csv-export';
import {
  BARE_STEADY,
  BOOKS_REPORTS,
  log,
  REPORT_RATE,
  REPORTS,
  reportRow,
  SECONDS,
  TARGETS,
} from '../settings';
import { type Bench, type Scenario, targetOf } from './bench';

/**
 * The whole year up to today in the server's zone, worked out once for every report row (the
 * range is named, so that every request reads the same days).
 */
let year: string | undefined;
function yearOf(b: Bench): string {
  year ??= (() => {
    const to = todayIn(b.timeZone);
    const from = new Date(`${to}T00:00:00Z`);
    from.setUTCDate(from.getUTCDate() - 365);
    return `from=${from.toISOString().slice(0, 10)}&to=${to}`;
  })();
  return year;
}

/** Each report of a list over the whole year, at a steady rate, held to its p99 target. */
const yearRows = (reports: Array<{ name: string; path: string }>, p99: number): Scenario[] =>
  reports.map(
    (report): Scenario => ({
      name: reportRow(report.name),
      target: `p99 < ${p99} ms`,
      limit: BARE_STEADY,
      run: async (b, s) => {
        await b.runSteady(
          {
            name: s.name,
            url: `${b.server.url}${report.path}${report.path.includes('?') ? '&' : '?'}${yearOf(b)}`,
            headers: b.asAdmin,
            connections: 8,
            duration: SECONDS,
            rate: REPORT_RATE,
          },
          targetOf(s),
        );
      },
    }),
  );

/** §10's reports over the whole year. */
export const REPORT_ROWS: Scenario[] = yearRows(REPORTS, TARGETS.reportP99);

/** The books' trial balance and P&L over the whole year (DESIGN §19), at the reports' steady rate. */
export const BOOKS_ROWS: Scenario[] = yearRows(BOOKS_REPORTS, TARGETS.booksP99);

/** Every order as CSV, streamed (DESIGN §10): the rate, and the server's memory meanwhile. */
export const CSV_EXPORT: Scenario = {
  name: 'orders CSV export',
  target: `≥ ${TARGETS.exportRowsPerSecond}`,
  limit: null,
  run: async (b, s) => {
    await b.settle();
    const exported = await timeExport(
      `${b.server.url}/api/order/${b.admin.user._id}?format=csv`,
      b.asAdmin,
      b.server.pid,
    );
    b.measured.exported = exported;
    log(
      `  ${s.name.padEnd(34)} ${exported.rows} rows in ${exported.seconds.toFixed(1)} s: ${exported.rowsPerSecond.toFixed(0)} rows/s (target ${s.target}); server memory ${exported.memoryBeforeMb.toFixed(0)} → peak ${exported.memoryPeakMb.toFixed(0)} MB`,
    );
  },
};
