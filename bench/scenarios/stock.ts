import { orderPicker } from '../orders-check';
import {
  BARE_STEADY,
  log,
  median,
  ms,
  ORDER_CLIENTS,
  SECONDS,
  STEADY_RATE,
  STOCK_CHECK_CALLS,
  TARGETS,
} from '../settings';
import { type Bench, type Scenario, targetOf } from './bench';

/** Orders placed flat out, stock adjusted, a product's movements, and the ledger checked. */
export const PLACE_ORDER: Scenario = {
  name: 'place order (64 clients)',
  target: null,
  limit: 'direct SQL',
  run: async (b, s) => {
    const next = orderPicker(b.prepared.httpRun);
    await b.run({
      name: s.name,
      url: `${b.server.url}/api/order/add`,
      method: 'POST',
      connections: ORDER_CLIENTS,
      duration: SECONDS,
      makeBody: () => JSON.stringify(next()),
      headersFor: (i) => ({ authorization: `Bearer ${b.reps[i % b.reps.length]?.token}` }),
    });
  },
};

/**
 * An admin correcting stock by one unit, flat out: the products take turns, and each one goes up
 * and down in turn, so that none drifts far from its large stock.
 */
export const ADJUST_STOCK: Scenario = {
  name: 'adjust stock (admin)',
  target: null,
  limit: null,
  run: async (b, s) => {
    const { adjustIds } = b.prepared;
    let adjustments = 0;
    await b.run({
      name: s.name,
      url: `${b.server.url}/api/products/${adjustIds[0]}/adjust`,
      method: 'POST',
      headers: b.asAdmin,
      connections: 16,
      duration: SECONDS,
      makeRequest: () => {
        const i = adjustments++;
        const up = Math.floor(i / adjustIds.length) % 2 === 0;
        return {
          path: `/api/products/${adjustIds[i % adjustIds.length]}/adjust`,
          body: JSON.stringify({ quantity: up ? 1 : -1, reason: up ? 'found' : 'lost' }),
        };
      },
    });
  },
};

/**
 * A product's history, newest first, for the products with the most movements: the hot ones of
 * both order runs (their loaded sales and the thousands just placed).
 */
export const MOVEMENTS_PAGE: Scenario = {
  name: `stock movements page of 20, steady ${STEADY_RATE} req/s`,
  target: `p99 < ${TARGETS.movementsP99} ms`,
  limit: BARE_STEADY,
  run: async (b, s) => {
    const busiest = [...b.prepared.directRun.hot, ...b.prepared.httpRun.hot];
    await b.runSteady(
      {
        name: s.name,
        url: `${b.server.url}/api/products/${busiest[0]}/movements?page=1&pageSize=20`,
        urlFor: (i) =>
          `${b.server.url}/api/products/${busiest[i % busiest.length]}/movements?page=1&pageSize=20`,
        headers: b.asAdmin,
        connections: 16,
        duration: SECONDS,
        rate: STEADY_RATE,
      },
      targetOf(s),
    );
  },
};

/**
 * A check called STOCK_CHECK_CALLS times one after another, once the database settled: each call's
 * time into `ms`, each answer (parsed) to `read`; an answer that is not 2xx ends the bench.
 */
async function callInTurn<T>(b: Bench, path: string, ms: number[], read: (body: T) => void): Promise<void> {
  await b.settle();
  for (let i = 0; i < STOCK_CHECK_CALLS; i++) {
    const started = performance.now();
    const res = await fetch(`${b.server.url}${path}`, { headers: b.asAdmin });
    const text = await res.text();
    ms.push(performance.now() - started);
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    read(JSON.parse(text) as T);
  }
}

/** What GET /api/accounting/check answers; `failedChecks` names the checks that do not hold. */
type BooksCheckAnswer = { checks: { name: string; ok: boolean }[] };
const failedChecks = (body: BooksCheckAnswer) =>
  body.checks.filter((check) => !check.ok).map((check) => check.name);

/**
 * The books check asked once, after a scenario's writes (the bills', the offline sales'): the
 * names of the checks that do not hold, or the answer's status when it is not a 200.
 */
export async function failedBooksChecks(b: Bench): Promise<string[]> {
  const res = await fetch(`${b.server.url}/api/accounting/check`, { headers: b.asAdmin });
  const text = await res.text();
  if (!res.ok) return [`GET /api/accounting/check answered ${res.status}: ${text.slice(0, 160)}`];
  return failedChecks(JSON.parse(text) as BooksCheckAnswer);
}

/**
 * DESIGN §19: the books check over the whole store, called like the stock check, after every write;
 * its time is measured (DESIGN sets none) and every check must hold.
 */
export const BOOKS_CHECK: Scenario = {
  name: 'books check (GET /api/accounting/check)',
  target: null,
  limit: null,
  run: async (b, s) => {
    const { booksCheck } = b.measured;
    await callInTurn<BooksCheckAnswer>(b, '/api/accounting/check', booksCheck.ms, (body) => {
      booksCheck.failed = failedChecks(body);
    });
    log(
      `  ${s.name.padEnd(34)} ${booksCheck.ms.map((n) => n.toFixed(0)).join(', ')} ms, median ${ms(median(booksCheck.ms))}; ${booksCheck.failed.length ? `failed: ${booksCheck.failed.join(', ')}` : 'every check holds'}`,
    );
  },
};

/** Every product's stock against the sum of its movements, after every write before it. */
export const STOCK_CHECK: Scenario = {
  name: 'stock check (GET /api/stock/check)',
  target: `< ${TARGETS.stockCheckMs} ms`,
  limit: null,
  run: async (b, s) => {
    const { stockCheck } = b.measured;
    await callInTurn<{ checked: number; mismatches: unknown[] }>(
      b,
      '/api/stock/check',
      stockCheck.ms,
      (body) => {
        stockCheck.checked = body.checked;
        stockCheck.mismatches = Math.max(stockCheck.mismatches, body.mismatches.length);
      },
    );
    log(
      `  ${s.name.padEnd(34)} ${stockCheck.ms.map((n) => n.toFixed(0)).join(', ')} ms, median ${ms(median(stockCheck.ms))}  (target ${s.target}); ${stockCheck.mismatches} mismatches over ${stockCheck.checked} products`,
    );
  },
};
