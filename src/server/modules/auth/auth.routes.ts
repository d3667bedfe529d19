import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LoginInput, LoginResponse, LogoutInput } from '../../../shared/auth';
import { Message } from '../../../shared/common';
import type { Role } from '../../../shared/roles';
import type { Db, Runner } from '../../db/connection';
import { revokedTokens, users } from '../../db/schema';
import { AppError, refuse } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import { LOGIN_LIMITS, limitsText, tooManyAttempts } from '../../lib/throttle';
import { recordSignIn } from '../audit/audit.repository';

/** The known-device cookie (DESIGN §7): sent back only to the sign-in calls, never to scripts. */
const DEVICE_COOKIE = 'ims_device';
const DEVICE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Every `ims_device` value of a Cookie header: a browser may send several. */
function deviceCookies(header: string | undefined): string[] {
  if (!header) return [];
  const prefix = `${DEVICE_COOKIE}=`;
  return header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(prefix))
    .map((part) => part.slice(prefix.length));
}

/**
 * Keeps a signed-out token's id until it would expire (decision 0017), and prunes a few rows whose
 * token has expired meanwhile: sign-outs pay for the table's upkeep, a sign-in or a call never does.
 */
async function revokeToken(db: Db, tokenId: string, expiresAt: number): Promise<void> {
  await db.execute(sql`
    with pruned as (
      delete from ${revokedTokens} where id in (
        select id from ${revokedTokens} where expires_at < now() order by expires_at limit 100
      )
    )
    insert into ${revokedTokens} (id, expires_at)
    values (${tokenId}::uuid, ${new Date(expiresAt).toISOString()}::timestamptz)
    on conflict (id) do nothing`);
}

/** A user's own location by id and name (DESIGN §17), as their session shows it. */
async function locationNamed(runner: Runner, id: string) {
  const [row] = await runner.query<{ name: string }>('select name from locations where id = $1', [id]);
  return { _id: id, name: row?.name ?? '' };
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in',
        description: `Every attempt counts against the throttle before its password is checked: ${limitsText()}, then 429. A success sets the HttpOnly cookie ims_device naming the account; an attempt carrying a valid one for the email tried counts only against that device (${LOGIN_LIMITS.perDevice} failures per window), so the owner still signs in past the per-email limit.`,
        security: [],
        body: LoginInput,
        response: { 200: LoginResponse },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const device = deviceCookies(request.headers.cookie)
        .map((cookie) => app.tokens.deviceFor(cookie, email))
        .find((id) => id !== undefined);
      const admission = await app.loginThrottle.admit({ email, address: request.ip, device });
      if (!admission.admitted) {
        // One entry per refusing counter and window: refusals cost a stranger nothing, so each
        // one must not cost the log a row.
        if (admission.firstInWindow)
          await recordSignIn(app.db, {
            outcome: 'throttled',
            email,
            address: request.ip,
            limit: admission.reason,
          });
        throw tooManyAttempts(admission.waitMs);
      }
      const [row] = await app.db.select().from(users).where(eq(users.email, email));
      if (!(await verifyPassword(row?.passwordHash, password)) || !row) {
        await recordSignIn(app.db, { outcome: 'failed', email, address: request.ip, userId: row?.id });
        throw refuse('WRONG_CREDENTIALS');
      }
      // Only after the password is right, so the answer does not tell who has an account.
      if (!row.active) {
        await recordSignIn(app.db, { outcome: 'failed', email, address: request.ip, userId: row.id });
        throw refuse('DEACTIVATED');
      }
      await app.loginThrottle.succeeded(admission);
      await recordSignIn(app.db, { outcome: 'succeeded', email, address: request.ip, userId: row.id });
      const token = await app.tokens.sign({ userId: row.id, tokenVersion: row.tokenVersion });
      // A known device keeps its id (and its own count); a new one gets an id of its own.
      const cookie = app.tokens.deviceCookie(row.email, device);
      reply.header(
        'set-cookie',
        `${DEVICE_COOKIE}=${cookie}; Path=/api/auth; Max-Age=${DEVICE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${
          request.protocol === 'https' ? '; Secure' : ''
        }`,
      );
      return {
        success: true as const,
        token,
        mustChangePassword: row.mustChangePassword,
        user: {
          _id: row.id,
          name: row.name,
          email: row.email,
          address: row.address,
          role: row.role as Role,
          active: row.active,
          mustChangePassword: row.mustChangePassword,
          location: row.locationId === null ? null : await locationNamed(app.database, row.locationId),
        },
      };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { permission: 'users:self', beforePasswordChange: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign out',
        description:
          'Revokes the token it is called with, at once and on every instance; with {"everywhere": true} every token of the user.',
        body: LogoutInput,
        response: { 200: Message },
      },
    },
    async (request) => {
      const claims = request.claims;
      if (!claims) throw new AppError(401, 'Please sign in to continue.');
      await revokeToken(app.db, claims.tokenId, claims.expiresAt);
      // Only an early refusal on this instance (and others, with Redis): the table above holds.
      await app.sharedState.revoke(claims.tokenId, claims.expiresAt);
      if (request.body?.everywhere) {
        // Every token carries the version it was issued with; a new version refuses them all.
        await app.db
          .update(users)
          .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
          .where(eq(users.id, claims.userId));
        return { success: true as const, message: 'Signed out on every device.' };
      }
      return { success: true as const, message: 'Signed out.' };
    },
  );
};
