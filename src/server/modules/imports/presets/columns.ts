import { headerKey, type ImportError } from '../../../../shared/imports';

/** What the presets share: finding a column by its header, any case, and a quantity's reading. */

/** The file's columns, found by header text compared as the generic guess compares (headerKey). */
export type Columns = {
  /** The column's index, -1 when the file has none by that header. */
  index(header: string): number;
  /** The header as the file spells it, undefined when the file has none. */
  header(header: string): string | undefined;
};

export function columns(headers: readonly string[]): Columns {
  const byKey = new Map<string, number>();
  headers.forEach((header, index) => {
    const key = headerKey(header);
    if (!byKey.has(key)) byKey.set(key, index);
  });
  const index = (header: string) => byKey.get(headerKey(header)) ?? -1;
  return { index, header: (header) => headers[index(header)] };
}

/** A cell's text, trimmed ('' for a column the file has not). */
export function cellAt(cells: readonly string[], index: number): string {
  return index < 0 ? '' : (cells[index] ?? '').trim();
}

/**
 * A quantity cell as a preset hands it on: a negative whole number (a shop that oversold) becomes
 * `0` with a warning on its column (DESIGN §22); anything else is left for the generic reading to
 * judge (a quantity with decimals stays its error).
 */
export function quantityCell(text: string, column: string): { cell: string; warning?: ImportError } {
  if (!/^-\d+$/.test(text) || Number(text) === 0) return { cell: text };
  return {
    cell: '0',
    warning: {
      column,
      message: `The quantity ${text} is below zero (sold more than counted); imported as 0.`,
    },
  };
}
