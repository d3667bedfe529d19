import { posix } from 'node:path';
import { MAX_IMPORT_CELL_CHARS, MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS } from '../../../shared/imports';
import { AppError, badRequest } from '../../lib/errors';
import { isBadText } from '../../lib/text-guard';
import { attributeOf, type XmlHandler, XmlScanner } from './xml-scanner';
import { entryBytes, NOT_XLSX, unpacksTooLarge, type ZipEntry, zipEntries } from './zip';

/**
 * Reading the first sheet of an .xlsx workbook (a zip of XML parts) into its rows, every cell as
 * text, with every bound of decision 0035: only the workbook, its relationships, its styles, its
 * shared strings and its first sheet are inflated, each within its limit and all within
 * UNPACKED_MAX; a cell reference past a sheet's limits, or holding a value past the import's, is
 * refused before anything is made for it; a cell past MAX_IMPORT_CELL_CHARS while it is read.
 * The sheet is read as its rows are asked for, a piece of 64 kB at a time on a turn of its own.
 */

const MB = 2 ** 20;
/** The most the parts read may unpack to, together. */
export const UNPACKED_MAX = 200 * MB;
/** The most each part may unpack to: the sheet and its strings are the bulk, the rest is small. */
const LIMITS = {
  'main part': 2 * MB,
  relationships: 2 * MB,
  styles: 10 * MB,
  'shared strings': 100 * MB,
  sheet: UNPACKED_MAX,
};
type Part = keyof typeof LIMITS;

/** Excel's last column (XFD) and last row: a reference past them is not a sheet's. */
const SHEET_COLUMNS = 16_384;
const SHEET_ROWS = 1_048_576;
/**
 * The most raw text a cell's value is read to: its `_xHHHH_` escapes (7 characters for one) are
 * undone at its end, where MAX_IMPORT_CELL_CHARS is checked again.
 */
const RAW_CELL_CHARS = 7 * MAX_IMPORT_CELL_CHARS;

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELATIONS = 'xl/_rels/workbook.xml.rels';

const tooLong = (ref: string) =>
  badRequest(
    `Cell ${ref} holds more than ${MAX_IMPORT_CELL_CHARS.toLocaleString('en-US')} characters; a cell may hold ${MAX_IMPORT_CELL_CHARS.toLocaleString('en-US')} at most.`,
  );
const damaged = (what: string) =>
  badRequest(`The workbook cannot be read: ${what}; save it again as an Excel workbook (.xlsx) or as CSV.`);

/** A reference as written, short enough for a sentence and without control characters. */
const shown = (ref: string) =>
  (ref.length > 24 ? `${ref.slice(0, 24)}…` : ref).replace(/[^ -~\u00a0-\uffff]/g, ' ');

/** A column's letters: 1 → A, 200 → GR, 16,384 → XFD. */
export function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

// ---------------------------------------------------------------------------------------------
// Cells as text

/** A number cell's text exactly as the workbook stores it. */
export type StoredNumber = { storedNumber: string };
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

/** Undoes the `_xHHHH_` escapes a workbook writes characters XML cannot hold as (`_x000D_`: CR). */
const unescapeText = (text: string) =>
  text.includes('_x')
    ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : text;

/** Days from Excel's day 0 (1899-12-30, after its 1900 leap year) to 1970-01-01, and 1904's shift. */
const UNIX_EPOCH_DAY = 25_569;
const EPOCH_1904_DAYS = 1_462;
const DAY_MS = 86_400_000;

/** The date of a serial day number (its time of day dropped by xlsxCellText). */
const serialDate = (serial: number, date1904: boolean) =>
  new Date(Math.floor((serial + (date1904 ? EPOCH_1904_DAYS : 0) - UNIX_EPOCH_DAY) * DAY_MS));

// ---------------------------------------------------------------------------------------------
// Styles: which cell styles show a date

/** Built-in number formats that are dates or times (any locale's). */
const BUILT_IN_DATES = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81,
]);
const DATE_TOKENS = new Set(
  'y yy yyyy m mm mmm mmmm mmmmm d dd ddd dddd h hh s ss am pm a p aaa aaaa aaaaa e ee eeee'.split(' '),
);

/**
 * Whether a number format's code shows a date: once quoted text, escapes, brackets and fractions
 * of seconds are set aside, one of its sections is only date and time tokens.
 */
export function isDateFormat(code: string): boolean {
  const plain = code.toLowerCase().replace(/;@$/, '').replace(/\\./g, ' ');
  return plain.split(';').some((section) => {
    const tokens = section
      .replace(/"[^"]*"/g, ' ')
      .replace(/(\[?[smhd]{1,2}\]?)[.,]00?0?/g, '$1')
      .replace(/\[([smhd]{1,2})\]/g, '$1')
      .replace(/\[[^\]]*\]/g, '')
      .split(/[^a-z0#?%]+/)
      .filter(Boolean);
    return tokens.length > 0 && tokens.every((token) => DATE_TOKENS.has(token));
  });
}

const integerOf = (text: string | undefined) => {
  const number = text === undefined ? Number.NaN : Number(text);
  return Number.isInteger(number) && number >= 0 ? number : -1;
};

/** styles.xml read for one thing: for each cell style (`s`), whether it shows a date. */
class StylesHandler implements XmlHandler {
  readonly collecting = false;
  private readonly codes = new Map<number, string>();
  private readonly baseFormats: number[] = [];
  private readonly formats: number[] = [];
  private readonly bases: number[] = [];
  private section = '';

  open(name: string, attributes: string): void {
    if (name === 'numFmt') {
      const code = attributeOf(attributes, 'formatCode');
      if (code !== undefined) this.codes.set(integerOf(attributeOf(attributes, 'numFmtId')), code);
    } else if (name === 'cellStyleXfs' || name === 'cellXfs') this.section = name;
    else if (name === 'xf') {
      const format = integerOf(attributeOf(attributes, 'numFmtId'));
      if (this.section === 'cellStyleXfs') this.baseFormats.push(format);
      else if (this.section === 'cellXfs') {
        this.formats.push(format);
        this.bases.push(integerOf(attributeOf(attributes, 'xfId')));
      }
    }
  }

  close(name: string): void {
    if (name === this.section) this.section = '';
  }

  text(): void {}

  /** For each cell style, whether it is a date's (its own number format, else its base style's). */
  dates(): boolean[] {
    const known = new Map<number, boolean>();
    const isDate = (format: number) => {
      let date = known.get(format);
      if (date === undefined) {
        const code = this.codes.get(format);
        date = BUILT_IN_DATES.has(format) || (code !== undefined && isDateFormat(code));
        known.set(format, date);
      }
      return date;
    };
    return this.formats.map((own, i) => {
      const format = own >= 0 ? own : (this.baseFormats[this.bases[i] as number] ?? -1);
      return format >= 0 && isDate(format);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Shared strings

/**
 * The shared strings, kept as their UTF-8 bytes end to end with where each ends: as many small
 * strings would weigh several times their text. A string longer than a cell may hold is kept as
 * too long (refused only if a cell of the sheet uses it).
 */
class SharedStrings {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  private ends = new Uint32Array(1024);
  private readonly long = new Set<number>();
  count = 0;

  add(text: string | undefined): void {
    if (this.count === this.ends.length) {
      const ends = new Uint32Array(this.ends.length * 2);
      ends.set(this.ends);
      this.ends = ends;
    }
    if (text === undefined) this.long.add(this.count);
    else {
      const size = Buffer.byteLength(text);
      if (this.used + size > this.bytes.length) {
        const bytes = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + size));
        this.bytes.copy(bytes, 0, 0, this.used);
        this.bytes = bytes;
      }
      this.used += this.bytes.write(text, this.used);
    }
    this.ends[this.count++] = this.used;
  }

  /** The string, or undefined when it is too long for a cell. */
  get(index: number): string | undefined {
    if (this.long.has(index)) return undefined;
    const start = index === 0 ? 0 : (this.ends[index - 1] as number);
    return this.bytes.toString('utf8', start, this.ends[index]);
  }
}

/** sharedStrings.xml: each `<si>`'s text (its runs' `<t>`, not its phonetic `<rPh>`), in order. */
class SharedStringsHandler implements XmlHandler {
  readonly strings = new SharedStrings();
  collecting = false;
  private item: string | undefined;
  private inItem = false;
  private phonetic = false;

  open(name: string): void {
    if (name === 'si') {
      this.inItem = true;
      this.item = '';
    } else if (name === 'rPh') this.phonetic = true;
    else if (name === 't' && this.inItem && !this.phonetic) this.collecting = true;
  }

  close(name: string): void {
    if (name === 't') this.collecting = false;
    else if (name === 'rPh') this.phonetic = false;
    else if (name === 'si') {
      const text = this.item === undefined ? undefined : unescapeText(this.item);
      this.strings.add(text !== undefined && text.length <= MAX_IMPORT_CELL_CHARS ? text : undefined);
      this.inItem = false;
    }
  }

  text(text: string): void {
    if (this.item === undefined) return;
    // Past what a cell may hold, the rest is not kept.
    this.item = this.item.length + text.length > RAW_CELL_CHARS ? undefined : this.item + text;
  }
}

// ---------------------------------------------------------------------------------------------
// The sheet

/** Where a cell reference (`B12`) points; refused when past a sheet's last column or row. */
function cellAt(ref: string): { column: number; row: number } {
  let i = 0;
  let column = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    // Letters past XFD need no more counting: the reference is refused.
    if (column <= SHEET_COLUMNS) column = column * 26 + c - 64;
  }
  const digits = ref.slice(i);
  if (i === 0 || !/^[1-9]\d*$/.test(digits)) throw damaged(`the sheet names a cell “${shown(ref)}”`);
  if (column > SHEET_COLUMNS)
    throw badRequest(
      `Cell ${shown(ref)} is past column XFD, the last a sheet can have, so the workbook cannot be read.`,
    );
  const row = digits.length > 7 ? Number.POSITIVE_INFINITY : Number(digits);
  if (row > SHEET_ROWS) throw pastLastRow(`Cell ${shown(ref)}`);
  return { column, row };
}

const pastLastRow = (what: string) =>
  badRequest(`${what} is past row 1,048,576, the last a sheet can have, so the workbook cannot be read.`);

type Cell = { ref: string; column: number; row: number; type: string; style: number };

/**
 * The sheet's `<sheetData>`: each row that holds a value becomes a record of its cells' text
 * (empty cells ''), after an empty record for each row skipped since the last one, so a record's
 * position is its row. A value past MAX_IMPORT_COLUMNS or below the import's last row is refused
 * before it is kept; a formatted empty cell anywhere costs nothing.
 */
class SheetHandler implements XmlHandler {
  /** The records made since they were last taken. */
  records: string[][] = [];
  collecting = false;
  private inSheetData = false;
  /** The rows handed on so far (the last record's row). */
  private emitted = 0;
  /** The last row seen, and the row being read (0: not known yet). */
  private lastRow = 0;
  private row = 0;
  private cells: string[] | undefined;
  private lastColumn = 0;
  private cell: Cell | undefined;
  /** The value's text (`<v>`) or the inline string's (`<is>`), undefined until it has one. */
  private value: string | undefined;
  private inline = false;
  private phonetic = false;

  constructor(
    private readonly strings: SharedStrings,
    private readonly dateStyles: readonly boolean[],
    private readonly date1904: boolean,
  ) {}

  take(): string[][] {
    const records = this.records;
    this.records = [];
    return records;
  }

  open(name: string, attributes: string): void {
    if (name === 'sheetData') this.inSheetData = true;
    if (!this.inSheetData) return;
    switch (name) {
      case 'row': {
        const r = attributeOf(attributes, 'r');
        this.row = 0;
        if (r !== undefined) {
          if (!/^[1-9]\d*$/.test(r)) throw damaged(`the sheet has a row “${shown(r)}”`);
          if (r.length > 7 || Number(r) > SHEET_ROWS) throw pastLastRow(`Row ${shown(r)}`);
          this.row = this.ordered(Number(r));
        }
        this.cells = [];
        this.lastColumn = 0;
        break;
      }
      case 'c': {
        if (!this.cells) throw damaged('a cell is outside its row');
        const ref = attributeOf(attributes, 'r');
        let column = this.lastColumn + 1;
        let row = this.row || this.lastRow + 1;
        if (ref !== undefined) {
          ({ column, row } = cellAt(ref));
          if (column <= this.lastColumn) throw damaged(`cell ${shown(ref)} is out of order`);
        }
        if (this.row === 0) this.row = this.ordered(row);
        else if (row !== this.row) throw damaged(`cell ${shown(ref ?? '')} is not in row ${this.row}`);
        this.lastColumn = column;
        this.cell = {
          ref: ref ?? `${columnName(column)}${row}`,
          column,
          row,
          type: attributeOf(attributes, 't') ?? 'n',
          style: integerOf(attributeOf(attributes, 's')),
        };
        this.value = undefined;
        break;
      }
      case 'v':
        if (this.cell) {
          this.value = '';
          this.collecting = true;
        }
        break;
      case 'is':
        if (this.cell) {
          this.inline = true;
          this.value = '';
        }
        break;
      case 't':
        if (this.inline && !this.phonetic) this.collecting = true;
        break;
      case 'rPh':
        this.phonetic = true;
        break;
    }
  }

  close(name: string): void {
    if (!this.inSheetData) return;
    switch (name) {
      case 'v':
      case 't':
        this.collecting = false;
        break;
      case 'rPh':
        this.phonetic = false;
        break;
      case 'is':
        this.inline = false;
        break;
      case 'c':
        if (this.cell) this.keep(this.cell, this.cellText(this.cell));
        this.cell = undefined;
        this.collecting = this.inline = this.phonetic = false;
        break;
      case 'row':
        this.endRow();
        break;
      case 'sheetData':
        this.inSheetData = false;
        break;
    }
  }

  text(text: string): void {
    const cell = this.cell;
    if (!cell) return;
    const value = this.value ?? '';
    if (value.length + text.length > RAW_CELL_CHARS) throw tooLong(cell.ref);
    this.value = value + text;
  }

  /** A row number, refused when it does not come after the last row's. */
  private ordered(row: number): number {
    if (row <= this.lastRow) throw damaged(`row ${row} comes after row ${this.lastRow}`);
    this.lastRow = row;
    return row;
  }

  /** The cell's value as text ('' for none), as xlsxCellText writes it. */
  private cellText(cell: Cell): string {
    const value = this.value;
    let text: string;
    switch (cell.type) {
      case 'n':
        if (!value) return '';
        text =
          this.dateStyles[cell.style] === true
            ? xlsxCellText(serialDate(Number(value), this.date1904))
            : xlsxCellText({ storedNumber: value });
        break;
      case 's': {
        if (!value) return '';
        const index = Number(value);
        if (!Number.isInteger(index) || index < 0 || index >= this.strings.count)
          throw damaged(`cell ${shown(cell.ref)} names a shared string it does not have`);
        const shared = this.strings.get(index);
        if (shared === undefined) throw tooLong(cell.ref);
        text = shared;
        break;
      }
      case 'inlineStr':
      case 'str':
        text = unescapeText(value ?? '');
        break;
      case 'b':
        if (!value) return '';
        if (value !== '0' && value !== '1')
          throw damaged(`cell ${shown(cell.ref)} is neither true nor false`);
        return value === '1' ? 'true' : 'false';
      case 'd':
        return value ? xlsxCellText(new Date(value)) : '';
      case 'e':
        // A formula's error (#N/A, #DIV/0!): no value.
        return '';
      default:
        throw damaged(`cell ${shown(cell.ref)} has a type “${shown(cell.type)}” that no workbook has`);
    }
    if (text.length > MAX_IMPORT_CELL_CHARS) throw tooLong(cell.ref);
    // A workbook's XML may spell out a NUL or half a character, which no database stores.
    if (isBadText(text))
      throw badRequest(`Cell ${shown(cell.ref)} holds a character that is not valid text.`);
    return text;
  }

  /** Keeps a cell's text in its row, once its place is within what an import reads. */
  private keep(cell: Cell, text: string): void {
    if (text === '') return;
    if (cell.column > MAX_IMPORT_COLUMNS)
      throw badRequest(
        `Cell ${shown(cell.ref)} is past column ${columnName(MAX_IMPORT_COLUMNS)}: an import reads ${MAX_IMPORT_COLUMNS} columns at most.`,
      );
    if (cell.row > MAX_IMPORT_ROWS + 1)
      throw new AppError(
        413,
        `Cell ${shown(cell.ref)} is past row ${(MAX_IMPORT_ROWS + 1).toLocaleString('en-US')}: an import reads a header and ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows at most.`,
      );
    (this.cells as string[])[cell.column - 1] = text;
  }

  /** A row with a value becomes a record (after the empty rows before it); one without, nothing. */
  private endRow(): void {
    const cells = this.cells;
    if (!cells) throw damaged('a row ends that never started');
    this.cells = undefined;
    // A row without a number or cells is the one after the last.
    if (this.row === 0) this.row = this.ordered(this.lastRow + 1);
    if (cells.length === 0) return;
    while (this.emitted < this.row - 1) {
      this.records.push([]);
      this.emitted++;
    }
    this.records.push(Array.from(cells, (text) => text ?? ''));
    this.emitted = this.row;
  }
}

// ---------------------------------------------------------------------------------------------
// The parts

/** A part's text as it is inflated, pushed through a scanner to `handler`; yields after each piece. */
async function* scan(file: Buffer, entry: ZipEntry, part: Part, handler: XmlHandler): AsyncGenerator<void> {
  const scanner = new XmlScanner(handler);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (bytes?: Uint8Array) => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch {
      throw damaged(`its ${part} is not UTF-8 text`);
    }
  };
  for await (const bytes of entryBytes(file, entry, part, LIMITS[part])) {
    scanner.push(decode(bytes));
    yield;
  }
  scanner.push(decode());
  scanner.end();
}

async function read(file: Buffer, entry: ZipEntry, part: Part, handler: XmlHandler): Promise<void> {
  for await (const _ of scan(file, entry, part, handler));
}

/** workbook.xml: whether its dates count from 1904, and its first sheet's relationship. */
function workbookHandler() {
  const found = { date1904: false, sheet: undefined as string | undefined };
  const handler: XmlHandler = {
    collecting: false,
    open(name, attributes) {
      if (name === 'workbookPr') {
        const date1904 = attributeOf(attributes, 'date1904');
        found.date1904 = date1904 === '1' || date1904 === 'true';
      } else if (name === 'sheet') found.sheet ??= attributeOf(attributes, 'id');
    },
    close() {},
    text() {},
  };
  return { found, handler };
}

/** A relationship's target as a path in the archive (relative to xl/, or from its root). */
function partPath(target: string): string | undefined {
  const path = target.startsWith('/') ? target.slice(1) : posix.join('xl', target);
  return path.startsWith('../') ? undefined : path;
}

/** The workbook's relationships: the paths of the sheet `sheet`, the shared strings and the styles. */
function relationsHandler(sheet: string) {
  const found: { sheet?: string; 'shared strings'?: string; styles?: string } = {};
  const handler: XmlHandler = {
    collecting: false,
    open(name, attributes) {
      if (name !== 'Relationship' || attributeOf(attributes, 'TargetMode') === 'External') return;
      const type = attributeOf(attributes, 'Type') ?? '';
      const target = attributeOf(attributes, 'Target');
      if (target === undefined) return;
      const kind = type.slice(type.lastIndexOf('/') + 1);
      if (kind === 'worksheet' && attributeOf(attributes, 'Id') === sheet) found.sheet ??= partPath(target);
      else if (kind === 'sharedStrings') found['shared strings'] ??= partPath(target);
      else if (kind === 'styles') found.styles ??= partPath(target);
    },
    close() {},
    text() {},
  };
  return { found, handler };
}

/**
 * The first sheet's rows, every cell as text, handed on as they are read (a record per row, its
 * position its row). The workbook and its relationships are read first, then the styles and the
 * shared strings whole; the sheet as its rows are asked for. Before any of the last three is
 * inflated, their declared sizes together must be within UNPACKED_MAX.
 */
export async function* workbookRecords(file: Buffer): AsyncGenerator<string[][]> {
  const fixed = zipEntries(file, [WORKBOOK, WORKBOOK_RELATIONS]);
  const workbookEntry = fixed.get(WORKBOOK);
  const relationsEntry = fixed.get(WORKBOOK_RELATIONS);
  if (!workbookEntry || !relationsEntry) throw badRequest(NOT_XLSX);
  const workbook = workbookHandler();
  await read(file, workbookEntry, 'main part', workbook.handler);
  if (workbook.found.sheet === undefined) throw damaged('it has no sheet');
  const relations = relationsHandler(workbook.found.sheet);
  await read(file, relationsEntry, 'relationships', relations.handler);
  const paths = relations.found;
  if (paths.sheet === undefined) throw badRequest(NOT_XLSX);
  const sheetPath = paths.sheet;
  const stylesPath = paths.styles ?? 'xl/styles.xml';
  const stringsPath = paths['shared strings'] ?? 'xl/sharedStrings.xml';
  const entries = zipEntries(file, [sheetPath, stylesPath, stringsPath]);
  const sheetEntry = entries.get(sheetPath);
  if (!sheetEntry) throw badRequest(NOT_XLSX);
  const parts: [Part, ZipEntry | undefined][] = [
    ['styles', entries.get(stylesPath)],
    ['shared strings', entries.get(stringsPath)],
    ['sheet', sheetEntry],
  ];
  let declared = workbookEntry.size + relationsEntry.size;
  for (const [part, entry] of parts) {
    if (!entry) continue;
    if (entry.size > LIMITS[part]) throw unpacksTooLarge(part, LIMITS[part]);
    declared += entry.size;
  }
  if (declared > UNPACKED_MAX)
    throw new AppError(
      413,
      `The parts of the workbook an import reads unpack to more than ${UNPACKED_MAX / MB} MB in all; save the sheet as CSV and upload that.`,
    );

  const stylesEntry = entries.get(stylesPath);
  const styles = new StylesHandler();
  if (stylesEntry) await read(file, stylesEntry, 'styles', styles);
  const stringsEntry = entries.get(stringsPath);
  const strings = new SharedStringsHandler();
  if (stringsEntry) await read(file, stringsEntry, 'shared strings', strings);

  const sheet = new SheetHandler(strings.strings, styles.dates(), workbook.found.date1904);
  for await (const _ of scan(file, sheetEntry, 'sheet', sheet)) {
    if (sheet.records.length > 0) yield sheet.take();
  }
  if (sheet.records.length > 0) yield sheet.take();
}
