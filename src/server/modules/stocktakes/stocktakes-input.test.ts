import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COUNTS, MAX_STOCKTAKE_NOTE, type Stocktake } from '../../../shared/stocktakes';
import { nth } from '../../test/fixtures';
import { type Answer, startApp, type TestApp, targets } from '../../test/harness';
import { stocktakeFixtures } from './stocktake-fixtures';

/**
 * What is not a value, in every body and query of the stocktakes' calls (DESIGN §3, §18): each is a
 * 4xx with one sentence, never a 500, and writes nothing.
 */
describe.each(targets)('stocktakes refuse what is not a value on $name', (target) => {
  let t: TestApp;
  let where: string;
  let product: { id: string; sku: string };
  let take: Stocktake;
  beforeAll(async () => {
    t = await startApp(target);
    where = await s.location();
    product = await s.productAt(where, 3);
    take = await s.make({ location: where, products: [product.id] });
  });
  afterAll(() => t?.close());
  const s = stocktakeFixtures(() => t);

  /** A refusal: the status wanted (400 unless said), one sentence, nothing else said. */
  const oneSentence = (answer: Answer, status = 400) => {
    expect(answer.status, answer.text).toBe(status);
    const body = answer.body as { success: boolean; error: string };
    expect(body.success).toBe(false);
    expect(body.error, answer.text).toMatch(/^[^\n]{3,300}$/);
    expect(body.error).not.toMatch(/sql|select|stack|undefined|NaN/i);
  };
  const raw = (method: string, url: string, payload: string) =>
    t.call(method, url, {
      token: t.as.admin.token,
      body: payload,
      headers: { 'content-type': 'application/json' },
    });

  const creates = (): [string, unknown][] => [
    ['no body', undefined],
    ['a list for the body', [where]],
    ['no location', { products: [] }],
    ['a number for the location', { location: 5 }],
    ['a list for the location', { location: [where] }],
    ['an empty location', { location: ' ' }],
    ['a 101-character location', { location: 'x'.repeat(101) }],
    ['text for categories', { location: where, categories: 'all' }],
    ['a number among categories', { location: where, categories: [1] }],
    ['an empty category', { location: where, categories: [''] }],
    ['1,001 categories', { location: where, categories: Array(1001).fill(where) }],
    ['an object for products', { location: where, products: {} }],
    ['a number for blind', { location: where, products: [product.id], blind: 1 }],
    ['text for blind', { location: where, products: [product.id], blind: 'yes' }],
    ['a NUL in the note', { location: where, products: [product.id], note: 'a\u0000b' }],
    ['a 10,000-character note', { location: where, products: [product.id], note: 'x'.repeat(10_000) }],
    [
      'a note one over',
      { location: where, products: [product.id], note: 'x'.repeat(MAX_STOCKTAKE_NOTE + 1) },
    ],
    ['a number for the note', { location: where, products: [product.id], note: 5 }],
  ];
  it('POST /api/stocktakes refuses every body that is not a stocktake, making none', async () => {
    const before = await t.sql('select id from stocktakes');
    for (const [label, body] of creates()) {
      const answer = await s.call('POST', '/api/stocktakes', body);
      expect(answer.status, label).toBe(400);
      oneSentence(answer);
    }
    expect(await t.sql('select id from stocktakes')).toEqual(before);
  });

  it('POST /api/stocktakes takes a note of exactly 2,000 characters, and refuses broken JSON and NaN', async () => {
    const other = await s.productAt(where, 1);
    const made = await s.call('POST', '/api/stocktakes', {
      location: where,
      products: [other.id],
      note: 'n'.repeat(MAX_STOCKTAKE_NOTE),
    });
    expect(made.status, made.text).toBe(201);
    oneSentence(await raw('POST', '/api/stocktakes', `{"location": NaN}`));
    oneSentence(await raw('POST', '/api/stocktakes', `{"location": "${where}", "products": [`));
  });

  const badCounts = (): [string, unknown][] => [
    ['no counts', {}],
    ['an empty list', { counts: [] }],
    ['an object for counts', { counts: { product: product.id } }],
    ['a negative quantity', { counts: [{ product: product.id, quantity: -1, mode: 'set' }] }],
    ['a fractional quantity', { counts: [{ product: product.id, quantity: 1.5, mode: 'set' }] }],
    ['a quantity of 1e9', { counts: [{ product: product.id, quantity: 1e9, mode: 'set' }] }],
    ['a quantity one over', { counts: [{ product: product.id, quantity: 1_000_001, mode: 'set' }] }],
    ['text for the quantity', { counts: [{ product: product.id, quantity: '3', mode: 'set' }] }],
    ['a list for the quantity', { counts: [{ product: product.id, quantity: [3], mode: 'set' }] }],
    ['no quantity', { counts: [{ product: product.id, mode: 'set' }] }],
    ['no mode', { counts: [{ product: product.id, quantity: 1 }] }],
    ['an unknown mode', { counts: [{ product: product.id, quantity: 1, mode: 'replace' }] }],
    ['a list for the mode', { counts: [{ product: product.id, quantity: 1, mode: ['add'] }] }],
    ['a number for the product', { counts: [{ product: 5, quantity: 1, mode: 'add' }] }],
    ['an empty product', { counts: [{ product: '', quantity: 1, mode: 'add' }] }],
    ['a list for the product', { counts: [{ product: [product.id], quantity: 1, mode: 'add' }] }],
    ['a 101-character product', { counts: [{ product: 'x'.repeat(101), quantity: 1, mode: 'add' }] }],
    ['text for the lot', { counts: [{ product: product.id, lot: 'L1', quantity: 1, mode: 'add' }] }],
    ['a lot without a number', { counts: [{ product: product.id, lot: {}, quantity: 1, mode: 'add' }] }],
    [
      'a number for the lot number',
      { counts: [{ product: product.id, lot: { number: 5 }, quantity: 1, mode: 'add' }] },
    ],
    [
      'a lot expiring on no day',
      {
        counts: [
          { product: product.id, lot: { number: 'A', expiresOn: '2030-13-45' }, quantity: 1, mode: 'add' },
        ],
      },
    ],
    [
      `${(MAX_COUNTS + 1).toLocaleString('en-US')} counts`,
      { counts: Array(MAX_COUNTS + 1).fill({ product: product.id, quantity: 1, mode: 'add' }) },
    ],
  ];
  it('POST /api/stocktakes/:id/counts refuses every count that is not one, writing none', async () => {
    for (const [label, body] of badCounts()) {
      const answer = await s.call('POST', `/api/stocktakes/${take._id}/counts`, body, t.as.salesRep.token);
      expect(answer.status, label).toBeGreaterThanOrEqual(400);
      oneSentence(answer, answer.status === 413 ? 413 : 400);
    }
    oneSentence(
      await raw(
        'POST',
        `/api/stocktakes/${take._id}/counts`,
        `{"counts":[{"product":"${product.id}","quantity":NaN,"mode":"add"}]}`,
      ),
    );
    oneSentence(
      await raw(
        'POST',
        `/api/stocktakes/${take._id}/counts`,
        `{"counts":[{"product":"${product.id}","quantity":Infinity,"mode":"add"}]}`,
      ),
    );
    expect(nth((await s.lines(take._id)).lines).counted).toBeNull();
  });

  it(`POST /api/stocktakes/:id/counts takes ${MAX_COUNTS.toLocaleString('en-US')} counts at once`, async () => {
    const other = await s.productAt(where, 2);
    const big = await s.make({ location: where, products: [other.id] });
    const counted = await s.count(
      big._id,
      Array.from({ length: MAX_COUNTS }, (_, i) => ({
        product: i % 2 ? other.sku : other.id,
        quantity: 1,
        mode: 'add' as const,
      })),
    );
    expect(counted).toMatchObject([{ counted: MAX_COUNTS }]);
    expect(
      nth(
        await t.sql<{ n: number }>(
          'select count(*)::int as n from stocktake_counts c join stocktake_lines l on l.id = c.line_id where l.stocktake_id = $1',
          [big._id],
        ),
      ).n,
    ).toBe(MAX_COUNTS);
  });

  it('POST /api/stocktakes/:id/post refuses a missing, unknown or mistyped uncounted choice', async () => {
    for (const body of [
      undefined,
      {},
      { uncounted: 'none' },
      { uncounted: 1 },
      { uncounted: ['keep'] },
      { uncounted: null },
    ])
      oneSentence(await s.call('POST', `/api/stocktakes/${take._id}/post`, body));
    expect(await t.sql('select 1 from stock_movements where stocktake_id = $1', [take._id])).toEqual([]);
  });

  it('an id that cannot be a stocktake is a 404 on every call (a NUL in it, a 400)', async () => {
    oneSentence(await s.call('GET', '/api/stocktakes/%00/lines'));
    oneSentence(await s.call('POST', '/api/stocktakes/%00/post', { uncounted: 'keep' }));
    for (const id of ['not-a-uuid', '12345', '00000000-0000-4000-8000-000000000000', 'x'.repeat(300)]) {
      oneSentence(await s.call('GET', `/api/stocktakes/${id}`), 404);
      oneSentence(await s.call('GET', `/api/stocktakes/${id}/lines`), 404);
      oneSentence(
        await s.call('POST', `/api/stocktakes/${id}/counts`, {
          counts: [{ product: product.id, quantity: 1, mode: 'add' }],
        }),
        404,
      );
      oneSentence(await s.call('POST', `/api/stocktakes/${id}/post`, { uncounted: 'keep' }), 404);
      oneSentence(await s.call('POST', `/api/stocktakes/${id}/cancel`), 404);
    }
  });

  it('the queries refuse what is not a page, a choice or a search (400), and an unknown location (404)', async () => {
    const lines = `/api/stocktakes/${take?._id}/lines`;
    for (const query of [
      'page=0',
      'page=-1',
      'page=1.5',
      'page=abc',
      'page=NaN',
      'page=1e9',
      'page=1&page=2',
      'pageSize=0',
      'pageSize=1000',
      'counted=yes',
      'counted=1',
      'differences=maybe',
      'category=',
      `category=${'c'.repeat(101)}`,
      `search=${'s'.repeat(10_000)}`,
      'search=a%00b',
      'format=xml',
    ])
      oneSentence(await s.call('GET', `${lines}?${query}`));
    for (const query of [
      'status=open',
      'status=',
      'page=0',
      'pageSize=-5',
      'page=x',
      'status=counting&status=posted',
    ])
      oneSentence(await s.call('GET', `/api/stocktakes?${query}`));
    oneSentence(await s.call('GET', '/api/stocktakes?location=nowhere'), 404);
    oneSentence(await s.call('GET', '/api/stocktakes?location=00000000-0000-4000-8000-000000000000'), 404);
  });
});
