import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshPostgres, type Target, targets } from '../test/harness';
import { type Database, databaseFunctions, openDatabase } from './connection';

/**
 * The functions of the database (decision 0026): each one's body is its file's in
 * src/server/db/functions, applied after the migrations at every start.
 */

/** A file's body: the text between its $$ quotes, which is what pg_proc.prosrc holds. */
function bodyOf(text: string): string {
  return text.slice(text.indexOf('$$') + 2, text.lastIndexOf('$$'));
}

/** Every function of the schema public but those of extensions (pg_trgm's). */
async function functionsIn(database: Database) {
  return database.query<{ name: string; body: string; language: string }>(
    `select p.proname as name, p.prosrc as body, l.lanname as language
     from pg_proc p
     join pg_namespace n on n.oid = p.pronamespace
     join pg_language l on l.oid = p.prolang
     where n.nspname = 'public'
       and not exists (select 1 from pg_depend d
                       where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
     order by p.proname`,
  );
}

/** Asserts that the database holds exactly the files' functions, each with its file's body. */
async function expectTheFiles(database: Database) {
  const files = databaseFunctions();
  const found = await functionsIn(database);
  expect(found.map((row) => row.name)).toEqual(files.map((file) => file.name));
  for (const row of found) {
    const file = files.find((candidate) => candidate.name === row.name);
    expect(row.body, row.name).toBe(bodyOf(file?.text ?? ''));
    expect(['plpgsql', 'sql'], row.name).toContain(row.language);
  }
}

/** A database that outlives one start: a data folder of PGlite, a database of PostgreSQL. */
async function lasting(target: Target) {
  if (target.url) {
    const fresh = await freshPostgres(target.url);
    return {
      open: () => openDatabase({ databaseUrl: fresh.url, dataDir: 'memory://' }),
      dispose: fresh.drop,
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'ims-functions-'));
  return {
    open: () => openDatabase({ dataDir }),
    dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

describe('the function files', () => {
  it('each holds one CREATE OR REPLACE FUNCTION of its own name under a header of comments', () => {
    const files = databaseFunctions();
    expect(files.length).toBeGreaterThan(10);
    for (const { name, text } of files) {
      expect(name).toMatch(/^[a-z][a-z_]*$/);
      expect(text.match(/CREATE (OR REPLACE )?FUNCTION \w+/gi), name).toEqual([
        `CREATE OR REPLACE FUNCTION ${name}`,
      ]);
      expect(text.startsWith(`CREATE OR REPLACE FUNCTION ${name}(`, text.indexOf('CREATE')), name).toBe(true);
      // One pair of $$ quotes, the body between them, and nothing after but the semicolon.
      expect(text.split('$$'), name).toHaveLength(3);
      expect(text.endsWith('$$;\n'), name).toBe(true);
      const header = text.slice(0, text.indexOf('CREATE')).trimEnd().split('\n');
      expect(header.length, name).toBeGreaterThan(0);
      expect(
        header.every((line) => line.startsWith('-- ')),
        name,
      ).toBe(true);
    }
  });
});

describe.each(targets)('database functions on $name', (target) => {
  it('after a fresh start every function has its file and its file’s body, and every file its function', async () => {
    const place = await lasting(target);
    try {
      const database = await place.open();
      try {
        await expectTheFiles(database);
      } finally {
        await database.close();
      }
    } finally {
      await place.dispose();
    }
  }, 60_000);

  it('a function changed by hand gets its file’s body back at the next start', async () => {
    const place = await lasting(target);
    try {
      const first = await place.open();
      try {
        await first.query(
          `CREATE OR REPLACE FUNCTION counter_slot() RETURNS smallint LANGUAGE sql VOLATILE AS $$ SELECT 0::smallint $$`,
        );
        // The audit log's guard made to let a DELETE through.
        await first.query(
          `CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN RETURN NULL; END $$`,
        );
        await first.query('delete from audit_log');
        const [changed] = await first.query<{ body: string }>(
          `select prosrc as body from pg_proc where proname = 'counter_slot'`,
        );
        expect(changed?.body).toBe(' SELECT 0::smallint ');
      } finally {
        await first.close();
      }

      const again = await place.open();
      try {
        await expectTheFiles(again);
        await expect(again.query('delete from audit_log')).rejects.toThrow(/audit_log is append-only/);
        const [slot] = await again.query<{ same: boolean }>(
          'select counter_slot() = (txid_current() % 8)::smallint as same',
        );
        expect(slot?.same).toBe(true);
      } finally {
        await again.close();
      }
    } finally {
      await place.dispose();
    }
  }, 90_000);

  // Two servers share one database only on PostgreSQL (the embedded database belongs to one
  // process), so the test exists for that target alone rather than being skipped on the other.
  const onPostgres = target.url ? it : undefined;
  onPostgres?.(
    'two servers starting at once on one database both start, taking turns',
    async () => {
      const place = await lasting(target);
      try {
        // Migrated once, so that the starts below overlap in replacing the functions.
        await (await place.open()).close();
        for (let round = 0; round < 3; round++) {
          const both = await Promise.all([place.open(), place.open()]);
          try {
            for (const database of both) await expectTheFiles(database);
          } finally {
            await Promise.all(both.map((database) => database.close()));
          }
        }
      } finally {
        await place.dispose();
      }
    },
    60_000,
  );
});
