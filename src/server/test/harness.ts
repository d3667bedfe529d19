import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type ZodType, z } from 'zod';
import type { Role } from '../../shared/roles';
import { buildApp } from '../app';
import type { Config } from '../config';
import { type Database, migratedPgliteImage, openDatabase, runnerOf } from '../db/connection';
import { users } from '../db/schema';
import { hashPassword } from '../lib/passwords';
import type { LoginLimits } from '../lib/throttle';
import { revalueStock } from '../modules/stock/revalue';

export interface Target {
  name: 'pglite' | 'postgres';
  url?: string;
}

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const targets: Target[] = [
  { name: 'pglite' },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'postgres' as const, url: process.env.TEST_DATABASE_URL }]
    : []),
];

export const PASSWORD = 'correct horse battery';

export interface Account {
  id: string;
  email: string;
  name: string;
  role: Role;
  token: string;
}

export interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

export interface TestApp {
  app: FastifyInstance;
  target: Target;
  /** One signed-in account per role. */
  as: Record<Role, Account>;
  call(
    method: string,
    url: string,
    options?: {
      token?: string;
      body?: unknown;
      headers?: Record<string, string>;
      /** The client address the server sees; 127.0.0.1 unless given. */
      remoteAddress?: string;
    },
  ): Promise<Answer>;
  /** Creates a user of a role directly in the database and signs it in. */
  account(role: Role, name?: string): Promise<Account>;
  /** A category, a supplier and a product, with the given stock, price and cost (none unless given). */
  product(values?: {
    name?: string;
    stock?: number;
    price?: number;
    cost?: number;
  }): Promise<{ id: string; categoryId: string; supplierId: string }>;
  /**
   * Sets a product's cost as the product form does (DESIGN §19): its stock revalued at it by the
   * ledger's writer, so its value stays the sum of its movements'.
   */
  setCost(id: string, cost: number): Promise<void>;
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: 'memory://',
    tokenTtlSeconds: 3600,
    lowStockThreshold: 5,
    storeName: 'Inventory MS',
    timeZone: 'UTC',
    trustProxy: false,
    ...overrides,
  };
}

/**
 * The migrated empty PGlite database every test database of this process starts from, made once
 * (the server project runs its files in a few long-lived workers; see vitest.config.ts).
 */
let pgliteImage: Promise<Blob> | undefined;
function testImage(target: Target, config: Config): Promise<Blob> | undefined {
  if (target.url || config.dataDir !== 'memory://') return undefined;
  pgliteImage ??= migratedPgliteImage();
  return pgliteImage;
}

/**
 * A throwaway PostgreSQL database on the server of TEST_DATABASE_URL, dropped by the returned
 * function: empty, or a copy of `template` (a database no one is connected to).
 */
export async function freshPostgres(
  baseUrl: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ims_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A PostgreSQL database for a test, copied from the run's migrated template (global-setup.ts). */
function testPostgres(target: Target) {
  return target.url ? freshPostgres(target.url, inject('postgresTemplate')) : undefined;
}

/** An empty, migrated database of the target (no users), and how to get rid of it. */
export async function openTestDatabase(
  target: Target,
): Promise<{ database: Database; config: Config; dispose: () => Promise<void> }> {
  const pgDb = await testPostgres(target);
  const config = testConfig({ databaseUrl: pgDb?.url });
  const database = await openDatabase({ ...config, image: await testImage(target, config) });
  return {
    database,
    config,
    dispose: async () => {
      // An app built on it may have closed it already.
      await database.close().catch(() => {});
      await pgDb?.drop();
    },
  };
}

let sequence = 0;
/** A tag unique in this process, for names that must not meet another test's data. */
export const unique = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

export async function startApp(
  target: Target,
  options: { config?: Partial<Config>; throttle?: Partial<LoginLimits>; poolSize?: number } = {},
): Promise<TestApp> {
  const pgDb = await testPostgres(target);
  const config = testConfig({ databaseUrl: pgDb?.url, ...options.config });
  const database = await openDatabase({
    ...config,
    poolSize: options.poolSize,
    image: await testImage(target, config),
  });
  const app = await buildApp({
    config,
    database,
    throttle: options.throttle ?? { perPair: 1000, perEmail: 1000, perAddress: 1000, perUser: 1000 },
  });
  await app.ready();

  const call: TestApp['call'] = async (method, url, { token, body, headers = {}, remoteAddress } = {}) => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      ...(remoteAddress ? { remoteAddress } : {}),
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      ...(body === undefined
        ? {}
        : typeof body === 'string'
          ? { payload: body }
          : { payload: body as object }),
    });
    let parsed: unknown;
    try {
      parsed = response.json();
    } catch {
      parsed = undefined;
    }
    return { status: response.statusCode, body: parsed, headers: response.headers, text: response.body };
  };

  const passwordHash = await hashPassword(PASSWORD);
  const account = async (role: Role, name = `${role} ${unique()}`): Promise<Account> => {
    const email = `${role.toLowerCase()}.${unique()}@example.com`;
    const [row] = await database.db
      .insert(users)
      .values({ name, email, passwordHash, role, address: `${name} street 1` })
      .returning({ id: users.id, tokenVersion: users.tokenVersion });
    if (!row) throw new Error('could not create a test user');
    const token = await app.tokens.sign({ userId: row.id, tokenVersion: row.tokenVersion });
    return { id: row.id, email, name, role, token };
  };

  const as = {} as Record<Role, Account>;
  for (const role of ['superAdmin', 'admin', 'salesRep', 'medicalRep', 'user'] as const)
    as[role] = await account(role);

  const sql: TestApp['sql'] = (text, params) => database.query(text, params);

  const product: TestApp['product'] = async ({ name, stock = 10, price = 9.99, cost } = {}) => {
    const tag = unique();
    const [category] = await sql<{ id: string }>('insert into categories (name) values ($1) returning id', [
      `Category ${tag}`,
    ]);
    const [supplier] = await sql<{ id: string }>('insert into suppliers (name) values ($1) returning id', [
      `Supplier ${tag}`,
    ]);
    const [row] = await sql<{ id: string }>(
      `insert into products (name, price, stock, category_id, supplier_id, cost)
       values ($1, $2, $3, $4, $5, $6) returning id`,
      [
        name ?? `Product ${tag}`,
        price.toFixed(2),
        stock,
        category?.id,
        supplier?.id,
        cost?.toFixed(2) ?? null,
      ],
    );
    return { id: row?.id as string, categoryId: category?.id as string, supplierId: supplier?.id as string };
  };

  const setCost: TestApp['setCost'] = async (id, cost) => {
    await database.db.transaction(async (tx) => {
      await runnerOf(tx).query('update products set cost = $2 where id = $1', [id, cost.toFixed(2)]);
      await revalueStock(runnerOf(tx), [id], null, 'Cost set by a test');
    });
  };

  return {
    app,
    target,
    as,
    call,
    account,
    product,
    setCost,
    sql,
    close: async () => {
      await app.close();
      await pgDb?.drop();
    },
  };
}

/**
 * The body of `answer` as the shared `schema` describes it; fails the test with zod's issues and
 * the answer when the server's answer does not fit. It answers the body itself, not zod's copy,
 * so a test still sees every field the server sent (an object schema would strip unknown keys).
 */
export function parsed<S extends ZodType>(answer: Answer, schema: S): z.output<S> {
  const result = schema.safeParse(answer.body);
  if (!result.success)
    throw new Error(
      `The answer does not fit its schema:\n${z.prettifyError(result.error)}\n${answer.status} ${answer.text}`,
    );
  return answer.body as z.output<S>;
}
