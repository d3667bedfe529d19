import { log, ms, percentile, TARGETS } from '../settings';
import {
  countAndPost,
  SCAN_CLIENTS,
  SCAN_FLOOR,
  SCAN_PACE_MS,
  SCAN_PEOPLE_ROW,
  SCAN_ROW,
  SCANS_EACH,
  STOCKTAKE_LEDGER_ALONE,
  STOCKTAKE_POST_ROW,
  scanAll,
  timedRow,
} from '../stocktakes';
import type { Scenario } from './bench';

/**
 * DESIGN §18: a scan answers p99 < 50 ms with 8 people scanning at once. The same 8 clients ask
 * the bare route first, one request after another each (the floor, measured beside it), then each
 * sends SCANS_EACH scans (`add` 1, by barcode or SKU) flat out into a stocktake of the whole scope
 * at the stockroom, over a few products they share; then the 8 scan at once at a person's pace
 * (each every SCAN_PACE_MS: the target's row); every racing add must be counted.
 */
export const STOCKTAKE_SCANS: Scenario = {
  name: SCAN_ROW,
  target: `p99 < ${TARGETS.scanP99} ms`,
  limit: SCAN_FLOOR,
  writes: [SCAN_ROW, SCAN_FLOOR, SCAN_PEOPLE_ROW],
  run: async (b, s) => {
    await b.settle();
    const run = await scanAll(b.server.url, b.asAdmin, b.asStaff, b.prepared.stocktakes);
    b.measured.stocktakeScans = run;
    const floor = b.show(timedRow(SCAN_FLOOR, SCAN_CLIENTS, run.floor));
    const scans = b.show(timedRow(SCAN_ROW, SCAN_CLIENTS, run.scans));
    const people = run.people ? b.show(run.people, s.target ?? undefined) : undefined;
    const sorted = [...run.scans.ms].sort((x, y) => x - y);
    log(
      `  ${SCAN_CLIENTS} × ${SCANS_EACH} scans over a ${run.lines}-line stocktake: p50 ${ms(scans.p50)}, p95 ${ms(percentile(sorted, 0.95))}, p99 ${ms(scans.p99)} (${(scans.p99 / floor.p99).toFixed(1)}× the bare route's ${ms(floor.p99)} from the same clients), ${scans.rps.toFixed(0)} scans/s flat out; ${SCAN_CLIENTS} people each scanning every ${SCAN_PACE_MS} ms: p50 ${people ? ms(people.p50) : '-'}, p99 ${people ? ms(people.p99) : '-'}; ${run.counted} units counted for ${run.sent} scans`,
    );
    if (run.problems.length) log(`  STOCKTAKE SCANS FAILED: ${run.problems.join('; ')}`);
  },
};

/**
 * DESIGN §18: 10,000 lines post in < 5 s. A stocktake of the prepared categories at the second
 * shop (STOCKTAKE_LINES lines or more; at --quick what the data set holds), every line read and
 * counted in a few requests of set counts, one line in ten off, then posted over HTTP; beside it
 * the same count movements written by the ledger's one writer alone, measured before the server
 * started and rolled back.
 */
export const STOCKTAKE_POST: Scenario = {
  name: STOCKTAKE_POST_ROW,
  target: `< ${TARGETS.stocktakePostSeconds} s`,
  limit: STOCKTAKE_LEDGER_ALONE,
  writes: [STOCKTAKE_POST_ROW, STOCKTAKE_LEDGER_ALONE],
  run: async (b, s) => {
    await b.settle();
    const set = b.prepared.stocktakes;
    const run = await countAndPost(b.server.url, b.asAdmin, set);
    b.measured.stocktakePost = run;
    log(
      `  post a ${run.lines}-line stocktake: ${run.postStatus === 200 ? ms(run.postMs) : `answered ${run.postStatus} after ${ms(run.postMs)}`} (target ${s.target}); ${STOCKTAKE_LEDGER_ALONE}: ${ms(set.ledgerAloneMs)}, ${(run.postMs / set.ledgerAloneMs).toFixed(1)}× it. Lines read in ${ms(run.readMs)}, counted in ${run.counts.length} requests (${run.counts.map((n) => n.toFixed(0)).join(', ')} ms); ${run.differing} lines off (${run.unitsOver} units over, ${run.unitsShort} short)`,
    );
    if (run.problems.length) log(`  STOCKTAKE POST FAILED: ${run.problems.join('; ')}`);
  },
};
