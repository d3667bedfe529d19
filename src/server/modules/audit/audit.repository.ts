import { and, count, desc, eq, getTableColumns, gte, lt, type SQL, sql } from 'drizzle-orm';
import type {
  AuditAction,
  AuditActor,
  AuditChange,
  AuditEntity,
  AuditEntry,
  AuditValue,
} from '../../../shared/audit';
import { Email } from '../../../shared/common';
import type { Role } from '../../../shared/roles';
import type { Db, Tx } from '../../db/connection';
import { auditLog } from '../../db/schema';
import { auditChangesFor } from '../../lib/costs';
import { type CsvBatch, exactTime, type NewestCursor, nextNewest, olderThan } from '../../lib/csv-stream';
import { isId } from '../../lib/errors';
import { rowsOf } from '../../lib/sql';
import { zonedClock } from '../../lib/zoned-time';

/**
 * `recordAudit` takes only a transaction, so an entry is always written in the transaction of
 * the change it records: both happen or neither.
 */
export type { Tx } from '../../db/connection';

/** The signed-in user who makes a change, as the entry keeps them. */
export type Actor = { id: string; name: string; role: Role };

export type AuditRecord = {
  actor: Actor;
  action: AuditAction;
  /** id: null for the store (one row, no id of its own). */
  entity: { type: AuditEntity; id: string | null; name: string };
  changes?: AuditChange[];
};

/** Appends one entry in the caller's transaction. */
export async function recordAudit(tx: Tx, entry: AuditRecord): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    actorRole: entry.actor.role,
    action: entry.action,
    entityType: entry.entity.type,
    entityId: entry.entity.id,
    entityName: entry.entity.name,
    changes: entry.changes && entry.changes.length > 0 ? entry.changes : null,
  });
}

type Values = Record<string, AuditValue>;

const isBlank = (value: AuditValue) => value === '' || value === null;

/** The fields of a new record (blank ones left out), each as its `new` value. */
export function createdFields(values: Values): AuditChange[] {
  return Object.entries(values)
    .filter(([, value]) => !isBlank(value))
    .map(([field, value]) => ({ field, new: value }));
}

/** The fields of a deleted record (blank ones left out), each as its `old` value. */
export function deletedFields(values: Values): AuditChange[] {
  return Object.entries(values)
    .filter(([, value]) => !isBlank(value))
    .map(([field, value]) => ({ field, old: value }));
}

/** The fields of `after` whose value differs from `before`, old → new, in `after`'s order. */
export function changedFields(before: Values, after: Values): AuditChange[] {
  return Object.entries(after)
    .filter(([field, value]) => before[field] !== value)
    .map(([field, value]) => ({ field, old: before[field] ?? null, new: value }));
}

/** A secret field that changed: the fact, never the values. */
export const secretChanged = (field: string): AuditChange => ({ field });

export type SignInOutcome = 'succeeded' | 'failed' | 'throttled';

const SIGN_IN_ACTION: Record<SignInOutcome, AuditAction> = {
  succeeded: 'signedIn',
  failed: 'signInFailed',
  throttled: 'signInThrottled',
};

/**
 * What the log keeps of an email tried that names no account: people type their password into
 * the email field, so never the text itself. Something email-shaped keeps its first letter and
 * its top-level domain (enough to tell a typo of one's own address from a stranger's list);
 * anything else keeps nothing.
 */
export function redactedEmail(email: string): string {
  if (!Email.safeParse(email).success) return '(not an email address)';
  const at = email.lastIndexOf('@');
  const tld = email.slice(email.lastIndexOf('.') + 1);
  return `${email.slice(0, Math.min(1, at))}***@***.${tld}`;
}

/**
 * Records a sign-in attempt in one statement (its own transaction: there is no other change).
 * The actor is the account the email (or `userId`) belongs to, as it is now; for an email nobody
 * has there is no actor. The entity's name is the account's email, or for an email that names no
 * account its redacted form. A throttled entry names the counter that refused it; the throttle
 * writes one per counter and window (decision 0017).
 */
export async function recordSignIn(
  db: Db,
  attempt: {
    outcome: SignInOutcome;
    email: string;
    address: string;
    userId?: string;
    limit?: string;
  },
): Promise<void> {
  const match =
    attempt.userId && isId(attempt.userId)
      ? sql`u.id = ${attempt.userId}::uuid`
      : sql`u.email = ${attempt.email}`;
  const changes: AuditChange[] | null = attempt.limit ? [{ field: 'limit', new: attempt.limit }] : null;
  await db.execute(sql`
    insert into ${auditLog} (actor_id, actor_name, actor_role, action, entity_type, entity_id, entity_name, changes, address)
    select u.id, u.name, u.role, ${SIGN_IN_ACTION[attempt.outcome]}::text, 'user', u.id,
           coalesce(u.email, ${redactedEmail(attempt.email)}::text),
           ${changes === null ? null : JSON.stringify(changes)}::jsonb, ${attempt.address}::text
    from (select) as one left join users u on ${match}`);
}

export type AuditFilter = {
  actor?: string;
  action?: AuditAction;
  entity?: AuditEntity;
  /** YYYY-MM-DD, both included, as days in `timeZone`. */
  from?: string;
  to?: string;
};

function auditWhere(filter: AuditFilter, timeZone: string): SQL | undefined {
  const startOf = (day: string) => sql`(${day}::date)::timestamp at time zone ${timeZone}::text`;
  const endOf = (day: string) => sql`(${day}::date + 1)::timestamp at time zone ${timeZone}::text`;
  return and(
    filter.actor === undefined
      ? undefined
      : isId(filter.actor)
        ? eq(auditLog.actorId, filter.actor)
        : sql`false`,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.entity ? eq(auditLog.entityType, filter.entity) : undefined,
    filter.from ? gte(auditLog.at, startOf(filter.from)) : undefined,
    filter.to ? lt(auditLog.at, endOf(filter.to)) : undefined,
  );
}

type AuditRow = typeof auditLog.$inferSelect;

function toEntry(row: AuditRow, role: Role): AuditEntry {
  const changes = auditChangesFor(role, row.entityType, row.changes as AuditChange[] | null);
  return {
    _id: row.id,
    at: row.at.toISOString(),
    actor:
      row.actorId && row.actorName !== null && row.actorRole !== null
        ? { _id: row.actorId, name: row.actorName, role: row.actorRole as Role }
        : null,
    action: row.action as AuditAction,
    entity: { type: row.entityType as AuditEntity, _id: row.entityId, name: row.entityName },
    ...(changes ? { changes } : {}),
    ...(row.address !== null ? { address: row.address } : {}),
  };
}

/** One page of the log, newest first, and how many entries match. */
export async function auditPage(
  db: Db,
  filter: AuditFilter,
  window: { limit: number; offset: number },
  timeZone: string,
  /** The reader's role: the cost fields of entries are left out for roles that do not read costs. */
  role: Role,
): Promise<{ entries: AuditEntry[]; total: number }> {
  const where = auditWhere(filter, timeZone);
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { entries: rows.map((row) => toEntry(row, role)), total: counted[0]?.n ?? 0 };
}

/** "field: old → new" per change, for the CSV's one cell (the screen shows the same). */
function changesText(changes: AuditChange[] | null): string {
  if (!changes) return '';
  const show = (value: AuditValue | undefined) =>
    value === null || value === undefined ? '' : String(value);
  return changes
    .map((change) =>
      'old' in change && 'new' in change
        ? `${change.field}: ${show(change.old)} → ${show(change.new)}`
        : 'new' in change
          ? `${change.field}: ${show(change.new)}`
          : 'old' in change
            ? `${change.field}: was ${show(change.old)}`
            : `${change.field} changed`,
    )
    .join('; ');
}

/** One batch of the activity CSV (AUDIT_CSV_HEADER), newest first, with the list's filters. */
export async function auditCsvBatch(
  db: Db,
  filter: AuditFilter,
  timeZone: string,
  after: NewestCursor | undefined,
  size: number,
  role: Role,
): Promise<CsvBatch<NewestCursor>> {
  const rows = await db
    .select({ ...getTableColumns(auditLog), cursorAt: exactTime(auditLog.at) })
    .from(auditLog)
    .where(and(auditWhere(filter, timeZone), olderThan(auditLog.at, auditLog.id, after)))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(size);
  const clock = zonedClock(timeZone);
  return {
    rows: rows.map((row) => [
      clock(row.at),
      row.actorName,
      row.actorRole,
      row.action,
      row.entityType,
      row.entityName,
      changesText(auditChangesFor(role, row.entityType, row.changes as AuditChange[] | null)),
      row.address,
    ]),
    next: nextNewest(rows, size, (row) => ({ at: row.cursorAt, id: row.id })),
  };
}

/**
 * Everyone who has acted, with the name and role of their latest entry. The log holds few actors
 * among many entries, so the distinct ids are read by skipping through the actor index (one
 * probe per actor) instead of reading every entry.
 */
export async function auditActors(db: Db): Promise<AuditActor[]> {
  const result = await db.execute(sql`
    with recursive ids as (
      (select actor_id from ${auditLog} where actor_id is not null order by actor_id limit 1)
      union all
      select (select a.actor_id from ${auditLog} a where a.actor_id > ids.actor_id order by a.actor_id limit 1)
      from ids where ids.actor_id is not null
    )
    select ids.actor_id as "_id", latest.actor_name as name, latest.actor_role as role
    from ids cross join lateral (
      select a.actor_name, a.actor_role from ${auditLog} a
      where a.actor_id = ids.actor_id order by a.at desc, a.id desc limit 1
    ) latest
    where ids.actor_id is not null
    order by lower(latest.actor_name), ids.actor_id`);
  return rowsOf<AuditActor>(result);
}
