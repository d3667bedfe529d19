import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { pageWindow } from '../../../shared/paging';
import type { Role } from '../../../shared/roles';
import type { User, UserQuery } from '../../../shared/users';
import { type Db, runnerOf } from '../../db/connection';
import { users } from '../../db/schema';
import { isId } from '../../lib/errors';
import { matchesSearch } from '../../lib/search';
import {
  type Actor,
  changedFields,
  createdFields,
  deletedFields,
  recordAudit,
  secretChanged,
  type Tx,
} from '../audit/audit.repository';
import { locationFor } from '../locations/location-for';

const publicColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  address: users.address,
  role: users.role,
  tokenVersion: users.tokenVersion,
  active: users.active,
  mustChangePassword: users.mustChangePassword,
  locationId: users.locationId,
  locationName: sql<string | null>`(select l.name from locations l where l.id = ${users.locationId})`,
};

type UserRow = {
  id: string;
  name: string;
  email: string;
  address: string;
  role: string;
  active: boolean;
  mustChangePassword: boolean;
  locationId: string | null;
  locationName: string | null;
};

/** The user as clients see it: never the password hash. */
export function toUser(row: UserRow): User {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    address: row.address,
    role: row.role as Role,
    active: row.active,
    mustChangePassword: row.mustChangePassword,
    location: row.locationId === null ? null : { _id: row.locationId, name: row.locationName ?? '' },
  };
}

const USER_ORDER: Record<NonNullable<UserQuery['sort']>, SQL[]> = {
  name: [asc(users.name), asc(users.email)],
  '-name': [desc(users.name), desc(users.email)],
  email: [asc(users.email)],
  '-email': [desc(users.email)],
  role: [asc(users.role), asc(users.name)],
  '-role': [desc(users.role), asc(users.name)],
};

/** Users of the given roles, or one page of them, filtered by words of the name or email. */
export async function listUsers(
  db: Db,
  roles: readonly Role[],
  query: { search?: string; sort?: UserQuery['sort']; page?: number; pageSize?: number } = {},
) {
  const where = and(inArray(users.role, [...roles]), matchesSearch(query.search, [users.name, users.email]));
  const window = pageWindow(query);
  const listed = db
    .select(publicColumns)
    .from(users)
    .where(where)
    .orderBy(...USER_ORDER[query.sort ?? 'name']);
  const rows = await (window ? listed.limit(window.limit).offset(window.offset) : listed);
  if (!window) return { rows, total: rows.length };
  const [counted] = await db.select({ n: count() }).from(users).where(where);
  return { rows, total: counted?.n ?? 0 };
}

export async function findUser(db: Db, id: string) {
  const [row] = await db.select(publicColumns).from(users).where(eq(users.id, id));
  return row;
}

/** The stored hash, for checking a password; never part of an answer. */
export async function passwordHashOf(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id));
  return row?.hash;
}

export async function emailTaken(db: Db, email: string, exceptId?: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return !!row && row.id !== exceptId;
}

type UserFacts = { name: string; email: string; address: string; role: string; locationName: string | null };

/** What a user's audit entries show: never the password or its hash. */
const audited = (row: UserFacts) => ({
  name: row.name,
  email: row.email,
  role: row.role,
  address: row.address,
  location: row.locationName,
});

/**
 * The location a write names, by locationFor (unknown: 404, inactive: 409); null stays null (the
 * default location); undefined: unchanged.
 */
async function userLocation(tx: Tx, id: string | null | undefined): Promise<string | null | undefined> {
  if (id === null || id === undefined) return id;
  const run = runnerOf(tx);
  if (isId(id)) await run.query('select 1 from locations where id = $1::uuid for share', [id]);
  return (await locationFor(run, id)).id;
}

export async function insertUser(
  db: Db,
  values: {
    name: string;
    email: string;
    passwordHash: string;
    address: string;
    role: Role;
    location?: string | null;
  },
  actor: Actor,
) {
  return db.transaction(async (tx) => {
    const { location, ...rest } = values;
    const locationId = (await userLocation(tx, location)) ?? null;
    const [row] = await tx
      .insert(users)
      .values({ ...rest, locationId })
      .returning(publicColumns);
    const user = row as NonNullable<typeof row>;
    await recordAudit(tx, {
      actor,
      action: 'created',
      entity: { type: 'user', id: user.id, name: user.name },
      changes: createdFields(audited(user)),
    });
    return user;
  });
}

export async function deleteUser(db: Db, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(users).where(eq(users.id, id)).returning(publicColumns);
    if (!row) return false;
    await recordAudit(tx, {
      actor,
      action: 'deleted',
      entity: { type: 'user', id, name: row.name },
      changes: deletedFields(audited(row)),
    });
    return true;
  });
}

/**
 * Changes a profile; the entry holds each changed field, old → new, and for a new password only
 * the fact that it changed.
 */
export async function updateUser(
  db: Db,
  id: string,
  values: { name: string; email: string; address: string; passwordHash?: string },
  actor: Actor,
) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select(publicColumns).from(users).where(eq(users.id, id)).for('update');
    if (!before) return undefined;
    const [row] = await tx
      .update(users)
      .set({
        name: values.name,
        email: values.email,
        address: values.address,
        ...(values.passwordHash
          ? {
              passwordHash: values.passwordHash,
              tokenVersion: sql`${users.tokenVersion} + 1`,
              mustChangePassword: false,
            }
          : {}),
      })
      .where(eq(users.id, id))
      .returning(publicColumns);
    const after = row as NonNullable<typeof row>;
    const changes = changedFields(audited(before), audited(after));
    if (values.passwordHash) changes.push(secretChanged('password'));
    if (changes.length > 0) {
      await recordAudit(tx, {
        actor,
        action: 'updated',
        entity: { type: 'user', id, name: after.name },
        changes,
      });
    }
    return after;
  });
}

/**
 * An admin's change to a user (DESIGN §16), with its audit entries in the same transaction: one
 * `updated` entry for the name and role, one `deactivated` or `reactivated` entry for the status.
 * Deactivating also bumps the token version, so a reactivated user signs in afresh rather than
 * finding old tokens working again. `allowed` says whether the caller may change a user of the
 * role read under the lock; undefined when the user is gone.
 */
export async function changeStaff(
  db: Db,
  id: string,
  values: { name?: string; role?: Role; active?: boolean; location?: string | null },
  actor: Actor,
  allowed: (role: Role) => boolean,
): Promise<{ row: NonNullable<Awaited<ReturnType<typeof findUser>>> } | { forbidden: true } | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select(publicColumns)
      .from(users)
      .where(eq(users.id, id))
      .for('update', { of: users });
    if (!before) return undefined;
    if (!allowed(before.role as Role)) return { forbidden: true as const };
    const locationId = await userLocation(tx, values.location);
    const deactivating = values.active === false && before.active;
    const [row] = await tx
      .update(users)
      .set({
        ...(values.name !== undefined ? { name: values.name } : {}),
        ...(values.role !== undefined ? { role: values.role } : {}),
        ...(values.active !== undefined ? { active: values.active } : {}),
        ...(locationId !== undefined ? { locationId } : {}),
        ...(deactivating ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
      })
      .where(eq(users.id, id))
      .returning(publicColumns);
    const after = row as NonNullable<typeof row>;
    const entity = { type: 'user' as const, id, name: after.name };
    const changes = changedFields(
      { name: before.name, role: before.role, location: before.locationName },
      { name: after.name, role: after.role, location: after.locationName },
    );
    if (changes.length > 0) await recordAudit(tx, { actor, action: 'updated', entity, changes });
    if (before.active !== after.active) {
      await recordAudit(tx, {
        actor,
        action: after.active ? 'reactivated' : 'deactivated',
        entity,
        changes: [{ field: 'active', old: before.active, new: after.active }],
      });
    }
    return { row: after };
  });
}

/**
 * An admin's password reset: the new hash, a new token version (their tokens stop at once) and
 * the must-change flag, with a `passwordReset` entry that records only the fact.
 */
export async function resetPassword(
  db: Db,
  id: string,
  passwordHash: string,
  actor: Actor,
  allowed: (role: Role) => boolean,
): Promise<{ row: NonNullable<Awaited<ReturnType<typeof findUser>>> } | { forbidden: true } | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select(publicColumns).from(users).where(eq(users.id, id)).for('update');
    if (!before) return undefined;
    if (!allowed(before.role as Role)) return { forbidden: true as const };
    const [row] = await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, mustChangePassword: true })
      .where(eq(users.id, id))
      .returning(publicColumns);
    const after = row as NonNullable<typeof row>;
    await recordAudit(tx, {
      actor,
      action: 'passwordReset',
      entity: { type: 'user', id, name: after.name },
      changes: [
        secretChanged('password'),
        { field: 'mustChangePassword', old: before.mustChangePassword, new: true },
      ],
    });
    return { row: after };
  });
}

/** Sets an admin's PIN hash (DESIGN §12) with its audit entry (the fact, never the value). */
export async function setPin(db: Db, actor: Actor, pinHash: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ pinHash })
      .where(and(eq(users.id, actor.id), eq(users.active, true)))
      .returning({ id: users.id, name: users.name });
    if (!row) return false;
    await recordAudit(tx, {
      actor,
      action: 'pinChanged',
      entity: { type: 'user', id: row.id, name: row.name },
      changes: [secretChanged('pin')],
    });
    return true;
  });
}
