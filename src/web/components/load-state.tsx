import type { ReactNode } from 'react';
import { ApiRequestError, errorMessage } from '../lib/api';
import { buttonClass } from './button';
import { TableMessage } from './table';

/** The spec's loading text, announced politely. */
export function Loading({
  label = 'Loading...',
  className = 'py-6',
}: {
  label?: string;
  className?: string;
}) {
  return (
    <p role="status" className={`flex items-center gap-2 text-sm text-slate-600 ${className}`}>
      <span
        aria-hidden="true"
        className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600"
      />
      {label}
    </p>
  );
}

/**
 * Something that could not be shown: the sentence, and "Try again" when trying again can help
 * (`retry`; leave it out when the record does not exist).
 */
export function LoadFailed({
  message,
  retry,
  className = '',
}: {
  message: string;
  retry?: () => void;
  className?: string;
}) {
  return (
    <div className={`space-y-2 rounded-md bg-red-50 p-4 text-left text-sm text-red-800 ${className}`}>
      {/* The alert is the sentence alone: the button is not read out as part of it. */}
      <p role="alert">{message}</p>
      {retry ? (
        <button type="button" className={buttonClass('secondary', 'sm')} onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** What LoadState reads of a query (TanStack Query's result has all of it). */
export type Loadable<T> = {
  data: T | undefined;
  error: unknown;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The one way a screen shows what it loads: loading, failed (the server's sentence and Try again),
 * empty (the screen's own words), or the data. A failure is never shown as the empty text, and a
 * failure after data was shown keeps the data (the notification says why it is not fresh).
 *
 * With `colSpan` it sits in a table body: each message is one row across the columns, and the
 * data's rows are rendered as they are.
 */
export function LoadState<T>({
  query,
  what,
  loading = 'Loading...',
  empty,
  isEmpty,
  waiting = false,
  missing,
  retry = () => void query.refetch(),
  colSpan,
  children,
}: {
  query: Loadable<T>;
  /** What is loaded, for the failure's sentence: "the products" → "The products could not be loaded: …". */
  what: string;
  loading?: string;
  /** The screen's own words when there is nothing to show, e.g. the spec's "No products found.". */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  /** The data is there but the rows to show are still coming (a page past the end). */
  waiting?: boolean;
  /** Said when the server answers 404: the record does not exist, so no Try again. */
  missing?: string;
  /** What Try again does: load this query again, unless the screen says more. */
  retry?: () => void;
  /** Inside a table body: messages are one row spanning this many columns. */
  colSpan?: number;
  children: (data: T) => ReactNode;
}) {
  const { data } = query;
  const inTable = colSpan !== undefined;
  let message: ReactNode = null;
  if (data === undefined) {
    // While Try again runs the screen says it is loading, so the press is seen to do something.
    if (query.isError && !query.isFetching) {
      const notFound =
        missing !== undefined && query.error instanceof ApiRequestError && query.error.status === 404;
      message = notFound ? (
        <LoadFailed message={missing} />
      ) : (
        <LoadFailed
          message={`${capitalized(what)} could not be loaded: ${errorMessage(query.error)}`}
          retry={retry}
        />
      );
    } else {
      message = <Loading label={loading} className={inTable ? 'sm:justify-center' : 'py-6'} />;
    }
  } else if (waiting) {
    message = <Loading label={loading} className={inTable ? 'sm:justify-center' : 'py-6'} />;
  } else if (isEmpty?.(data)) {
    message = !inTable ? (
      <p className="rounded-lg border border-slate-200 bg-white px-4 py-8 text-center text-sm text-slate-600">
        {empty}
      </p>
    ) : (
      empty
    );
  } else {
    return <>{children(data)}</>;
  }
  return inTable ? <TableMessage colSpan={colSpan}>{message}</TableMessage> : message;
}
