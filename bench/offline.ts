import { randomUUID } from 'node:crypto';
import type { Database } from '../src/server/db/connection';
import { centsNumber, isCartProblem, priceCart } from '../src/shared/money';
import { HOT_STOCK } from './orders-check';
import { FLAT_OUT_SALE_LINES, saleBody } from './sales';
import { call, inTurn, type Timed } from './stocktakes';
import { closeBenchSession, openBenchSession } from './till';

/**
 * DESIGN §21 (issue 42): a counter that was offline sends the sales it kept when the server
 * answers again, one after another, oldest first, each as POST /api/sales with its offline id,
 * the time it was sold and the device's prices, rates and total (src/web/features/offline/sender.ts).
 */

/** Sales kept on the device, and the lines of each (as many as the flat-out sales'). */
export const OFFLINE_SALES = 500;
export const OFFLINE_LINES = FLAT_OUT_SALE_LINES;
/** The first sales of the queue sent again afterwards (an answer lost on the way): each the same sale. */
export const OFFLINE_RESENT = 50;
/**
 * The products the counter sells: OFFLINE_PRODUCTS from offset 700 on (by id), past the lot runs'
 * (400–630) and before the purchase orders' (1,000 on), each given a stock that cannot run out
 * (prepareSaleProducts), so that every unit sold offline was on the shelf.
 */
export const OFFLINE_PRODUCTS = 20;
export const OFFLINE_PRODUCTS_OFFSET = 700;
/** The queue's sales were made over the last hours (at most half the store's offlineHours). */
export const OFFLINE_SPAN_HOURS = 4;

/** The rows: the queue drained, and beside it the same number of online sales from one client. */
export const OFFLINE_ROW = `offline queue of ${OFFLINE_SALES} ${OFFLINE_LINES}-line sales drained, one after another`;
export const OFFLINE_ONLINE_ROW = `${OFFLINE_SALES} online ${OFFLINE_LINES}-line sales, one client one after another`;

/** What the device keeps of a product to sell it offline: its price and rate in force. */
type Kept = { _id: string; price: number; taxRate: { _id: string; name: string; rate: number } | null };
type SaleAnswer = { sale: { _id: string; createdAt: string; offline?: { review: string[] } } };

/** What the drain measured; `problems` is what did not hold, in words. */
export interface OfflineRun {
  /** The online sales (the limit), the queue drained, and the first OFFLINE_RESENT sent again. */
  online: Timed;
  offline: Timed;
  resent: Timed;
  products: string[];
  /** The queue's offline ids, oldest first. */
  offlineIds: string[];
  /** Every sale the run made, online and offline, by the server's answers. */
  sales: string[];
  /** Sales the till session's Z report counts (every one of the run's was made in it). */
  sessionSales: number | undefined;
  problems: string[];
}

/**
 * The queue as the counter kept it (src/web/features/sales/offline-sale.ts): OFFLINE_SALES sales
 * of OFFLINE_LINES distinct products, 1 to 3 of each, at the price and rate the device kept, their
 * total by the one computation (priceCart), paid in cash or by card in the seller's session, sold
 * over the last OFFLINE_SPAN_HOURS, oldest first, numbered by the device.
 */
function keptQueue(
  kept: Kept[],
  store: { pricesIncludeTax: boolean; offlineHours: number },
  session: string,
): Array<{ id: string; soldAt: string; body: Record<string, unknown> }> {
  const span = Math.min(OFFLINE_SPAN_HOURS, store.offlineHours / 2) * 3_600_000;
  const first = Date.now() - span;
  return Array.from({ length: OFFLINE_SALES }, (_, i) => {
    // Three distinct products of the twenty: 3i, 3i + 7 and 3i + 14, modulo their number.
    const lines = Array.from({ length: OFFLINE_LINES }, (_, k) => ({
      product: kept[(3 * i + 7 * k) % kept.length] as Kept,
      quantity: 1 + ((i + k) % 3),
    }));
    const cart = priceCart({
      lines: lines.map((line) => ({
        unitPrice: line.product.price,
        quantity: line.quantity,
        taxRate: line.product.taxRate,
      })),
      pricesIncludeTax: store.pricesIncludeTax,
    });
    if (isCartProblem(cart)) throw new Error(`the offline sale ${i + 1} does not price: ${cart.problem}`);
    const total = centsNumber(cart.total);
    const id = randomUUID();
    const soldAt = new Date(first + Math.floor((i * span) / OFFLINE_SALES)).toISOString();
    return {
      id,
      soldAt,
      body: {
        lines: lines.map((line) => ({
          productId: line.product._id,
          quantity: line.quantity,
          unitPrice: line.product.price,
          ...(line.product.taxRate ? { taxRate: line.product.taxRate._id } : {}),
        })),
        payments: [{ method: i % 2 === 0 ? 'cash' : 'card', amount: total }],
        session,
        total,
        offline: { id, soldAt, deviceNumber: `B1-BNCH-${String(i + 1).padStart(6, '0')}` },
      },
    };
  });
}

/**
 * One seller with an open till session: first OFFLINE_SALES ordinary online sales of
 * OFFLINE_LINES lines sent one after another (the limit: what a sale costs without the offline
 * path), then the queue drained as the device sends it, one after another, oldest first; then the
 * first OFFLINE_RESENT sent again, each to answer 200 with the sale it made. The session is
 * closed afterwards and its Z report must count every sale.
 */
export async function drainOffline(url: string, token: string, products: string[]): Promise<OfflineRun> {
  const headers = { authorization: `Bearer ${token}` };
  const run: OfflineRun = {
    online: { ms: [], statuses: {}, errors: 0, seconds: 0 },
    offline: { ms: [], statuses: {}, errors: 0, seconds: 0 },
    resent: { ms: [], statuses: {}, errors: 0, seconds: 0 },
    products,
    offlineIds: [],
    sales: [],
    sessionSales: undefined,
    problems: [],
  };
  const problem = (text: string) => {
    if (run.problems.length < 5) run.problems.push(text);
  };
  const session = await openBenchSession(url, token);
  // What the counter keeps while online: the store's settings and its products' prices and rates.
  const settings = await call<{ store: { pricesIncludeTax: boolean; offlineHours: number } }>(
    url,
    'GET',
    '/settings/store',
    headers,
  );
  if (!settings.body) throw new Error(`GET /api/settings/store: ${settings.status}`);
  const kept: Kept[] = [];
  for (const id of products) {
    const got = await call<{ product: Kept }>(url, 'GET', `/products/${id}`, headers);
    if (!got.body) throw new Error(`GET /api/products/${id}: ${got.status}`);
    kept.push(got.body.product);
  }
  const queue = keptQueue(kept, settings.body.store, session);
  run.offlineIds = queue.map((sale) => sale.id);

  run.online = await inTurn(1, OFFLINE_SALES, async () => {
    const sold = await call<SaleAnswer>(
      url,
      'POST',
      '/sales',
      headers,
      JSON.parse(saleBody(products, OFFLINE_LINES, false, session)),
    );
    if (sold.status === 201 && sold.body) run.sales.push(sold.body.sale._id);
    else problem(`an online sale answered ${sold.status} ${sold.text.slice(0, 160)}`);
    return sold.status;
  });

  const made = new Map<string, string>();
  run.offline = await inTurn(1, OFFLINE_SALES, async (_, i) => {
    const queued = queue[i] as (typeof queue)[number];
    const sent = await call<SaleAnswer>(url, 'POST', '/sales', headers, queued.body);
    const sale = sent.body?.sale;
    if (sent.status !== 201 || !sale) {
      problem(`offline sale ${i + 1} answered ${sent.status} ${sent.text.slice(0, 160)}`);
      return sent.status;
    }
    made.set(queued.id, sale._id);
    run.sales.push(sale._id);
    if (Date.parse(sale.createdAt) !== Date.parse(queued.soldAt))
      problem(
        `offline sale ${i + 1} was recorded at ${sale.createdAt}, not when it was sold (${queued.soldAt})`,
      );
    if ((sale.offline?.review ?? []).length > 0)
      problem(`offline sale ${i + 1} is for review (${sale.offline?.review.join(', ')}): its facts held`);
    return sent.status;
  });

  run.resent = await inTurn(1, OFFLINE_RESENT, async (_, i) => {
    const queued = queue[i] as (typeof queue)[number];
    const sent = await call<SaleAnswer>(url, 'POST', '/sales', headers, queued.body);
    if (sent.status !== 200)
      problem(`offline sale ${i + 1} sent again answered ${sent.status}, not 200 ${sent.text.slice(0, 120)}`);
    else if (sent.body?.sale._id !== made.get(queued.id))
      problem(`offline sale ${i + 1} sent again answered another sale (${sent.body?.sale._id})`);
    return sent.status;
  });

  const report = await closeBenchSession(url, token, session);
  run.sessionSales = report.sales.count;
  if (report.sales.count !== run.sales.length)
    problem(`the session's Z report counts ${report.sales.count} sales of the run's ${run.sales.length}`);
  return run;
}

/** The database after the run: what the drain left, read straight from the tables. */
export interface OfflineCheck {
  /** Sales holding the queue's offline ids, and the distinct ids among them. */
  recorded: number;
  distinct: number;
  /** Every sale over the run's products: the online ones and the queue's, nothing more. */
  sales: number;
  /** Products whose stock ≠ HOT_STOCK − the units the run's sales took (all of them at the main store). */
  stockOff: number;
  /** Units found with the reason offline (none: the shelves held every unit sold). */
  found: number;
}

export async function checkOffline(database: Database, run: OfflineRun): Promise<OfflineCheck> {
  const [row] = await database.query<OfflineCheck>(
    `with sold as (
       select product_id, sum(quantity)::int as units from orders where sale_id = any($3::uuid[])
       group by product_id
     )
     select (select count(*)::int from sales where offline_id = any($1::uuid[])) as recorded,
            (select count(distinct offline_id)::int from sales where offline_id = any($1::uuid[])) as distinct,
            (select count(distinct sale_id)::int from orders where product_id = any($2::uuid[])) as sales,
            (select count(*)::int from products p left join sold s on s.product_id = p.id
              where p.id = any($2::uuid[]) and p.stock <> $4::int - coalesce(s.units, 0)) as "stockOff",
            (select coalesce(sum(quantity), 0)::int from stock_movements
              where product_id = any($2::uuid[]) and reason = 'offline') as found`,
    [run.offlineIds, run.products, run.sales, HOT_STOCK],
  );
  return row as OfflineCheck;
}

/** What the drain and the database after it found wrong (nothing when the drain did not run). */
export function offlineProblems(run: OfflineRun | undefined, check: OfflineCheck | undefined): string[] {
  if (!run) return [];
  const online = run.online.statuses['201'] ?? 0;
  const problems = [...run.problems];
  if ((run.offline.statuses['201'] ?? 0) !== OFFLINE_SALES || run.offline.errors > 0)
    problems.push(`${run.offline.statuses['201'] ?? 0} of ${OFFLINE_SALES} offline sales answered 201`);
  if ((run.resent.statuses['200'] ?? 0) !== OFFLINE_RESENT)
    problems.push(`${run.resent.statuses['200'] ?? 0} of ${OFFLINE_RESENT} sent again answered 200`);
  if (check) {
    if (check.recorded !== OFFLINE_SALES || check.distinct !== OFFLINE_SALES)
      problems.push(
        `${check.recorded} sales hold the ${OFFLINE_SALES} offline ids (${check.distinct} of them), not one each`,
      );
    if (check.sales !== online + OFFLINE_SALES)
      problems.push(
        `${check.sales} sales over the run's products, not ${online} online + ${OFFLINE_SALES} offline`,
      );
    if (check.stockOff > 0)
      problems.push(`${check.stockOff} products whose stock ≠ ${HOT_STOCK} − the units the run's sales took`);
    if (check.found > 0) problems.push(`${check.found} units found offline where the shelves held them`);
  }
  return problems.map((problem) => `offline queue: ${problem}`);
}

/** The drain's checks in a line, for the log and the report. */
export function offlineCheckLine(run: OfflineRun, check: OfflineCheck | undefined): string {
  const resent = Object.entries(run.resent.statuses)
    .map(([code, n]) => `${n} × ${code}`)
    .join(', ');
  return [
    check
      ? `${check.recorded} sales hold the ${OFFLINE_SALES} offline ids (${check.distinct} distinct)`
      : 'not checked in the database',
    `the first ${OFFLINE_RESENT} sent again: ${resent || 'none'}, each the same sale`,
    check ? `${check.sales} sales over the run's ${run.products.length} products` : '',
    check
      ? `${run.products.length - check.stockOff} of ${run.products.length} products at ${HOT_STOCK} − sold`
      : '',
    check ? `${check.found} units found offline` : '',
    `the session's Z report counts ${run.sessionSales ?? '?'} sales`,
  ]
    .filter(Boolean)
    .join('; ');
}
