import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { projectRoot } from '../lib/project-root';
import { lockDataFolder } from './data-lock';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * A statement the hot paths run many times a second. PostgreSQL parses and plans it once per
 * connection and reuses the plan (a named prepared statement); PGlite runs it as given.
 */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

export function statement(name: string, text: string): Statement {
  return { name, text };
}

const dialect = new PgDialect({ casing: 'snake_case' });

/**
 * A statement built with Drizzle's sql template whose text depends on the request (a search's
 * number of words, its sort): named after its text, so each shape is planned once per connection.
 */
export function statementOf(query: SQL): [Statement, unknown[]] {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  return [{ name, text }, params];
}

/** A Drizzle transaction: what `db.transaction(async (tx) => …)` hands its work. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Runs raw statements: on the pool (a Database), or inside a transaction (`runnerOf(tx)`). */
export interface Runner {
  /** A raw parameterised statement. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a prepared statement (see Statement). */
  run<T = Record<string, unknown>>(statement: Statement, params: unknown[]): Promise<T[]>;
}

export interface Database extends Runner {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Where searches run (decision 0036): on PostgreSQL a pool of its own, of two connections a
   * core, each of whose statements stops after the search time limit and starts no parallel
   * workers, so a search neither runs long nor takes a connection or processors a sale needs;
   * on PGlite the one connection.
   */
  searches: Runner & { db: Db };

  /**
   * Runs start-up work that may take long (recounting every order) on a connection without the
   * pool's time limits; on PGlite, as any statement.
   */
  withoutTimeLimits<T>(work: (runner: Runner) => Promise<T>): Promise<T>;
  /**
   * Runs a prepared statement and hands `each` its rows one by one as they arrive, each an array
   * of its columns' values, keeping none: a large export never holds a batch of rows (sendCsv).
   * Answers how many there were. PGlite, in process, reads them all and then hands them over.
   */
  eachRow(statement: Statement, params: unknown[], each: (row: unknown[]) => void): Promise<number>;
  /** Answers within a few seconds whether the database responds. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** Pool size for PostgreSQL; unset: defaultPoolSize(). */
  poolSize?: number;
  /** PostgreSQL statement time limit; 0 for none (bulk loads). */
  statementTimeoutMs?: number;
  /** The time limit of each statement of a search (PostgreSQL); unset: SEARCH_TIME_LIMIT_MS. */
  searchTimeLimitMs?: number;
  /**
   * PGlite in memory only: a data directory dumped by migratedPgliteImage() to start from instead
   * of an empty cluster. Migrations and functions still run on it (nothing to do when it is
   * current), so an image of older migrations is brought up to date like any database.
   */
  image?: Blob;
}

const MIGRATIONS = join(projectRoot(), 'migrations');
const FUNCTIONS = join(projectRoot(), 'src', 'server', 'db', 'functions');
// Any fixed number: serialises migrations when several servers start against one database.
const MIGRATION_LOCK = 7_270_201;

/**
 * The current body of every database function, one `CREATE OR REPLACE FUNCTION` per file named
 * after it (decision 0026), in name order. Read from the project folder, as the migrations are, so
 * the server finds them whether it runs from src/ or from the bundle in dist/.
 */
export function databaseFunctions(): { name: string; text: string }[] {
  return readdirSync(FUNCTIONS)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({
      name: file.slice(0, -'.sql'.length),
      text: readFileSync(join(FUNCTIONS, file), 'utf8'),
    }));
}

/**
 * Applies every function file after the migrations, at every start: a function's body is its
 * file's, whatever migration last replaced it. The caller runs this inside one transaction.
 */
async function applyFunctions(exec: (text: string) => Promise<unknown>): Promise<void> {
  for (const { name, text } of databaseFunctions()) {
    try {
      await exec(text);
    } catch (error) {
      throw new Error(`Database function ${name}.sql failed: ${(error as Error).message}`, { cause: error });
    }
  }
}

/**
 * Connections to PostgreSQL: two per core and two more. PostgreSQL runs a statement per
 * connection, and past a few per core they only take turns on the CPU, each finishing later and
 * less evenly; requests wait their turn in the pool instead, first come first served. On the
 * 2-core benchmark machine, 20 connections gave the dashboard a p99 of 56 ms, 4 to 8 gave 35–37 ms
 * at a higher rate. Set DATABASE_POOL_SIZE when PostgreSQL runs on a larger machine.
 */
export function defaultPoolSize(): number {
  return 2 * availableParallelism() + 2;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(
        options.databaseUrl,
        options.poolSize ?? defaultPoolSize(),
        options.statementTimeoutMs ?? 4000,
        options.searchTimeLimitMs ?? SEARCH_TIME_LIMIT_MS,
      )
    : openPglite(options.dataDir, options.image);
}

/**
 * A migrated, empty in-memory database's data directory as an image (about 40 MB, uncompressed).
 * Starting PGlite from it skips creating the cluster and running every migration: about 0.5 s
 * instead of 2 s, which the tests pay for each database they open.
 */
export async function migratedPgliteImage(): Promise<Blob> {
  const database = await openPglite('memory://');
  try {
    return await database.dump();
  } finally {
    await database.close();
  }
}

async function openPglite(dataDir: string, image?: Blob): Promise<Database & { dump: () => Promise<Blob> }> {
  const inMemory = dataDir === 'memory://';
  if (image && !inMemory) throw new Error('a PGlite image starts an in-memory database only');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  // One server a folder: a second one would write over the first's pages (data-lock.ts).
  const unlock = inMemory ? () => {} : lockDataFolder(dataDir);
  const extensions = { pg_trgm };
  const client = inMemory
    ? new PGlite({ extensions, ...(image ? { loadDataDir: image } : {}) })
    : new PGlite(dataDir, { extensions });
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  try {
    await client.waitReady;
    await migratePglite(db, { migrationsFolder: MIGRATIONS });
    await client.transaction((tx) => applyFunctions((text) => tx.exec(text)));
  } catch (error) {
    if (!client.closed) await client.close().catch(() => {});
    unlock();
    throw error;
  }
  const runner: Runner = {
    query: async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows,
    run: async <T>(statement: Statement, params: unknown[]) =>
      (await client.query<T>(statement.text, params)).rows,
  };
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    ...runner,
    searches: { db: db as unknown as Db, ...runner },
    withoutTimeLimits: (work) => work(runner),
    eachRow: async (statement, params, each) => {
      const { rows } = await client.query<unknown[]>(statement.text, params, { rowMode: 'array' });
      for (const row of rows) each(row);
      return rows.length;
    },
    ping: async () => {
      await client.query('select 1');
      return true;
    },
    close: async () => {
      try {
        if (!client.closed) await client.close();
      } finally {
        unlock();
      }
    },
    dump: () => client.dumpDataDir('none'),
  };
}

/** The time limit of each statement of a search: past it the search answers 503 (decision 0036). */
export const SEARCH_TIME_LIMIT_MS = 400;

async function openPostgres(
  url: string,
  poolSize: number,
  statementTimeoutMs: number,
  searchTimeLimitMs: number,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // The server gives up on a statement after 4 s and the client after 4.5 s, so that a call
    // answers within 5 s even when the database hangs.
    ...(statementTimeoutMs > 0
      ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + 500 }
      : {}),
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
  const searchPool = new pg.Pool({
    connectionString: url,
    max: availableParallelism() * 2,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    options: `-c statement_timeout=${searchTimeLimitMs} -c max_parallel_workers_per_gather=0`,
    query_timeout: searchTimeLimitMs + 500,
  });
  searchPool.on('error', () => {});
  /**
   * A connection of its own, without the pool's statement and query time limits: migrations and
   * start-up recounts may take minutes on a large database (0013 recounts every order).
   */
  const withoutTimeLimits = async <T>(
    work: (runner: Runner, client: pg.Client) => Promise<T>,
  ): Promise<T> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    client.on('error', () => {});
    await client.connect();
    try {
      return await work(
        {
          query: async <R>(text: string, params: unknown[] = []) =>
            (await client.query(text, params as unknown[])).rows as R[],
          run: async <R>(statement: Statement, params: unknown[]) =>
            (await client.query({ name: statement.name, text: statement.text, values: params })).rows as R[],
        },
        client,
      );
    } finally {
      await client.end().catch(() => {});
    }
  };
  try {
    await withoutTimeLimits(async (lock, client) => {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg({ client, schema, casing: 'snake_case' }), { migrationsFolder: MIGRATIONS });
      // Still under the lock, so servers starting at once take turns replacing the functions too.
      // A failure ends this connection, which rolls the transaction back and releases the lock.
      await lock.query('begin');
      await applyFunctions((text) => client.query(text));
      await lock.query('commit');
    });
  } catch (error) {
    await pool.end().catch(() => {});
    await searchPool.end().catch(() => {});
    throw error;
  }
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    searches: {
      db: drizzlePg({ client: searchPool, schema, casing: 'snake_case' }) as unknown as Db,
      query: async <T>(text: string, params: unknown[] = []) =>
        (await searchPool.query(text, params as unknown[])).rows as T[],
      run: async <T>(statement: Statement, params: unknown[]) =>
        (await searchPool.query({ name: statement.name, text: statement.text, values: params })).rows as T[],
    },
    withoutTimeLimits: (work) => withoutTimeLimits((runner) => work(runner)),
    query: async <T>(text: string, params: unknown[] = []) =>
      (await pool.query(text, params as unknown[])).rows as T[],
    run: async <T>(statement: Statement, params: unknown[]) =>
      (await pool.query({ name: statement.name, text: statement.text, values: params })).rows as T[],
    eachRow: async (statement, params, each) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        return await new Promise<number>((resolve, reject) => {
          let count = 0;
          let failed: unknown;
          const config = { name: statement.name, text: statement.text, values: params, rowMode: 'array' };
          const query = new pg.Query(config as pg.QueryConfig, undefined, (error) => {
            broken = error;
            if (error) reject(error);
            else if (failed !== undefined) reject(failed);
            else resolve(count);
          });
          // pg keeps every row in the result of a query with a callback (which the pool's read time
          // limit would give it anyway): each row is let go once handed over.
          query.on('row', (row: unknown[], result) => {
            if (result) result.rows.length = 0;
            if (failed !== undefined) return;
            count++;
            try {
              each(row);
            } catch (error) {
              failed = error;
            }
          });
          client.query(query);
        });
      } finally {
        // A connection whose statement failed may be mid-answer: the pool closes it.
        client.release(broken);
      }
    },
    ping: async () => {
      await pool.query('select 1');
      return true;
    },
    close: async () => {
      await Promise.all([pool.end(), searchPool.end()]);
    },
  };
}

/**
 * Raw statements inside a Drizzle transaction. A query's text is bound with its parameters ($n
 * placeholders, each occurrence bound to its value) and run unprepared. A Statement runs prepared
 * (by name, planned once per connection) on PostgreSQL, where the transaction holds a connection
 * of the pool: a sale's statements run in its transaction (decision 0027); on PGlite, as given.
 */
export function runnerOf(tx: Tx): Runner {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  const prepared = client instanceof pg.Client ? client : undefined;
  const exec = async <T>(text: string, params: unknown[] = []): Promise<T[]> => {
    const chunks: SQL[] = [];
    let last = 0;
    for (const match of text.matchAll(/\$(\d+)/g)) {
      const at = match.index ?? 0;
      chunks.push(sql.raw(text.slice(last, at)), sql`${sql.param(params[Number(match[1]) - 1])}`);
      last = at + match[0].length;
    }
    chunks.push(sql.raw(text.slice(last)));
    const result = await tx.execute(sql.join(chunks));
    return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
  };
  return {
    query: exec,
    run: prepared
      ? async <T>(statement: Statement, params: unknown[]) =>
          (await prepared.query({ name: statement.name, text: statement.text, values: params })).rows as T[]
      : (statement, params) => exec(statement.text, params),
  };
}
