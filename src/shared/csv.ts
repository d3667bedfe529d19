/**
 * CSV as DESIGN §10 has it: RFC 4180 (quotes doubled, rows end with CRLF), plain numbers, and no
 * spreadsheet formulas: a text cell that starts with =, +, -, @, tab or CR gets a leading
 * apostrophe, so a spreadsheet shows it as text (but a negative number such as -2 stays bare).
 *
 * Every text cell is quoted, not only those holding a comma, quote or line break: a spreadsheet
 * set to split on `;` (or tabs) would otherwise cut `Ann;=cmd|' /C calc'!A0` into two cells, the
 * second a formula the apostrophe never reached. Inside quotes it stays one cell whatever the
 * separator. Numbers and booleans stay bare, so a spreadsheet reads them as numbers (a negative
 * margin stays -3.5, not '-3.5); they cannot hold a separator. An empty cell (null) stays empty.
 */
export type CsvValue = string | number | boolean | null | undefined | CsvBare;

/**
 * A text written without the formula apostrophe, for a text that is no formula: the import's
 * clearing cell, a lone `-` (DESIGN §22), which the import's errors file gives back as uploaded so
 * the fixed file still clears. Any other text is written as every text is.
 */
export type CsvBare = { readonly bare: string };
const LONE_MINUS = /^\s*-\s*$/;

const FORMULA_START = /^[=+\-@\t\r]/;

/** A negative number written as text (-2, -0.50): no formula, so it keeps its minus bare. */
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'object') return LONE_MINUS.test(value.bare) ? `"${value.bare}"` : csvCell(value.bare);
  // A file's cells given back as text (the import's failed rows) keep "-2" as it was uploaded.
  const text = FORMULA_START.test(value) && !NEGATIVE_NUMBER.test(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** The MIME type of every CSV answer. */
export const CSV_TYPE = 'text/csv; charset=utf-8';
