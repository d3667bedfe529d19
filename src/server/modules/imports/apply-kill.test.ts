import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guessMapping } from '../../../shared/imports';
import { type Database, openDatabase } from '../../db/connection';
import { users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';
import { freshPostgres, targets } from '../../test/harness';
import { type ServerProcess, startServer } from '../../test/process';
import { createImport } from './imports.repository';

/** A few thousand rows: several batches, so the kill lands between two of them; the last batch is
 * partial, so the products of the last rows and the status `applied` commit together. */
const ROWS = 4100;
const PASSWORD = 'import kill password';
const EMAIL = 'importer@apply-kill.test';
const COLUMNS = ['Name', 'SKU', 'Category', 'Supplier', 'Price', 'Stock'];

/** An admin, a category and a supplier, and an import of ROWS new products as a finished check leaves it. */
async function seed(database: Database): Promise<{ importId: string; categoryId: string }> {
  const [admin] = await database.db
    .insert(users)
    .values({ name: 'Ida Importer', email: EMAIL, passwordHash: await hashPassword(PASSWORD), role: 'admin' })
    .returning({ id: users.id });
  const [category] = await database.query<{ id: string }>(
    `insert into categories (name) values ('Kill category') returning id`,
  );
  await database.query(`insert into suppliers (name) values ('Kill supplier')`);
  const importId = await createImport(
    database.db,
    {
      fileName: 'kill.csv',
      fileType: 'csv',
      columns: COLUMNS,
      mapping: guessMapping(COLUMNS),
      rows: Array.from({ length: ROWS }, (_, i) => ({
        line: i + 2,
        cells: [`Kill product ${i}`, `KILL-${i}`, 'Kill category', 'Kill supplier', '1.25', String(i % 9)],
      })),
    },
    { id: admin?.id as string, name: 'Ida Importer', role: 'admin' },
  );
  await database.query(
    `update imports set status = 'checked', checked_at = now(),
            options = '{"matchBy":"sku","createMissing":{"categories":false,"suppliers":false},"stock":"set"}',
            summary = $2::jsonb
      where id = $1`,
    [
      importId,
      JSON.stringify({
        create: ROWS,
        update: 0,
        unchanged: 0,
        errors: 0,
        newCategories: [],
        newSuppliers: [],
      }),
    ],
  );
  await database.query(`update import_rows set result = 'create', errors = '[]' where import_id = $1`, [
    importId,
  ]);
  return { importId, categoryId: category?.id as string };
}

async function signIn(server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** How many products the import made so far, asked of the server (the embedded database is its alone). */
async function productsMade(server: ServerProcess, token: string, categoryId: string): Promise<number> {
  const res = await fetch(`${server.base}/api/products?category=${categoryId}&page=1&pageSize=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { total: number }).total;
}

const dirs: string[] = [];
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const drop of drops) await drop();
});

describe.each(targets)('an import apply killed halfway on $name', (target) => {
  it('resumes after a restart and writes every row exactly once', async () => {
    let databaseEnv: Record<string, string>;
    if (target.url) {
      const fresh = await freshPostgres(target.url);
      drops.push(fresh.drop);
      databaseEnv = { DATABASE_URL: fresh.url };
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), 'ims-import-kill-'));
      dirs.push(dataDir);
      databaseEnv = { DATA_DIR: dataDir };
    }
    const open = () =>
      openDatabase({ databaseUrl: databaseEnv.DATABASE_URL, dataDir: databaseEnv.DATA_DIR ?? '' });
    const before = await open();
    const { importId, categoryId } = await seed(before);
    await before.close();

    // A short lease, so the restarted server need not wait 30 s for the killed one's to lapse.
    const env = { ...databaseEnv, IMPORT_LEASE: '2s' };
    let server = await startServer(env);
    let madeAtKill = 0;
    try {
      const token = await signIn(server);
      const res = await fetch(`${server.base}/api/imports/${importId}/apply`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(202);
      // SIGKILL as soon as some batches are in and some are not: nothing gets to clean up.
      for (;;) {
        madeAtKill = await productsMade(server, token, categoryId);
        if (madeAtKill > 0) break;
      }
      server.child.kill('SIGKILL');
      await server.exited;
      expect(madeAtKill).toBeGreaterThan(0);
      expect(madeAtKill).toBeLessThan(ROWS);

      server = await startServer(env);
      const again = await signIn(server);
      const deadline = Date.now() + 60_000;
      let made = 0;
      while (Date.now() < deadline) {
        made = await productsMade(server, again, categoryId);
        if (made >= ROWS) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(made).toBe(ROWS);
      // The last batch also marks the import applied; a moment for it to be read back.
      if (target.url) {
        const check = await open();
        try {
          for (let i = 0; i < 50; i++) {
            const [row] = await check.query<{ status: string }>('select status from imports where id = $1', [
              importId,
            ]);
            if (row?.status === 'applied') break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        } finally {
          await check.close();
        }
      }
      expect(server.output()).not.toMatch(/import failed|"level":50/);
    } finally {
      // The embedded database belongs to one process at a time: stop it before reading it.
      expect(await server.stop('SIGTERM')).toBe(0);
    }

    const after = await open();
    try {
      const [state] = await after.query<{
        status: string;
        processed: number;
        rows: number;
        failure: string | null;
      }>('select status, processed, rows, failure from imports where id = $1', [importId]);
      expect(state).toEqual({ status: 'applied', processed: ROWS, rows: ROWS, failure: null });
      const [products] = await after.query<{ products: number; skus: number; stock: number }>(
        `select count(*)::integer as products, count(distinct lower(sku))::integer as skus,
                sum(stock)::integer as stock
           from products where category_id = $1`,
        [categoryId],
      );
      const expectedStock = Array.from({ length: ROWS }, (_, i) => i % 9).reduce((a, b) => a + b, 0);
      expect(products).toEqual({ products: ROWS, skus: ROWS, stock: expectedStock });
      // Every file row made exactly one product, named by its SKU.
      const missing = await after.query(
        `select line from import_rows r where import_id = $1
            and (select count(*) from products p where lower(p.sku) = lower(r.cells[2])) <> 1`,
        [importId],
      );
      expect(missing).toEqual([]);
      const unmarked = await after.query(
        'select line from import_rows where import_id = $1 and (applied_at is null or product_id is null)',
        [importId],
      );
      expect(unmarked).toEqual([]);
      // Exactly one initial movement per new product, noted with the file, and stock = Σ movements.
      const initials = await after.query<{ n: number }>(
        `select count(*)::integer as n from stock_movements m join products p on p.id = m.product_id
          where p.category_id = $1 and m.kind = 'initial' and m.note = 'import kill.csv'
          group by m.product_id having count(*) <> 1`,
        [categoryId],
      );
      expect(initials).toEqual([]);
      const [movements] = await after.query<{ n: number }>(
        `select count(*)::integer as n from stock_movements m join products p on p.id = m.product_id
          where p.category_id = $1`,
        [categoryId],
      );
      expect(movements?.n).toBe(ROWS);
      const mismatches = await after.query(
        `select p.id from products p
          left join (select product_id, sum(quantity) as total from stock_movements group by product_id) m
            on m.product_id = p.id
          where p.stock <> coalesce(m.total, 0)`,
      );
      expect(mismatches).toEqual([]);
      const audit = await after.query<{ action: string; entity_name: string }>(
        `select action, entity_name from audit_log where entity_type = 'import' and entity_id = $1`,
        [importId],
      );
      expect(audit).toEqual([{ action: 'imported', entity_name: 'kill.csv' }]);
      console.log(
        `[${target.name}] import killed after ${madeAtKill} of ${ROWS} rows; resumed and applied once`,
      );
    } finally {
      await after.close();
    }
  }, 180_000);
});
