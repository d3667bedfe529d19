import type { FastifyReply, FastifyRequest } from 'fastify';
import { can, PERMISSIONS, type Role } from '../../shared/roles';
import { statement } from '../db/connection';
import { AppError, isId } from './errors';
import type { AuthUser } from './fastify';
import type { TokenClaims } from './tokens';

const UNAUTHENTICATED = 'Please sign in to continue.';
const SIGNED_OUT = 'Your session is no longer valid; please sign in again.';
const NOT_ALLOWED = 'Your role is not allowed to do that.';

/** Every signed-in call runs this, so it is prepared once per connection. */
const SIGNED_IN_USER = statement(
  'auth_signed_in_user',
  'select id, name, email, address, role, token_version as "tokenVersion" from users where id = $1',
);

/**
 * Runs before every /api route: checks the bearer token against the database (so a deleted
 * user or a token from before a password change is refused at once), then the route's permission.
 */
export async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  request.user = null;
  request.claims = null;
  const config = request.routeOptions.config;
  if (config.public || request.is404) return;
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw new AppError(401, UNAUTHENTICATED);
  const claims = await request.server.tokens.verify(match[1]);
  if (!claims || !isId(claims.userId))
    throw new AppError(401, 'Your session is invalid or has expired; please sign in again.');
  if (config.userCheckedInStatement) {
    request.claims = claims;
    return;
  }
  const [row] = await request.server.database.run<
    Omit<AuthUser, 'role'> & { role: string; tokenVersion: number }
  >(SIGNED_IN_USER, [claims.userId]);
  if (!row || row.tokenVersion !== claims.tokenVersion) {
    throw new AppError(401, SIGNED_OUT);
  }
  const user: AuthUser = { ...row, role: row.role as Role };
  request.user = user;
  if (config.permission && !can(user.role, config.permission)) {
    throw new AppError(403, NOT_ALLOWED);
  }
}

/** The signed-in user of a route that is not public. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError(401, UNAUTHENTICATED);
  return request.user;
}

/**
 * On a route with `userCheckedInStatement`: the verified token's user id and version, and the
 * roles the route's permission allows. The route's statement must act only when the user still
 * exists with that token version and one of those roles, and report which check failed, so that
 * the route can answer with `refuseSignedIn`.
 */
export function signedInClaims(request: FastifyRequest): TokenClaims & { roles: readonly Role[] } {
  const { claims } = request;
  const permission = request.routeOptions.config.permission;
  if (!claims || !permission) throw new AppError(401, UNAUTHENTICATED);
  return { ...claims, roles: PERMISSIONS[permission] };
}

/** The answer when a statement found the token's user gone or changed (401) or not allowed (403). */
export function refuseSignedIn(check: { signedIn: boolean; permitted: boolean }): AppError | undefined {
  if (!check.signedIn) return new AppError(401, SIGNED_OUT);
  if (!check.permitted) return new AppError(403, NOT_ALLOWED);
  return undefined;
}
