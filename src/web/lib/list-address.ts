import { useCallback, useContext } from 'react';
import { UNSAFE_DataRouterStateContext, useLocation, useSearchParams } from 'react-router';

/** The page the address holds (`?page=2`); anything unreadable there is page 1. */
export function pageIn(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** A value of `params` that is one of `allowed`, or undefined. */
export function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | undefined {
  return allowed.includes(value as T) ? (value as T) : undefined;
}

/**
 * A list's state kept in the address (STYLE: state in the URL), so reload, Back and a shared link
 * show the same view. A filter (or a sort) changes the view in place (Back is not flooded) and
 * goes back to page 1; an option that leaves the rows as they are (a column shown) stays on the
 * page; a page is a step Back can undo. `clear` drops every filter.
 */
export function useListAddress<Filter extends string = string>() {
  const [params, setParams] = useSearchParams();
  const setFilter = useCallback(
    (name: Filter, value: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(name, value);
          else next.delete(name);
          next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const setOption = useCallback(
    (name: Filter, value: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(name, value);
          else next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const setPage = useCallback(
    (to: number, how: { replace?: boolean } = {}) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (to > 1) next.set('page', String(to));
          else next.delete('page');
          return next;
        },
        { replace: how.replace ?? false },
      ),
    [setParams],
  );
  const clear = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  return { params, page: pageIn(params), setFilter, setOption, setPage, clear };
}

/**
 * True while a link or the menu is taking the reader to another page (its code or data still on
 * the way). A list must not write to the address then: that write is a navigation too, and it
 * would cancel the one the reader asked for (a click on Stock just after typing a search was
 * lost). Read from the router's state context because `useNavigation` throws outside a data
 * router, and screens are also shown in plain routers; without a data router nothing is pending.
 */
export function useLeavingPage(): boolean {
  const navigation = useContext(UNSAFE_DataRouterStateContext)?.navigation;
  const { pathname } = useLocation();
  return (
    navigation !== undefined && navigation.state !== 'idle' && navigation.location?.pathname !== pathname
  );
}
