import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/connection';
import { ensureStoreSettings, tokenSecret } from '../db/first-run';
import { setLowStockThreshold } from '../db/low-stock-threshold';
import { setReportTimeZone } from '../db/report-time-zone';
import { ExpensiveReads } from '../lib/expensive-reads';
import { MemoryState, RedisState, type SharedState } from '../lib/shared-state';
import { allowancesOn, LOGIN_LIMITS, type LoginLimits, LoginThrottle } from '../lib/throttle';
import { Tokens } from '../lib/tokens';
import { openBooks } from '../modules/accounting/journal';

export interface AppStateOptions {
  config: Config;
  database: Database;
  throttle?: Partial<LoginLimits>;
  sharedState?: SharedState;
}

/**
 * What every route reads from the app: the database, the token keys, the store's settings brought
 * in line with the configuration, and the shared counters (Redis or this process's memory).
 */
export async function appState(app: FastifyInstance, options: AppStateOptions): Promise<void> {
  const { config, database } = options;
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate(
    'tokens',
    new Tokens(await tokenSecret(database.db, config.jwtSecret), config.tokenTtlSeconds),
  );
  await ensureStoreSettings(database.db, config.storeName);
  if (await setReportTimeZone(database, config.timeZone))
    app.log.info(`reports now count days in ${config.timeZone}: every day was recounted from the orders`);
  if (await openBooks(database))
    app.log.info('the books began: the opening entry holds the stock, credit and drawers');
  if (await setLowStockThreshold(database, config.lowStockThreshold))
    app.log.info(`products without their own reorder point now reorder at ${config.lowStockThreshold}`);
  const sharedState =
    options.sharedState ??
    (config.redisUrl ? await RedisState.open(config.redisUrl, app.log) : new MemoryState());
  app.decorate('sharedState', sharedState);
  app.decorate('loginThrottle', new LoginThrottle(sharedState, { ...LOGIN_LIMITS, ...options.throttle }));
  app.decorate('allowances', allowancesOn(sharedState));
  app.decorate('expensiveReads', new ExpensiveReads());
  // Who is asking, filled in by authenticate for each /api request.
  app.decorateRequest('user', null);
  app.decorateRequest('claims', null);
  app.decorateRequest('signedInChecked', false);
}
