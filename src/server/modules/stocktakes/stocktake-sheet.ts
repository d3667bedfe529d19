import type { FastifyInstance, FastifyReply, FastifySchemaCompiler } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { DateOnly } from '../../../shared/common';
import type { CsvValue } from '../../../shared/csv';
import { cellText } from '../../../shared/imports';
import { MAX } from '../../../shared/limits';
import { LotNumber } from '../../../shared/lots';
import {
  COUNT_SHEET_HEADER,
  type CountInput,
  MAX_COUNT,
  MAX_COUNTS,
  type Stocktake,
  type StocktakeLine,
} from '../../../shared/stocktakes';
import type { Database, Tx } from '../../db/connection';
import { sendCsv } from '../../lib/csv-stream';
import {
  AppError,
  badRequest,
  businessError,
  type ErrorDetail,
  notFound,
  refuseWith,
} from '../../lib/errors';
import type { Actor } from '../audit/audit.repository';
import {
  CSV_MEDIA_TYPES,
  csvRecords,
  isUtf8Charset,
  limitBytes,
  mediaTypeOf,
  readTable,
} from '../imports/spreadsheet';
import { findStocktake, type LinesFilter, recordCounts, stocktakeLines } from './stocktakes.repository';

/**
 * The count sheet (DESIGN §18, "Paper and files"): a stocktake's lines as a CSV of exactly
 * Name, SKU, Barcode, Lot, Expiry, Counted, to print or fill in a spreadsheet, and the same file
 * with Counted filled read back as counts. A filled Counted *sets* its line; an empty one is
 * skipped; a row finds its product by its SKU, else its barcode, and its lot by its Lot cell (the
 * Expiry is read for a lot the product does not have yet). All rows or none: every row that
 * cannot be counted is named by its line in the file (the header is line 1), and nothing is
 * written. The file is read with the catalogue import's CSV reader (imports/spreadsheet.ts): UTF-8
 * with or without BOM, comma, semicolon or tab, CRLF or LF, its cell and row limits.
 */

/** The most bytes a sheet may weigh: 200,000 lines (the reader's most rows) of ordinary length. */
export const MAX_SHEET_BYTES = 16 * 1024 * 1024;
/** The most bad rows an answer names one by one (its sentence counts them all). */
const MAX_SHEET_DETAILS = 1000;
/** Rows handed over by the reader at a time. */
const SHEET_BATCH = 1000;

// ---------------------------------------------------------------------------------------------
// Writing

/** The sheet's file name: ST-000001-count-sheet.csv. */
export const countSheetName = (number: string) => `${number}-count-sheet.csv`;

/**
 * A line as a row of the sheet. Counted is always left empty, even for a line already counted:
 * the sheet is a form to fill in, and a cell left empty is skipped when it comes back, so an
 * earlier count stands unless the counter writes a new one.
 */
export function countSheetRow(line: StocktakeLine): CsvValue[] {
  return [
    line.product.name,
    line.product.sku || null,
    line.product.barcode || null,
    line.lot?.number ?? null,
    line.lot?.expiresOn ?? null,
    null,
  ];
}

/**
 * Sends the count sheet: every line the filter keeps (paging ignored), in the lines' order. It
 * shows no stock, so a blind stocktake's sheet is the same for everyone.
 */
export async function sendCountSheet(
  database: Database,
  reply: FastifyReply,
  id: string,
  filter: LinesFilter,
): Promise<FastifyReply> {
  const stocktake = await findStocktake(database, id);
  if (!stocktake) throw notFound('Stocktake');
  const { lines } = await stocktakeLines(database, id, filter, { admin: false, blind: true });
  return sendCsv(reply, countSheetName(stocktake.number), COUNT_SHEET_HEADER, async () => ({
    rows: lines.map(countSheetRow),
  }));
}

// ---------------------------------------------------------------------------------------------
// Reading

/** A filled sheet as read: its counts, the line of each, and the rows that cannot be counted. */
export type CountSheet = { counts: CountInput[]; lines: number[]; problems: ErrorDetail[] };

/**
 * A count sheet's body as it arrives, unread, and then what was read of it. The stream is held
 * in a private field, so the app's check of a body's text (which walks a parsed body's
 * properties) finds nothing to walk; the request's idempotency fingerprint (JSON) is the sheet
 * as read, so one key cannot replay an answer to another sheet.
 */
export class CountSheetBody {
  readonly #stream: AsyncIterable<Uint8Array>;
  #read: Promise<CountSheet> | undefined;
  #sheet: CountSheet | undefined;
  constructor(stream: AsyncIterable<Uint8Array>) {
    this.#stream = stream;
  }
  read(): Promise<CountSheet> {
    this.#read ??= readCountSheet(this.#stream).then((sheet) => {
      this.#sheet = sheet;
      return sheet;
    });
    return this.#read;
  }
  toJSON(): { sheet: CountSheet | null } {
    return { sheet: this.#sheet ?? null };
  }
}

/** The sheet a counts request sent, read; undefined for a JSON body. */
export function countSheetOf(body: unknown): Promise<CountSheet> | undefined {
  return body instanceof CountSheetBody ? body.read() : undefined;
}

const COUNTS_ROUTE = '/stocktakes/:id/counts';

/**
 * Lets the routes of this plugin take a count sheet as CSV (the media types the catalogue import
 * takes for CSV, in UTF-8): the body is handed on unread, as a CountSheetBody, to the counts route
 * only; any other route of the plugin answers 415 as for any body that is not JSON.
 */
export function acceptCountSheets(app: FastifyInstance): void {
  app.addContentTypeParser([...CSV_MEDIA_TYPES], (request, payload, done) => {
    if (!request.routeOptions.url?.endsWith(COUNTS_ROUTE))
      return done(new AppError(415, 'Send the request body as JSON.'), undefined);
    if (!isUtf8Charset(mediaTypeOf(request.headers['content-type']).charset))
      return done(new AppError(415, 'Send the count sheet as UTF-8 text.'), undefined);
    done(null, new CountSheetBody(payload as AsyncIterable<Uint8Array>));
  });
}

/**
 * The counts route's validation: a JSON body goes through the app's own zod validation (so a bad
 * one is the usual VALIDATION 400); a count sheet passes, its rows checked line by line as read.
 */
export const countSheetValidator: FastifySchemaCompiler<unknown> = (route) => {
  const validate = validatorCompiler(route as FastifyRouteSchemaDef<ZodType>);
  if (route.httpPart !== 'body') return validate;
  return (data: unknown) => (data instanceof CountSheetBody ? { value: data } : validate(data));
};

const HEADER_TEXT = COUNT_SHEET_HEADER.join(', ');

/** The header must be the sheet's six columns in order (ignoring case): a 400 saying which is not. */
function checkHeader(columns: readonly string[]): void {
  const have = columns.map((column) => column.toLowerCase());
  const missing = COUNT_SHEET_HEADER.filter((column) => !have.includes(column.toLowerCase()));
  if (missing.length > 0)
    throw badRequest(`The sheet has no ${missing.join(' or ')} column: its header must be ${HEADER_TEXT}.`);
  const wanted: readonly string[] = COUNT_SHEET_HEADER.map((column) => column.toLowerCase());
  const extra = columns.filter((column) => !wanted.includes(column.toLowerCase()));
  if (extra.length > 0)
    throw badRequest(
      `The sheet has a column the count sheet does not (${extra.slice(0, 3).join(', ')}): its header must be ${HEADER_TEXT}.`,
    );
  for (const [index, column] of COUNT_SHEET_HEADER.entries())
    if (have[index] !== column.toLowerCase())
      throw badRequest(
        `Column ${index + 1} must be ${column}, not ${columns[index]}: the header must be ${HEADER_TEXT}.`,
      );
}

/** Counted as a spreadsheet writes a whole number. */
const WHOLE = /^\d{1,7}$/;
/** A day as the sheet writes it; any other Expiry text (a spreadsheet's own date format) is not read. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A row's count, or why it cannot be counted (its cells: Name, SKU, Barcode, Lot, Expiry, Counted). */
function rowCount(cells: readonly string[]): CountInput | string {
  const [, skuCell, barcodeCell, lotCell, expiryCell, countedCell] = cells;
  const counted = cellText(countedCell);
  const quantity = WHOLE.test(counted) ? Number(counted) : Number.NaN;
  if (!(quantity >= 0 && quantity <= MAX_COUNT))
    return `Counted must be a whole number from 0 to ${MAX_COUNT.toLocaleString('en-US')}.`;
  const sku = cellText(skuCell);
  const barcode = cellText(barcodeCell);
  const code = sku || barcode;
  if (code === '') return 'Give the product’s SKU or barcode: the row has neither.';
  if (code.length > MAX.code)
    return `The ${sku ? 'SKU' : 'barcode'} is longer than ${MAX.code} characters, so no product has it.`;
  const lotText = cellText(lotCell);
  if (lotText === '') return { product: code, quantity, mode: 'set' };
  const number = LotNumber.safeParse(lotText);
  if (!number.success) return number.error.issues[0]?.message ?? 'The Lot is not a lot number.';
  const expiry = cellText(expiryCell);
  if (!DAY.test(expiry)) return { product: code, lot: { number: number.data }, quantity, mode: 'set' };
  const expiresOn = DateOnly.safeParse(expiry);
  if (!expiresOn.success) return `Expiry: ${expiresOn.error.issues[0]?.message ?? 'not a day.'}`;
  return { product: code, lot: { number: number.data, expiresOn: expiresOn.data }, quantity, mode: 'set' };
}

/**
 * Reads a filled sheet: the header checked, each row with Counted filled made a `set` count (or a
 * problem naming its line), rows with Counted empty skipped. More than MAX_COUNTS filled rows, or
 * none, is a 400.
 */
export async function readCountSheet(body: AsyncIterable<Uint8Array>): Promise<CountSheet> {
  const table = await readTable(csvRecords(limitBytes(body, MAX_SHEET_BYTES)), SHEET_BATCH);
  const sheet: CountSheet = { counts: [], lines: [], problems: [] };
  try {
    checkHeader(table.columns);
    let filled = 0;
    for await (const batch of table.batches)
      for (const row of batch) {
        if (cellText(row.cells[5]) === '') continue;
        if (++filled > MAX_COUNTS)
          throw badRequest(
            `The sheet fills more than ${MAX_COUNTS.toLocaleString('en-US')} Counted cells; send at most ${MAX_COUNTS.toLocaleString('en-US')} counts at once.`,
          );
        const count = rowCount(row.cells);
        if (typeof count === 'string') sheet.problems.push({ path: `line ${row.line}`, message: count });
        else {
          sheet.counts.push(count);
          sheet.lines.push(row.line);
        }
      }
  } finally {
    await table.close();
  }
  if (sheet.counts.length === 0 && sheet.problems.length === 0)
    throw badRequest('No row of the sheet has Counted filled in: write the counts there and send it again.');
  return sheet;
}

/**
 * Records a sheet's counts, all or none: the rows the reading refused and those the stocktake
 * refuses (a product it does not count, a tracked product without its lot, …) are one
 * STOCKTAKE_SHEET_INVALID by line, and whatever was written is undone with the transaction.
 */
export async function recordSheetCounts(
  tx: Tx,
  id: string,
  sheet: CountSheet,
  actor: Actor,
): Promise<{ lineIds: string[]; stocktake: Stocktake }> {
  const { lineIds, problems, stocktake } = await recordCounts(tx, id, sheet.counts, actor, { collect: true });
  const details = [...sheet.problems];
  for (const problem of problems) {
    const error = businessError(problem.error);
    if (!error) throw problem.error;
    details.push({ path: `line ${sheet.lines[problem.index]}`, message: error.message });
  }
  if (details.length === 0) return { lineIds, stocktake };
  const line = (detail: ErrorDetail) => Number(detail.path.slice('line '.length));
  details.sort((a, b) => line(a) - line(b));
  throw refuseWith(
    'STOCKTAKE_SHEET_INVALID',
    { details: details.slice(0, MAX_SHEET_DETAILS) },
    { rows: details.length },
  );
}
