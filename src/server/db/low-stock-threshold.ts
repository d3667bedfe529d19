import type { Database } from './connection';

/**
 * Makes the database keep "to reorder" with the store's low-stock threshold (decision 0032): when
 * it held another, it records this one and moves the reorder point in force of every product
 * without its own, in one transaction that product writes wait for. Several servers starting at
 * once take turns, and only the first changes it. Answers whether it changed. Runs at every start
 * (buildApp): the server's LOW_STOCK_THRESHOLD is the store's.
 */
export async function setLowStockThreshold(database: Database, threshold: number): Promise<boolean> {
  // A change rewrites a row per product: on its own connection, without the pool's time limits.
  const [row] = await database.withoutTimeLimits((runner) =>
    runner.query<{ changed: boolean }>('select low_stock_use_threshold($1) as changed', [threshold]),
  );
  return row?.changed === true;
}
