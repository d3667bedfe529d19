import { and, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { searchWords } from '../../shared/paging';

/** Escapes LIKE's wildcards so a search for "50%" means the text "50%". */
export function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Every word of the search must appear, case-insensitively, in one of the columns. */
export function matchesSearch(search: string | undefined, columns: AnyPgColumn[]): SQL | undefined {
  const words = searchWords(search);
  if (words.length === 0) return undefined;
  return and(
    ...words.map((word) => {
      const pattern = likePattern(word);
      return or(...columns.map((column) => sql`${column} ilike ${pattern}`));
    }),
  );
}
