import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { SaleResponse } from '../../../shared/sales';
import { StockCheckResponse } from '../../../shared/stock';
import {
  type ClampedLine,
  CountsResponse,
  PostStocktakeResponse,
  StocktakeLinesResponse,
  StocktakeResponse,
} from '../../../shared/stocktakes';
import { fixtures, nth, tag } from '../../test/fixtures';
import { type Account, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { locationLedgerProblems } from '../../test/location-ledger';
import { recordMovements } from '../stock/movements';

/** A small seeded generator (mulberry32): the same seed, the same days of activity. */
function random(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * below);
  };
}

/** What the model knows of a stocktake's line: its product and lot, the last count, and what moved since. */
type ModelLine = {
  id: string;
  product: string;
  lot: string | null;
  counted: number | null;
  expectedAtCount: number | null;
  /** The net of the movements of this (product, location, lot) since the last count. */
  since: number;
};
type ModelStocktake = {
  id: string;
  place: number;
  products: Set<string>;
  lines: ModelLine[];
  status: 'counting' | 'posted' | 'cancelled';
  uncounted?: 'keep' | 'zero';
};

/**
 * Days of random trading on a handful of products (two tracked by lot) at two shops while they are
 * counted (DESIGN §18): counter sales at each shop, receipts (new lots too) and write-offs, and
 * stocktakes made by product or category or of every product with stock, counted by two people by
 * scans (+1) and typed quantities (a lot not on the list as well), posted with the uncounted lines
 * kept or zeroed, or cancelled. A model of each (product, shop, lot) judges every answer, and at
 * the end: each location's stock = Σ its movements = the model, never below 0, and the ledger's
 * own check is clean; each posted line's movement = max(counted − expectedAtCount, −stock then),
 * its stock right after = counted + what moved since its count (0 where clamped); uncounted lines
 * zeroed or untouched as the post chose; no movement names a cancelled stocktake; each posted one
 * has one audit entry.
 */
describe.each(targets)('stocktakes through random days on $name', (target) => {
  let t: TestApp;
  const { sell } = fixtures(() => t);
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  for (const seed of [5, 14]) {
    it(`seed ${seed}: every post is counted − expected at the count, never below 0, and every ledger holds`, async () => {
      const next = random(seed);
      const places = await Promise.all(
        ['A', 'B'].map(
          async (name) =>
            nth(
              await t.sql<{ id: string }>(
                `insert into locations (name, kind) values ($1, 'store') returning id`,
                [`Shop ${name} ${tag()}`],
              ),
            ).id,
        ),
      );
      // A seller at each shop (a sale takes from its seller's location), and two counters.
      const sellers: Account[] = [];
      for (const place of places) {
        const seller = await t.account('salesRep');
        await t.sql('update users set location_id = $2 where id = $1', [seller.id, place]);
        sellers.push(seller);
      }
      const counters = [t.as.medicalRep, t.as.user];
      const products: { id: string; categoryId: string; tracked: boolean; lots: string[] }[] = [];
      for (let i = 0; i < 5; i++) {
        const made = await t.product({ stock: 0, price: 2 + i });
        const tracked = i >= 3;
        if (tracked) await t.sql(`update products set tracking = 'lot' where id = $1`, [made.id]);
        await t.setCost(made.id, 1 + i * 0.5);
        products.push({ ...made, tracked, lots: [] });
      }
      const trackedOf = new Map(products.map((p) => [p.id, p]));
      let lotNumber = 0;
      const newLot = async (productId: string) => {
        lotNumber += 1;
        const row = nth(
          await t.sql<{ id: string }>(
            `insert into lots (product_id, number, expires_on)
             values ($1, $2, (now() at time zone (select time_zone from report_settings))::date + $3::int) returning id`,
            [productId, `P${seed}-${lotNumber}`, 30 + lotNumber * 5],
          ),
        ).id;
        trackedOf.get(productId)?.lots.push(row);
        return row;
      };

      /** Units per (shop, product, lot), and the stocktakes. */
      const held = new Map<string, number>();
      const key = (place: number, product: string, lot: string | null) => `${place}|${product}|${lot ?? ''}`;
      const unitsOf = (place: number, product: string, lot: string | null) =>
        held.get(key(place, product, lot)) ?? 0;
      const productUnits = (place: number, product: string) =>
        [...held.entries()]
          .filter(([k]) => k.startsWith(`${place}|${product}|`))
          .reduce((sum, [, n]) => sum + n, 0);
      const takes: ModelStocktake[] = [];
      /** Every change to a (shop, product, lot): the model's stock and each open line's `since`. */
      const moved = (place: number, product: string, lot: string | null, quantity: number) => {
        held.set(key(place, product, lot), unitsOf(place, product, lot) + quantity);
        for (const take of takes)
          if (take.status === 'counting' && take.place === place)
            for (const line of take.lines)
              if (line.product === product && line.lot === lot && line.counted !== null)
                line.since += quantity;
      };
      const dbUnits = async (place: number, product: string, lot: string | null) =>
        nth(
          await t.sql<{ n: number }>(
            lot === null
              ? 'select coalesce((select stock from location_stock where product_id = $1 and location_id = $2), 0)::int as n'
              : 'select coalesce((select quantity from lot_stock where product_id = $1 and lot_id = $3 and location_id = $2), 0)::int as n',
            lot === null ? [product, places[place]] : [product, places[place], lot],
          ),
        ).n;

      const seen = {
        sold: 0,
        refused: 0,
        received: 0,
        writtenOff: 0,
        made: 0,
        overlap: 0,
        scans: 0,
        sets: 0,
        lotAdded: 0,
        keep: 0,
        zero: 0,
        clamped: 0,
        cancelled: 0,
        late: 0,
      };
      // Opening stock: each product at each shop, the tracked ones in a lot or two.
      for (const [place, location] of places.entries())
        for (const product of products) {
          const lots = product.tracked ? [await newLot(product.id), await newLot(product.id)] : [null];
          for (const lot of lots) {
            const quantity = 3 + next(8);
            await recordMovements({ query: t.sql }, [
              { productId: product.id, kind: 'receipt', quantity, locationId: location, lotId: lot },
            ]);
            moved(place, product.id, lot, quantity);
          }
        }

      for (let step = 0; step < 150; step++) {
        const place = next(2);
        const location = places[place] as string;
        const product = products[next(products.length)] as (typeof products)[number];
        const open = takes.filter((take) => take.status === 'counting');
        const kind = next(24);
        const at = `step ${step}`;
        if (kind < 8) {
          // A counter sale of one or two products at the shop, whole or refused whole; half the time
          // of a product counted there and not yet posted (what a post must keep counted).
          const counted = open
            .filter((take) => take.place === place)
            .flatMap((take) => take.lines.filter((line) => line.counted !== null));
          const first =
            counted.length > 0 && next(2) === 0
              ? (counted[next(counted.length)] as ModelLine).product
              : product.id;
          const chosen = [...new Set([first, (products[next(products.length)] as { id: string }).id])];
          const lines = chosen.map((productId) => ({ productId, quantity: 1 + next(2) }));
          const answer = await sell(sellers[place] as Account, { lines, payment: { method: 'card' } });
          const fits = lines.every((line) => line.quantity <= productUnits(place, line.productId));
          expect(answer.status, `${at}: ${answer.text}`).toBe(fits ? 201 : 409);
          if (!fits) {
            seen.refused++;
            continue;
          }
          seen.sold++;
          for (const line of parsed(answer, SaleResponse).sale.lines) {
            const productId = String(line.product._id);
            if (trackedOf.get(productId)?.tracked) {
              expect(line.lots.reduce((sum, lot) => sum + lot.quantity, 0)).toBe(line.quantity);
              for (const lot of line.lots) moved(place, productId, lot.lot._id, -lot.quantity);
            } else moved(place, productId, null, -line.quantity);
          }
        } else if (kind < 11) {
          // A delivery: a new lot now and then for a tracked product.
          const lot = product.tracked
            ? next(3) === 0
              ? await newLot(product.id)
              : (product.lots[next(product.lots.length)] as string)
            : null;
          const quantity = 2 + next(8);
          await recordMovements({ query: t.sql }, [
            { productId: product.id, kind: 'receipt', quantity, locationId: location, lotId: lot },
          ]);
          moved(place, product.id, lot, quantity);
          seen.received++;
        } else if (kind < 12) {
          // A box or two found damaged.
          const lot = product.tracked ? (product.lots[next(product.lots.length)] as string) : null;
          const quantity = Math.min(unitsOf(place, product.id, lot), 1 + next(2));
          if (quantity === 0) continue;
          await recordMovements({ query: t.sql }, [
            {
              productId: product.id,
              kind: 'adjustment',
              reason: 'damaged',
              quantity: -quantity,
              locationId: location,
              lotId: lot,
            },
          ]);
          moved(place, product.id, lot, -quantity);
          seen.writtenOff++;
        } else if ((kind < 14 && open.length < 2) || open.length === 0) {
          // A stocktake: some products, a category, or every product with stock at the shop.
          const how = next(4);
          const named = products.filter(() => next(2) === 0);
          const scope =
            how === 0
              ? {}
              : how === 1
                ? { categories: [product.categoryId] }
                : { products: (named.length > 0 ? named : [product]).map((p) => p.id) };
          const inScope = new Set(
            'categories' in scope
              ? [product.id]
              : 'products' in scope
                ? (scope.products as string[])
                : products.filter((p) => productUnits(place, p.id) > 0).map((p) => p.id),
          );
          const answer = await t.call('POST', '/api/stocktakes', {
            token: t.as.admin.token,
            body: { location, ...scope },
          });
          if (inScope.size === 0) {
            expect(answer.status, `${at}: ${answer.text}`).toBe(400);
            continue;
          }
          const clash = open.some(
            (take) => take.place === place && [...inScope].some((id) => take.products.has(id)),
          );
          if (clash) {
            expect(answer.status, `${at}: ${answer.text}`).toBe(409);
            expect(parsed(answer, ApiError).code).toBe('STOCKTAKE_OVERLAP');
            seen.overlap++;
            continue;
          }
          expect(answer.status, `${at}: ${answer.text}`).toBe(201);
          const made = parsed(answer, StocktakeResponse).stocktake;
          const lines = parsed(
            await t.call('GET', `/api/stocktakes/${made._id}/lines?pageSize=100`, {
              token: t.as.admin.token,
            }),
            StocktakeLinesResponse,
          ).lines;
          // A line per product, a tracked one's per lot with stock there.
          const planned = [...inScope].flatMap((id) =>
            trackedOf.get(id)?.tracked
              ? (trackedOf.get(id)?.lots ?? [])
                  .filter((lot) => unitsOf(place, id, lot) > 0)
                  .map((lot) => `${id}|${lot}`)
              : [`${id}|`],
          );
          expect(lines.map((line) => `${line.product._id}|${line.lot?._id ?? ''}`).sort(), at).toEqual(
            planned.sort(),
          );
          for (const line of lines)
            expect(line.expected, at).toBe(unitsOf(place, line.product._id, line.lot?._id ?? null));
          takes.push({
            id: made._id,
            place,
            products: inScope,
            status: 'counting',
            lines: lines.map((line) => ({
              id: line._id,
              product: line.product._id,
              lot: line.lot?._id ?? null,
              counted: null,
              expectedAtCount: null,
              since: 0,
            })),
          });
          seen.made++;
        } else if (kind < 21) {
          // A count of one of an open stocktake's products: a scan (+1) or a typed quantity, by
          // either counter; a tracked product's lot now and then one not on the list.
          const take = open[next(open.length)] as ModelStocktake;
          const scoped = [...take.products];
          const productId = scoped[next(scoped.length)] as string;
          const of = trackedOf.get(productId);
          const listed = take.lines.filter((l) => l.product === productId).map((l) => l.lot);
          const offList = of?.tracked ? of.lots.filter((lot) => !listed.includes(lot)) : [];
          // A tracked product with no lot on the list (none had stock here) is counted by a lot anyway.
          const lot =
            listed.length === 0 || (offList.length > 0 && next(4) === 0)
              ? (offList[next(offList.length)] ?? null)
              : (listed[next(listed.length)] ?? null);
          const line = { product: productId };
          const scan = next(2) === 0;
          // A typed count is near the stock, now and then of a shelf nearly empty (the rest out back).
          const quantity = scan
            ? 1
            : next(3) === 0
              ? next(2)
              : Math.max(0, unitsOf(take.place, line.product, lot) + next(5) - 2);
          const lotNumberOf = lot
            ? nth(await t.sql<{ number: string }>('select number from lots where id = $1', [lot])).number
            : undefined;
          const answer = await t.call('POST', `/api/stocktakes/${take.id}/counts`, {
            token: (counters[next(2)] as Account).token,
            body: {
              counts: [
                {
                  product: line.product,
                  ...(lotNumberOf ? { lot: { number: lotNumberOf } } : {}),
                  quantity,
                  mode: scan ? 'add' : 'set',
                },
              ],
            },
          });
          expect(answer.status, `${at}: ${answer.text}`).toBe(200);
          const got = nth(parsed(answer, CountsResponse).counted);
          let counting = take.lines.find((l) => l.product === line.product && l.lot === lot);
          if (!counting) {
            counting = {
              id: got._id,
              product: line.product,
              lot,
              counted: null,
              expectedAtCount: null,
              since: 0,
            };
            take.lines.push(counting);
            seen.lotAdded++;
          }
          counting.counted = scan ? (counting.counted ?? 0) + 1 : quantity;
          counting.expectedAtCount = unitsOf(take.place, line.product, lot);
          counting.since = 0;
          expect(got, at).toMatchObject({
            _id: counting.id,
            counted: counting.counted,
            expectedAtCount: counting.expectedAtCount,
          });
          if (scan) seen.scans++;
          else seen.sets++;
        } else if (kind < 23) {
          // Posted, the uncounted lines kept or zeroed.
          const take = open[next(open.length)] as ModelStocktake;
          const uncounted = next(2) === 0 ? 'keep' : 'zero';
          for (const line of take.lines)
            expect(await dbUnits(take.place, line.product, line.lot), at).toBe(
              unitsOf(take.place, line.product, line.lot),
            );
          if (take.lines.some((line) => line.counted !== null && line.since !== 0)) seen.late++;
          const answer = await t.call('POST', `/api/stocktakes/${take.id}/post`, {
            token: t.as.admin.token,
            body: { uncounted },
          });
          expect(answer.status, `${at}: ${answer.text}`).toBe(200);
          const body = parsed(answer, PostStocktakeResponse);
          expect(body.stocktake).toMatchObject({ status: 'posted', uncounted });
          const clamped: ClampedLine[] = [];
          const posted = new Map<string, number | null>();
          for (const line of take.lines) {
            const stock = unitsOf(take.place, line.product, line.lot);
            let quantity: number | null = null;
            if (line.counted !== null && line.expectedAtCount !== null) {
              const difference = line.counted - line.expectedAtCount;
              quantity = Math.max(difference, 0 - stock); // 0 − 0 is 0, where −0 would not equal the answer's 0
              if (quantity !== difference) clamped.push({ difference, posted: quantity } as ClampedLine);
            } else if (uncounted === 'zero' && stock > 0) quantity = -stock;
            posted.set(line.id, quantity);
            if (quantity !== null) {
              const counted = line.counted;
              const since = line.since;
              moved(take.place, line.product, line.lot, quantity);
              // Right after the post: what was counted plus what moved since, unless clamped to 0.
              const after = await dbUnits(take.place, line.product, line.lot);
              if (counted !== null) expect(after, at).toBe(Math.max(counted + since, 0));
              else expect(after, at).toBe(0);
            }
            // Kept (or nothing there to zero): untouched.
            else expect(await dbUnits(take.place, line.product, line.lot), at).toBe(stock);
          }
          expect(body.clamped.map((c) => [c.difference, c.posted]).sort(), at).toEqual(
            clamped.map((c) => [c.difference, c.posted]).sort(),
          );
          seen.clamped += clamped.length;
          const written = await t.sql<{
            line: string;
            posted: number | null;
            moved: number;
            movements: number;
          }>(
            `select sl.id as line, sl.posted,
                    (select coalesce(sum(m.quantity), 0)::int from stock_movements m
                      where m.stocktake_id = sl.stocktake_id and m.product_id = sl.product_id
                        and m.lot_id is not distinct from sl.lot_id) as moved,
                    (select count(*)::int from stock_movements m
                      where m.stocktake_id = sl.stocktake_id and m.product_id = sl.product_id
                        and m.lot_id is not distinct from sl.lot_id and m.kind = 'count') as movements
               from stocktake_lines sl where sl.stocktake_id = $1`,
            [take.id],
          );
          expect(written, at).toHaveLength(take.lines.length);
          for (const row of written) {
            const quantity = posted.get(row.line);
            expect(row, at).toEqual({
              line: row.line,
              posted: quantity ?? null,
              moved: quantity ?? 0,
              movements: quantity === null || quantity === undefined ? 0 : 1,
            });
          }
          take.status = 'posted';
          take.uncounted = uncounted;
          seen[uncounted]++;
        } else {
          const take = open[next(open.length)] as ModelStocktake;
          const answer = await t.call('POST', `/api/stocktakes/${take.id}/cancel`, {
            token: t.as.admin.token,
          });
          expect(answer.status, `${at}: ${answer.text}`).toBe(200);
          take.status = 'cancelled';
          seen.cancelled++;
        }
      }

      // Every (shop, product, lot) as the model says; the ledger whole; the stock check clean.
      for (const [place] of places.entries())
        for (const product of products) {
          for (const lot of product.tracked ? product.lots : [null])
            expect(await dbUnits(place, product.id, lot), `${place} ${product.id} ${lot}`).toBe(
              unitsOf(place, product.id, lot),
            );
          expect(productUnits(place, product.id)).toBeGreaterThanOrEqual(0);
        }
      const ids = products.map((p) => p.id);
      expect(await locationLedgerProblems(t.app.database, ids)).toEqual([]);
      const check = await t.call('GET', '/api/stock/check', { token: t.as.admin.token });
      expect(parsed(check, StockCheckResponse).mismatches).toEqual([]);
      const [stray] = await t.sql<{ n: number }>(
        `select count(*)::int as n from stock_movements m join stocktakes s on s.id = m.stocktake_id
          where s.status <> 'posted'`,
      );
      expect(stray?.n).toBe(0);
      const statuses = await t.sql<{ id: string; status: string; audits: number; moved: number }>(
        `select s.id, s.status,
                (select count(*)::int from audit_log a where a.entity_type = 'stocktake' and a.entity_id = s.id
                   and a.action = 'posted') as audits,
                (select count(*)::int from stock_movements m where m.stocktake_id = s.id) as moved
           from stocktakes s where s.id = any($1::uuid[])`,
        [takes.map((take) => take.id)],
      );
      expect(statuses).toHaveLength(takes.length);
      for (const take of takes)
        expect(
          statuses.find((row) => row.id === take.id),
          take.id,
        ).toMatchObject({
          status: take.status,
          audits: take.status === 'posted' ? 1 : 0,
        });
      // Kept lines were left alone; zeroed ones with stock were written down.
      for (const take of takes.filter((each) => each.status === 'posted'))
        for (const line of take.lines.filter((each) => each.counted === null)) {
          const [row] = await t.sql<{ posted: number | null }>(
            'select posted from stocktake_lines where id = $1',
            [line.id],
          );
          if (take.uncounted === 'keep') expect(row?.posted).toBeNull();
          else expect(row?.posted === null || (row?.posted ?? 0) < 0).toBe(true);
        }
      expect(
        Object.values(seen).every((n) => n > 0),
        JSON.stringify(seen),
      ).toBe(true);
    }, 60_000);
  }
});
