// Staff accounts and the tokens they signed out of.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { locations } from './locations';

export const users = pg.pgTable(
  'users',
  {
    id: id(),
    name: pg.text('name').notNull(),
    email: pg.text('email').notNull(),
    passwordHash: pg.text('password_hash').notNull(),
    address: pg.text('address').notNull().default(''),
    role: pg.text('role').notNull(),
    /** Bumped on password change; tokens carry it, so older tokens stop working. */
    tokenVersion: pg.integer('token_version').notNull().default(0),
    /** A deactivated user's tokens stop at once and sign-ins are refused (DESIGN §16). */
    active: pg.boolean('active').notNull().default(true),
    /** Set by an admin's password reset; until the user picks a new one, only their profile answers. */
    mustChangePassword: pg.boolean('must_change_password').notNull().default(false),
    /** An admin's argon2id PIN hash for approving discounts at the counter (DESIGN §12); never answered. */
    pinHash: pg.text('pin_hash'),
    /** Where the user's sales outside a till session take stock from (DESIGN §17); null: the default location. */
    locationId: pg.uuid('location_id').references(() => locations.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    pg.uniqueIndex('users_email_key').on(t.email),
    pg.check('users_email_lower', sql`${t.email} = lower(${t.email})`),
    pg.check('users_role_known', sql`${t.role} in ('superAdmin','admin','salesRep','medicalRep','user')`),
    pg.index('users_role_idx').on(t.role),
  ],
);

/**
 * Signed-out tokens by their id (`jti`), kept until the token would have expired (decision 0017).
 * The signed-in checks read it in their own statement, so a sign-out holds on every instance and
 * after a restart; Redis and memory only cache it.
 */
export const revokedTokens = pg.pgTable(
  'revoked_tokens',
  {
    id: pg.uuid('id').primaryKey(),
    expiresAt: pg.timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [pg.index('revoked_tokens_expires_idx').on(t.expiresAt)],
);
