import type { Loadable } from './load-state';

/** A read that is not needed on this screen: there at once, as nothing. */
export const NOT_NEEDED: Loadable<null> = {
  data: null,
  error: null,
  isError: false,
  isFetching: false,
  refetch: () => undefined,
};

/**
 * Several reads a screen needs before it can show anything (a form's choices), as one for
 * LoadState: there once all are, failed while one failed (its sentence), and Try again asks again
 * each one that is not there.
 */
export function together<T extends unknown[]>(...queries: { [K in keyof T]: Loadable<T[K]> }): Loadable<T> {
  const all = queries as Loadable<unknown>[];
  const failed = all.find((query) => query.isError && query.data === undefined);
  const ready = all.every((query) => query.data !== undefined);
  return {
    data: ready ? (all.map((query) => query.data) as T) : undefined,
    error: failed?.error ?? null,
    isError: failed !== undefined,
    isFetching: all.some((query) => query.isFetching),
    refetch: () => {
      for (const query of all) if (query.data === undefined) void query.refetch();
    },
  };
}
