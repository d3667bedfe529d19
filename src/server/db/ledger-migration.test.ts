import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../lib/project-root';

const MIGRATIONS = join(projectRoot(), 'migrations');

/** The migrations folder as it was before the named one: its files and a journal cut there. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ims-migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

describe('a database from before the stock ledger', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('migrates with an opening movement per product equal to its stock, and the ledger holds from then on', async () => {
    const before = migrationsBefore('0010_stock_ledger');
    dirs.push(before);
    const client = new PGlite({ extensions: { pg_trgm } });
    const db = drizzle({ client });
    try {
      await migrate(db, { migrationsFolder: before });
      const [category] = (
        await client.query<{ id: string }>("insert into categories (name) values ('Old') returning id")
      ).rows;
      const [supplier] = (
        await client.query<{ id: string }>("insert into suppliers (name) values ('Old') returning id")
      ).rows;
      await client.query(
        `insert into products (name, price, stock, category_id, supplier_id)
         select 'Old product ' || n, 1, n * 3, $1, $2 from generate_series(0, 4) n`,
        [category?.id, supplier?.id],
      );

      await migrate(db, { migrationsFolder: MIGRATIONS });

      const openings = (
        await client.query<{ stock: number; quantity: number; stock_after: number; kind: string }>(
          `select p.stock, m.quantity, m.stock_after, m.kind
           from products p join stock_movements m on m.product_id = p.id order by p.stock`,
        )
      ).rows;
      expect(openings).toEqual(
        [0, 3, 6, 9, 12].map((stock) => ({ stock, quantity: stock, stock_after: stock, kind: 'initial' })),
      );
      // From now on stock moves only with the ledger.
      const [product] = (await client.query<{ id: string }>('select id from products where stock = 9')).rows;
      await client.query(
        "insert into stock_movements (product_id, kind, quantity, reason) values ($1, 'adjustment', -4, 'lost')",
        [product?.id],
      );
      const [after] = (
        await client.query<{ stock: number; ledger: number }>(
          `select stock, (select sum(quantity)::int from stock_movements where product_id = $1) as ledger
           from products where id = $1`,
          [product?.id],
        )
      ).rows;
      expect(after).toEqual({ stock: 5, ledger: 5 });
      await expect(
        client.query('update products set stock = 1 where id = $1', [product?.id]),
      ).rejects.toThrow(/only through stock movements/);
    } finally {
      await client.close();
    }
  });
});
