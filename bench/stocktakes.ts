import { TransactionRollbackError } from 'drizzle-orm';
import { type Database, runnerOf } from '../src/server/db/connection';
import { type NewMovement, recordMovements } from '../src/server/modules/stock/movements';
import type { LoadResult } from './http-load';
import { percentile } from './settings';
import { paced } from './steady-load';

/** The lines of the stocktake the benchmark posts (DESIGN §18's figure: 10,000 lines post in < 5 s). */
export const STOCKTAKE_LINES = 10_000;
/** People scanning at once, and the scans each sends, one after another (DESIGN §18: 8 at once). */
export const SCAN_CLIENTS = 8;
export const SCANS_EACH = 250;
/**
 * A person's pace with a scanner: one scan every SCAN_PACE_MS (four a second, faster than anyone
 * picks items off a shelf), for SCAN_PACE_SECONDS, the 8 of them at once: DESIGN §18's "8 people
 * scanning at once". The flat-out run beside it (each client's next scan as soon as the last is
 * answered) shows what the route takes at its most.
 */
export const SCAN_PACE_MS = 250;
export const SCAN_PACE_SECONDS = 15;
/** Products the scanners share, so that their adds race on the same lines. */
export const SCAN_PRODUCTS = 40;
/** Set counts a request of the typed count sends (a page of the sheet, a few requests in all). */
export const COUNT_BATCH = 2_500;

/** The rows the stocktake scenarios write (DESIGN §18's speed). */
export const SCAN_ROW = `scan into a stocktake, ${SCAN_CLIENTS} clients one after another`;
export const SCAN_PEOPLE_ROW = `scan into a stocktake, ${SCAN_CLIENTS} people each scanning every ${SCAN_PACE_MS} ms`;
export const SCAN_FLOOR = `bare route, ${SCAN_CLIENTS} clients one after another`;
export const STOCKTAKE_POST_ROW = `post a stocktake of ${STOCKTAKE_LINES.toLocaleString('en-US')} lines`;
export const STOCKTAKE_LEDGER_ALONE = 'its count movements written by recordMovements alone, rolled back';

/** What the stocktakes run over, prepared in the database before the server starts. */
export interface StocktakeSet {
  /** Where the stocktake that is posted counts. */
  location: string;
  /** Where the scanners count (another location, so the two stocktakes share no line). */
  scanLocation: string;
  /** Categories (in id order) whose products add up to STOCKTAKE_LINES lines, or all of them. */
  categories: string[];
  /** The lines a stocktake of those categories has at `location`. */
  lines: number;
  /** counted − expected of the lines counted off: products no other run has moved (id → units). */
  differences: Record<string, number>;
  /** What the scanners scan: barcodes and SKUs (every other one) of SCAN_PRODUCTS products in scope. */
  scanCodes: string[];
  /**
   * The limit of the post: its `count` movements (one per line, the same quantities, at the same
   * location) written alone by recordMovements in one transaction, rolled back; ms, the faster of two.
   */
  ledgerAloneMs: number;
}

/** A line as the stocktake's scope makes it: a product's, or a tracked product's lot with stock there. */
type ScopeLine = { productId: string; lotId: string | null; stock: number; untouched: boolean };

/**
 * Chooses the categories of a stocktake of at least `lines` lines at `location`, plans its
 * differences (one line in ten, over products only the loader has moved, so that no other run's
 * check of stock sees them: +2 found, or −1 short where there is stock) and measures the post's
 * limit: the same count movements written by the ledger's one writer alone, rolled back.
 */
export async function prepareStocktakes(
  database: Database,
  places: { location: string; scanLocation: string },
  lines = STOCKTAKE_LINES,
): Promise<StocktakeSet> {
  const sizes = await database.query<{ id: string; n: number }>(
    `select c.id, count(p.id)::int as n from categories c
       left join products p on p.category_id = c.id and p.tracking <> 'lot'
      group by c.id order by c.id`,
  );
  const categories: string[] = [];
  let untracked = 0;
  for (const category of sizes) {
    if (untracked >= lines) break;
    categories.push(category.id);
    untracked += category.n;
  }
  const scope = await database.query<ScopeLine>(
    `select p.id as "productId", null::uuid as "lotId", coalesce(ls.stock, 0)::int as stock,
            not exists (select 1 from stock_movements m
                         where m.product_id = p.id and m.kind not in ('initial', 'sale')) as untouched
       from products p
       left join location_stock ls on ls.product_id = p.id and ls.location_id = $2
      where p.category_id = any($1::uuid[]) and p.tracking <> 'lot'
     union all
     select p.id, lts.lot_id, lts.quantity, false
       from products p join lot_stock lts on lts.product_id = p.id and lts.location_id = $2 and lts.quantity > 0
      where p.category_id = any($1::uuid[]) and p.tracking = 'lot'
      order by 1, 2 nulls first`,
    [categories, places.location],
  );
  const differences: Record<string, number> = {};
  let eligible = 0;
  for (const line of scope) {
    if (!line.untouched || line.lotId !== null) continue;
    if (eligible % 20 === 0) differences[line.productId] = 2;
    else if (eligible % 20 === 10 && line.stock > 0) differences[line.productId] = -1;
    eligible++;
  }
  const codes = await database.query<{ code: string }>(
    `select case when row_number() over (order by p.id) % 2 = 0 then p.sku else p.barcode end as code
       from products p
      where p.category_id = any($1::uuid[]) and p.tracking <> 'lot' and p.sku is not null and p.barcode is not null
      order by p.id limit ${SCAN_PRODUCTS}`,
    [categories],
  );
  const movements: NewMovement[] = scope.map((line) => ({
    productId: line.productId,
    kind: 'count',
    quantity: line.lotId === null ? (differences[line.productId] ?? 0) : 0,
    note: 'Bench stocktake limit, rolled back',
    lotId: line.lotId,
    locationId: places.location,
  }));
  return {
    ...places,
    categories,
    lines: scope.length,
    differences,
    scanCodes: codes.map((row) => row.code),
    // The faster of two: the first meets pages filled by the loader, where each product row's new
    // version lands off its page and updates every index; the post comes after such a write.
    ledgerAloneMs: Math.min(await ledgerAlone(database, movements), await ledgerAlone(database, movements)),
  };
}

/** How long recordMovements takes to write `movements` in one transaction, which is then rolled back. */
export async function ledgerAlone(database: Database, movements: NewMovement[]): Promise<number> {
  let took = Number.NaN;
  try {
    await database.db.transaction(async (tx) => {
      const started = performance.now();
      await recordMovements(runnerOf(tx), movements);
      took = performance.now() - started;
      tx.rollback();
    });
  } catch (error) {
    if (!(error instanceof TransactionRollbackError)) throw error;
  }
  return took;
}

/** Requests timed one by one: each one's ms, the answers by status, and how long the run took. */
export interface Timed {
  ms: number[];
  statuses: Record<string, number>;
  errors: number;
  seconds: number;
}

/** What the stocktake that is posted measured; `problems` is what did not hold, in words. */
export interface PostRun {
  lines: number;
  /** Reading every line, page by page (100 a page), as the count screen does. */
  readMs: number;
  /** Each request of COUNT_BATCH set counts. */
  counts: number[];
  /** POST /api/stocktakes/:id/post, over HTTP, and its answer's status. */
  postMs: number;
  postStatus: number;
  /** Lines counted off what was expected, over and short in units, as the review summed them. */
  differing: number;
  unitsOver: number;
  unitsShort: number;
  problems: string[];
}

/** What the scanners measured: the bare route first, then the scans, with the same clients. */
export interface ScanRun {
  lines: number;
  floor: Timed;
  scans: Timed;
  /** The 8 people at a person's pace (DESIGN §18's target). */
  people: LoadResult | undefined;
  /** Scans sent over both runs. */
  sent: number;
  /** The units counted over the stocktake's lines afterwards (every scan adds 1). */
  counted: number;
  problems: string[];
}

type StocktakeAnswer = {
  stocktake: {
    _id: string;
    lines: number;
    status: string;
    summary?: { counted: number; uncounted: number; unitsOver: number; unitsShort: number };
  };
  clamped?: unknown[];
};
type LinesAnswer = {
  lines: {
    product: { _id: string };
    lot?: { number: string };
    counted: number | null;
    expected?: number;
  }[];
  total: number;
};

/** Sends one JSON request; answers its status, its body (when JSON) and its time. */
export async function call<T>(
  url: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: T | undefined; ms: number; text: string }> {
  const started = performance.now();
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed: T | undefined;
  try {
    parsed = JSON.parse(text) as T;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, ms, text };
}

/** Every line of a stocktake, page by page (the largest page, 100 lines). */
async function allLines(
  url: string,
  headers: Record<string, string>,
  id: string,
  filter = '',
): Promise<LinesAnswer['lines']> {
  const lines: LinesAnswer['lines'] = [];
  for (let page = 1; ; page++) {
    const got = await call<LinesAnswer>(
      url,
      'GET',
      `/stocktakes/${id}/lines?page=${page}&pageSize=100${filter}`,
      headers,
    );
    if (got.status !== 200 || !got.body)
      throw new Error(`reading lines: ${got.status} ${got.text.slice(0, 160)}`);
    lines.push(...got.body.lines);
    if (got.body.lines.length < 100 || lines.length >= got.body.total) return lines;
  }
}

/**
 * A stocktake of the set's categories at its location, made by an admin over HTTP, every line
 * read and counted (set, COUNT_BATCH a request; the planned lines off by their difference), then
 * posted, timed, keeping the uncounted lines (there are none).
 */
export async function countAndPost(
  url: string,
  asAdmin: Record<string, string>,
  set: StocktakeSet,
): Promise<PostRun> {
  const run: PostRun = {
    lines: 0,
    readMs: 0,
    counts: [],
    postMs: Number.NaN,
    postStatus: 0,
    differing: 0,
    unitsOver: 0,
    unitsShort: 0,
    problems: [],
  };
  const made = await call<StocktakeAnswer>(url, 'POST', '/stocktakes', asAdmin, {
    location: set.location,
    categories: set.categories,
    note: 'Bench stocktake',
  });
  if (made.status !== 201 || !made.body) {
    run.problems.push(`making the stocktake: ${made.status} ${made.text.slice(0, 160)}`);
    return run;
  }
  const id = made.body.stocktake._id;
  run.lines = made.body.stocktake.lines;
  if (run.lines !== set.lines) run.problems.push(`the stocktake has ${run.lines} lines, not ${set.lines}`);
  const readStarted = performance.now();
  const lines = await allLines(url, asAdmin, id);
  run.readMs = performance.now() - readStarted;
  let over = 0;
  let short = 0;
  const counts = lines.map((line) => {
    const expected = line.expected ?? 0;
    const quantity = line.lot ? expected : Math.max(0, expected + (set.differences[line.product._id] ?? 0));
    if (quantity > expected) over += quantity - expected;
    if (quantity < expected) short += expected - quantity;
    return {
      product: line.product._id,
      ...(line.lot ? { lot: { number: line.lot.number } } : {}),
      quantity,
      mode: 'set' as const,
    };
  });
  for (let at = 0; at < counts.length; at += COUNT_BATCH) {
    const sent = await call(url, 'POST', `/stocktakes/${id}/counts`, asAdmin, {
      counts: counts.slice(at, at + COUNT_BATCH),
    });
    run.counts.push(sent.ms);
    if (sent.status !== 200)
      run.problems.push(`counts from line ${at + 1}: ${sent.status} ${sent.text.slice(0, 160)}`);
  }
  const review = await call<StocktakeAnswer>(url, 'GET', `/stocktakes/${id}`, asAdmin);
  const summary = review.body?.stocktake.summary;
  if (summary?.uncounted !== 0 || summary.counted !== run.lines)
    run.problems.push(`before the post ${summary?.counted ?? '?'} of ${run.lines} lines counted`);
  else if (summary.unitsOver !== over || summary.unitsShort !== short)
    run.problems.push(
      `the review sums ${summary.unitsOver} over and ${summary.unitsShort} short, not the ${over} and ${short} counted`,
    );
  run.unitsOver = summary?.unitsOver ?? 0;
  run.unitsShort = summary?.unitsShort ?? 0;
  run.differing = counts.filter((count, i) => count.quantity !== (lines[i]?.expected ?? 0)).length;
  const posted = await call<StocktakeAnswer>(url, 'POST', `/stocktakes/${id}/post`, asAdmin, {
    uncounted: 'keep',
  });
  run.postMs = posted.ms;
  run.postStatus = posted.status;
  if (posted.status !== 200 || posted.body?.stocktake.status !== 'posted')
    run.problems.push(`posting: ${posted.status} ${posted.text.slice(0, 160)}`);
  else if ((posted.body.clamped ?? []).length > 0)
    run.problems.push(`${posted.body.clamped?.length} lines clamped, none expected`);
  return run;
}

/** `clients` loops at once, each sending `each` requests one after another; every one timed. */
export async function inTurn(
  clients: number,
  each: number,
  send: (client: number, i: number) => Promise<number>,
): Promise<Timed> {
  const timed: Timed = { ms: [], statuses: {}, errors: 0, seconds: 0 };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; i < each; i++) {
        const sent = performance.now();
        try {
          const status = await send(client, i);
          timed.ms.push(performance.now() - sent);
          timed.statuses[status] = (timed.statuses[status] ?? 0) + 1;
        } catch {
          timed.errors++;
        }
      }
    }),
  );
  timed.seconds = (performance.now() - started) / 1000;
  return timed;
}

/**
 * A stocktake of the set's categories at the scan location; `clients` people (each signed in as
 * `headersFor(client)`) first ask the bare route `each` times one after another (the floor), then
 * scan `each` times: one `add` of 1 a request, by barcode or SKU, over SCAN_PRODUCTS products
 * they share. Afterwards the lines must hold one unit per scan; the stocktake is cancelled.
 */
export async function scanAll(
  url: string,
  asAdmin: Record<string, string>,
  headersFor: (client: number) => Record<string, string>,
  set: StocktakeSet,
  clients = SCAN_CLIENTS,
  each = SCANS_EACH,
  paceSeconds = SCAN_PACE_SECONDS,
): Promise<ScanRun> {
  const empty: Timed = { ms: [], statuses: {}, errors: 0, seconds: 0 };
  const run: ScanRun = {
    lines: 0,
    floor: empty,
    scans: empty,
    people: undefined,
    sent: 0,
    counted: 0,
    problems: [],
  };
  const made = await call<StocktakeAnswer>(url, 'POST', '/stocktakes', asAdmin, {
    location: set.scanLocation,
    categories: set.categories,
    note: 'Bench scans',
  });
  if (made.status !== 201 || !made.body) {
    run.problems.push(`making the scanners' stocktake: ${made.status} ${made.text.slice(0, 160)}`);
    return run;
  }
  const id = made.body.stocktake._id;
  run.lines = made.body.stocktake.lines;
  run.floor = await inTurn(clients, each, async (client) => {
    const res = await fetch(`${url}/api/live`, { headers: headersFor(client) });
    await res.arrayBuffer();
    return res.status;
  });
  const codes = set.scanCodes;
  const scan = async (client: number, i: number) => {
    const res = await fetch(`${url}/api/stocktakes/${id}/counts`, {
      method: 'POST',
      headers: { ...headersFor(client), 'content-type': 'application/json' },
      body: JSON.stringify({
        counts: [{ product: codes[(client * 7 + i * 13) % codes.length], quantity: 1, mode: 'add' }],
      }),
    });
    const text = await res.text();
    if (res.status !== 200 && run.problems.length < 3)
      run.problems.push(`a scan answered ${res.status} ${text.slice(0, 160)}`);
    return res.status;
  };
  run.scans = await inTurn(clients, each, scan);
  // The people: all of them at once, each at a person's pace (the i-th scan is person i mod 8's).
  const rate = (clients * 1000) / SCAN_PACE_MS;
  run.people = await paced(
    { name: SCAN_PEOPLE_ROW, rate, duration: paceSeconds, connections: clients },
    (i) => scan(i % clients, Math.floor(i / clients)),
  );
  const pacedScans = Math.round(rate * paceSeconds);
  const sent = clients * each + pacedScans;
  run.sent = sent;
  const peopleAnswered = run.people.statuses['200'] ?? 0;
  if (peopleAnswered !== pacedScans)
    run.problems.push(`${peopleAnswered} of ${pacedScans} paced scans answered 200`);
  const answered = run.scans.statuses['200'] ?? 0;
  if (answered !== clients * each)
    run.problems.push(`${answered} of ${clients * each} scans answered 200 (${run.scans.errors} errors)`);
  const counted = await allLines(url, asAdmin, id, '&counted=true');
  run.counted = counted.reduce((sum, line) => sum + (line.counted ?? 0), 0);
  if (run.counted !== sent)
    run.problems.push(`the lines hold ${run.counted} units counted for ${sent} scans: racing adds were lost`);
  const cancelled = await call(url, 'POST', `/stocktakes/${id}/cancel`, asAdmin, {});
  if (cancelled.status !== 200) run.problems.push(`cancelling the scanners' stocktake: ${cancelled.status}`);
  return run;
}

/** A timed run as a row of the results table (p95 in its note). */
export function timedRow(name: string, clients: number, timed: Timed): LoadResult {
  const sorted = [...timed.ms].sort((a, b) => a - b);
  const requests = Object.values(timed.statuses).reduce((a, b) => a + b, 0);
  return {
    name,
    connections: clients,
    requests,
    rps: timed.seconds > 0 ? requests / timed.seconds : 0,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    errors: timed.errors,
    statuses: timed.statuses,
    note: `p95 ${percentile(sorted, 0.95).toFixed(1)} ms`,
  };
}

/** What the stocktake runs found wrong, each prefixed by its run (a run that did not run adds nothing). */
export function stocktakeProblems(post: PostRun | undefined, scans: ScanRun | undefined): string[] {
  return [
    ...(post?.problems ?? []).map((problem) => `stocktake post: ${problem}`),
    ...(scans?.problems ?? []).map((problem) => `stocktake scans: ${problem}`),
  ];
}
