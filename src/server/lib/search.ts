import { and, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { searchWords } from '../../shared/paging';
import { refusalSentence } from '../../shared/refusals';
import { isShortWord, WORD_BREAK_CLASS } from '../../shared/search';
import { pgCode, refuse } from './errors';

/** Escapes LIKE's wildcards so a search for "50%" means the text "50%". */
export function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * What comes before the start of a word: the start of the text, or an ASCII space or punctuation
 * mark. pg_trgm reads these as the gap between words, so its index finds a match through the
 * trigram that starts a word ("  a" for "a"), as it cannot for one or two letters anywhere.
 */
const WORD_START = `(^|${WORD_BREAK_CLASS})`;

/** A regular expression for `word` at the start of a word; every character but letters and digits escaped. */
export function wordStartPattern(word: string): string {
  return WORD_START + word.replace(/[^\p{L}\p{N}]/gu, (c) => `\\${c}`);
}

/**
 * How a column matches one word of a search, ignoring case: a word of three characters or more
 * anywhere (`ilike`), a shorter one at the start of a word (`~*`: shorter than a trigram, the
 * trigram indexes cannot find it inside a word; decision 0036). Both are served by a trigram
 * index on the column. The one rule of every list's search; src/shared/search.ts is the same rule
 * as the browser applies it, held alike by product-search.test.ts.
 */
export function wordMatch(word: string): { operator: 'ilike' | '~*'; pattern: string } {
  return isShortWord(word)
    ? { operator: '~*', pattern: wordStartPattern(word) }
    : { operator: 'ilike', pattern: likePattern(word) };
}

/** Every word of the search must match (wordMatch) one of the columns. */
export function matchesSearch(search: string | undefined, columns: AnyPgColumn[]): SQL | undefined {
  const words = searchWords(search);
  if (words.length === 0) return undefined;
  return and(
    ...words.map((word) => {
      const { operator, pattern } = wordMatch(word);
      return or(...columns.map((column) => sql`${column} ${sql.raw(operator)} ${pattern}`));
    }),
  );
}

export const SEARCH_TOO_SLOW = refusalSentence('SEARCH_TOO_SLOW');

/**
 * Runs a search on `Database.searches`, whose statements each stop at the search time limit
 * (decision 0036): one the indexes cannot narrow answers 503 with a sentence saying how to narrow
 * it, instead of holding a connection and the processors a sale needs. PGlite has no statement
 * timer: there the bound is the plan's (short words by the trigram index, counts capped).
 */
export async function withinSearchLimit<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (pgCode(error) === '57014') throw refuse('SEARCH_TOO_SLOW');
    throw error;
  }
}
