import { rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrationsBefore } from '../test/migrations-before';

describe('a database from before one customer per name and phone', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('migrates although it holds duplicates: the oldest keeps the key, the rest stay, new ones are refused', async () => {
    const before = migrationsBefore('0022_duplicates_and_drafts');
    dirs.push(before);
    const client = new PGlite({ extensions: { pg_trgm } });
    const q = async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows;
    try {
      await migrate(drizzle({ client }), { migrationsFolder: before });
      // As an older server stored them: the same customer three times, and two others.
      await q(
        `insert into customers (name, phone, created_at) values
           ('Ann Lee', '555 0100', '2025-01-01'), ('ann  lee', '(555) 0100', '2025-01-02'),
           ('ANN LEE ', '555-0100', '2025-01-03'), ('Ann Lee', '555 0199', '2025-01-04'),
           ('Bo Tan', '', '2025-01-05')`,
      );

      await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });

      expect(await q('select name, phone, duplicate_key from customers order by created_at')).toEqual([
        { name: 'Ann Lee', phone: '555 0100', duplicate_key: 'ann lee|5550100' },
        { name: 'ann  lee', phone: '(555) 0100', duplicate_key: null },
        { name: 'ANN LEE ', phone: '555-0100', duplicate_key: null },
        { name: 'Ann Lee', phone: '555 0199', duplicate_key: 'ann lee|5550199' },
        { name: 'Bo Tan', phone: '', duplicate_key: 'bo tan|' },
      ]);
      await expect(
        q(
          "insert into customers (name, phone, duplicate_key) values ('Ann Lee', '5550100', customer_duplicate_key('Ann Lee', '5550100'))",
        ),
      ).rejects.toThrow(/customers_duplicate_key/);
    } finally {
      await client.close();
    }
    // Two runs of the migrations on the embedded database: slow on a busy machine.
  }, 120_000);
});
