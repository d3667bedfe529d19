import type { Database } from '../../src/server/db/connection';
import type { SessionReport } from '../../src/shared/till';
import type { BillRun, BillSet } from '../bills';
import type { ExportResult } from '../csv-export';
import type { LoadOptions, LoadResult } from '../http-load';
import type { ImportRun } from '../import';
import type { LotProducts } from '../lots';
import type { OfflineRun } from '../offline';
import type { OrderProducts } from '../orders-check';
import type { PurchasingSet } from '../purchasing';
import type { BooksCheckRun, StockCheckRun } from '../settings';
import type { SteadyOptions } from '../steady-load';
import type { PostRun, ScanRun, StocktakeSet } from '../stocktakes';
import type { TransferRun, TransferSet } from '../transfers';

/** A signed-in member of the bench's staff. */
export interface Signed {
  token: string;
  user: { _id: string; name: string; address: string; role: string };
}

/** The data prepared in the database before the server starts, each for its scenarios. */
export interface Prepared {
  directRun: OrderProducts;
  httpRun: OrderProducts;
  adjustIds: string[];
  purchasing: PurchasingSet;
  saleProducts: string[];
  salesRun: OrderProducts;
  barcodes: string[];
  lotSteady: LotProducts;
  lotFlat: LotProducts;
  transfers: TransferSet;
  stocktakes: StocktakeSet;
  /** DESIGN §21: the products the offline counter sells (bench/offline.ts). */
  offlineProducts: string[];
  /** DESIGN §20: purchase orders received in full, to bill (bench/bills.ts). */
  bills: BillSet;
}

/** What the scenarios measured besides their load rows, read by the report. */
export interface Measured {
  catalogue: number[];
  catalogueError: string;
  loginJs: number | undefined;
  loginJsError: string;
  stockCheck: StockCheckRun;
  booksCheck: BooksCheckRun;
  receipts: { ms: number[]; failures: string[] };
  transfers: TransferRun;
  stocktakePost: PostRun | undefined;
  stocktakeScans: ScanRun | undefined;
  suggested: { suppliers: number; lines: number };
  exported: ExportResult | undefined;
  barcodeFound: string;
  tillSession: string;
  sessionReport: SessionReport | undefined;
  imported: ImportRun | undefined;
  offline: OfflineRun | undefined;
  bills: BillRun | undefined;
}

/** What every scenario runs against: the server, its staff, the prepared data and the results. */
export interface Bench {
  server: { url: string; pid: number };
  /** PostgreSQL's address; unset on the embedded database, which belongs to the server. */
  databaseUrl: string | undefined;
  /** Opens the bench database from this process (PostgreSQL only while the server runs). */
  open: () => Promise<Database>;
  timeZone: string;
  admin: Signed;
  reps: Signed[];
  rep: Signed;
  asAdmin: Record<string, string>;
  asRep: Record<string, string>;
  /** The staff, each connection as the next of the ten signed in. */
  asStaff: (i: number) => Record<string, string>;
  prepared: Prepared;
  results: LoadResult[];
  measured: Measured;
  /** Keeps a row and prints it, with its target when it has one. */
  show: (result: LoadResult, target?: string) => LoadResult;
  /** Flat out, after the database settles. */
  run: (options: LoadOptions, target?: string) => Promise<LoadResult>;
  /** At a steady rate, after the database settles. */
  runSteady: (options: SteadyOptions, target?: string) => Promise<LoadResult>;
  settle: () => Promise<void>;
}

/**
 * A row of the benchmark (or one step that writes several rows), in the order they run. `target`
 * is what is printed beside its figure (null: judged in the targets table alone, or the row is
 * itself a limit); `limit` names the row measured in the same run that it stands on.
 */
export interface Scenario {
  name: string;
  target: string | null;
  limit: string | null;
  /** Rows the step writes under other names than its own (its own name is a row unless listed). */
  writes?: string[];
  run: (bench: Bench, scenario: Scenario) => Promise<void>;
}

/** The target as `show` takes it. */
export const targetOf = (scenario: Scenario) => scenario.target ?? undefined;
