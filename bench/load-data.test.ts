import { describe, expect, it } from 'vitest';
import { booksCheck } from '../src/server/modules/accounting/books';
import { stockCheck } from '../src/server/modules/stock/stock.repository';
import { openTestDatabase, targets } from '../src/server/test/harness';
import { BENCH_LOCATIONS, checkLedger, ledgerProblems, loadData } from './load-data';
import { productsAt, setStock } from './orders-check';

/**
 * The benchmark's loader on a small size (DESIGN §17): every product's stock split over three
 * locations, each order at its location, the ledger and the stock check clean per location, the
 * books posted and checking out (§19), and setStock still bringing a product to its target.
 */
describe.each(targets)('the bench loader on $name', (target) => {
  it('splits stock over three locations and keeps the ledger clean', { timeout: 120_000 }, async () => {
    const { database, dispose } = await openTestDatabase(target);
    try {
      await loadData(database, { products: 300, orders: 3000 });
      const check = await checkLedger(database);
      expect(ledgerProblems(check)).toEqual([]);
      // DESIGN §19: the loaded books pass the app's own books check, every order posted.
      expect((await booksCheck(database)).checks.filter((c) => !c.ok)).toEqual([]);
      expect(check.products).toBe(300);
      expect(check.orders).toBe(3000);
      const spread = await database.query<{ location_id: string; stock: string; orders: string }>(
        `select s.location_id, sum(s.stock)::text as stock,
                (select count(*) from orders o where o.location_id = s.location_id)::text as orders
         from location_stock s group by s.location_id`,
      );
      expect(spread).toHaveLength(3);
      const by = new Map(spread.map((row) => [row.location_id, row]));
      expect(Number(by.get(BENCH_LOCATIONS.stockroom.id)?.stock)).toBeGreaterThan(0);
      expect(Number(by.get(BENCH_LOCATIONS.shop.id)?.orders)).toBeGreaterThan(0);
      const placed = await database.query<{ n: number }>(
        'select count(*)::int as n from users where location_id is not null',
      );
      expect(placed[0]?.n).toBeGreaterThan(0);
      expect((await stockCheck(database.db)).mismatches).toEqual([]);
      const ids = await productsAt(database, 0, 5);
      await setStock(database, ids, 7);
      const stocks = await database.query<{ stock: number; main: number }>(
        `select p.stock, s.stock as main from products p join location_stock s
           on s.product_id = p.id and s.location_id = default_location() where p.id = any($1::uuid[])`,
        [ids],
      );
      expect(stocks.every((row) => row.stock === 7 && row.main === 7)).toBe(true);
      expect(ledgerProblems(await checkLedger(database))).toEqual([]);
      expect((await booksCheck(database)).checks.filter((c) => !c.ok)).toEqual([]);
    } finally {
      await dispose();
    }
  });
});
