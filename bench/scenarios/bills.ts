import { todayIn } from '../../src/server/modules/reports/reports.range';
import { BILL_DRAFT_ROW, BILL_LINES, BILL_PAY_ROW, BILL_POST_ROW, billAndPayAll } from '../bills';
import { BARE_STEADY, log, ms, TARGETS } from '../settings';
import { timedRow } from '../stocktakes';
import type { Scenario } from './bench';
import { failedBooksChecks } from './stock';

/**
 * DESIGN §20 (issue 42): bills of received BILL_LINES-line purchase orders, each drafted, posted
 * (p99 < 200 ms) and paid in full by bank transfer (p99 < 200 ms), one after another, dated today
 * in the server's zone; printed beside the bare route's p99 measured in the same run, as the
 * receive row is. Then the books must hold; after the run every bill must be paid and 2000 equal
 * what is open (run.ts).
 */
export const BILLS_POSTED_AND_PAID: Scenario = {
  name: `bills of ${BILL_LINES} lines drafted, posted and paid, one after another`,
  target: `post p99 < ${TARGETS.billPostP99} ms, pay p99 < ${TARGETS.billPayP99} ms`,
  limit: BARE_STEADY,
  writes: [BILL_DRAFT_ROW, BILL_POST_ROW, BILL_PAY_ROW],
  run: async (b, s) => {
    await b.settle();
    const run = await billAndPayAll(b.server.url, b.asAdmin, b.prepared.bills, todayIn(b.timeZone));
    const failed = await failedBooksChecks(b);
    if (failed.length) run.problems.push(`the books check fails: ${failed.join(', ')}`);
    b.measured.bills = run;
    const drafted = b.show(timedRow(BILL_DRAFT_ROW, 1, run.draft));
    const posted = b.show(timedRow(BILL_POST_ROW, 1, run.post), `p99 < ${TARGETS.billPostP99} ms`);
    const paid = b.show(timedRow(BILL_PAY_ROW, 1, run.pay), `p99 < ${TARGETS.billPayP99} ms`);
    const floor = b.results.find((x) => x.name === BARE_STEADY)?.p99;
    const ratio = (value: number) =>
      floor ? ` (${(value / floor).toFixed(1)}× the bare route's p99 ${ms(floor)})` : '';
    log(
      `  ${run.bills.length} of ${run.expected} bills: drafted p99 ${ms(drafted.p99)}, posted p99 ${ms(posted.p99)}${ratio(posted.p99)}, paid p99 ${ms(paid.p99)}${ratio(paid.p99)}  (target ${s.target}); payables report ${run.payables ?? '?'}; books check: ${failed.length ? `fails (${failed.join(', ')})` : 'holds'}`,
    );
    if (run.problems.length) log(`  BILLS FAILED: ${run.problems.join('; ')}`);
  },
};
