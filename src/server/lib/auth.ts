import type { FastifyReply, FastifyRequest } from 'fastify';
import { can, PERMISSIONS, type Role } from '../../shared/roles';
import { type Runner, type Statement, statement } from '../db/connection';
import { AppError, isId, refuse } from './errors';
import { holdExpensiveRead } from './expensive-reads';
import type { AuthUser } from './fastify';

const UNAUTHENTICATED = 'Please sign in to continue.';
const NOT_ALLOWED = 'Your role is not allowed to do that.';

/**
 * Every signed-in call runs this, so it is prepared once per connection. A signed-out token
 * (revoked_tokens, decision 0017) or a deactivated user (decision 0023) finds no user: neither
 * costs an extra round trip. The must-change-password flag comes along in the same row.
 */
const SIGNED_IN_USER = statement(
  'auth_signed_in_user',
  `select id, name, email, address, role, token_version as "tokenVersion",
          must_change_password as "mustChangePassword" from users
   where id = $1 and active and not exists (select 1 from revoked_tokens where id = $2::uuid)`,
);

/**
 * Runs before every /api route: checks the bearer token (signature, expiry), then the user behind
 * it against the database (so a deleted user, a signed-out token or a token from before a password
 * change is refused at once, on every instance), then the route's permission. The shared state's
 * revocations only refuse a signed-out token early; the database holds them. Between the two, an
 * expensive read waits for one of the caller's slots (holdExpensiveRead), so waiting and refusing
 * ask nothing of the database.
 *
 * A route with `userCheckedInStatement` has the user check written into its own statement by
 * `signedInStatement` and runs it with `signedInRunner` (one round trip on a hot path); the hook then
 * checks only the token, and `guardSignedInCheck` refuses to send a success the check did not
 * precede.
 */
export async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  request.user = null;
  request.claims = null;
  request.signedInChecked = false;
  const config = request.routeOptions.config;
  if (config.public || request.is404) return;
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw new AppError(401, UNAUTHENTICATED);
  const claims = await request.server.tokens.verify(match[1]);
  if (!claims || !isId(claims.userId))
    throw new AppError(401, 'Your session is invalid or has expired; please sign in again.');
  if (await request.server.sharedState.isRevoked(claims.tokenId)) throw refuse('SIGNED_OUT');
  request.claims = claims;
  await holdExpensiveRead(request, reply, claims.userId);
  if (config.userCheckedInStatement) return;
  await checkSignedInUser(request);
}

/**
 * The signed-in user behind the request's verified token, checked against the database (gone or
 * an old token: 401) and the route's permission (403). The hook runs it for every route but those
 * with `userCheckedInStatement`; those run it when they answer without their statement (a replay).
 */
export async function checkSignedInUser(request: FastifyRequest): Promise<AuthUser> {
  const { claims } = request;
  if (!claims) throw new AppError(401, UNAUTHENTICATED);
  const [row] = await request.server.database.run<Omit<AuthUser, 'role'> & { role: string }>(SIGNED_IN_USER, [
    claims.userId,
    claims.tokenId,
  ]);
  if (!row || row.tokenVersion !== claims.tokenVersion) {
    throw refuse('SIGNED_OUT');
  }
  const user: AuthUser = { ...row, role: row.role as Role };
  request.user = user;
  request.signedInChecked = true;
  const { permission, beforePasswordChange } = request.routeOptions.config;
  if (user.mustChangePassword && !beforePasswordChange) throw refuse('MUST_CHANGE_PASSWORD');
  if (permission && !can(user.role, permission)) {
    throw new AppError(403, NOT_ALLOWED);
  }
  return user;
}

/**
 * onSend: a route that declared `userCheckedInStatement` but answered a success without running
 * its statement through `signedInRunner` is a bug that would serve a signed-out or unpermitted
 * caller. Its answer is replaced by a 500 rather than sent.
 */
export async function guardSignedInCheck(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const config = request.routeOptions.config;
  if (!config.userCheckedInStatement || request.signedInChecked || reply.statusCode >= 400) return payload;
  request.log.error(
    `${request.method} ${request.routeOptions.url} answered without checking the signed-in user`,
  );
  reply.code(500).type('application/json; charset=utf-8');
  return JSON.stringify({
    success: false,
    error: 'Something went wrong on our side; please try again.',
    code: 'INTERNAL',
  });
}

/** The signed-in user of a route that is not public. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError(401, UNAUTHENTICATED);
  return request.user;
}

/** A statement that checks the signed-in user itself; see `signedInStatement`. */
export interface SignedInStatement extends Statement {
  readonly signedIn: true;
}

/**
 * Writes the signed-in check into a route's statement.
 *
 * The route's SQL uses $1…$n for its own values and reads the caller from the CTE
 * `signed_in_user (id, name, address, role)`, which holds a row only while the token's user exists,
 * is active, with the token's version, the token is not signed out, the user need not change their
 * password first, and has a role the route's permission allows; the route's writes must
 * depend on that row. `with` holds the route's further CTEs, `select` its answer. The statement
 * always answers at least one row, carrying `signedIn`, `mustChangePassword` and `permitted`, which
 * `signedInRunner` turns into 401 and 403.
 */
export function signedInStatement(name: string, parts: { with?: string; select: string }): SignedInStatement {
  if (!/\bsigned_in_user\b/.test(`${parts.with ?? ''} ${parts.select}`))
    throw new Error(`statement ${name} must read the caller from signed_in_user`);
  const used = [...`${parts.with ?? ''} ${parts.select}`.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
  const n = Math.max(0, ...used);
  const [version, roles, userId, tokenId] = [n + 1, n + 2, n + 3, n + 4];
  const text = `with me as (
     select id, name, address, role,
            active and token_version = $${version}::int
              and not exists (select 1 from revoked_tokens where id = $${tokenId}::uuid) as signed_in,
            must_change_password as must_change,
            role = any($${roles}::text[]) as permitted
     from users where id = $${userId}::uuid
   ), signed_in_user as (
     select id, name, address, role from me where signed_in and not must_change and permitted
   )${parts.with ? `, ${parts.with}` : ''}
   select coalesce((select signed_in from me), false) as "signedIn",
          coalesce((select must_change from me), false) as "mustChangePassword",
          coalesce((select permitted from me), false) as "permitted",
          answer.*
   from (select) as one left join (${parts.select}) as answer on true`;
  return { ...statement(name, text), signedIn: true };
}

/** Runs signed-in statements for one caller; throws 401 or 403 when the check fails. */
export type SignedInRunner = <T>(signed: SignedInStatement, params: unknown[]) => Promise<T[]>;

/**
 * The runner for a caller known by id, token version (and token id, refused once signed out) and
 * allowed roles: what a route's runner does after the token check, and what the benchmark's
 * direct-SQL ceiling calls (without a token id).
 */
export function signedInRunnerFor(
  runner: Runner,
  caller: { userId: string; tokenVersion: number; roles: readonly string[]; tokenId?: string },
  onChecked: () => void = () => {},
): SignedInRunner {
  return async <T>(signed: SignedInStatement, params: unknown[]) => {
    const rows = await runner.run<T & { signedIn: boolean; mustChangePassword: boolean; permitted: boolean }>(
      signed,
      [...params, caller.tokenVersion, caller.roles, caller.userId, caller.tokenId ?? null],
    );
    const first = rows[0];
    if (!first?.signedIn) throw refuse('SIGNED_OUT');
    if (first.mustChangePassword) throw refuse('MUST_CHANGE_PASSWORD');
    if (!first.permitted) throw new AppError(403, NOT_ALLOWED);
    onChecked();
    return rows;
  };
}

/**
 * The runner of a route with `userCheckedInStatement`: its statements run for the request's
 * verified token and the roles of the route's permission, on the pool or in a transaction.
 */
export function signedInRunner(
  request: FastifyRequest,
  runner: Runner = request.server.database,
): SignedInRunner {
  const { claims } = request;
  const { permission, userCheckedInStatement } = request.routeOptions.config;
  if (!claims) throw new AppError(401, UNAUTHENTICATED);
  if (!permission || !userCheckedInStatement)
    throw new Error(
      `${request.routeOptions.url} runs a signed-in statement without declaring userCheckedInStatement`,
    );
  return signedInRunnerFor(
    runner,
    {
      userId: claims.userId,
      tokenVersion: claims.tokenVersion,
      roles: PERMISSIONS[permission],
      tokenId: claims.tokenId,
    },
    () => {
      request.signedInChecked = true;
    },
  );
}
