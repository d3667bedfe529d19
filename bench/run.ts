/**
 * The store-scale benchmark: loads 100k products, 1M orders and their 1.1M stock movements,
 * drives HTTP load at the real server, measures the limits beside it (direct SQL, a bare route),
 * and writes bench/results/.
 *
 *   npm run bench                    PostgreSQL at DATABASE_URL (default: the local server)
 *   npm run bench -- --embedded      the embedded database (PGlite)
 *   npm run bench -- --quick         a tenth of the data and 3 s scenarios, to try the tooling
 *   npm run bench -- --only <word>   only the scenarios whose name holds the word (or one of
 *                                    several, comma-separated); no results file
 *   BENCH_DATABASE=<name>            the PostgreSQL database to make and drop (default ims_bench)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, defaultPoolSize, openDatabase } from '../src/server/db/connection';
import { setReportTimeZone } from '../src/server/db/report-time-zone';
import { PERMISSIONS } from '../src/shared/roles';
import { billCheckLine, billProblems, checkBills, prepareBills } from './bills';
import { type DirectResult, directOrders } from './direct-sql';
import { type LoadResult, load } from './http-load';
import { BENCH_LOCATIONS, BENCH_PASSWORD, checkLedger, ledgerProblems, loadData } from './load-data';
import { checkLots, prepareLotProducts } from './lots';
import {
  checkOffline,
  OFFLINE_PRODUCTS,
  OFFLINE_PRODUCTS_OFFSET,
  offlineCheckLine,
  offlineProblems,
} from './offline';
import { checkStock, HOT_STOCK, prepareOrderProducts, productsAt, setStock } from './orders-check';
import { type PurchasingSet, preparePurchaseOrders } from './purchasing';
import { report } from './report';
import { checkSales, FLAT_OUT_SALE_LINES, prepareSaleProducts, sampleBarcodes } from './sales';
import { type Bench, logImport, type Measured, SCENARIOS } from './scenarios';
import { startServer } from './server';
import {
  args,
  embedded,
  LOT_FLAT_PLAN,
  LOT_STEADY_PLAN,
  log,
  ms,
  ONLY,
  ORDER_CLIENTS,
  PURCHASING,
  quick,
  root,
  SECONDS,
  size,
  target,
} from './settings';
import { steadyLoad } from './steady-load';
import { prepareStocktakes, stocktakeProblems } from './stocktakes';
import { checkSession, type SessionCheck } from './till';
import { prepareTransfers } from './transfers';

async function makeDatabase(): Promise<{
  options: { databaseUrl?: string; dataDir: string };
  drop: () => Promise<void>;
}> {
  if (embedded) {
    const dataDir = mkdtempSync(join(tmpdir(), 'ims-bench-'));
    return { options: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const base = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = process.env.BENCH_DATABASE || 'ims_bench';
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`BENCH_DATABASE must be a plain name, not ${name}`);
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    options: { databaseUrl: url.toString(), dataDir: '' },
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * Waits until PostgreSQL runs no statement of the benchmark database but this one, so that a
 * scenario does not pay for the last one's abandoned work: a statement goes on after its client
 * hangs up (the whole-catalogue call runs for seconds). The embedded database runs inside the
 * server and cannot be asked; its scenarios follow each other at once.
 */
async function settle(databaseUrl: string | undefined): Promise<void> {
  if (!databaseUrl) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
      );
      if ((rows[0]?.n ?? 0) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.end();
  }
}

async function signIn(url: string, email: string) {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in as ${email} failed with ${res.status}`);
  return (await res.json()) as {
    token: string;
    user: { _id: string; name: string; address: string; role: string };
  };
}

async function main(): Promise<void> {
  const { ensureBuilt } = await import('../scripts/build.mjs');
  await ensureBuilt();
  log(
    `Inventory MS benchmark on ${target}${quick ? ' (quick)' : ''}: ${size.products} products, ${size.orders} orders`,
  );

  const made = await makeDatabase();
  // The same pool size as the server, so that direct SQL and HTTP orders run on equal terms.
  const open = () => openDatabase({ ...made.options, poolSize: defaultPoolSize(), statementTimeoutMs: 0 });
  let database: Database = await open();
  // The server below runs in this machine's zone (TZ unset): the daily figures count its days from
  // the start, so that it does not recount a million orders when it starts.
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  await setReportTimeZone(database, timeZone);
  const loadStarted = performance.now();
  const timings = await loadData(database, size);
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  log(
    `Loaded in ${loadSeconds.toFixed(1)} s (${Object.entries(timings)
      .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
      .join(', ')})`,
  );
  const loadedLedger = await checkLedger(database);
  log(
    `Ledger after loading: ${loadedLedger.movements} movements (${loadedLedger.initial} opening, ${loadedLedger.sales} sales) for ${loadedLedger.products} products and ${loadedLedger.orders} orders; ${loadedLedger.mismatches} products whose stock ≠ the sum of their movements, ${loadedLedger.negative} movements below zero`,
  );
  const loadProblems = ledgerProblems(loadedLedger);
  if (loadProblems.length)
    throw new Error(`the loaded data set breaks the ledger: ${loadProblems.join('; ')}`);

  // Direct SQL first: the embedded database belongs to one process at a time.
  const directRun = await prepareOrderProducts(database, 0);
  const [buyer] = await database.query<{ userId: string; tokenVersion: number }>(
    `select id as "userId", token_version as "tokenVersion" from users where role = 'salesRep' order by email limit 1`,
  );
  if (!buyer) throw new Error('the data set has no sales rep');
  const direct: DirectResult = await directOrders(
    database,
    directRun,
    { ...buyer, roles: PERMISSIONS['orders:create'] },
    ORDER_CLIENTS,
    SECONDS,
  );
  const directCheck = await checkStock(database, directRun);
  log(
    `Direct SQL orders: ${direct.rps.toFixed(0)}/s (${direct.accepted} accepted, ${direct.refused} refused)`,
  );
  const httpRun = await prepareOrderProducts(database, 20);
  // Ten more products with large stock for the adjustments, which leave them where they were.
  const adjustIds = await productsAt(database, 40, 10);
  await setStock(database, adjustIds, HOT_STOCK);
  const purchasing: PurchasingSet = await preparePurchaseOrders(database, PURCHASING);
  // Sales: 200 products that cannot run out for the steady 10-line sales; ten hot and ten scarce
  // ones for the flat-out run, checked like the orders; barcodes spread over the catalogue.
  const saleProducts = await prepareSaleProducts(database, 100, 200);
  const salesRun = await prepareOrderProducts(database, 60);
  const barcodes = await sampleBarcodes(database, 1000);
  // Lots: 200 lot-tracked products for the steady 10-line sales, ten with small lots flat out.
  const lotSteady = await prepareLotProducts(database, 400, 200, LOT_STEADY_PLAN);
  const lotFlat = await prepareLotProducts(database, 620, 10, LOT_FLAT_PLAN);
  // The offline counter's products (DESIGN §21): twenty that cannot run out (bench/offline.ts).
  const offlineProducts = await prepareSaleProducts(database, OFFLINE_PRODUCTS_OFFSET, OFFLINE_PRODUCTS);
  // Transfers: a stockroom and 200 products with a unit a round to send (bench/transfers.ts).
  const transfers = await prepareTransfers(database);
  // Bills (DESIGN §20): purchase orders of their own products, received in full (bench/bills.ts).
  const bills = await prepareBills(database);
  // Stocktakes, prepared last so that their differences fall on products no run above has moved:
  // the categories of 10,000 lines at the second shop (posted) and the stockroom (scanned), and
  // the post's limit, its count movements written alone and rolled back (bench/stocktakes.ts).
  const stocktakes = await prepareStocktakes(database, {
    location: BENCH_LOCATIONS.shop.id,
    scanLocation: BENCH_LOCATIONS.stockroom.id,
  });
  await database.close();

  const logFile = join(tmpdir(), `ims-bench-server-${target}.log`);
  const server = await startServer(
    root,
    made.options.databaseUrl
      ? { DATABASE_URL: made.options.databaseUrl }
      : { DATA_DIR: made.options.dataDir },
    logFile,
  );
  const results: LoadResult[] = [];
  const measured: Measured = {
    catalogue: [],
    catalogueError: '',
    loginJs: undefined,
    loginJsError: '',
    stockCheck: { ms: [], checked: 0, mismatches: 0 },
    booksCheck: { ms: [], failed: [] },
    receipts: { ms: [], failures: [] },
    transfers: { send: [], receive: [], failures: [] },
    stocktakePost: undefined,
    stocktakeScans: undefined,
    suggested: { suppliers: 0, lines: 0 },
    exported: undefined,
    barcodeFound: '',
    tillSession: '',
    sessionReport: undefined,
    imported: undefined,
    offline: undefined,
    bills: undefined,
  };
  try {
    const admin = await signIn(server.url, 'user2@bench.example');
    const reps = await Promise.all(
      [11, 12, 13, 14, 15, 16, 17, 18, 19, 20].map((i) => signIn(server.url, `user${i}@bench.example`)),
    );
    const rep = reps.find((r) => r.user.role === 'salesRep') ?? (reps[0] as (typeof reps)[0]);
    const show = (result: LoadResult, target?: string) => {
      results.push(result);
      log(
        `  ${result.name.padEnd(34)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${ms(result.p50)}  p99 ${ms(result.p99)}${target ? `  (target ${target})` : ''}`,
      );
      return result;
    };
    const bench: Bench = {
      server,
      databaseUrl: made.options.databaseUrl,
      open,
      timeZone,
      admin,
      reps,
      rep,
      asAdmin: { authorization: `Bearer ${admin.token}` },
      asRep: { authorization: `Bearer ${rep.token}` },
      asStaff: (i: number) => ({ authorization: `Bearer ${reps[i % reps.length]?.token}` }),
      prepared: {
        directRun,
        httpRun,
        adjustIds,
        purchasing,
        saleProducts,
        salesRun,
        barcodes,
        lotSteady,
        lotFlat,
        transfers,
        stocktakes,
        offlineProducts,
        bills,
      },
      results,
      measured,
      show,
      run: async (options, target) => {
        await settle(made.options.databaseUrl);
        return show(await load(options), target);
      },
      runSteady: async (options, target) => {
        await settle(made.options.databaseUrl);
        return show(await steadyLoad(options), target);
      },
      settle: () => settle(made.options.databaseUrl),
    };
    log('HTTP load:');
    const words = ONLY ? ONLY.split(',').filter(Boolean) : [];
    const chosen = words.length
      ? SCENARIOS.filter((scenario) => words.some((word) => scenario.name.toLowerCase().includes(word)))
      : SCENARIOS;
    if (chosen.length === 0) throw new Error(`no scenario's name holds "${ONLY}"`);
    for (const scenario of chosen) await scenario.run(bench, scenario);
    logImport(bench);
  } finally {
    await server.stop();
  }

  database = await open();
  // What the offline queue and the bills left, read straight from the tables (DESIGN §20, §21).
  const offlineCheck = measured.offline ? await checkOffline(database, measured.offline) : undefined;
  const billsCheck = measured.bills ? await checkBills(database, measured.bills) : undefined;
  if (measured.offline)
    log(`Offline queue after the run: ${offlineCheckLine(measured.offline, offlineCheck)}.`);
  if (measured.bills) log(`Bills after the run: ${billCheckLine(measured.bills, billsCheck)}.`);
  if (ONLY) {
    const ledger = ledgerProblems(await checkLedger(database));
    await database.close();
    if (!args.has('--keep')) await made.drop();
    const problems = [
      ...ledger,
      ...stocktakeProblems(measured.stocktakePost, measured.stocktakeScans),
      ...offlineProblems(measured.offline, offlineCheck),
      ...billProblems(measured.bills, billsCheck),
    ];
    log(
      `Ran only the scenarios whose name holds "${ONLY}"; no results file written. Ledger after them: ${ledger.join('; ') || 'holds'}.`,
    );
    if (problems.length) {
      console.error(`The scenarios do not hold: ${problems.join('; ')}`);
      process.exitCode = 1;
    }
    return;
  }
  const httpCheck = await checkStock(database, httpRun);
  const salesStock = await checkStock(database, salesRun);
  const salesWhole = await checkSales(
    database,
    salesRun.since,
    [...salesRun.hot, ...salesRun.scarce],
    FLAT_OUT_SALE_LINES,
  );
  const sessionCheck: SessionCheck | undefined = measured.tillSession
    ? await checkSession(database, measured.sessionReport, measured.tillSession)
    : undefined;
  const finalLedger = await checkLedger(database);
  const lotSteadyCheck = await checkLots(database, lotSteady);
  const lotFlatCheck = await checkLots(database, lotFlat);
  // What the import left: its new products (one opening movement each, of 0 too, as a product
  // created by hand) and the loaded products it repriced.
  const [importWritten] = await database.query<{
    created: number;
    updated: number;
    openings: number;
  }>(
    `select (select count(*)::int from products where sku like 'IMP-%') as created,
            (select count(*)::int from products where sku like 'SKU-%' and description like 'Price list %') as updated,
            (select count(*)::int from stock_movements m join products p on p.id = m.product_id
              where p.sku like 'IMP-%' and m.kind = 'initial') as openings`,
  );
  const [written] = await database.query<{ adjustments: number; fewest: number; most: number }>(
    `select (select count(*)::int from stock_movements where kind = 'adjustment' and product_id = any($1::uuid[])) as adjustments,
            min(n)::int as fewest, max(n)::int as most
     from (select count(*) as n from stock_movements where product_id = any($2::uuid[]) group by product_id) m`,
    [adjustIds, [...directRun.hot, ...httpRun.hot]],
  );
  await database.close();
  if (!args.has('--keep')) await made.drop();

  const problems = report({
    loadSeconds,
    timings,
    loadedLedger,
    finalLedger,
    direct,
    directCheck,
    httpCheck,
    salesStock,
    salesWhole,
    sessionCheck,
    lotSteady,
    lotSteadyCheck,
    lotFlat,
    lotFlatCheck,
    barcodeFound: measured.barcodeFound,
    results,
    catalogue: measured.catalogue,
    catalogueError: measured.catalogueError,
    loginJs: measured.loginJs,
    loginJsError: measured.loginJsError,
    stockCheck: measured.stockCheck,
    booksCheck: measured.booksCheck,
    receipts: measured.receipts,
    transfers: measured.transfers,
    stocktakePost: measured.stocktakePost,
    stocktakeScans: measured.stocktakeScans,
    stocktakeLedgerAloneMs: stocktakes.ledgerAloneMs,
    offline: measured.offline,
    offlineCheck,
    bills: measured.bills,
    billsCheck,
    openLines: purchasing.openLines,
    suggested: measured.suggested,
    exported: measured.exported,
    imported: measured.imported,
    importWritten,
    adjustmentsWritten: written?.adjustments ?? 0,
    busiestMovements: [written?.fewest ?? 0, written?.most ?? 0],
  });
  if (problems.length) {
    console.error(
      `The ledger, the import, the stocktakes, the offline queue or the bills do not hold: ${problems.join('; ')}`,
    );
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(
    `Benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
