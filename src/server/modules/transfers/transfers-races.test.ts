import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StockCheckResponse } from '../../../shared/stock';
import { type Transfer, TransferResponse } from '../../../shared/transfers';
import { fixtures, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { locationLedgerProblems } from '../../test/location-ledger';
import { recordMovements } from '../stock/movements';

/**
 * Sends racing each other and racing sales of the same stock (DESIGN §17): on PostgreSQL they
 * really run at once (a pool of connections), on PGlite one after another. Whatever the order,
 * no location goes below zero, nothing is sold or sent twice, and for every product Σ locations +
 * in transit = Σ movements that are not transfers.
 */
describe.each(targets)('transfers racing on $name', (target) => {
  let t: TestApp;
  let main: string;
  beforeAll(async () => {
    t = await startApp(target, { poolSize: 12 });
    main = (await t.sql<{ id: string }>('select default_location() as id'))[0]?.id as string;
  });
  afterAll(() => t?.close());
  const { sell } = fixtures(() => t);

  const room = async () =>
    (
      await t.sql<{ id: string }>(
        `insert into locations (name, kind) values ($1, 'stockroom') returning id`,
        [`Race room ${tag()}`],
      )
    )[0]?.id as string;
  const productAt = async (stock: number) => {
    const { id } = await t.product({ stock: 0 });
    await recordMovements(t.app.database, [
      { productId: id, kind: 'receipt', quantity: stock, locationId: main },
    ]);
    return id;
  };
  const draft = async (to: string, lines: { product: string; quantity: number }[]): Promise<Transfer> => {
    const answer = await t.call('POST', '/api/transfers', {
      token: t.as.admin.token,
      body: { from: main, to, lines },
    });
    expect(answer.status, answer.text).toBe(201);
    return parsed(answer, TransferResponse).transfer;
  };
  const send = (id: string) => t.call('POST', `/api/transfers/${id}/send`, { token: t.as.admin.token });
  const holds = async (ids: string[]) => {
    expect(await locationLedgerProblems(t.app.database, ids)).toEqual([]);
    const check = parsed(
      await t.call('GET', '/api/stock/check', { token: t.as.admin.token }),
      StockCheckResponse,
    );
    expect(check.mismatches.filter((m) => ids.includes(m.product._id))).toEqual([]);
  };
  const stockAt = async (ids: string[]) =>
    new Map(
      (
        await t.sql<{ product_id: string; stock: number }>(
          'select product_id, stock from location_stock where location_id = $1 and product_id = any($2::uuid[])',
          [main, ids],
        )
      ).map((row) => [row.product_id, row.stock]),
    );

  it('two transfers of the same stock sent at once: one leaves, the other is refused whole', async () => {
    const to = await room();
    const ids = await Promise.all([0, 1, 2, 3, 4, 5].map(() => productAt(10)));
    const lines = ids.map((product) => ({ product, quantity: 7 }));
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all([draft(to, lines), draft(to, [...lines].reverse())]);
      const answers = await Promise.all([send(a?._id as string), send(b?._id as string)]);
      const statuses = answers.map((answer) => answer.status).sort();
      if (round === 0) {
        expect(statuses, answers.map((x) => x.text).join('\n')).toEqual([200, 409]);
        expect(answers.find((x) => x.status === 409)?.body).toMatchObject({ code: 'SHORT_AT_LOCATION' });
      } else expect(statuses).toEqual([409, 409]);
    }
    for (const stock of (await stockAt(ids)).values()) expect(stock).toBe(3);
    await holds(ids);
  });

  it('sends racing multi-line sales of the same products: nothing goes below zero, the invariant holds', async () => {
    const to = await room();
    const ids = await Promise.all(Array.from({ length: 8 }, () => productAt(12)));
    const transfers = await Promise.all(
      [0, 1, 2].map((i) =>
        draft(
          to,
          (i % 2 ? [...ids].reverse() : ids).map((product) => ({ product, quantity: 3 })),
        ),
      ),
    );
    const sales = Array.from({ length: 24 }, (_, i) => {
      const chosen = [ids[i % ids.length], ids[(i * 3 + 1) % ids.length], ids[(i * 5 + 2) % ids.length]];
      const lines = [...new Set(chosen)].map((productId) => ({
        productId: productId as string,
        quantity: 1 + (i % 2),
      }));
      return { lines, payment: { method: 'card' as const } };
    });
    const [sendAnswers, saleAnswers] = await Promise.all([
      Promise.all(transfers.map((x) => send(x._id))),
      Promise.all(sales.map((body) => sell(t.as.salesRep, body))),
    ]);
    for (const answer of [...sendAnswers, ...saleAnswers])
      expect([200, 201, 409], answer.text).toContain(answer.status);
    const sentCount = sendAnswers.filter((x) => x.status === 200).length;
    const sold = new Map<string, number>();
    saleAnswers.forEach((answer, i) => {
      if (answer.status === 201)
        for (const line of sales[i]?.lines ?? [])
          sold.set(line.productId, (sold.get(line.productId) ?? 0) + line.quantity);
    });
    const now = await stockAt(ids);
    for (const id of ids) {
      expect(now.get(id)).toBeGreaterThanOrEqual(0);
      expect(now.get(id), id).toBe(12 - (sold.get(id) ?? 0) - 3 * sentCount);
    }
    expect(sentCount + saleAnswers.filter((x) => x.status === 201).length).toBeGreaterThan(0);
    await holds(ids);
  });
});
