import type { Permission, Role } from '../../shared/roles';
import type { Config } from '../config';
import type { Database, Db } from '../db/connection';
import type { Tokens } from './tokens';

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
  }
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    tokens: Tokens;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}
