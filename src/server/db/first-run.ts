import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { hashPassword } from '../lib/passwords';
import type { Db } from './connection';
import { settings, storeSettings, users } from './schema';

/** The token secret: the configured one, else one generated on first start and kept with the data. */
export async function tokenSecret(db: Db, configured?: string): Promise<string> {
  if (configured) return configured;
  await db
    .insert(settings)
    .values({ key: 'jwt_secret', value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, 'jwt_secret'));
  if (!row) throw new Error('Could not read the token secret from the database.');
  return row.value;
}

/**
 * The store's one row (DESIGN §12), written at every start when missing, named from STORE_NAME;
 * an existing row is left as the admin set it. Later code can rely on row id 1.
 */
export async function ensureStoreSettings(db: Db, name: string): Promise<void> {
  await db.insert(storeSettings).values({ id: 1, name }).onConflictDoNothing();
}

export interface FirstAdmin {
  email: string;
  /** Set only when the password was generated and must be shown once. */
  generatedPassword?: string;
}

/** On an empty database, creates the superAdmin; answers what it created, or undefined. */
export async function ensureFirstAdmin(
  db: Db,
  email?: string,
  password?: string,
): Promise<FirstAdmin | undefined> {
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return undefined;
  const chosenEmail = email ?? 'admin@inventory.local';
  const generated = password ? undefined : randomBytes(12).toString('base64url');
  const rows = await db
    .insert(users)
    .values({
      name: 'Super Admin',
      email: chosenEmail,
      passwordHash: await hashPassword(password ?? (generated as string)),
      role: 'superAdmin',
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (rows.length === 0) return undefined;
  return { email: chosenEmail, generatedPassword: generated };
}
