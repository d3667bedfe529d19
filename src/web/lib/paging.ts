/** Rows shown per page in the long tables. */
export const PAGE_SIZE = 50;

export type Page<T> = {
  rows: T[];
  /** The page shown, 1-based, clamped to the pages that exist. */
  page: number;
  pageCount: number;
  /** 0-based index of the first row shown, for row numbers that continue across pages. */
  offset: number;
  total: number;
};

/** One page of an already filtered list. */
export function pageOf<T>(items: readonly T[], page: number, size = PAGE_SIZE): Page<T> {
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const offset = (current - 1) * size;
  return { rows: items.slice(offset, offset + size), page: current, pageCount, offset, total: items.length };
}
