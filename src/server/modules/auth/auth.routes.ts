import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LoginInput, LoginResponse, LogoutInput } from '../../../shared/auth';
import { Message } from '../../../shared/common';
import type { Role } from '../../../shared/roles';
import { users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import { tooManyAttempts } from '../../lib/throttle';
import { recordSignIn } from '../audit/audit.repository';

const INVALID = 'Invalid email or password';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in',
        description:
          'Every attempt counts against the throttle before its password is checked: 5 failures per email and address, 50 per email, 100 per address in 15 minutes, then 429.',
        security: [],
        body: LoginInput,
        response: { 200: LoginResponse },
      },
    },
    async (request) => {
      const { email, password } = request.body;
      const admission = await app.loginThrottle.admit(email, request.ip);
      if (!admission.admitted) {
        await recordSignIn(app.db, { outcome: 'throttled', email, address: request.ip });
        throw tooManyAttempts(admission.waitMs);
      }
      const [row] = await app.db.select().from(users).where(eq(users.email, email));
      if (!(await verifyPassword(row?.passwordHash, password)) || !row) {
        await recordSignIn(app.db, { outcome: 'failed', email, address: request.ip, userId: row?.id });
        throw new AppError(401, INVALID);
      }
      await app.loginThrottle.succeeded(admission);
      await recordSignIn(app.db, { outcome: 'succeeded', email, address: request.ip, userId: row.id });
      const token = await app.tokens.sign({ userId: row.id, tokenVersion: row.tokenVersion });
      return {
        success: true as const,
        token,
        user: {
          _id: row.id,
          name: row.name,
          email: row.email,
          address: row.address,
          role: row.role as Role,
        },
      };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { permission: 'users:self' },
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
