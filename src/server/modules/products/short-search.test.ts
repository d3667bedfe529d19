import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProductListResponse } from '../../../shared/products';
import { runnerOf } from '../../db/connection';
import { productSearch } from '../../db/schema';
import { SEARCH_TOO_SLOW } from '../../lib/search';
import { startApp, type TestApp, targets } from '../../test/harness';
import { productSearchConditions } from './products.queries';

/** A node of EXPLAIN (ANALYZE, FORMAT JSON). */
type PlanNode = {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows': number;
  Plans?: PlanNode[];
};
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/** More products than a short search counts: each has a word starting with "s". */
const SALTS = 2_100;

/**
 * Issue 34, finding 5: at 206,000 products an employee's `search=a&pageSize=100` took 1.2–3.3 s
 * (the trigram index cannot find one letter inside a word, so every product was read, sorted and
 * counted, by three processes), and two such clients slowed a sale from 25 ms to 1.3 s.
 */
describe.each(targets)('short searches on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
    const { categoryId, supplierId } = await t.product({ name: 'Aqua gel' });
    for (const name of ['Quinine 200 mg', 'Tonic (quinine)', 'Vitamin-Q10', 'Banquet cream'])
      await t.sql(
        'insert into products (name, price, stock, category_id, supplier_id) values ($1, 1, 1, $2, $3)',
        [name, categoryId, supplierId],
      );
    await t.sql(
      `insert into products (name, price, stock, category_id, supplier_id)
       select 'Common salt ' || lpad(i::text, 4, '0'), 1 + i % 50, i % 9, $1, $2 from generate_series(1, ${SALTS}) i`,
      [categoryId, supplierId],
    );
    await t.sql('analyze products');
  });
  afterAll(() => t?.close());

  const search = async (query: string) => {
    const res = await t.call('GET', `/api/products?${query}`, { token: t.as.user.token });
    expect(res.status, res.text).toBe(200);
    expect(ProductListResponse.strict().parse(res.body)).toEqual(res.body);
    return res.body as ProductListResponse;
  };
  const names = (body: ProductListResponse) => body.products.map((p) => p.name);

  it('a word of one or two letters matches the start of a word of the name, after a space or a punctuation mark, ignoring case', async () => {
    expect(names(await search('search=q&page=1&pageSize=100'))).toEqual([
      'Quinine 200 mg',
      'Tonic (quinine)',
      'Vitamin-Q10',
    ]);
    expect(names(await search('search=QU&page=1'))).toEqual(['Quinine 200 mg', 'Tonic (quinine)']);
    // With a longer word beside it, each word as its own length says.
    expect(names(await search('search=uin%20t&page=1'))).toEqual(['Tonic (quinine)']);
    // Three letters or more are found anywhere, as before.
    expect(names(await search('search=qua&page=1'))).toEqual(['Aqua gel']);
    // A short word's own punctuation is taken literally.
    expect(names(await search('search=(q&page=1'))).toEqual(['Tonic (quinine)']);
  });

  it('a search of short words with more than 2,000 matches answers its page in order and says its count stopped at 2,000', async () => {
    const broad = await search('search=s&page=3&pageSize=100');
    expect(broad).toMatchObject({ total: 2000, totalCapped: true, page: 3, pageSize: 100 });
    expect(names(broad)).toEqual(
      Array.from({ length: 100 }, (_, i) => `Common salt ${String(201 + i).padStart(4, '0')}`),
    );
    const byPrice = await search('search=co%20s&sort=-price&page=1&pageSize=5');
    expect(byPrice).toMatchObject({ total: 2000, totalCapped: true });
    expect(byPrice.products.map((p) => p.price)).toEqual([50, 50, 50, 50, 50]);
    // A longer word is counted to the end, as every other list.
    const salt = await search('search=salt&page=1&pageSize=5');
    expect(salt.total).toBe(SALTS);
    expect(salt.totalCapped).toBeUndefined();
    // Up to 2,000 matches a short search counts them all.
    expect(await search('search=qu&page=1')).toMatchObject({ total: 2 });
    expect((await search('search=qu&page=1')).totalCapped).toBeUndefined();
  });

  it('the words starting with a short word lead to their products through the word index: no product is read to match', async () => {
    const where = productSearchConditions({ search: 'q' });
    const statement = t.app.db
      .select({ id: productSearch.productId })
      .from(productSearch)
      .where(where)
      .toSQL();
    const [explained] = await t.app.db.transaction(async (tx) => {
      const run = runnerOf(tx);
      // Reading a whole table is priced out: only an index that can narrow the search is used.
      await run.query('set local enable_seqscan = off');
      return run.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        `explain (analyze, format json) ${statement.sql}`,
        statement.params,
      );
    });
    const plan = nodes(explained?.['QUERY PLAN'][0]?.Plan as PlanNode);
    const index = plan.find((node) => node['Index Name'] === 'product_search_words_idx');
    // The words of names that start with q ("quinine", "(quinine)", "vitamin-q10") hand over
    // their 3 products, not every product to check one by one.
    expect(index?.['Node Type']).toBe('Bitmap Index Scan');
    expect(index?.['Actual Rows']).toBe(3);
    expect(plan.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
    expect(plan.at(0)?.['Actual Rows']).toBe(3);
  });

  // PGlite runs no statement timer (and one statement at a time); PostgreSQL stops a search's
  // statement at the limit. A lock held on the products makes the search wait past it.
  if (target.name === 'postgres') {
    it('a search still running at the time limit answers 503 with one sentence, and the rest of the app is not held', async () => {
      const holder = new pg.Client({ connectionString: await databaseUrlOf(t) });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('lock table products in access exclusive mode');
        const started = performance.now();
        const res = await t.call('GET', '/api/products?search=s&page=1', { token: t.as.user.token });
        const waited = performance.now() - started;
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ success: false, code: 'SEARCH_TOO_SLOW', error: SEARCH_TOO_SLOW });
        expect(waited).toBeLessThan(2000);
        expect((await t.call('GET', '/api/category', { token: t.as.user.token })).status).toBe(200);
      } finally {
        await holder.query('rollback');
        await holder.end();
      }
      expect((await search('search=s&page=1')).totalCapped).toBe(true);
    });
  }
});

/** The URL of the test app's own PostgreSQL database. */
async function databaseUrlOf(t: TestApp): Promise<string> {
  const [row] = await t.sql<{ name: string }>('select current_database() as name');
  const url = new URL(process.env.TEST_DATABASE_URL as string);
  url.pathname = `/${row?.name}`;
  return url.toString();
}
