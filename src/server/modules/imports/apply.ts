import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection';
import { isDatabaseUnavailable } from '../../lib/errors';
import { retryingDeadlocks } from '../../lib/idempotency';
import type { Actor } from '../audit/audit.repository';
import {
  ANALYZE_EVERY,
  ANALYZE_FILLED,
  ApplyJob,
  ImportFailure,
  loadImport,
  resumeLine,
} from './apply-batches';
import { type Claimed, LeaseLost, Leases } from './apply-leases';

/**
 * The catalogue import's apply (DESIGN §14), run in the background after `POST /imports/:id/apply`
 * took the import (status `applying`). The file's rows are gone through in line order, BATCH_ROWS
 * at a time (apply-batches.ts), each batch one transaction that writes its `create` and `update`
 * rows, marks them `applied_at`, adds the batch to `processed` and renews the lease: a server
 * stopped at any point leaves every row written once or not at all, and the next one (or this
 * one, after a restart) continues after the last batch that committed.
 *
 * The lease (apply-leases.ts) is who applies an import, so two servers never apply one import at
 * once. A server takes an import whose lease lapsed at start and then every lease period.
 */
export class ImportApplier {
  /** Imports this process is applying, and the promise that ends with each. */
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  private readonly leases: Leases;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** How long a lease lasts; renewed by every batch. */
    readonly leaseSeconds: number,
  ) {
    this.leases = new Leases(db, leaseSeconds);
  }

  /** Resumes the imports whose lease lapsed, now and every lease period. */
  start(): void {
    this.stopping = false;
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), Math.max(1, this.leaseSeconds) * 1000);
    this.timer.unref();
  }

  /** Stops after the batch in flight (which commits or rolls back whole) and hands the leases back. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
    await Promise.allSettled([...this.running.values()]);
  }

  /** The apply of this import in this process, if it runs here (tests wait for it). */
  applying(id: string): Promise<void> | undefined {
    return this.running.get(id);
  }

  /**
   * Takes an import for applying, in one conditional UPDATE (Leases.take): from `checked`, or from
   * `failed` (an apply that failed as a whole resumes after its last committed batch; its written
   * rows stay written). Answers how to start the apply (the caller reads the import first, so its
   * answer says `applying`), or undefined when the import is in no such state (the caller says why).
   */
  async take(id: string, actor: Actor): Promise<(() => void) | undefined> {
    const lease = await this.leases.take(id, { id: actor.id, name: actor.name, role: actor.role });
    if (lease === undefined) return undefined;
    return () => this.begin({ id, lease });
  }

  /** Claims every import whose lease lapsed (another server stopped, or this one restarted) and applies it. */
  sweep(): Promise<void> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = (async () => {
      try {
        while (!this.stopping) {
          const claimed = await this.leases.claimLapsed([...this.running.keys()]);
          if (!claimed) break;
          this.log.info({ importId: claimed.id }, 'resuming an import whose apply had stopped');
          this.begin(claimed);
        }
      } catch (error) {
        this.log.warn({ err: error }, 'could not look for imports to resume');
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }

  private begin(claimed: Claimed): void {
    const run = this.run(claimed).finally(() => this.running.delete(claimed.id));
    this.running.set(claimed.id, run);
  }

  private async run({ id, lease: firstLease }: Claimed): Promise<void> {
    let lease = firstLease;
    try {
      const record = await loadImport(this.db, id);
      if (!record) return;
      const job = new ApplyJob(record);
      let cursor = await resumeLine(this.db, id, record.processed);
      let analyzedAt = record.processed;
      for (;;) {
        if (this.stopping) {
          await this.leases
            .release(id, lease)
            .catch((error) => this.log.warn({ err: error, importId: id }, 'could not hand the import back'));
          return;
        }
        // A batch that lost a deadlock was undone whole, its lease renewal too: it runs again.
        const step = await retryingDeadlocks(() =>
          this.db.transaction(async (tx) => {
            const renewed = await this.leases.renew(tx, id, lease);
            return { ...(await job.batch(tx, cursor)), lease: renewed };
          }),
        );
        lease = step.lease;
        cursor = step.cursor;
        if (step.done) {
          this.log.info({ importId: id, rows: step.total }, 'import applied');
          return;
        }
        if (step.total - analyzedAt >= ANALYZE_EVERY) {
          await this.db.execute(ANALYZE_FILLED);
          analyzedAt = step.total;
        }
        // Lets the requests that arrived meanwhile run before the next batch.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      if (error instanceof LeaseLost) {
        this.log.warn({ importId: id }, 'another server took over this import');
        return;
      }
      if (isDatabaseUnavailable(error) || isDatabaseUnavailable((error as { cause?: unknown }).cause)) {
        // Nothing can be written now: the lease lapses and the import resumes once the database is back.
        this.log.warn({ err: error, importId: id }, 'the database stopped answering during an import');
        return;
      }
      const failure =
        error instanceof ImportFailure ? error.message : 'The import stopped on an unexpected error.';
      this.log.error({ err: error, importId: id }, 'import failed');
      await this.leases
        .fail(id, lease, failure)
        .catch((cause) => this.log.error({ err: cause, importId: id }, 'could not mark the import failed'));
    }
  }
}
