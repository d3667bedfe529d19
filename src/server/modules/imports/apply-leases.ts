import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/connection';
import { rowsOf } from '../../lib/sql';

/**
 * The lease of an import's apply (imports.lease_until) says who applies it: taking an import sets
 * it, each batch first renews it with a conditional UPDATE naming the exact value its server last
 * set, so a server whose lease another took (it stalled past the lease) writes nothing more, and
 * two servers never apply one import at once. A lease that lapsed (its server stopped) is claimed
 * by the next server that looks, at its start and then every lease period.
 */

/** An import this server holds the lease of, and that lease's value as the database wrote it. */
export type Claimed = { id: string; lease: string };

/** Another server took the lease: this one stops without writing. */
export class LeaseLost extends Error {}

/** The leases of imports, each `seconds` long. */
export class Leases {
  constructor(
    private readonly db: Db,
    readonly seconds: number,
  ) {}

  /**
   * Takes an import for applying, in one conditional UPDATE: from `checked`, or from `failed`;
   * records who applies it. Answers the lease, or undefined when the import is in no such state.
   */
  async take(id: string, appliedBy: { id: string; name: string; role: string }): Promise<string | undefined> {
    const rows = rowsOf<{ lease: string }>(
      await this.db.execute(sql`
        update imports
           set status = 'applying', failure = null,
               options = coalesce(options, '{}'::jsonb) || jsonb_build_object('appliedBy', ${JSON.stringify(appliedBy)}::jsonb),
               lease_until = now() + make_interval(secs => ${this.seconds})
         where id = ${id} and status in ('checked', 'failed')
        returning lease_until::text as lease`),
    );
    return rows[0]?.lease;
  }

  /** Claims one import being applied whose lease lapsed, other than those this process applies (`mine`). */
  async claimLapsed(mine: readonly string[]): Promise<Claimed | undefined> {
    const rows = rowsOf<Claimed>(
      await this.db.execute(sql`
        update imports
           set lease_until = now() + make_interval(secs => ${this.seconds})
         where id = (select id from imports
                      where status = 'applying' and (lease_until is null or lease_until < now())
                        and not (id = any(${`{${mine.join(',')}}`}::uuid[]))
                      order by lease_until nulls first
                      limit 1
                      for update skip locked)
           and status = 'applying' and (lease_until is null or lease_until < now())
        returning id, lease_until::text as lease`),
    );
    return rows[0];
  }

  /** Renews the lease if it is still this server's, in the batch's transaction; otherwise LeaseLost. */
  async renew(tx: Tx, id: string, lease: string): Promise<string> {
    const rows = rowsOf<{ lease: string }>(
      await tx.execute(sql`
        update imports set lease_until = now() + make_interval(secs => ${this.seconds})
         where id = ${id} and status = 'applying' and lease_until = ${lease}::timestamptz
        returning lease_until::text as lease`),
    );
    const renewed = rows[0]?.lease;
    if (renewed === undefined) throw new LeaseLost();
    return renewed;
  }

  /** Lets the lease lapse at once (a server stopping cleanly), so the next start resumes the import. */
  async release(id: string, lease: string): Promise<void> {
    await this.db.execute(sql`
        update imports set lease_until = now() - interval '1 second'
         where id = ${id} and status = 'applying' and lease_until = ${lease}::timestamptz`);
  }

  /** Ends the apply `failed` with its sentence, if the lease is still this server's. */
  async fail(id: string, lease: string, failure: string): Promise<void> {
    await this.db.execute(sql`
          update imports set status = 'failed', failure = ${failure}, lease_until = null
           where id = ${id} and status = 'applying' and lease_until = ${lease}::timestamptz`);
  }
}
