import { isIP } from 'node:net';
import { z } from 'zod';
import { PRODUCT_NAME } from '../shared/product';
import { STORE_MAX } from '../shared/store';

const DURATION = /^(\d+)\s*(s|m|h|d)$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** Parses "12h", "30m", "45s", "7d" into seconds. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
  return seconds > 0 ? seconds : undefined;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The longest a sign-in may last (DESIGN §7): a stolen token is not a key for weeks. */
export const MAX_TOKEN_TTL_SECONDS = 7 * 86_400;

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY lists. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(item: string): boolean {
  if (RANGE_NAMES.has(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which proxies' X-Forwarded-For to believe when finding the client's address.
 * false (default) believes none; true believes any; a number trusts that many hops; a comma list
 * names the proxies' addresses or CIDR ranges.
 */
export type TrustProxy = boolean | number | string[];

export function parseTrustProxy(text: string): TrustProxy | undefined {
  const value = text.trim();
  if (value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value) <= 100 ? Number(value) : undefined;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length > 0 && items.every(isAddressOrRange) ? items : undefined;
}

const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

const EnvSchema = z.object({
  PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(blankToUndefined, z.string().min(1).default('127.0.0.1')),
  DATABASE_URL: optional(
    z
      .string()
      .refine((url) => /^postgres(ql)?:\/\//.test(url), 'must start with postgres:// or postgresql://'),
  ),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().min(1).default('./data')),
  JWT_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
  TOKEN_TTL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .default('12h')
      .refine((text) => parseDuration(text) !== undefined, 'must look like 30m, 12h or 7d')
      .refine((text) => (parseDuration(text) ?? 0) <= MAX_TOKEN_TTL_SECONDS, 'must be at most 7 days (7d)'),
  ),
  TRUST_PROXY: z.preprocess(
    blankToUndefined,
    z
      .string()
      .default('false')
      .refine(
        (text) => parseTrustProxy(text) !== undefined,
        'must be true, false, a hop count, or a comma list of proxy addresses or CIDR ranges',
      ),
  ),
  REDIS_URL: optional(
    z.string().refine((url) => /^rediss?:\/\//.test(url), 'must start with redis:// or rediss://'),
  ),
  ADMIN_EMAIL: optional(z.email('must be a valid email address')),
  ADMIN_PASSWORD: optional(z.string().min(8, 'must be at least 8 characters')),
  LOW_STOCK_THRESHOLD: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).default(5)),
  STORE_NAME: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(STORE_MAX.name, `must be at most ${STORE_MAX.name} characters`)
      .default(PRODUCT_NAME),
  ),
  IMPORT_LEASE: z.preprocess(
    blankToUndefined,
    z
      .string()
      .default('30s')
      .refine((text) => parseDuration(text) !== undefined, 'must look like 30s or 2m')
      .refine((text) => (parseDuration(text) ?? 0) <= 3600, 'must be at most 1h'),
  ),
  DATABASE_POOL_SIZE: optional(z.coerce.number().int().min(1).max(500)),
  TZ: optional(z.string().refine(isTimeZone, 'must be an IANA time zone such as Europe/Paris')),
  NODE_ENV: optional(z.string()),
});

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL server; when absent the embedded database in dataDir is used. */
  databaseUrl?: string;
  /** Folder of the embedded database, or 'memory://' for a throwaway one. */
  dataDir: string;
  /** Connections to PostgreSQL; unset: defaultPoolSize(). */
  poolSize?: number;
  jwtSecret?: string;
  tokenTtlSeconds: number;
  adminEmail?: string;
  adminPassword?: string;
  lowStockThreshold: number;
  /** The store's name, printed on receipts. */
  storeName: string;
  timeZone: string;
  /** Which proxies to believe for the client's address (the login throttle counts by it). */
  trustProxy: TrustProxy;
  /** Redis shared by every instance for throttle counters and revoked tokens; unset: per process. */
  redisUrl?: string;
  /** NODE_ENV=production: the log stays JSON even at a terminal. */
  production?: boolean;
  /**
   * How long a server holds an import it applies without renewing (each batch renews it); past
   * it, another server or the next start resumes the import. Unset: 30 s.
   */
  importLeaseSeconds?: number;
  /** How long one statement of a search may run before it answers 503 (PostgreSQL); unset: 400 ms. */
  searchTimeLimitMs?: number;
}

export class ConfigError extends Error {}

const SECRET_VARIABLES = new Set(['JWT_SECRET', 'ADMIN_PASSWORD', 'DATABASE_URL', 'REDIS_URL']);

/** Reads the environment once; the only reader of process.env in the server. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    // Secrets (and a database URL, which may hold a password) are never echoed to the logs.
    const got = SECRET_VARIABLES.has(name) ? '' : ` (got "${env[name] ?? ''}")`;
    throw new ConfigError(`Invalid ${name}: ${issue?.message ?? 'bad value'}${got}.`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    poolSize: e.DATABASE_POOL_SIZE,
    jwtSecret: e.JWT_SECRET,
    tokenTtlSeconds: parseDuration(e.TOKEN_TTL) as number,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    lowStockThreshold: e.LOW_STOCK_THRESHOLD,
    storeName: e.STORE_NAME,
    timeZone: e.TZ ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
    trustProxy: parseTrustProxy(e.TRUST_PROXY) as TrustProxy,
    redisUrl: e.REDIS_URL,
    production: e.NODE_ENV === 'production',
    importLeaseSeconds: parseDuration(e.IMPORT_LEASE) as number,
  };
}
