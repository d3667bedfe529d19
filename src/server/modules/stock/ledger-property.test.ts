import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BooksCheckResponse } from '../../../shared/accounting';
import { SaleResponse } from '../../../shared/sales';
import { StockCheckResponse } from '../../../shared/stock';
import { TransferResponse } from '../../../shared/transfers';
import { fixtures } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { locationLedgerProblems } from '../../test/location-ledger';

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
 * several lines, refunds that restock or write off, adjustments both ways, counts, and transfers
 * between the default location and a stockroom (sent, received in part, with lost units, closed)
 * — each judged against a model of what each location must hold and what is on the road, and at
 * the end every invariant of DESIGN §8 and §17: each location's stock = the sum of its movements
 * there = the model, never below zero; a product's stock = the sum over its locations; Σ
 * locations + in transit = Σ movements that are not transfers; and the ledger's own check finds
 * nothing. Whatever the seed, a refused step changes nothing.
 */
describe.each(targets)('the stock ledger after a random day on $name', (target) => {
  let t: TestApp;
  const { sell, stockOf, ledgerOf } = fixtures(() => t);
  let main: string;
  let room: string;
  beforeAll(async () => {
    t = await startApp(target);
    main = (await t.sql<{ id: string }>('select default_location() as id'))[0]?.id as string;
    room = (
      await t.sql<{ id: string }>(
        `insert into locations (name, kind) values ('Back room', 'stockroom') returning id`,
      )
    )[0]?.id as string;
  });
  const stockAt = async (productId: string, where: string) =>
    (
      await t.sql<{ stock: number }>(
        'select coalesce((select stock from location_stock where product_id = $1 and location_id = $2), 0) as stock',
        [productId, where],
      )
    )[0]?.stock;
  afterAll(async () => {
    await t?.close();
  });

  for (const seed of [35, 3501]) {
    it(`seed ${seed}: 120 steps, each location = Σ its movements = the model, never below zero; transit adds up`, async () => {
      const next = random(seed);
      const products = await Promise.all(
        [0, 1, 2, 3, 4].map((i) => t.product({ stock: 6 + i * 3, price: 1.25 + i })),
      );
      const model = new Map<string, number>();
      for (const [i, p] of products.entries()) model.set(p.id, 6 + i * 3);
      const soldLines: { order: string; productId: string; left: number }[] = [];
      const seen = {
        sold: 0,
        refused: 0,
        refunded: 0,
        adjusted: 0,
        counted: 0,
        sent: 0,
        sendRefused: 0,
        received: 0,
        lost: 0,
        closed: 0,
      };
      /** The model of the stockroom; `model` is the default location's, where sales and counts are. */
      const roomModel = new Map<string, number>(products.map((p) => [p.id, 0]));
      const held = (where: 'main' | 'room') => (where === 'main' ? model : roomModel);
      type OnTheRoad = {
        transfer: string;
        line: string;
        productId: string;
        from: 'main' | 'room';
        to: 'main' | 'room';
        open: number;
      };
      const road: OnTheRoad[] = [];
      const placeId = (where: 'main' | 'room') => (where === 'main' ? main : room);

      for (let step = 0; step < 120; step++) {
        const product = products[next(products.length)] as { id: string };
        const kind = next(14);
        if (kind >= 10) {
          const open = road.filter((r) => r.open > 0);
          if (kind < 12 || open.length === 0) {
            // A transfer of one or two products, mostly to the stockroom, now and then back: sent
            // whole or refused whole (a line short at `from`), the draft then left as it is.
            const from = next(4) === 0 ? 'room' : 'main';
            const to = from === 'main' ? 'room' : 'main';
            const chosen = [...new Set([product.id, (products[next(products.length)] as { id: string }).id])];
            const lines = chosen.map((id) => ({ product: id, quantity: 1 + next(4) }));
            const made = await t.call('POST', '/api/transfers', {
              token: t.as.admin.token,
              body: { from: placeId(from), to: placeId(to), lines },
            });
            expect(made.status, `step ${step}: ${made.text}`).toBe(201);
            const transfer = parsed(made, TransferResponse).transfer;
            const answer = await t.call('POST', `/api/transfers/${transfer._id}/send`, {
              token: t.as.admin.token,
            });
            const fits = lines.every((line) => line.quantity <= (held(from).get(line.product) ?? 0));
            expect(answer.status, `step ${step}: ${answer.text}`).toBe(fits ? 200 : 409);
            if (!fits) {
              seen.sendRefused++;
              continue;
            }
            seen.sent++;
            for (const line of parsed(answer, TransferResponse).transfer.lines) {
              held(from).set(line.product._id, (held(from).get(line.product._id) ?? 0) - line.sent);
              road.push({
                transfer: transfer._id,
                line: line._id,
                productId: line.product._id,
                from,
                to,
                open: line.sent,
              });
            }
          } else if (kind < 13) {
            // A receipt of part of a line, some of it lost; now and then more than is on the road.
            const line = open[next(open.length)] as OnTheRoad;
            const over = next(6) === 0;
            const lost = over ? 0 : next(Math.min(2, line.open) + 1);
            const received = over ? line.open + 1 : next(line.open - lost + 1);
            if (!over && received + lost === 0) continue;
            const answer = await t.call('POST', `/api/transfers/${line.transfer}/receive`, {
              token: t.as.admin.token,
              body: { lines: [{ line: line.line, received, lost }] },
            });
            expect(answer.status, `step ${step}: ${answer.text}`).toBe(over ? 409 : 200);
            if (over) continue;
            seen.received++;
            if (lost > 0) seen.lost++;
            line.open -= received + lost;
            held(line.to).set(line.productId, (held(line.to).get(line.productId) ?? 0) + received);
          } else {
            // A transfer closed: what is still on the road goes back where it left.
            const line = open[next(open.length)] as OnTheRoad;
            const answer = await t.call('POST', `/api/transfers/${line.transfer}/cancel`, {
              token: t.as.admin.token,
            });
            expect(answer.status, `step ${step}: ${answer.text}`).toBe(200);
            seen.closed++;
            for (const each of road.filter((r) => r.transfer === line.transfer)) {
              held(each.from).set(each.productId, (held(each.from).get(each.productId) ?? 0) + each.open);
              each.open = 0;
            }
          }
          continue;
        }
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
        } else if ((roomModel.get(product.id) ?? 0) === 0) {
          // A count: the stock becomes what was counted (at the default location; counts by
          // location are another step's, so only a product the stockroom holds none of).
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
        const expected = model.get(product.id) ?? 0;
        const inRoom = roomModel.get(product.id) ?? 0;
        expect(await stockAt(product.id, main), product.id).toBe(expected);
        expect(await stockAt(product.id, room), product.id).toBe(inRoom);
        expect(await stockOf(product.id), product.id).toBe(expected + inRoom);
        expect(await ledgerOf(product.id), product.id).toBe(expected + inRoom);
        expect(expected).toBeGreaterThanOrEqual(0);
        expect(inRoom).toBeGreaterThanOrEqual(0);
        const [transit] = await t.sql<{ n: number }>(
          'select coalesce(sum(sent - received - lost - returned), 0)::int as n from transfer_lines where product_id = $1',
          [product.id],
        );
        expect(transit?.n, product.id).toBe(
          road.filter((r) => r.productId === product.id).reduce((sum, r) => sum + r.open, 0),
        );
      }
      expect(
        await locationLedgerProblems(
          t.app.database,
          products.map((p) => p.id),
        ),
      ).toEqual([]);
      const below = await t.sql<{ n: number }>(
        'select count(*)::int as n from stock_movements where product_id = any($1::uuid[]) and stock_after < 0',
        [products.map((p) => p.id)],
      );
      expect(below[0]?.n).toBe(0);
      // DESIGN §19: after the day's sales, refunds, adjustments, counts and transfers, the books check out.
      const books = await t.call('GET', '/api/accounting/check', { token: t.as.admin.token });
      expect(BooksCheckResponse.parse(books.body).checks.filter((c) => !c.ok)).toEqual([]);
      const check = await t.call('GET', '/api/stock/check', { token: t.as.admin.token });
      expect(check.status).toBe(200);
      const { mismatches } = StockCheckResponse.parse(check.body);
      expect(mismatches.filter((m) => products.some((p) => JSON.stringify(m).includes(p.id)))).toEqual([]);
      // The day did something of every kind, so each writer was exercised.
      expect(
        Object.values(seen).every((n) => n > 0),
        JSON.stringify(seen),
      ).toBe(true);
    }, 120_000);
  }
});
