import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SaleResponse } from '../../../shared/sales';
import { StockCheckResponse } from '../../../shared/stock';
import { fixtures } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

/** A small seeded generator (mulberry32): the same seed, the same day of activity. */
function random(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * below);
  };
}

/**
 * A day of random activity through every writer of the stock ledger the API offers — sales of
 * several lines, refunds that restock or write off, adjustments both ways, counts — each judged
 * against a model of what the stock must be, and at the end every invariant of DESIGN §8: each
 * product's stock = the sum of its movements = the model, never below zero, and the ledger's own
 * check finds nothing. Whatever the seed, a refused step changes nothing.
 */
describe.each(targets)('the stock ledger after a random day on $name', (target) => {
  let t: TestApp;
  const { sell, stockOf, ledgerOf } = fixtures(() => t);
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const seed of [35, 3501]) {
    it(`seed ${seed}: 80 steps, stock = Σ movements = the model, never below zero`, async () => {
      const next = random(seed);
      const products = await Promise.all(
        [0, 1, 2, 3, 4].map((i) => t.product({ stock: 6 + i * 3, price: 1.25 + i })),
      );
      const model = new Map<string, number>();
      for (const [i, p] of products.entries()) model.set(p.id, 6 + i * 3);
      const soldLines: { order: string; productId: string; left: number }[] = [];
      const seen = { sold: 0, refused: 0, refunded: 0, adjusted: 0, counted: 0 };

      for (let step = 0; step < 80; step++) {
        const product = products[next(products.length)] as { id: string };
        const kind = next(10);
        if (kind < 4) {
          // A sale of one to three distinct products: whole or refused whole.
          const chosen = [...new Set([product.id, ...products.slice(0, next(3)).map((p) => p.id)])];
          const lines = chosen.map((productId) => ({ productId, quantity: 1 + next(4) }));
          const answer = await sell(t.as.salesRep, { lines, payment: { method: 'card' } });
          const fits = lines.every((line) => line.quantity <= (model.get(line.productId) ?? 0));
          expect(answer.status, `step ${step}`).toBe(fits ? 201 : 409);
          if (answer.status === 201) {
            seen.sold++;
            for (const line of lines)
              model.set(line.productId, (model.get(line.productId) ?? 0) - line.quantity);
            const body = parsed(answer, SaleResponse);
            for (const line of body.sale.lines) {
              expect(line.product._id, 'a sold line names its product').not.toBeNull();
              soldLines.push({
                order: line.order._id,
                productId: String(line.product._id),
                left: line.quantity,
              });
            }
          } else seen.refused++;
        } else if (kind < 6 && soldLines.some((line) => line.left > 0)) {
          // A refund of one unit of a sold line, restocked or written off.
          const open = soldLines.filter((line) => line.left > 0);
          const line = open[next(open.length)] as (typeof open)[number];
          const restock = next(2) === 0;
          const saleOf = await t.sql<{ sale_id: string }>('select sale_id from orders where id = $1', [
            line.order,
          ]);
          const answer = await t.call('POST', `/api/sales/${saleOf[0]?.sale_id}/refunds`, {
            token: t.as.salesRep.token,
            body: { lines: [{ order: line.order, quantity: 1 }], method: 'card', restock },
          });
          expect(answer.status, `step ${step}: ${answer.text}`).toBe(201);
          seen.refunded++;
          line.left--;
          // Written off, the unit comes back and goes out again: the stock is as it was.
          if (restock) model.set(line.productId, (model.get(line.productId) ?? 0) + 1);
        } else if (kind < 8) {
          // An adjustment: found units in, damaged units out (never below zero).
          const quantity = next(2) === 0 ? 1 + next(5) : -(1 + next(5));
          const answer = await t.call('POST', `/api/products/${product.id}/adjust`, {
            token: t.as.admin.token,
            body: { quantity, reason: quantity > 0 ? 'found' : 'damaged', note: `step ${step}` },
          });
          const fits = (model.get(product.id) ?? 0) + quantity >= 0;
          expect(answer.status, `step ${step}: ${answer.text}`).toBe(fits ? 200 : 409);
          if (fits) {
            seen.adjusted++;
            model.set(product.id, (model.get(product.id) ?? 0) + quantity);
          }
        } else {
          // A count: the stock becomes what was counted.
          const counted = next(15);
          const answer = await t.call('POST', `/api/products/${product.id}/count`, {
            token: t.as.admin.token,
            body: { counted, note: `step ${step}` },
          });
          expect(answer.status, `step ${step}: ${answer.text}`).toBe(200);
          seen.counted++;
          model.set(product.id, counted);
        }
      }

      for (const product of products) {
        const expected = model.get(product.id);
        expect(await stockOf(product.id), product.id).toBe(expected);
        expect(await ledgerOf(product.id), product.id).toBe(expected);
        expect(expected).toBeGreaterThanOrEqual(0);
      }
      const below = await t.sql<{ n: number }>(
        'select count(*)::int as n from stock_movements where product_id = any($1::uuid[]) and stock_after < 0',
        [products.map((p) => p.id)],
      );
      expect(below[0]?.n).toBe(0);
      const check = await t.call('GET', '/api/stock/check', { token: t.as.admin.token });
      expect(check.status).toBe(200);
      const { mismatches } = StockCheckResponse.parse(check.body);
      expect(mismatches.filter((m) => products.some((p) => JSON.stringify(m).includes(p.id)))).toEqual([]);
      // The day did something of every kind, so each writer was exercised.
      expect(
        Object.values(seen).every((n) => n > 0),
        JSON.stringify(seen),
      ).toBe(true);
    });
  }
});
