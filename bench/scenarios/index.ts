import { POSTGRES_ALONE } from './alone';
import type { Scenario } from './bench';
import { BILLS_POSTED_AND_PAID } from './bills';
import { CATALOGUE_INTERACTIVE, LOGIN_WEIGHT } from './browser';
import { CATALOGUE_IMPORT, DASHBOARD_AFTER } from './import';
import { OFFLINE_QUEUE } from './offline';
import { RECEIVE, SUGGESTIONS } from './purchasing';
import { READS } from './reads';
import { BOOKS_ROWS, CSV_EXPORT, REPORT_ROWS } from './reports';
import {
  BARCODE,
  LOT_SALE,
  LOT_SALES_FLAT,
  REFUND,
  SALE_BEFORE_SEARCHES,
  SALES_BESIDE_SEARCHES,
  SALES_FLAT,
  SALES_POSTING,
  STEADY_SALE,
} from './sales';
import { ADJUST_STOCK, BOOKS_CHECK, MOVEMENTS_PAGE, PLACE_ORDER, STOCK_CHECK } from './stock';
import { STOCKTAKE_POST, STOCKTAKE_SCANS } from './stocktakes';
import { TRANSFER } from './transfers';

export type { Bench, Measured, Prepared, Scenario, Signed } from './bench';
export { logImport } from './import';

/**
 * The benchmark's scenarios in the order they run (bench/run.ts runs them one after another).
 * The order matters: the stock check follows every write, the import comes after it (its new
 * products would change the count), and the sale beside the searches runs over the catalogue
 * the import left. The offline queue opens its own till session once the flat-out sales closed theirs.
 */
export const SCENARIOS: Scenario[] = [
  ...READS,
  PLACE_ORDER,
  ADJUST_STOCK,
  BARCODE,
  STEADY_SALE,
  REFUND,
  SALES_FLAT,
  SALES_POSTING,
  LOT_SALE,
  LOT_SALES_FLAT,
  OFFLINE_QUEUE,
  MOVEMENTS_PAGE,
  SUGGESTIONS,
  POSTGRES_ALONE,
  ...REPORT_ROWS,
  ...BOOKS_ROWS,
  RECEIVE,
  BILLS_POSTED_AND_PAID,
  TRANSFER,
  STOCKTAKE_SCANS,
  STOCKTAKE_POST,
  CSV_EXPORT,
  STOCK_CHECK,
  BOOKS_CHECK,
  CATALOGUE_INTERACTIVE,
  LOGIN_WEIGHT,
  CATALOGUE_IMPORT,
  DASHBOARD_AFTER,
  SALE_BEFORE_SEARCHES,
  ...SALES_BESIDE_SEARCHES,
];
