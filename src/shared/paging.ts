import { z } from 'zod';
import { MAX, optionalText } from './common';

export const MAX_PAGE_SIZE = 100;

/**
 * Query parameters of the large lists. Without page and pageSize a list answers in full, as the
 * original calls did; with either, one page (pageSize defaults to 20).
 */
export const PageQuery = z.object({
  search: optionalText(MAX.name).optional(),
  page: z.coerce
    .number({ error: 'page must be a number.' })
    .int()
    .min(1, { error: 'page starts at 1.' })
    .max(1_000_000)
    .optional(),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number.' })
    .int()
    .min(1, { error: 'pageSize must be at least 1.' })
    .max(MAX_PAGE_SIZE, { error: `pageSize must be at most ${MAX_PAGE_SIZE}.` })
    .optional(),
});
export type PageQuery = z.input<typeof PageQuery>;

/**
 * `format=csv`: the whole list (every page, filters kept, paging ignored) as CSV (DESIGN §10,
 * src/shared/csv.ts); absent or `json`: the usual answer.
 */
export const ExportFormat = z
  .enum(['json', 'csv'], { error: 'format must be json or csv.' })
  .optional()
  .describe('csv: the whole list as a CSV file');

/** What every list answers beside its rows. */
export const PageInfo = z.object({
  /** Rows matching the search and filters, over all pages (at least this many with totalCapped). */
  total: z.number().int(),
  /**
   * Present when the count stopped at `total`: there are more matches than that (a search of a
   * letter or two in a large catalogue is not counted to its end; decision 0036).
   */
  totalCapped: z.literal(true).optional(),
  page: z.number().int().optional(),
  pageSize: z.number().int().optional(),
});

export const DEFAULT_PAGE_SIZE = 20;

/** The limit and offset of a list that always answers one page: the first when none is asked. */
export function onePage(query: { page?: number; pageSize?: number }) {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  return { page, pageSize, limit: pageSize, offset: (page - 1) * pageSize };
}

/** The limit and offset of a query, or undefined for "everything". */
export function pageWindow(query: { page?: number; pageSize?: number }) {
  if (query.page === undefined && query.pageSize === undefined) return undefined;
  return onePage(query);
}

/** The words of a search, each of which a matching name must contain. */
export function searchWords(search: string | undefined): string[] {
  return (search ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
}
