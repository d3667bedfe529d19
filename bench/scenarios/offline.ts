import { drainOffline, OFFLINE_ONLINE_ROW, OFFLINE_RESENT, OFFLINE_ROW, OFFLINE_SALES } from '../offline';
import { log, ms, TARGETS } from '../settings';
import { timedRow } from '../stocktakes';
import type { Scenario } from './bench';
import { failedBooksChecks } from './stock';

/**
 * DESIGN §21 (issue 42): a counter back online drains its queue of OFFLINE_SALES kept sales in
 * < 30 s, one after another, oldest first, as the device sends them (bench/offline.ts). Beside it
 * the limit: as many ordinary online sales of the same lines from the same seller and session, one
 * after another, measured just before. Then the first sales sent again must answer the same sale;
 * the books must hold, and after the run the database must hold each offline id once (run.ts).
 */
export const OFFLINE_QUEUE: Scenario = {
  name: OFFLINE_ROW,
  target: `< ${TARGETS.offlineDrainSeconds} s`,
  limit: OFFLINE_ONLINE_ROW,
  writes: [OFFLINE_ONLINE_ROW, OFFLINE_ROW],
  run: async (b, s) => {
    await b.settle();
    const run = await drainOffline(b.server.url, b.rep.token, b.prepared.offlineProducts);
    const failed = await failedBooksChecks(b);
    if (failed.length) run.problems.push(`the books check fails: ${failed.join(', ')}`);
    b.measured.offline = run;
    b.show(timedRow(OFFLINE_ONLINE_ROW, 1, run.online));
    const drained = b.show(timedRow(OFFLINE_ROW, 1, run.offline), s.target ?? undefined);
    const resent = timedRow('sent again', 1, run.resent);
    log(
      `  ${OFFLINE_SALES} offline sales drained in ${run.offline.seconds.toFixed(1)} s (target ${s.target}), ${(run.offline.seconds / run.online.seconds).toFixed(2)}× the ${run.online.seconds.toFixed(1)} s of as many online sales; a sale p50 ${ms(drained.p50)}, p99 ${ms(drained.p99)}; the first ${OFFLINE_RESENT} sent again p50 ${ms(resent.p50)}; the session's Z report counts ${run.sessionSales ?? '?'} sales; books check: ${failed.length ? `fails (${failed.join(', ')})` : 'holds'}`,
    );
    if (run.problems.length) log(`  OFFLINE QUEUE FAILED: ${run.problems.join('; ')}`);
  },
};
