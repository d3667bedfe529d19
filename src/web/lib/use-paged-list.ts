import { useEffect, useMemo, useRef, useState } from 'react';
import { MAX } from '../../shared/common';
import { useLeavingPage, useListAddress } from './list-address';
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
 * The state of a paged table, kept in the address (`?q=pen&page=2`, plus any filter, sort or
 * option the page sets), so reload, Back and a shared link show the same view: the search box's
 * text (updated on every key), the search (written to the address once typing pauses), and the
 * page. A new search, filter or sort goes back to page 1; an option (`setOption`) does not.
 * `typing` while the box holds text not yet in the address; `view` is the list's query string
 * with that text, for a link to another page to carry back (Back to Products).
 */
export function usePagedList<Filter extends string = never>() {
  const address = useListAddress<Filter | 'q'>();
  const { params, setFilter } = address;
  const search = (params.get('q') ?? '').trim();
  const [text, setText] = useState(search);
  const typed = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  // What was typed goes to the address once typing pauses (not while the reader is leaving:
  // the write would cancel their way out)...
  const leaving = useLeavingPage();
  const written = useRef(search);
  useEffect(() => {
    if (leaving || typed === written.current) return;
    written.current = typed;
    setFilter('q', typed);
  }, [typed, setFilter, leaving]);
  // ...and an address changed by Back or a link comes back into the box.
  useEffect(() => {
    if (search === written.current) return;
    written.current = search;
    setText(search);
  }, [search]);
  const typing = text.trim() !== search;
  // The view as it stands once the typing is written, for a link away to carry back.
  const view = useMemo(() => {
    if (!typing) return params.toString();
    const next = new URLSearchParams(params);
    if (text.trim()) next.set('q', text.trim());
    else next.delete('q');
    next.delete('page');
    return next.toString();
  }, [params, text, typing]);
  return {
    text,
    setText,
    search,
    typing,
    view,
    page: address.page,
    pageSize: PAGE_SIZE,
    setPage: address.setPage,
    params,
    setFilter: setFilter as (name: Filter, value: string) => void,
    setOption: address.setOption as (name: Filter, value: string) => void,
  };
}

/**
 * After a delete (here or elsewhere) the page asked for can lie past the last one; once the
 * server's answer for it has arrived, move to the last page that exists — in place of the page
 * asked for, so Back does not lead to it and bounce here again.
 */
export function usePageInRange(
  asked: number,
  pageCount: number,
  answered: boolean,
  setPage: (page: number, how?: { replace?: boolean }) => void,
) {
  useEffect(() => {
    if (answered && asked > pageCount) setPage(pageCount, { replace: true });
  }, [asked, pageCount, answered, setPage]);
}
