/**
 * CSV as DESIGN §10 has it: RFC 4180 (fields with a comma, quote, CR or LF are quoted, quotes
 * doubled, rows end with CRLF), plain numbers, and no spreadsheet formulas: a text cell that
 * starts with =, +, -, @, tab or CR gets a leading apostrophe, so a spreadsheet shows it as text.
 * Numbers are written as numbers (a negative margin stays -3.5, not '-3.5).
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** The MIME type of every CSV answer. */
export const CSV_TYPE = 'text/csv; charset=utf-8';
