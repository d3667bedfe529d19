import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Role } from '../../../shared/roles';
import type { User } from '../../../shared/users';
import type { Db } from '../../db/connection';
import { users } from '../../db/schema';

const publicColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  address: users.address,
  role: users.role,
  tokenVersion: users.tokenVersion,
};

type UserRow = { id: string; name: string; email: string; address: string; role: string };

/** The user as clients see it: never the password hash. */
export function toUser(row: UserRow): User {
  return { _id: row.id, name: row.name, email: row.email, address: row.address, role: row.role as Role };
}

export async function listUsers(db: Db, roles: readonly Role[]) {
  return db
    .select(publicColumns)
    .from(users)
    .where(inArray(users.role, [...roles]))
    .orderBy(asc(users.name), asc(users.email));
}

export async function findUser(db: Db, id: string) {
  const [row] = await db.select(publicColumns).from(users).where(eq(users.id, id));
  return row;
}

export async function emailTaken(db: Db, email: string, exceptId?: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return !!row && row.id !== exceptId;
}

export async function insertUser(
  db: Db,
  values: { name: string; email: string; passwordHash: string; address: string; role: Role },
) {
  const [row] = await db.insert(users).values(values).returning(publicColumns);
  return row as NonNullable<typeof row>;
}

export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}

export async function updateUser(
  db: Db,
  id: string,
  values: { name: string; email: string; address: string; passwordHash?: string },
) {
  const [row] = await db
    .update(users)
    .set({
      name: values.name,
      email: values.email,
      address: values.address,
      ...(values.passwordHash
        ? { passwordHash: values.passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` }
        : {}),
    })
    .where(eq(users.id, id))
    .returning(publicColumns);
  return row;
}
