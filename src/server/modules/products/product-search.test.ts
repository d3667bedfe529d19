import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesWords } from '../../../shared/search';
import { productSearch, products } from '../../db/schema';
import { seededRandom } from '../../db/seed';
import { matchesSearch } from '../../lib/search';
import { startApp, type TestApp, targets } from '../../test/harness';
import { productSearchConditions } from './products.queries';

/**
 * Decision 0052: product_search and name_words are what a product search reads instead of the
 * names. They must say exactly what the rule of every list's search (matchesSearch) says of the
 * names themselves (and so what src/shared/search.ts, the browser's, says), and follow every
 * change of a product.
 */

/** Names a search must not get wrong: punctuation inside words, case, accents, wildcards, odd spaces. */
const NAMES = [
  'Aloe-Vera Gel 200ml',
  'GEL caps (soft)',
  'Vitamin C 1000mg',
  'Vitamin-Q10 Tablets',
  'Tab. Ibuprofen 200',
  '50% off_cut_Tape',
  'Crème Brûlée Balm',
  'Ωmega 3 oil',
  'double  space  name',
  'back\\slash tool',
  'x',
  'Tea Tree Oil',
  'tea',
];

/** Searches: substrings of names, word starts, short words, wildcards, several words. */
const SEARCHES = [
  'vera',
  'e-v',
  'gel',
  'ge',
  'g',
  'GEL 200',
  '50%',
  '%',
  '_',
  'off_',
  '\\',
  'ème',
  'BRÛ',
  'ωme',
  'ω',
  'q1',
  'q10 tab',
  '(soft)',
  'so',
  'ta',
  't',
  'tea',
  'oil tea',
  'x',
  'space',
  'e s',
  'zzz',
  '000',
  '3',
];

describe.each(targets)('product_search on $name', (target) => {
  let t: TestApp;
  let categoryId: string;
  let supplierId: string;

  beforeAll(async () => {
    t = await startApp(target);
    ({ categoryId, supplierId } = await t.product({ name: 'Plain product' }));
    for (const name of NAMES)
      await t.sql(
        'insert into products (name, price, stock, category_id, supplier_id) values ($1, 1, 1, $2, $3)',
        [name, categoryId, supplierId],
      );
  });
  afterAll(() => t.close());

  /** The ids a search's conditions find through product_search. */
  async function found(search: string): Promise<string[]> {
    const rows = await t.app.db
      .select({ product_id: productSearch.productId })
      .from(productSearch)
      .where(productSearchConditions({ search }))
      .orderBy(productSearch.productId);
    const direct = await t.app.db
      .select({ id: products.id })
      .from(products)
      .where(sqlOf(search))
      .orderBy(products.id)
      .then((list) => list.map((row) => row.id));
    expect(rows.map((row) => row.product_id)).toEqual(direct);
    // The rule as the browser applies it (the offline counter's kit) says the same.
    const all = await t.app.db
      .select({ id: products.id, name: products.name })
      .from(products)
      .orderBy(products.id);
    expect(
      all.filter((row) => matchesWords(row.name, search)).map((row) => row.id),
      search,
    ).toEqual(direct);
    return direct;
  }

  /** The rule itself over the names (and a SKU or barcode exactly), as every other list applies it. */
  const sqlOf = (search: string) => matchesSearch(search, [products.name]);

  /** Every product has its row, and the row says what its name, category, item and activity say. */
  async function keptRows(): Promise<number> {
    const [row] = await t.sql<{ wrong: number }>(
      `select count(*)::int as wrong
       from products p full join product_search ps on ps.product_id = p.id
       where p.id is null or ps.product_id is null or ps.name_key <> lower(p.name)
          or ps.words <> product_words(p.name) or ps.category_id <> p.category_id
          or ps.item_id is distinct from p.item_id or ps.active <> p.active
          or exists (select 1 from unnest(ps.words) w where not exists (select 1 from name_words n where n.word = w))`,
    );
    return row?.wrong ?? -1;
  }

  it('finds exactly what the search rule finds in the names, for every search', async () => {
    let matched = 0;
    for (const search of SEARCHES) {
      const ids = await found(search);
      matched += ids.length;
    }
    // The searches are not all empty: the comparison holds over real matches.
    expect(matched).toBeGreaterThan(30);
    // And through the API: the same count as the rule over the names.
    for (const search of ['gel', 'ge', 'vitamin tab', 'ω']) {
      const res = await t.call(
        'GET',
        `/api/products?search=${encodeURIComponent(search)}&page=1&pageSize=50`,
        {
          token: t.as.admin.token,
        },
      );
      expect(res.status).toBe(200);
      const body = res.body as { total: number; products: { name: string }[] };
      const direct = await t.app.db.select({ id: products.id }).from(products).where(sqlOf(search));
      expect(body.total, search).toBe(direct.length);
      // In name order, as every list is.
      const names = body.products.map((product) => product.name.toLowerCase());
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
  });

  it('follows products created one by one and many at once, renamed, moved, deactivated and deleted', async () => {
    const random = seededRandom(52);
    const words = ['alpha', 'Beta-Blocker', 'gamma', 'DELTA', 'eps', 'zeta.', 'eta', 'théta'];
    const nameOf = () =>
      Array.from(
        { length: 1 + Math.floor(random() * 3) },
        () => words[Math.floor(random() * words.length)],
      ).join(random() < 0.2 ? '  ' : ' ');
    const other = await t.product({ name: 'Other category product' });
    // Many in one statement, as an import writes them.
    await t.sql(
      `insert into products (name, price, stock, category_id, supplier_id)
       select n, 1, 0, $2, $3 from unnest($1::text[]) n`,
      [Array.from({ length: 60 }, nameOf), categoryId, supplierId],
    );
    const ids = (await t.sql<{ id: string }>('select id from products order by id')).map((row) => row.id);
    for (let step = 0; step < 80; step++) {
      const id = ids[Math.floor(random() * ids.length)];
      const roll = random();
      if (roll < 0.4) await t.sql('update products set name = $2 where id = $1', [id, nameOf()]);
      else if (roll < 0.55)
        await t.sql('update products set category_id = $2 where id = $1', [id, other.categoryId]);
      else if (roll < 0.7) await t.sql('update products set active = not active where id = $1', [id]);
      // A change of stock alone (a sale's) leaves the row as it was.
      else if (roll < 0.9) await t.sql('update products set price = price + 1 where id = $1', [id]);
      else if (step % 4 === 0) {
        const [{ id: fresh } = { id: '' }] = await t.sql<{ id: string }>(
          `insert into products (name, price, stock, category_id, supplier_id) values ($1, 1, 0, $2, $3) returning id`,
          [nameOf(), categoryId, supplierId],
        );
        ids.push(fresh);
      } else
        await t.sql(
          'delete from products where id = $1 and not exists (select 1 from stock_movements m where m.product_id = products.id)',
          [id],
        );
    }
    expect(await keptRows()).toBe(0);
    for (const search of ['alpha', 'a', 'ta', 'blocker beta', 'théta', 'zeta.', 'e']) await found(search);
    // Whether active and the category, as the lists filter them.
    const res = await t.call(
      'GET',
      `/api/products?search=eta&page=1&pageSize=5&category=${other.categoryId}`,
      {
        token: t.as.user.token,
      },
    );
    expect(res.status).toBe(200);
    const [expected] = await t.sql<{ n: number }>(
      `select count(*)::int as n from products where name ilike '%eta%' and category_id = $1 and active`,
      [other.categoryId],
    );
    expect((res.body as { total: number }).total).toBe(expected?.n);
  });
});
