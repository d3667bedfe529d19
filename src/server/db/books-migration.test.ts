import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { booksCheck } from '../modules/accounting/books';
import { openBooks } from '../modules/accounting/journal';
import { recordMovements } from '../modules/stock/movements';
import { migrationsBefore } from '../test/migrations-before';
import { openDatabase } from './connection';

/**
 * DESIGN §19, the day the ledger arrives: a store from before stock had a value and before the
 * books (migrations up to 0034), with stock at two locations, store credit and a drawer open with
 * a cash sale, migrates; its stock is valued at stock × cost, and the first start posts one
 * opening entry that the books check agrees with. Nothing earlier is posted.
 */
describe('a store from before the books', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('migrates: its stock valued, one opening entry of stock, credit and drawers, and the books check out', async () => {
    const before = migrationsBefore('0035_stock_value');
    const data = mkdtempSync(join(tmpdir(), 'ims-books-'));
    dirs.push(before, data);
    const client = new PGlite(data, { extensions: { pg_trgm } });
    const q = async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows;
    await migrate(drizzle({ client }), { migrationsFolder: before });
    // The rows as an older server left them, written straight (its triggers' bodies are not ours).
    const tables = [
      'products',
      'stock_movements',
      'location_stock',
      'customers',
      'sales',
      'sale_payments',
      'orders',
      'register_sessions',
    ];
    for (const table of tables) await q(`alter table ${table} disable trigger user`);
    const [main] = await q<{ id: string }>('select id from locations order by created_at limit 1');
    const [room] = await q<{ id: string }>(
      "insert into locations (name, kind) values ('Back room', 'stockroom') returning id",
    );
    const [category] = await q<{ id: string }>("insert into categories (name) values ('Old') returning id");
    const [supplier] = await q<{ id: string }>("insert into suppliers (name) values ('Old') returning id");
    const product = async (name: string, stock: [number, number], cost: string | null) => {
      const [row] = await q<{ id: string }>(
        `insert into products (name, price, stock, cost, category_id, supplier_id)
         values ($1, 9.99, $2, $3, $4, $5) returning id`,
        [name, stock[0] + stock[1], cost, category?.id, supplier?.id],
      );
      for (const [where, units] of [
        [main?.id, stock[0]],
        [room?.id, stock[1]],
      ] as const) {
        if (units === 0) continue;
        await q('insert into location_stock (product_id, location_id, stock) values ($1, $2, $3)', [
          row?.id,
          where,
          units,
        ]);
        await q(
          `insert into stock_movements (product_id, location_id, kind, quantity, stock_after, note)
           values ($1, $2, 'initial', $3, $3, 'Opening balance')`,
          [row?.id, where, units],
        );
      }
      return row?.id as string;
    };
    const widget = await product('Widget', [10, 5], '2.50'); // 37.50
    const gadget = await product('Gadget', [3, 0], '1.33'); // 3.99
    await product('Unknown cost', [4, 0], null); // worth 0
    await q("insert into customers (name, credit_balance) values ('Ada', 12.00), ('Ben', 0)");
    const [register] = await q<{ id: string }>("insert into registers (name) values ('Till 9') returning id");
    const [session] = await q<{ id: string }>(
      `insert into register_sessions (register_id, opened_by_name, opening_float) values ($1, 'Opener', 40) returning id`,
      [register?.id],
    );
    const [sale] = await q<{ id: string }>(
      `insert into sales (user_name, payment_method, total, session_id, tendered, change)
       values ('Seller', 'cash', 9.99, $1, 10, 0.01) returning id`,
      [session?.id],
    );
    await q(
      "insert into sale_payments (sale_id, n, method, amount, tendered) values ($1, 1, 'cash', 9.99, 10)",
      [sale?.id],
    );
    for (const table of tables) await q(`alter table ${table} enable trigger user`);
    await client.close();

    const database = await openDatabase({ dataDir: data });
    try {
      // Migration 0035: stock × cost at each location, by one revaluation movement each.
      expect(
        await database.query(
          `select p.name, p.stock_value::text as value, p.cost::text as cost,
                  (select sum(value)::text from stock_movements m where m.product_id = p.id) as moved
             from products p order by p.name`,
        ),
      ).toEqual([
        { name: 'Gadget', value: '3.99', cost: '1.33', moved: '3.99' },
        { name: 'Unknown cost', value: '0.00', cost: null, moved: '0.00' },
        { name: 'Widget', value: '37.50', cost: '2.50', moved: '37.50' },
      ]);
      expect(await openBooks(database)).toBe(true);
      expect(await openBooks(database)).toBe(false);
      const entries = await database.query<{ source_kind: string; id: string }>(
        'select source_kind, id from journal_entries',
      );
      expect(entries.map((e) => e.source_kind)).toEqual(['opening']);
      const lines = await database.query<{ code: string; debit: string; credit: string }>(
        `select a.code, l.debit::text as debit, l.credit::text as credit from journal_lines l
           join accounts a on a.id = l.account_id order by a.code, l.debit`,
      );
      // 1300: 25.00 + 3.99 at the Main store, 12.50 in the back room; 2300 Ada's 12.00; 1000 the
      // drawer's 40.00 float and the 9.99 cash sale; 3000 the rest.
      expect(lines).toEqual([
        { code: '1000', debit: '49.99', credit: '0.00' },
        { code: '1300', debit: '12.50', credit: '0.00' },
        { code: '1300', debit: '28.99', credit: '0.00' },
        { code: '2300', debit: '0.00', credit: '12.00' },
        { code: '3000', debit: '0.00', credit: '79.48' },
      ]);
      const [linked] = await database.query<{ n: number }>(
        'select count(*)::int as n from journal_movements where entry_id = $1',
        [entries[0]?.id],
      );
      expect(linked?.n).toBe(3);
      const check = await booksCheck(database);
      expect(check.checks.filter((c) => !c.ok)).toEqual([]);
      // From here on, each event posts itself: a gain at the average, 1300 / 5150.
      await recordMovements(database, [
        { productId: gadget, kind: 'adjustment', quantity: 1, reason: 'found' },
      ]);
      await recordMovements(database, [
        { productId: widget, kind: 'adjustment', quantity: -2, reason: 'damaged' },
      ]);
      expect((await booksCheck(database)).checks.filter((c) => !c.ok)).toEqual([]);
      const [count] = await database.query<{ n: number }>(
        "select count(*)::int as n from journal_entries where source_kind = 'movement'",
      );
      expect(count?.n).toBe(2);
    } finally {
      await database.close();
    }
  }, 120_000);
});
