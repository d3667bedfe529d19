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
  /** The server stopped counting at `total`: there are more matches (a search of a letter or two). */
  totalCapped?: true;
};

/**
 * A page past the end (rows gone, matches left): after a delete emptied the last page, the table
 * is moving back to the last real page and shows its loading text meanwhile.
 */
export function isPastEnd(page: Page<unknown>): boolean {
  return page.rows.length === 0 && page.total > 0;
}

/** One page of an already filtered list (the short lists, which are loaded whole). */
export function pageOf<T>(items: readonly T[], page: number, size = PAGE_SIZE): Page<T> {
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const offset = (current - 1) * size;
  return { rows: items.slice(offset, offset + size), page: current, pageCount, offset, total: items.length };
}

/**
 * The page a server answered: its rows, and where they sit among all `total` matches. The page
 * and size the server echoes win over the ones asked for, so the numbers always fit the rows.
 */
export function serverPage<T>(
  answer: { rows: T[]; total: number; totalCapped?: true; page?: number; pageSize?: number } | undefined,
  asked: { page: number; pageSize: number },
): Page<T> {
  const page = answer?.page ?? asked.page;
  const size = answer?.pageSize ?? asked.pageSize;
  const total = answer?.total ?? 0;
  return {
    rows: answer?.rows ?? [],
    page,
    pageCount: Math.max(1, Math.ceil(total / size)),
    offset: (page - 1) * size,
    total,
    ...(answer?.totalCapped && { totalCapped: true as const }),
  };
}

/** `path?name=value&…` for the text and number parameters that are set (empty text is left out). */
export function withQuery(path: string, params: object): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if ((typeof value === 'string' && value !== '') || typeof value === 'number')
      query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
