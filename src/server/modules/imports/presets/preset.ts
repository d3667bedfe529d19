import type { ImportError } from '../../../../shared/imports';

/**
 * An import preset (DESIGN §22): another system's export layout (Shopify's products CSV, Square's
 * item library) read as the generic import reads its rows. A preset never judges a row: it turns
 * each row's cells into the cells the generic reading takes (the same columns as the file), filling
 * what a variant row leaves to its group's first row and turning flags into values, and it
 * suggests the mapping of those columns to the import's fields. The check runs it over every row
 * in line order and keeps what it made on the row (import_rows.translated), which the apply reads:
 * one reading for both (judge.ts).
 */

/** A row as a preset makes it: `cells` (as many as the file's columns), or null when the row is skipped. */
export type PresetRow = {
  cells: string[] | null;
  /** What the row imports other than the file says (a negative quantity imported as 0). */
  warnings: ImportError[];
};

/** Reads one file's rows, in line order (a variant row reads its group's first row's cells). */
export type PresetReader = { row(line: number, cells: readonly string[]): PresetRow };

/** A location the store has, as a per-location quantity column names it. */
export type StoreLocation = { id: string; name: string };

export type Preset = {
  /** Whether a file with these headers is in this layout. */
  matches(headers: readonly string[]): boolean;
  /**
   * The mapping it suggests: an import field → the header of the column holding it, and
   * `stock@<location id>` → the header of a location's quantity column (DESIGN §17).
   */
  mapping(headers: readonly string[], locations: readonly StoreLocation[]): Record<string, string>;
  /** A reader of one file's rows. */
  reader(headers: readonly string[]): PresetReader;
};
