import {
  CSV_MIME,
  type ImportFileType,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_CELL_CHARS,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_HEADER_CHARS,
  MAX_IMPORT_ROW_CELLS,
  MAX_IMPORT_ROWS,
} from '../../../shared/imports';
import { sizeText } from '../../lib/body-limit';
import { AppError, badRequest } from '../../lib/errors';
import { workbookRecords } from './workbook';
import { NOT_XLSX } from './zip';

export { xlsxCellText } from './workbook';

/**
 * Reading an uploaded spreadsheet (DESIGN §14) into its header and its data rows, every cell a
 * string. A CSV is read as it arrives, chunk by chunk, and its rows handed on in batches, so a
 * 50 MB file is never one string and never all in memory; an XLSX (a zip, read from its end) is
 * taken whole, one workbook at a time, and its first sheet read as its rows are asked for
 * (workbook.ts). Both refuse a cell over MAX_IMPORT_CELL_CHARS and a row over MAX_IMPORT_ROW_CELLS
 * while they read it, before it is made (decision 0035).
 */

/** One data row: its row in the file (the header being 1) and its cells, one per column. */
export type SheetRow = { line: number; cells: string[] };

/**
 * A file read: its columns (header texts), then its data rows in batches, in file order.
 * `close` stops reading (a workbook's turn ends); reading to the end or failing closes it too.
 */
export type Sheet = { columns: string[]; batches: AsyncGenerator<SheetRow[]>; close(): Promise<void> };

/** The 413 the app answers for a body above a route's limit (`max` bytes), in the same words. */
export function tooLarge(max = MAX_IMPORT_BYTES): AppError {
  return new AppError(413, `The request body is too large (${sizeText(max)} at most for this call).`);
}

/**
 * The media types a CSV upload may be sent as. Besides text/csv: application/csv and text/plain,
 * which some tools give a .csv, application/vnd.ms-excel, which browsers on a machine with Excel
 * give a .csv, and tab-separated text (the delimiter is found by itself).
 */
export const CSV_MEDIA_TYPES = [
  CSV_MIME,
  'application/csv',
  'text/x-csv',
  'application/x-csv',
  'text/comma-separated-values',
  'text/tab-separated-values',
  'text/plain',
  'application/vnd.ms-excel',
] as const;

/** A Content-Type header's media type (lower case) and the charset it names, if any. */
export function mediaTypeOf(header: string | undefined): { type: string; charset?: string } {
  const [type = '', ...params] = (header ?? '').toLowerCase().split(';');
  const charset = params
    .map((param) => param.trim())
    .find((param) => param.startsWith('charset='))
    ?.slice('charset='.length)
    .replaceAll('"', '');
  return charset ? { type: type.trim(), charset } : { type: type.trim() };
}

/** Whether a charset a CSV upload names is one its bytes are read in (UTF-8; ASCII is UTF-8). */
export const isUtf8Charset = (charset: string | undefined): boolean =>
  charset === undefined || ['utf-8', 'utf8', 'us-ascii'].includes(charset);

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
    if (total > max) throw tooLarge(max);
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
  /** The physical line where the record being read started. */
  private recordLine = 1;
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

  /**
   * Reads a piece. A cell passing MAX_IMPORT_CELL_CHARS is refused at the character that passes
   * it, a row passing MAX_IMPORT_ROW_CELLS at the delimiter that opens one cell too many: neither
   * is made.
   */
  push(text: string): void {
    const delimiter = this.delimiter;
    let start = 0;
    let state = this.state;
    // Where the open field would pass the most a cell may hold (Unquoted and Quoted only).
    let passAt = MAX_IMPORT_CELL_CHARS - this.field.length;
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
          passAt = start + MAX_IMPORT_CELL_CHARS;
          continue;
        }
        start = i;
        passAt = start + MAX_IMPORT_CELL_CHARS;
        state = State.Unquoted;
      }
      if (state === State.Unquoted) {
        if (c === delimiter) {
          this.nextField(text, start, i);
          state = State.FieldStart;
        } else if (c === CR || c === LF) {
          this.endField(text, start, i);
          state = this.endLine(c);
        } else if (i >= passAt) throw this.tooLong(this.line);
      } else if (state === State.Quoted) {
        if (c === QUOTE) {
          this.field += text.slice(start, i);
          state = State.QuoteInQuoted;
        } else {
          if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) this.line++;
          if (i >= passAt) throw this.tooLong(this.quoteLine);
        }
      } else if (c === QUOTE) {
        // A doubled quote inside a quoted field: one quote of text, and the field goes on.
        if (this.field.length >= MAX_IMPORT_CELL_CHARS) throw this.tooLong(this.quoteLine);
        this.field += '"';
        state = State.Quoted;
        start = i + 1;
        passAt = start + MAX_IMPORT_CELL_CHARS - this.field.length;
      } else if (c === delimiter) {
        this.nextField(text, i, i);
        state = State.FieldStart;
      } else if (c === CR || c === LF) {
        this.endField(text, i, i);
        state = this.endLine(c);
      } else {
        // Text after a closing quote is kept, as if the field went on unquoted.
        start = i;
        passAt = start + MAX_IMPORT_CELL_CHARS - this.field.length;
        if (i >= passAt) throw this.tooLong(this.quoteLine);
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

  /** A field ended by a delimiter: another follows, which the row must have room for. */
  private nextField(text: string, start: number, end: number): void {
    this.endField(text, start, end);
    if (this.cells.length >= MAX_IMPORT_ROW_CELLS)
      throw badRequest(
        `Line ${this.recordLine} has more than ${MAX_IMPORT_ROW_CELLS} cells; a row may have ${MAX_IMPORT_ROW_CELLS} at most.`,
      );
  }

  /** The record ends at a line break (`c`); answers the state after it. */
  private endLine(c: number): State {
    this.endRecord();
    this.line++;
    this.recordLine = this.line;
    return c === CR ? State.AfterCr : State.FieldStart;
  }

  private endRecord(): void {
    const cells = this.cells;
    this.cells = [];
    this.onRecord(cells);
  }

  private tooLong(line: number): AppError {
    const most = MAX_IMPORT_CELL_CHARS.toLocaleString('en-US');
    return badRequest(
      `Line ${line}, column ${this.cells.length + 1} holds more than ${most} characters; a cell may hold ${most} at most.`,
    );
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
      // A sample cut inside a quoted cell, or refused: the records before it still count.
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

/**
 * One at a time, and at most `waiting` more waiting their turn in order, each for `waitMs` at
 * most: one more is a 503 (`busy`), and so is one that waited too long (`waited`). `take`
 * answers the function that ends the turn (called twice, it ends it once).
 */
export class Turns {
  private taken = false;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly waiting: number,
    private readonly waitMs: number,
    private readonly busy: string,
    private readonly waited: string,
  ) {}

  /** Whether a turn is taken, and how many wait for theirs. */
  get held(): boolean {
    return this.taken;
  }
  get queued(): number {
    return this.queue.length;
  }

  async take(): Promise<() => void> {
    if (this.taken) {
      if (this.queue.length >= this.waiting) throw new AppError(503, this.busy);
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          this.queue.splice(this.queue.indexOf(turn), 1);
          reject(new AppError(503, this.waited));
        }, this.waitMs);
        timer.unref();
        this.queue.push(turn);
      });
    }
    // A turn handed over from the one before stays taken.
    this.taken = true;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const next = this.queue.shift();
      if (next) next();
      else this.taken = false;
    };
  }
}

/**
 * Workbooks are read one at a time (their bytes received, unpacked and read, their rows written),
 * so that however many are sent at once, one 50 MB file and one bounded reading are in memory;
 * three more wait their turn, each a minute at most, before a 503 asks to send it again.
 */
const WORKBOOK_WAITING = 3;
const WORKBOOK_WAIT_MS = 60_000;
export const workbookTurns = new Turns(
  WORKBOOK_WAITING,
  WORKBOOK_WAIT_MS,
  `Another workbook is being read and ${WORKBOOK_WAITING} more are waiting; upload this one again in a minute.`,
  'This workbook waited a minute for another to be read; upload it again shortly.',
);

/**
 * The first sheet's rows, every cell as text (xlsxCellText), in its turn: the file is received
 * whole first (its directory is at its end), then read as its rows are asked for.
 */
export async function* xlsxRecords(source: AsyncIterable<Uint8Array>): AsyncGenerator<string[][]> {
  const done = await workbookTurns.take();
  try {
    const parts: Uint8Array[] = [];
    for await (const chunk of source) parts.push(chunk);
    const file = Buffer.concat(parts);
    try {
      yield* workbookRecords(file);
    } catch (error) {
      // Whatever else a malformed archive trips on is a file that cannot be read, not a 500.
      throw error instanceof AppError ? error : badRequest(NOT_XLSX);
    }
  } finally {
    done();
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
    if (column.length > MAX_IMPORT_HEADER_CHARS)
      throw badRequest(
        `The header of column ${index + 1} is longer than ${MAX_IMPORT_HEADER_CHARS} characters.`,
      );
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
  format: ImportFileType,
  body: AsyncIterable<Uint8Array>,
  batchSize: number,
): Promise<Sheet> {
  const bytes = limitBytes(body);
  return readTable(format === 'csv' ? csvRecords(bytes) : xlsxRecords(bytes), batchSize);
}
