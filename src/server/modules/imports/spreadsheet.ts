import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  type ImportFormat,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ROWS,
} from '../../../shared/imports';
import { sizeText } from '../../lib/body-limit';
import { AppError, badRequest } from '../../lib/errors';
import { isBadText } from '../../lib/text-guard';

/**
 * Reading an uploaded spreadsheet (DESIGN §14) into its header and its data rows, every cell a
 * string. A CSV is read as it arrives, chunk by chunk, and its rows handed on in batches, so a
 * 50 MB file is never one string and never all in memory; an XLSX (a zip, read from its end) is
 * taken whole and read by read-excel-file (the first sheet) in a worker thread.
 */

/** One data row: its row in the file (the header being 1) and its cells, one per column. */
export type SheetRow = { line: number; cells: string[] };

/**
 * A file read: its columns (header texts), then its data rows in batches, in file order.
 * `close` stops reading (a workbook's worker ends); reading to the end or failing closes it too.
 */
export type Sheet = { columns: string[]; batches: AsyncGenerator<SheetRow[]>; close(): Promise<void> };

/** The longest header text a mapping may name (ImportMappingInput). */
const MAX_HEADER_LENGTH = 1000;

/** The 413 the app answers for a body above a route's limit, in the same words. */
export function tooLarge(): AppError {
  return new AppError(
    413,
    `The request body is too large (${sizeText(MAX_IMPORT_BYTES)} at most for this call).`,
  );
}

/** The body's chunks, refused with a 413 once they pass `max` bytes. */
export async function* limitBytes(
  source: AsyncIterable<Uint8Array>,
  max = MAX_IMPORT_BYTES,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  const iterator = source[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await iterator.next();
    } catch {
      // The client went away (or its connection broke) before the whole file arrived.
      throw badRequest('The upload was cut off before the whole file arrived; send it again.');
    }
    if (next.done) return;
    total += next.value.byteLength;
    if (total > max) throw tooLarge();
    yield next.value;
  }
}

// ---------------------------------------------------------------------------------------------
// CSV

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;
const TAB = 0x09;
/** The delimiters a file may use, in the order a tie is settled. */
const DELIMITERS = [COMMA, SEMICOLON, TAB] as const;

enum State {
  /** At the start of a field (also of a record). */
  FieldStart,
  Unquoted,
  Quoted,
  /** Just after a quote inside a quoted field: its end, or the first of a doubled quote. */
  QuoteInQuoted,
  /** Just after a CR that ended a record: a LF here belongs to it. */
  AfterCr,
}

/**
 * RFC 4180 CSV read from text pushed in pieces: quoted fields with doubled quotes, delimiters and
 * line breaks inside; records ending in CRLF, LF or CR. Lenient where files in the wild are: a
 * quote inside an unquoted field (`5" screen`) is text, and text after a closing quote is kept.
 * Each record goes to `onRecord` as soon as it ends.
 */
export class CsvParser {
  /** The physical line being read (1-based), for messages. */
  private line = 1;
  /** The physical line where the open quoted field started. */
  private quoteLine = 0;
  private state = State.FieldStart;
  private cells: string[] = [];
  /** The current field's text from earlier pieces (and before a doubled quote). */
  private field = '';

  constructor(
    private readonly delimiter: number,
    private readonly onRecord: (cells: string[]) => void,
  ) {}

  push(text: string): void {
    const delimiter = this.delimiter;
    let start = 0;
    let state = this.state;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0)
        throw badRequest(`Line ${this.line} holds a NUL character, which a text file cannot hold.`);
      if (state === State.AfterCr) {
        state = State.FieldStart;
        if (c === LF) {
          start = i + 1;
          continue;
        }
      }
      if (state === State.FieldStart) {
        if (c === QUOTE) {
          state = State.Quoted;
          this.quoteLine = this.line;
          start = i + 1;
          continue;
        }
        start = i;
        state = State.Unquoted;
      }
      if (state === State.Unquoted) {
        if (c === delimiter) {
          this.endField(text, start, i);
          state = State.FieldStart;
        } else if (c === CR || c === LF) {
          this.endField(text, start, i);
          this.endRecord();
          this.line++;
          state = c === CR ? State.AfterCr : State.FieldStart;
        }
      } else if (state === State.Quoted) {
        if (c === QUOTE) {
          this.field += text.slice(start, i);
          state = State.QuoteInQuoted;
        } else if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) this.line++;
      } else if (c === QUOTE) {
        // A doubled quote inside a quoted field: one quote of text, and the field goes on.
        this.field += '"';
        state = State.Quoted;
        start = i + 1;
      } else if (c === delimiter) {
        this.endField(text, i, i);
        state = State.FieldStart;
      } else if (c === CR || c === LF) {
        this.endField(text, i, i);
        this.endRecord();
        this.line++;
        state = c === CR ? State.AfterCr : State.FieldStart;
      } else {
        // Text after a closing quote is kept, as if the field went on unquoted.
        start = i;
        state = State.Unquoted;
      }
    }
    this.state = state;
    // Keep the unfinished field's text for the next piece.
    if (state === State.Unquoted || state === State.Quoted) this.field += text.slice(start);
  }

  /** The end of the text: the last record (without a line break) ends here. */
  end(): void {
    if (this.state === State.Quoted)
      throw badRequest(
        `The quote that opens a cell on line ${this.quoteLine} is never closed; close it or remove it.`,
      );
    if (this.state === State.Unquoted || this.state === State.QuoteInQuoted || this.cells.length > 0) {
      this.cells.push(this.field);
      this.field = '';
      this.endRecord();
    }
    this.state = State.FieldStart;
  }

  private endField(text: string, start: number, end: number): void {
    this.cells.push(this.field + text.slice(start, end));
    this.field = '';
  }

  private endRecord(): void {
    const cells = this.cells;
    this.cells = [];
    this.onRecord(cells);
  }
}

/** How many records (lines outside quotes) the delimiter is guessed from, and how much text at most. */
const SNIFF_RECORDS = 20;
const SNIFF_CHARS = 64 * 1024;

/**
 * The delimiter of a CSV, from its first records: each of comma, semicolon and tab is tried as
 * the file's own (quotes open only at a cell's start, as the parser has it, so a comma inside a
 * `;` file's quoted text does not count); a delimiter must split the header, and the one whose
 * split gives the most of the following records the header's number of cells wins (then the one
 * with more cells; then comma, semicolon, tab in that order). A single column: comma.
 * `complete`: the sample is the whole file (its last record is whole).
 */
export function sniffDelimiter(sample: string, complete: boolean): number {
  let best = COMMA;
  let bestScore = -1;
  let bestWidth = 1;
  for (const delimiter of DELIMITERS) {
    const widths: number[] = [];
    const parser = new CsvParser(delimiter, (cells) => {
      if (cells.some((cell) => cell.trim() !== '')) widths.push(cells.length);
      else if (widths.length === 0) widths.push(cells.length);
    });
    try {
      parser.push(sample);
      if (complete) parser.end();
    } catch {
      // A sample cut inside a quoted cell: the records before it still count.
    }
    const [width = 1, ...rest] = widths;
    if (width < 2) continue;
    const score = rest.filter((w) => w === width).length;
    if (score > bestScore || (score === bestScore && width > bestWidth)) {
      best = delimiter;
      bestScore = score;
      bestWidth = width;
    }
  }
  return best;
}

/** Counts line breaks, to know when the sniffing sample holds enough records. */
function lineBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

const NOT_UTF8 = 'The file is not UTF-8 text; save it as CSV UTF-8 and upload it again.';

/**
 * A CSV's records as the bytes arrive: decoded as UTF-8 (a BOM dropped; invalid bytes a 400), the
 * delimiter guessed from the first records, then each piece's records handed on together.
 */
export async function* csvRecords(source: AsyncIterable<Uint8Array>): AsyncGenerator<string[][]> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (bytes?: Uint8Array) => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch {
      throw badRequest(NOT_UTF8);
    }
  };
  let parser: CsvParser | undefined;
  let records: string[][] = [];
  let sample = '';
  const start = (complete: boolean) => {
    // Only the first records are tried: a body that arrives as one large chunk is not read thrice.
    const head = sample.length > SNIFF_CHARS ? sample.slice(0, SNIFF_CHARS) : sample;
    const delimiter = sniffDelimiter(head, complete && head.length === sample.length);
    parser = new CsvParser(delimiter, (cells) => records.push(cells));
    parser.push(sample);
    sample = '';
  };
  for await (const chunk of source) {
    const text = decode(chunk);
    if (!parser) {
      sample += text;
      if (sample.length < SNIFF_CHARS && lineBreaks(sample) <= SNIFF_RECORDS) continue;
      start(false);
    } else parser.push(text);
    if (records.length > 0) {
      yield records;
      records = [];
    }
  }
  const rest = decode();
  if (!parser) {
    sample += rest;
    start(true);
  } else parser.push(rest);
  (parser as CsvParser).end();
  if (records.length > 0) yield records;
}

// ---------------------------------------------------------------------------------------------
// XLSX

/** A number cell's text exactly as the workbook stores it (read-excel-file's parseNumber). */
type StoredNumber = { storedNumber: string };
const isStoredNumber = (value: unknown): value is StoredNumber =>
  typeof value === 'object' && value !== null && typeof (value as StoredNumber).storedNumber === 'string';

/** Up to 15 significant digits, as a spreadsheet shows a number: no float noise, no exponent. */
const DECIMAL = new Intl.NumberFormat('en-US', { useGrouping: false, maximumSignificantDigits: 15 });

/**
 * A workbook cell as text: an integer exactly as stored (a 13-digit barcode stays whole), another
 * number in plain decimals without float noise (12.5, not 12.500000000000002), a date as
 * YYYY-MM-DD, a boolean as true or false, an empty cell as ''.
 */
export function xlsxCellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (isStoredNumber(value)) {
    const text = value.storedNumber.trim();
    if (/^-?\d+$/.test(text)) return text.replace(/^(-?)0+(?=\d)/, '$1');
    const number = Number(text);
    return Number.isFinite(number) ? DECIMAL.format(number) : text;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? DECIMAL.format(value) : '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

const NOT_XLSX =
  'The file is not a valid .xlsx workbook; save it again as an Excel workbook (.xlsx) or as CSV.';

/** Where the worker finds read-excel-file (its CommonJS entry: the worker runs as a script). */
const XLSX_READER = createRequire(import.meta.url).resolve('read-excel-file/node');

/**
 * The worker that reads a workbook. read-excel-file parses the sheet's XML on the thread that
 * calls it without a pause, and gathers its rows with a concat per chunk of XML, which grows with
 * the square of the rows: 100,000 rows took 15 s of one core, during which the server answered
 * no one. In a worker thread the server goes on answering, and a workbook that needs more memory
 * than the worker may have ends the worker, not the server.
 */
const XLSX_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readSheet } = require(workerData.reader);
let data = [];
let at = 0;
// One slice per request from the server, so that each is copied in on a turn of its own.
const send = () => {
  if (at >= data.length) return parentPort.postMessage({ done: true });
  parentPort.postMessage({ rows: data.slice(at, at + workerData.slice) });
  at += workerData.slice;
};
parentPort.on('message', send);
readSheet(Buffer.from(workerData.file), {
  trim: false,
  parseNumber: (text) => ({ storedNumber: text }),
}).then(
  (rows) => {
    data = rows;
    send();
  },
  (error) => parentPort.postMessage({ failed: String((error && error.name) || error) }),
);
`;

/** The most heap a workbook's reading may take (its rows as values are the bulk of it). */
const XLSX_WORKER_HEAP_MB = 1024;
/**
 * Rows per message from the worker. Each is copied in on the server's thread: a sheet handed
 * over whole, or in slices sent all at once (taken in one turn), held it for seconds.
 */
const XLSX_SLICE = 2000;

type WorkerMessage = { rows?: unknown[][]; done?: true; failed?: string };

/**
 * The first sheet's rows, read in a worker thread and handed over a slice at a time, when asked
 * for (empty cells as null). A file that is not a workbook is a 400.
 */
async function* workbookRows(file: Uint8Array): AsyncGenerator<unknown[][]> {
  const worker = new Worker(XLSX_WORKER, {
    eval: true,
    workerData: { reader: XLSX_READER, file, slice: XLSX_SLICE },
    resourceLimits: { maxOldGenerationSizeMb: XLSX_WORKER_HEAP_MB },
  });
  // A server stopping does not wait for a workbook's reading.
  worker.unref();
  const queue: (WorkerMessage | AppError)[] = [];
  let wake: (() => void) | undefined;
  const put = (item: WorkerMessage | AppError) => {
    queue.push(item);
    wake?.();
  };
  worker.on('message', put);
  worker.on('error', (error: NodeJS.ErrnoException) =>
    put(
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? badRequest('The workbook is too large to read once unpacked; save it as CSV and upload that.')
        : badRequest(NOT_XLSX),
    ),
  );
  worker.on('exit', () => put(badRequest(NOT_XLSX)));
  try {
    for (;;) {
      const item = queue.shift();
      if (!item) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      if (item instanceof AppError) throw item;
      if (item.failed) throw badRequest(NOT_XLSX);
      if (item.done) return;
      if (item.rows) yield item.rows;
      worker.postMessage('next');
    }
  } finally {
    worker.removeAllListeners();
    void worker.terminate();
  }
}

/** The first sheet's rows, every cell as text (xlsxCellText). The file is read whole first. */
export async function* xlsxRecords(source: AsyncIterable<Uint8Array>): AsyncGenerator<string[][]> {
  const parts: Uint8Array[] = [];
  for await (const chunk of source) parts.push(chunk);
  let line = 0;
  for await (const rows of workbookRows(Buffer.concat(parts))) {
    yield rows.map((row) => {
      line++;
      return row.map((value) => {
        const text = xlsxCellText(value);
        // A workbook's XML may spell out a NUL or half a character, which no database stores.
        if (typeof value === 'string' && isBadText(text))
          throw badRequest(`Row ${line} holds a character that is not valid text.`);
        return text;
      });
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The table: header, blank rows, widths and limits, the same for both formats

const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');

/**
 * The header's texts: trimmed, a blank one named `Column N` (N its 1-based position). Refuses
 * (400) too many columns, a header too long for a mapping to name, and two columns of one name
 * (ignoring case and surrounding spaces), which a mapping could not tell apart.
 */
export function headerColumns(cells: readonly string[]): string[] {
  if (cells.length > MAX_IMPORT_COLUMNS)
    throw badRequest(`The file has ${cells.length} columns; an import takes at most ${MAX_IMPORT_COLUMNS}.`);
  const columns = cells.map((cell, index) => cell.trim() || `Column ${index + 1}`);
  const seen = new Set<string>();
  for (const [index, column] of columns.entries()) {
    if (column.length > MAX_HEADER_LENGTH)
      throw badRequest(`The header of column ${index + 1} is longer than ${MAX_HEADER_LENGTH} characters.`);
    const key = column.toLowerCase();
    if (seen.has(key))
      throw badRequest(`Two columns are named "${column}"; give each column its own header.`);
    seen.add(key);
  }
  return columns;
}

/** The most text a batch holds, however few its rows: one statement writes it (4 s at most). */
const BATCH_CHARS = 2_000_000;

/**
 * The header and the data rows of a file's records. Row numbers are the records' positions (the
 * header is 1), as a spreadsheet numbers its rows; a cell holding a line break does not add one.
 * Fully blank rows are skipped but counted. Every row is padded with '' to the header's width;
 * a row with a non-empty cell beyond the header's last column is refused (400) rather than cut,
 * as its cells are likely shifted and the file is better fixed than read wrongly. More than
 * MAX_IMPORT_ROWS data rows is a 413. A batch ends at `batchSize` rows or BATCH_CHARS of text.
 */
export async function readTable(records: AsyncIterable<string[][]>, batchSize: number): Promise<Sheet> {
  const iterator = records[Symbol.asyncIterator]();
  const close = async () => {
    await iterator.return?.();
  };
  let first: IteratorResult<string[][]>;
  let columns: string[];
  try {
    first = await iterator.next();
    while (!first.done && first.value.length === 0) first = await iterator.next();
    if (first.done) throw badRequest('The file is empty; it needs a header row and the rows below it.');
    const [header = []] = first.value;
    if (isBlank(header)) throw badRequest('The file has no header row: its first row must name the columns.');
    columns = headerColumns(header);
  } catch (error) {
    await close();
    throw error;
  }
  const pending = first.value.slice(1);
  const width = columns.length;

  async function* batches(): AsyncGenerator<SheetRow[]> {
    try {
      let line = 1;
      let count = 0;
      let batch: SheetRow[] = [];
      let chars = 0;
      let group: string[][] | undefined = pending;
      while (group) {
        for (const cells of group) {
          line++;
          if (isBlank(cells)) continue;
          if (++count > MAX_IMPORT_ROWS)
            throw new AppError(
              413,
              `The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows.`,
            );
          if (cells.length > width) {
            if (cells.slice(width).some((cell) => cell.trim() !== ''))
              throw badRequest(
                `Line ${line} has more cells than the header has columns; give each of its columns a header.`,
              );
            cells.length = width;
          }
          while (cells.length < width) cells.push('');
          batch.push({ line, cells });
          for (const cell of cells) chars += cell.length;
          if (batch.length >= batchSize || chars >= BATCH_CHARS) {
            yield batch;
            batch = [];
            chars = 0;
          }
        }
        const next = await iterator.next();
        group = next.done ? undefined : next.value;
      }
      if (batch.length > 0) yield batch;
    } finally {
      // Stopped early (a refusal, a failed write) or done: the reading ends with it.
      await close();
    }
  }
  return { columns, batches: batches(), close };
}

/** Reads an uploaded file of the format: its header, then its rows in batches of `batchSize`. */
export function readSpreadsheet(
  format: ImportFormat,
  body: AsyncIterable<Uint8Array>,
  batchSize: number,
): Promise<Sheet> {
  const bytes = limitBytes(body);
  return readTable(format === 'csv' ? csvRecords(bytes) : xlsxRecords(bytes), batchSize);
}
