import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DownloadCsvButton } from './download-csv';
import { LoadState } from './load-state';

/**
 * A report section: its title, what it covers and its Download CSV, the section's own switches,
 * then its answer in its states (LoadState: loading, failed with Try again, empty) and, once
 * loaded, the charts and tables `children` make of it. The figures of the range shown before stay,
 * dimmed, while another range loads.
 */
export function ReportSection<T>({
  title,
  covers,
  csv,
  controls,
  query,
  what,
  isEmpty,
  empty,
  children,
}: {
  title: string;
  /** The range shown, or what the report is about when no range applies. */
  covers: ReactNode;
  csv?: { path: string; filename: string };
  /** The section's own switches (metric, grouping, order). */
  controls?: ReactNode;
  query: UseQueryResult<T>;
  /** "the sales report": said while loading and when it fails. */
  what: string;
  isEmpty: (answer: T) => boolean;
  empty: ReactNode;
  children: (answer: T) => ReactNode;
}) {
  const busy = query.isPlaceholderData;
  return (
    <>
      <div className="mb-4 space-y-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
            <p className="text-sm text-slate-600">{covers}</p>
          </div>
          {csv ? <DownloadCsvButton path={csv.path} filename={csv.filename} /> : null}
        </div>
        {controls ? <div className="flex flex-wrap items-end gap-x-6 gap-y-3">{controls}</div> : null}
      </div>
      <div
        aria-busy={busy || undefined}
        className={`transition-opacity ${busy ? 'opacity-60 delay-200' : ''}`}
      >
        <LoadState query={query} what={what} loading={`Loading ${what}...`} isEmpty={isEmpty} empty={empty}>
          {children}
        </LoadState>
      </div>
    </>
  );
}
