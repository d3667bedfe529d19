import type { Permission, Role } from '../../shared/roles';
import type { Config } from '../config';
import type { Database, Db } from '../db/connection';
import type { ImportApplier } from '../modules/imports/apply';
import type { ExpensiveReads } from './expensive-reads';
import type { SharedState } from './shared-state';
import type { Allowances, LoginThrottle } from './throttle';
import type { Tokens, VerifiedToken } from './tokens';

export interface AuthUser {
  id: string;
  name: string;
  email: string;
  address: string;
  role: Role;
  tokenVersion: number;
  /** An admin reset the password: until the user picks a new one, only their profile answers. */
  mustChangePassword: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every /api route without `public` needs a signed-in user. */
    permission?: Permission;
    public?: boolean;
    /**
     * The route's own statement checks the signed-in user and the permission (built with
     * `signedInStatement`, run with `runSignedIn`), saving a round trip on a hot path; the hook
     * only checks the token.
     */
    userCheckedInStatement?: boolean;
    /**
     * The route answers a user who must change their password first (DESIGN §16): reading and
     * changing their own user, and signing out. Every other route answers them 403.
     */
    beforePasswordChange?: boolean;
    /**
     * The call is an expensive read (a search, a report; any list as CSV is one already): a user
     * runs EXPENSIVE_READ_LIMITS.running at once and the next wait their turn (lib/expensive-reads.ts).
     * A function decides by the query.
     */
    expensiveRead?: boolean | ((query: Record<string, unknown>) => boolean);
  }
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    tokens: Tokens;
    sharedState: SharedState;
    loginThrottle: LoginThrottle;
    /** Tries counted apart from sign-ins: approval PINs, receipt look-ups. */
    allowances: Allowances;
    /** The expensive reads each user has in flight (lib/expensive-reads.ts). */
    expensiveReads: ExpensiveReads;
    /** Applies catalogue imports in the background (DESIGN §14). */
    importApplier: ImportApplier;
    /** "METHOD /url" of every route with `userCheckedInStatement`. */
    routesCheckingUserInStatement: readonly string[];
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** The verified token of a signed-in call. */
    claims: VerifiedToken | null;
    /** The signed-in user was checked against the database (by the hook or by runSignedIn). */
    signedInChecked: boolean;
  }
}
