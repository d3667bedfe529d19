import { loadConfig } from '../../src/server/config';
import { signedInRunnerFor } from '../../src/server/lib/auth';
import { dashboardJson } from '../../src/server/modules/dashboard/dashboard.repository';
import { productPage } from '../../src/server/modules/products/products.queries';
import { reorderSuggestionsJson } from '../../src/server/modules/purchasing/purchasing.repository';
import { ProductQuery } from '../../src/shared/products';
import { PERMISSIONS } from '../../src/shared/roles';
import {
  DASHBOARD_ALONE_FLAT,
  DASHBOARD_ALONE_STEADY,
  SEARCH_ALONE_FLAT,
  SECONDS,
  STEADY_RATE,
  SUGGESTIONS_ALONE,
  SUGGESTIONS_RATE,
} from '../settings';
import { flatOut, paced } from '../steady-load';
import type { Scenario } from './bench';

/**
 * PostgreSQL alone: the dashboard's and the suggestions' statements from this process, at the
 * rows' own pace, with no HTTP and no server between (the server stays up, idle). The embedded
 * database belongs to the server's process and cannot be asked. One step writes its four rows,
 * over one connection pool.
 */
export const POSTGRES_ALONE: Scenario = {
  name: 'PostgreSQL alone: the dashboard, search page and suggestions statements',
  target: null,
  limit: null,
  writes: [DASHBOARD_ALONE_STEADY, DASHBOARD_ALONE_FLAT, SEARCH_ALONE_FLAT, SUGGESTIONS_ALONE],
  run: async (b) => {
    if (!b.databaseUrl) return;
    const direct = await b.open();
    try {
      const config = loadConfig({ ...process.env, DATABASE_URL: b.databaseUrl });
      const [me] = await direct.query<{ tokenVersion: number }>(
        'select token_version as "tokenVersion" from users where id = $1',
        [b.admin.user._id],
      );
      const asAdminInSql = signedInRunnerFor(direct, {
        userId: b.admin.user._id,
        tokenVersion: me?.tokenVersion ?? 0,
        roles: PERMISSIONS['dashboard:read'],
      });
      const dashboardStatement = async () => {
        await dashboardJson(asAdminInSql);
        return 200;
      };
      await b.settle();
      b.show(
        await paced(
          { name: DASHBOARD_ALONE_STEADY, rate: STEADY_RATE, duration: SECONDS, connections: 16 },
          dashboardStatement,
        ),
      );
      await b.settle();
      b.show(
        await flatOut({ name: DASHBOARD_ALONE_FLAT, duration: SECONDS, connections: 16 }, dashboardStatement),
      );
      await b.settle();
      const searched = ProductQuery.parse({ search: 'vitamin gel', page: '1', pageSize: '20' });
      b.show(
        await flatOut({ name: SEARCH_ALONE_FLAT, duration: SECONDS, connections: 16 }, async () => {
          await productPage(direct, searched, { limit: 20, offset: 0 }, config.lowStockThreshold);
          return 200;
        }),
      );
      await b.settle();
      b.show(
        await paced(
          { name: SUGGESTIONS_ALONE, rate: SUGGESTIONS_RATE, duration: SECONDS, connections: 8 },
          async () => {
            await reorderSuggestionsJson(direct.db);
            return 200;
          },
        ),
      );
    } finally {
      await direct.close();
    }
  },
};
