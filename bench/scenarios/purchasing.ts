import { RECEIVE_LINES, receiveAll } from '../purchasing';
import {
  BARE_STEADY,
  log,
  ms,
  percentile,
  SECONDS,
  SUGGESTIONS_ALONE,
  SUGGESTIONS_RATE,
  TARGETS,
} from '../settings';
import { type Scenario, targetOf } from './bench';

/** Reorder suggestions over every product, with the open purchase orders' lines on order. */
export const SUGGESTIONS: Scenario = {
  name: `reorder suggestions, steady ${SUGGESTIONS_RATE} req/s`,
  target: `p99 < ${TARGETS.suggestionsP99} ms`,
  limit: SUGGESTIONS_ALONE,
  run: async (b, s) => {
    await b.runSteady(
      {
        name: s.name,
        url: `${b.server.url}/api/reorder-suggestions`,
        headers: b.asAdmin,
        connections: 8,
        duration: SECONDS,
        rate: SUGGESTIONS_RATE,
      },
      targetOf(s),
    );
    {
      const res = await fetch(`${b.server.url}/api/reorder-suggestions`, { headers: b.asAdmin });
      const body = (await res.json()) as { suppliers: Array<{ lines: unknown[] }> };
      b.measured.suggested = {
        suppliers: body.suppliers.length,
        lines: body.suppliers.reduce((sum, group) => sum + group.lines.length, 0),
      };
    }
  },
};

/**
 * Purchase orders of RECEIVE_LINES lines, each received in full by one request: 50 receipt
 * movements, 50 weighted costs, the lines and the status, in one transaction.
 */
export const RECEIVE: Scenario = {
  name: `receive a ${RECEIVE_LINES}-line purchase order`,
  target: `p99 < ${TARGETS.receiveP99} ms`,
  limit: BARE_STEADY,
  run: async (b, s) => {
    await b.settle();
    const receipts = await receiveAll(b.server.url, b.asAdmin, b.prepared.purchasing);
    b.measured.receipts = receipts;
    const sortedReceipts = [...receipts.ms].sort((a, c) => a - c);
    log(
      `  ${s.name.padEnd(34)} ${receipts.ms.length} one after another: p50 ${ms(percentile(sortedReceipts, 0.5))}, p99 ${ms(percentile(sortedReceipts, 0.99))}  (target ${s.target}); ${receipts.failures.length} failed${receipts.failures[0] ? ` (${receipts.failures[0]})` : ''}`,
    );
  },
};
