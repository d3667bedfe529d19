import type { Permission, Role } from '../../shared/roles';
import type { Config } from '../config';
import type { Database, Db } from '../db/connection';
import type { TokenClaims, Tokens } from './tokens';

export interface AuthUser {
  id: string;
  name: string;
  email: string;
  address: string;
  role: Role;
  tokenVersion: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every /api route without `public` needs a signed-in user. */
    permission?: Permission;
    public?: boolean;
    /**
     * The route's own statement checks the signed-in user and the permission (see
     * `signedInClaims`), saving a round trip on a hot path; the hook only checks the token.
     */
    userCheckedInStatement?: boolean;
  }
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    tokens: Tokens;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** The verified token's claims, on routes with `userCheckedInStatement`. */
    claims: TokenClaims | null;
  }
}
