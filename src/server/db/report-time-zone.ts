import type { Database } from './connection';

/**
 * Makes the kept daily figures (orders_figures_counted.sql) count days in `timeZone`: when the database counted
 * them in another zone, it records this one and recounts every day from the orders, in one
 * transaction that orders wait for. Several servers starting at once take turns, and only the
 * first recounts. Answers whether it recounted. Runs at every start (buildApp): the server's TZ
 * is the zone of every report.
 */
export async function setReportTimeZone(database: Database, timeZone: string): Promise<boolean> {
  // A recount reads every order: on its own connection, without the pool's time limits.
  const [row] = await database.withoutTimeLimits((runner) =>
    runner.query<{ changed: boolean }>('select sales_days_use_time_zone($1) as changed', [timeZone]),
  );
  return row?.changed === true;
}
