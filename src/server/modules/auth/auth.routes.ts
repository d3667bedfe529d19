import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LoginInput, LoginResponse } from '../../../shared/auth';
import type { Role } from '../../../shared/roles';
import { users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import { FailureCounter } from '../../lib/throttle';

const INVALID = 'Invalid email or password';
const WINDOW_MS = 15 * 60_000;

export interface LoginThrottle {
  /** Failed sign-ins allowed for one email in the window. */
  perEmail: number;
  /** Failed sign-ins allowed from one client address in the window: far above what a shop makes. */
  perAddress: number;
}

function tooMany(waitMs: number): AppError {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return new AppError(
    429,
    `Too many failed sign-in attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}

export function authRoutes(throttle: LoginThrottle): FastifyPluginAsyncZod {
  return async (app) => {
    const byEmail = new FailureCounter(throttle.perEmail, WINDOW_MS);
    const byAddress = new FailureCounter(throttle.perAddress, WINDOW_MS);

    app.post(
      '/auth/login',
      {
        config: { public: true },
        schema: {
          tags: ['auth'],
          summary: 'Sign in',
          security: [],
          body: LoginInput,
          response: { 200: LoginResponse },
        },
      },
      async (request) => {
        const { email, password } = request.body;
        const wait = Math.max(byEmail.blockedFor(email), byAddress.blockedFor(request.ip));
        if (wait > 0) throw tooMany(wait);
        const [row] = await app.db.select().from(users).where(eq(users.email, email));
        if (!(await verifyPassword(row?.passwordHash, password)) || !row) {
          byEmail.fail(email);
          byAddress.fail(request.ip);
          throw new AppError(401, INVALID);
        }
        byEmail.reset(email);
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
  };
}
