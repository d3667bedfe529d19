import { expect } from 'vitest';
import {
  type CountInput,
  CountsResponse,
  PostStocktakeResponse,
  type Stocktake,
  type StocktakeInput,
  type StocktakeLine,
  StocktakeLinesResponse,
  StocktakeResponse,
} from '../../../shared/stocktakes';
import { nth, tag } from '../../test/fixtures';
import { type Answer, parsed, type TestApp } from '../../test/harness';
import { recordMovements } from '../stock/movements';

/**
 * The stocktake tests' data, made the way the store makes it: locations and products in SQL,
 * stock through the ledger's one writer (recordMovements), stocktakes and counts through the API.
 * Bound to a test file's app once: `const s = stocktakeFixtures(() => t)`.
 */
export function stocktakeFixtures(app: () => TestApp) {
  const call = (method: string, url: string, body?: unknown, token = app().as.admin.token) =>
    app().call(method, url, { token, body });

  /** A location of its own (so a scope of "every product with stock" meets no other test's). */
  const location = async (active = true) =>
    nth(
      await app().sql<{ id: string }>(
        `insert into locations (name, kind, active) values ($1, 'stockroom', $2) returning id`,
        [`Room ${tag()}`, active],
      ),
    ).id;

  /** Units in at `where` (a receipt through the ledger), into `lotId` when given. */
  const receive = (productId: string, where: string, quantity: number, lotId?: string) =>
    recordMovements(app().app.database, [
      { productId, kind: 'receipt', quantity, locationId: where, lotId: lotId ?? null },
    ]);

  /**
   * An untracked product in a category of its own (or `category`), holding `stock` at `where`
   * only, with a unique SKU and barcode and the cost given (2 unless said).
   */
  const productAt = async (
    where: string,
    stock: number,
    values: { cost?: number | null; category?: string | null; name?: string } = {},
  ) => {
    const name = values.name ?? `Product ${tag()}`;
    const made = await app().product({ stock: 0, name });
    const code = tag().toUpperCase();
    await app().sql(
      `update products set cost = $2, sku = $3, barcode = $4,
              category_id = case when $5::boolean then $6::uuid else category_id end where id = $1`,
      [
        made.id,
        values.cost === undefined ? 2 : values.cost,
        `SKU-${code}`,
        `BC${code}`,
        values.category !== undefined,
        values.category ?? null,
      ],
    );
    if (stock > 0) await receive(made.id, where, stock);
    return {
      id: made.id,
      name,
      categoryId: values.category ?? made.categoryId,
      sku: `SKU-${code}`,
      barcode: `BC${code}`,
    };
  };

  /** A lot-tracked product with the lots given, each holding its units at its location. */
  const trackedAt = async (
    lots: { number: string; quantity: number; at: string; expiresOn?: string | null }[],
    values: { cost?: number; category?: string } = {},
  ) => {
    const product = await productAt(lots[0]?.at ?? '', 0, values);
    await app().sql(`update products set tracking = 'lot' where id = $1`, [product.id]);
    const ids: Record<string, string> = {};
    for (const lot of lots) {
      ids[lot.number] ??= nth(
        await app().sql<{ id: string }>(
          `insert into lots (product_id, number, expires_on) values ($1, $2, $3::date)
           on conflict (product_id, lower(number)) do update set number = excluded.number returning id`,
          [product.id, lot.number, lot.expiresOn ?? null],
        ),
      ).id;
      if (lot.quantity > 0) await receive(product.id, lot.at, lot.quantity, ids[lot.number]);
    }
    return { ...product, lots: ids };
  };

  /** POST /api/stocktakes as an admin, which must answer 201: the stocktake. */
  const make = async (body: StocktakeInput): Promise<Stocktake> => {
    const answer = await call('POST', '/api/stocktakes', body);
    expect(answer.status, answer.text).toBe(201);
    return parsed(answer, StocktakeResponse).stocktake;
  };

  /** POST /api/stocktakes/:id/counts as `token` (the sales rep unless given): the answer. */
  const countAnswer = (id: string, counts: CountInput[], token = app().as.salesRep.token) =>
    call('POST', `/api/stocktakes/${id}/counts`, { counts }, token);

  /** Counts that must be taken (200): the lines they counted. */
  const count = async (id: string, counts: CountInput[], token?: string): Promise<StocktakeLine[]> => {
    const answer = await countAnswer(id, counts, token);
    expect(answer.status, answer.text).toBe(200);
    return parsed(answer, CountsResponse).counted;
  };

  /** A stocktake's lines as an admin sees them (or `token`), by the query given (all of a small one unless said). */
  const lines = async (id: string, query = 'pageSize=100', token?: string) => {
    const answer = await call('GET', `/api/stocktakes/${id}/lines?${query}`, undefined, token);
    expect(answer.status, answer.text).toBe(200);
    return parsed(answer, StocktakeLinesResponse);
  };

  /** The post, which must answer 200. */
  const post = async (id: string, uncounted: 'keep' | 'zero' = 'keep') => {
    const answer = await call('POST', `/api/stocktakes/${id}/post`, { uncounted });
    expect(answer.status, answer.text).toBe(200);
    return parsed(answer, PostStocktakeResponse);
  };

  /** A product's units at a location (its lot's when given). */
  const stockAt = async (productId: string, where: string, lotId?: string) =>
    nth(
      await app().sql<{ n: number }>(
        lotId
          ? 'select coalesce((select quantity from lot_stock where lot_id = $1 and location_id = $2), 0)::int as n'
          : 'select coalesce((select stock from location_stock where product_id = $1 and location_id = $2), 0)::int as n',
        [lotId ?? productId, where],
      ),
    ).n;

  /** The refusal's code and sentence. */
  const refusal = (answer: Answer) => answer.body as { success: false; error: string; code: string };

  return {
    call,
    location,
    receive,
    productAt,
    trackedAt,
    make,
    countAnswer,
    count,
    lines,
    post,
    stockAt,
    refusal,
  };
}
