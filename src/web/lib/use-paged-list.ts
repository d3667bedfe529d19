import { useCallback, useEffect, useState } from 'react';
import { MAX } from '../../shared/common';
import { PAGE_SIZE } from './paging';

/** How long the search box waits after the last key before asking the server. */
export const SEARCH_DELAY_MS = 300;

/** The server refuses longer searches; the box stops there. */
export const SEARCH_MAX_LENGTH = MAX.name;

/** `value`, once it has stopped changing for `delay` milliseconds. */
export function useDebouncedValue<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * The state of a table the server pages: the search box's text (updated on every key), the
 * search sent to the server (once typing pauses), and the page. The page goes back to 1 whenever
 * the search or one of `filters` changes.
 */
export function usePagedList(filters: readonly (string | number)[] = []) {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const filterKey = JSON.stringify([search, ...filters]);
  const [current, setCurrent] = useState({ filterKey, page: 1 });
  const page = current.filterKey === filterKey ? current.page : 1;
  const setPage = useCallback((next: number) => setCurrent({ filterKey, page: next }), [filterKey]);
  return { text, setText, search, page, pageSize: PAGE_SIZE, setPage };
}

/**
 * After a delete (here or elsewhere) the page asked for can lie past the last one; once the
 * server's answer for it has arrived, move to the last page that exists.
 */
export function usePageInRange(
  asked: number,
  pageCount: number,
  answered: boolean,
  setPage: (page: number) => void,
) {
  useEffect(() => {
    if (answered && asked > pageCount) setPage(pageCount);
  }, [asked, pageCount, answered, setPage]);
}
