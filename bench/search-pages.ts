/**
 * One caller's product search pages (page 1 of 100, as an employee's search=a&pageSize=100 in
 * issue 34), five times each, on a database bench/keep.ts loaded and kept:
 *
 *   npx tsx bench/keep.ts ims_big --quick --products=206000
 *   npx tsx bench/search-pages.ts ims_big
 *
 * Prints each term's total (a + when the count stopped) and the median of the five calls.
 */
import { openDatabase } from '../src/server/db/connection';
import { productPage } from '../src/server/modules/products/products.queries';
import { ProductQuery } from '../src/shared/products';

const TERMS = ['a', 'q', 's', 'ab', 'zq', 'vitamin gel', 'tab'];
const [name = 'ims_big'] = process.argv.slice(2);
if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error('usage: tsx bench/search-pages.ts <database name>');
const url = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolSize: 2 });
try {
  for (const search of TERMS) {
    const query = ProductQuery.parse({ search, page: '1', pageSize: '100' });
    const times: number[] = [];
    let answer = '';
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const page = await productPage(database, query, { limit: 100, offset: 0 }, 5);
      times.push(performance.now() - started);
      answer = `${page.total}${page.capped ? '+' : ''}`;
    }
    times.sort((a, b) => a - b);
    console.log(
      `search=${search}: total ${answer}, median ${(times[2] ?? 0).toFixed(1)} ms (${times.map((t) => t.toFixed(0)).join(', ')})`,
    );
  }
} finally {
  await database.close();
}
