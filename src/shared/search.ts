import { searchWords } from './paging';

/**
 * The one rule of every list's search (decisions 0036, 0052), as the browser applies it: each
 * word of a search must be in the text, ignoring case: a word of three characters or more
 * anywhere, a shorter one at the start of a word (the start of the text, or after an ASCII space
 * or punctuation mark). The server applies it in SQL (lib/search.ts); a test holds the two alike.
 */

/** A word shorter than this is shorter than a trigram, so it is looked for at the start of a word. */
export const SHORT_WORD = 3;

/** Whether a word of a search is short (counted in characters, as pg_trgm counts them). */
export const isShortWord = (word: string) => [...word].length < SHORT_WORD;

/**
 * What starts a word after it: an ASCII space or punctuation mark, as a character class that both
 * JavaScript and PostgreSQL read alike (the server's regular expression is built from it too).
 */
export const WORD_BREAK_CLASS = '[ -/:-@\\[-`{-~]';
const WORD_BREAK = new RegExp(WORD_BREAK_CLASS);

/** Whether `text` holds one (lower-case) word of a search, by the rule above. */
export function holdsWord(text: string, word: string): boolean {
  const lower = text.toLowerCase();
  if (!isShortWord(word)) return lower.includes(word);
  for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1))
    if (at === 0 || WORD_BREAK.test(lower[at - 1] ?? '')) return true;
  return false;
}

/** Whether `text` holds every word of `search`; a search without words matches nothing. */
export function matchesWords(text: string, search: string): boolean {
  const words = searchWords(search);
  return words.length > 0 && words.every((word) => holdsWord(text, word));
}
