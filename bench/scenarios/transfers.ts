import { BARE_STEADY, log, ms, percentile, TARGETS } from '../settings';
import { sendAndReceiveAll, TRANSFER_LINES } from '../transfers';
import type { Scenario } from './bench';

/**
 * Transfers of TRANSFER_LINES lines between two locations, each sent (every line out of `from` in
 * one transaction) and received in full at `to`, one request each, one after another; printed
 * beside the bare route's p99 measured in the same run.
 */
export const TRANSFER: Scenario = {
  name: `send and receive a ${TRANSFER_LINES}-line transfer`,
  target: `p99 < ${TARGETS.transferP99} ms`,
  limit: BARE_STEADY,
  run: async (b, s) => {
    await b.settle();
    const run = await sendAndReceiveAll(b.server.url, b.asAdmin, b.prepared.transfers);
    b.measured.transfers = run;
    const p99 = (list: number[]) =>
      percentile(
        [...list].sort((x, y) => x - y),
        0.99,
      );
    const floor = b.results.find((x) => x.name === BARE_STEADY)?.p99;
    const ratio = (value: number) =>
      floor ? `, ${(value / floor).toFixed(1)}× the bare route's p99 ${ms(floor)}` : '';
    log(
      `  ${s.name.padEnd(34)} ${run.send.length} sends p99 ${ms(p99(run.send))}${ratio(p99(run.send))}; ${run.receive.length} receipts p99 ${ms(p99(run.receive))}${ratio(p99(run.receive))}  (target ${s.target}); ${run.failures.length} failed${run.failures[0] ? ` (${run.failures[0]})` : ''}`,
    );
  },
};
