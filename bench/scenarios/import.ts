import { benchImport, IMPORT_ROWS, IMPORT_UPDATES, importFile } from '../import';
import { DATA_SET } from '../load-data';
import {
  DASHBOARD_AFTER_IMPORT,
  DASHBOARD_DURING_IMPORT,
  log,
  ms,
  SECONDS,
  STEADY_RATE,
  TARGETS,
} from '../settings';
import { steadyLoad } from '../steady-load';
import type { Bench, Scenario } from './bench';

const DASHBOARD_BEFORE = `dashboard, steady ${STEADY_RATE} req/s`;

/**
 * The catalogue import (DESIGN §14), after the stock check: its new products would change its
 * count. A store's file of 100,000 rows, uploaded, checked and applied as an admin does, the
 * dashboard asked at a steady rate while it applies.
 */
export const CATALOGUE_IMPORT: Scenario = {
  name: DASHBOARD_DURING_IMPORT,
  target: null,
  limit: DASHBOARD_BEFORE,
  run: async (b, s) => {
    await b.settle();
    const imported = await benchImport(
      b.server.url,
      b.asAdmin,
      b.server.pid,
      importFile(IMPORT_ROWS, IMPORT_UPDATES, DATA_SET.categories, DATA_SET.suppliers),
      () =>
        steadyLoad({
          name: s.name,
          url: `${b.server.url}/api/dashboard`,
          headers: b.asAdmin,
          connections: 16,
          duration: SECONDS,
          rate: STEADY_RATE,
        }),
    );
    b.measured.imported = imported;
    if (imported.during)
      b.show(
        imported.during,
        `p99 beside ${ms(b.results.find((x) => x.name === DASHBOARD_BEFORE)?.p99 ?? Number.NaN)} alone`,
      );
  },
};

/**
 * Asked again once the import is done: a store loaded this size from the start answers as fast,
 * so the row is judged against the dashboard's own figure before the import (within 2×) and
 * against the target (issue 34, finding 10).
 */
export const DASHBOARD_AFTER: Scenario = {
  name: DASHBOARD_AFTER_IMPORT,
  target: null,
  limit: DASHBOARD_BEFORE,
  run: async (b, s) => {
    await b.settle();
    await b.runSteady({
      name: s.name,
      url: `${b.server.url}/api/dashboard`,
      headers: b.asAdmin,
      connections: 16,
      duration: SECONDS,
      rate: STEADY_RATE,
    });
  },
};

/** The import's own figures, printed once the rows that run over its catalogue are done. */
export function logImport(b: Bench): void {
  const imported = b.measured.imported;
  if (!imported) return;
  log(
    `  ${'catalogue import'.padEnd(34)} ${imported.rows} rows (${(imported.bytes / 1e6).toFixed(1)} MB): upload ${imported.uploadSeconds.toFixed(1)} s, check ${imported.checkSeconds.toFixed(1)} s (target < ${TARGETS.importCheckSeconds} s), apply ${imported.applySeconds.toFixed(1)} s (target < ${TARGETS.importApplySeconds} s); server memory ${imported.memoryBeforeMb.toFixed(0)} → peak ${imported.memoryPeakMb.toFixed(0)} MB; ${imported.status}${imported.problems.length ? `: ${imported.problems.join('; ')}` : ''}`,
  );
}
