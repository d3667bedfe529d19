import pg from 'pg';
import { load } from '../http-load';
import { FLAT_OUT_SALE_LINES, STEADY_SALE_LINES, saleBody } from '../sales';
import {
  BARE_STEADY,
  LOT_SALE_ROW,
  LOT_SALES_FLAT_OUT,
  log,
  ORDER_CLIENTS,
  POSTING_TURNS,
  POSTING_WARM_UP,
  postingRow,
  REFUND_RATE,
  REFUND_ROW,
  SALE_ALONE,
  SALE_RATE,
  SALE_ROW,
  SALES_FLAT_OUT,
  SEARCHERS,
  SECONDS,
  SHORT_SEARCHES,
  STEADY_RATE,
  saleBeside,
  searchers,
  TARGETS,
} from '../settings';
import { type SteadyOptions, steadyLoad } from '../steady-load';
import { closeBenchSession, openBenchSession, prepareRefundable, refundBody } from '../till';
import { type Bench, type Scenario, targetOf } from './bench';

const asRepOf = (b: Bench) => (i: number) => ({
  authorization: `Bearer ${b.reps[i % b.reps.length]?.token}`,
});

/** The counter: a scanned barcode looked up among every product, as the sale screen asks. */
export const BARCODE: Scenario = {
  name: `product by barcode, steady ${STEADY_RATE} req/s`,
  target: `p99 < ${TARGETS.barcodeP99} ms`,
  limit: BARE_STEADY,
  run: async (b, s) => {
    const { barcodes } = b.prepared;
    {
      const res = await fetch(`${b.server.url}/api/products/code/${barcodes[0]}`, { headers: b.asRep });
      const body = (await res.json()) as { product?: { barcode: string | null } };
      b.measured.barcodeFound = body.product?.barcode === barcodes[0] ? 'yes' : 'no';
    }
    await b.runSteady(
      {
        name: s.name,
        url: `${b.server.url}/api/products/code/${barcodes[0]}`,
        urlFor: (i) => `${b.server.url}/api/products/code/${barcodes[i % barcodes.length]}`,
        headers: b.asRep,
        connections: 16,
        duration: SECONDS,
        rate: STEADY_RATE,
      },
      targetOf(s),
    );
  },
};

/**
 * Whole sales of ten lines from the staff's counters, at a steady rate, each line discounted and
 * the sale too (DESIGN §12): the priced path, within the limit a sales rep may give alone.
 */
export const STEADY_SALE: Scenario = {
  name: SALE_ROW,
  target: `p99 < ${TARGETS.saleP99} ms`,
  limit: BARE_STEADY,
  run: async (b, s) => {
    await b.runSteady(
      {
        name: s.name,
        url: `${b.server.url}/api/sales`,
        bodyFor: () => saleBody(b.prepared.saleProducts, STEADY_SALE_LINES, true),
        headersFor: asRepOf(b),
        connections: 16,
        duration: SECONDS,
        rate: SALE_RATE,
      },
      targetOf(s),
    );
  },
};

/**
 * Refunds at the counter (DESIGN §13): each request gives back one unit of a sale of its own, to
 * the card it was paid with, at a steady rate.
 */
export const REFUND: Scenario = {
  name: REFUND_ROW,
  target: `p99 < ${TARGETS.refundP99} ms`,
  limit: BARE_STEADY,
  run: async (b, s) => {
    const refundable = await prepareRefundable(
      b.server.url,
      b.reps.map((r) => r.token),
      b.prepared.saleProducts,
      REFUND_RATE * SECONDS + 50,
    );
    await b.runSteady(
      {
        name: s.name,
        url: `${b.server.url}/api/sales/${refundable[0]?.saleId}/refunds`,
        urlFor: (i) => `${b.server.url}/api/sales/${refundable[i % refundable.length]?.saleId}/refunds`,
        bodyFor: (i) => refundBody(refundable[i % refundable.length] as (typeof refundable)[number]),
        headersFor: asRepOf(b),
        connections: 16,
        duration: SECONDS,
        rate: REFUND_RATE,
      },
      targetOf(s),
    );
  },
};

/**
 * Sales flat out over hot and scarce products, all in one till session: all lines or none, never
 * oversold, and the session's report adds up afterwards.
 */
export const SALES_FLAT: Scenario = {
  name: SALES_FLAT_OUT,
  target: null,
  limit: null,
  run: async (b, s) => {
    const salesProducts = [...b.prepared.salesRun.hot, ...b.prepared.salesRun.scarce];
    b.measured.tillSession = await openBenchSession(b.server.url, b.rep.token);
    const session = b.measured.tillSession;
    await b.run({
      name: s.name,
      url: `${b.server.url}/api/sales`,
      method: 'POST',
      connections: ORDER_CLIENTS,
      duration: SECONDS,
      makeBody: () => saleBody(salesProducts, FLAT_OUT_SALE_LINES, false, session),
      headersFor: asRepOf(b),
    });
    b.measured.sessionReport = await closeBenchSession(b.server.url, b.rep.token, session);
  },
};

/**
 * DESIGN §19: the cost of the books at the counter. The same 3-line sales flat out over products
 * whose stock cannot run out, in turns with the sale's entry posted at commit (the app as it runs)
 * and without (the sales' posting trigger off: the same server, statements and data, nothing
 * posted), twice each in one session, after a warm-up turn (POSTING_TURNS). PostgreSQL only: the bench turns the trigger off from its
 * own connection, which the embedded database, the server's alone, does not take. The sales made
 * without posting are posted afterwards (post_history), so the books still hold every sale.
 */
export const SALES_POSTING: Scenario = {
  name: `${SALES_FLAT_OUT}, with and without posting`,
  writes: [POSTING_WARM_UP, ...POSTING_TURNS.map((turn, n) => postingRow(turn, n + 1))],
  target: null,
  limit: null,
  run: async (b) => {
    if (!b.databaseUrl) {
      log('  sales with and without posting: PostgreSQL only (the bench turns the trigger off)');
      return;
    }
    const client = new pg.Client({ connectionString: b.databaseUrl });
    await client.connect();
    const turn = (name: string) =>
      b.run({
        name,
        url: `${b.server.url}/api/sales`,
        method: 'POST',
        connections: ORDER_CLIENTS,
        duration: SECONDS,
        makeBody: () => saleBody(b.prepared.saleProducts, FLAT_OUT_SALE_LINES, false),
        headersFor: asRepOf(b),
      });
    try {
      await turn(POSTING_WARM_UP);
      for (const [n, posting] of POSTING_TURNS.entries()) {
        await client.query(
          `alter table sales ${posting === 'posting' ? 'enable' : 'disable'} trigger sales_posted`,
        );
        await turn(postingRow(posting, n + 1));
      }
    } finally {
      await client.query('alter table sales enable trigger sales_posted');
      await client.query('select post_history()');
      await client.end();
    }
  },
};

/**
 * The same 10-line sale over lot-tracked products (DESIGN §15): each line's lots picked
 * first-expiry-first-out inside the sale's statement; then sales flat out over small lots.
 */
export const LOT_SALE: Scenario = {
  name: LOT_SALE_ROW,
  target: `p99 < ${TARGETS.saleP99} ms`,
  limit: BARE_STEADY,
  run: async (b, s) => {
    await b.runSteady(
      {
        name: s.name,
        url: `${b.server.url}/api/sales`,
        bodyFor: () => saleBody(b.prepared.lotSteady.ids, STEADY_SALE_LINES, true),
        headersFor: asRepOf(b),
        connections: 16,
        duration: SECONDS,
        rate: SALE_RATE,
      },
      targetOf(s),
    );
  },
};

export const LOT_SALES_FLAT: Scenario = {
  name: LOT_SALES_FLAT_OUT,
  target: null,
  limit: null,
  run: async (b, s) => {
    await b.run({
      name: s.name,
      url: `${b.server.url}/api/sales`,
      method: 'POST',
      connections: ORDER_CLIENTS,
      duration: SECONDS,
      makeBody: () => saleBody(b.prepared.lotFlat.ids, FLAT_OUT_SALE_LINES, false),
      headersFor: asRepOf(b),
    });
  },
};

/** The steady 10-line sale under the name given. */
const sale = (b: Bench, name: string): SteadyOptions => ({
  name,
  url: `${b.server.url}/api/sales`,
  bodyFor: () => saleBody(b.prepared.saleProducts, STEADY_SALE_LINES, true),
  headersFor: asRepOf(b),
  connections: 16,
  duration: SECONDS,
  rate: SALE_RATE,
});

/**
 * The sale beside an employee's short searches flat out, and alone just before, over the
 * catalogue as the import left it (the finding's was 206,000 products).
 */
export const SALE_BEFORE_SEARCHES: Scenario = {
  name: SALE_ALONE,
  target: `p99 < ${TARGETS.saleP99} ms`,
  limit: BARE_STEADY,
  run: async (b, s) => {
    await b.runSteady(sale(b, s.name), targetOf(s));
  },
};

/** Each short search's run writes two rows: the sale beside it, then the searches themselves. */
export const SALES_BESIDE_SEARCHES: Scenario[] = SHORT_SEARCHES.map(
  (term): Scenario => ({
    name: saleBeside(term),
    target: `p99 < ${TARGETS.saleP99} ms`,
    limit: SALE_ALONE,
    writes: [saleBeside(term), searchers(term)],
    run: async (b, s) => {
      const employee = b.reps.find((r) => r.user.role === 'user') ?? b.rep;
      await b.settle();
      const [beside, searching] = await Promise.all([
        steadyLoad(sale(b, s.name)),
        load({
          name: searchers(term),
          url: `${b.server.url}/api/products?search=${term}&page=1&pageSize=100`,
          headers: { authorization: `Bearer ${employee.token}` },
          connections: SEARCHERS,
          duration: SECONDS,
        }),
      ]);
      b.show(beside, targetOf(s));
      b.show(searching);
    },
  }),
);
