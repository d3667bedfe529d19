import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { DownloadCsvButton } from '../../components/download-csv';
import { LoadState } from '../../components/load-state';

/** The pieces every report section is made of: its header, its states, its switches and tiles. */

/** The section's title, what it covers, and its Download CSV. */
export function SectionHeader({
  title,
  covers,
  csv,
  children,
}: {
  title: string;
  /** The range shown, or what the report is about when no range applies. */
  covers: ReactNode;
  csv?: { path: string; filename: string };
  /** The section's own switches (metric, grouping, order). */
  children?: ReactNode;
}) {
  return (
    <div className="mb-4 space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
          <p className="text-sm text-slate-600">{covers}</p>
        </div>
        {csv ? <DownloadCsvButton path={csv.path} filename={csv.filename} /> : null}
      </div>
      {children ? <div className="flex flex-wrap items-end gap-x-6 gap-y-3">{children}</div> : null}
    </div>
  );
}

/**
 * A report's answer in its states (LoadState: loading, failed with Try again, empty). The figures
 * of the range shown before stay, dimmed, while another range loads.
 */
export function ReportState<T>({
  query,
  what,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  /** "the sales report": said while loading and when it fails. */
  what: string;
  isEmpty: (answer: T) => boolean;
  empty: ReactNode;
  children: (answer: T) => ReactNode;
}) {
  const busy = query.isPlaceholderData;
  return (
    <div aria-busy={busy || undefined} className={`transition-opacity ${busy ? 'opacity-60 delay-200' : ''}`}>
      <LoadState query={query} what={what} loading={`Loading ${what}...`} isEmpty={isEmpty} empty={empty}>
        {children}
      </LoadState>
    </div>
  );
}

/** A small set of exclusive choices as one row of buttons (radio buttons underneath: arrow keys move). */
export function Choice<T extends string>({
  legend,
  options,
  labels,
  value,
  onChange,
}: {
  legend: string;
  options: readonly T[];
  labels: Record<T, string>;
  value: T;
  onChange: (value: T) => void;
}) {
  const name = useId();
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-sm font-medium text-slate-700">{legend}</legend>
      <div className="inline-flex max-w-full flex-wrap rounded-md border border-slate-300 bg-white p-0.5 shadow-sm">
        {options.map((option) => (
          <label key={option} className="relative">
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
              className="peer absolute inset-0 cursor-pointer appearance-none rounded opacity-0"
            />
            <span className="pointer-events-none block rounded px-2.5 py-1.5 sm:px-3 text-sm font-medium text-slate-700 peer-checked:bg-indigo-600 peer-checked:text-white peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-indigo-500 peer-[:hover:not(:checked)]:bg-slate-100">
              {labels[option]}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Headline figures as tiles (a description list: name, then figure). */
export function Tiles({ tiles }: { tiles: { label: string; value: string }[] }) {
  return (
    <dl className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
      {tiles.map((tile) => (
        <div key={tile.label} className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
          <dt className="text-sm font-medium text-slate-600">{tile.label}</dt>
          <dd className="mt-1 text-lg font-bold tabular-nums text-slate-900 sm:text-2xl">{tile.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The chart's frame: a visible title over the chart. */
export function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <figure className="mb-4 min-w-0 rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
      <figcaption className="mb-2 text-sm font-semibold text-slate-700">{title}</figcaption>
      {children}
    </figure>
  );
}

/** A row's name: the header of its row (th scope="row"). */
export function RowHeader({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <th
      scope="row"
      className={`px-3 py-2.5 text-left font-medium text-slate-900 sm:px-4 sm:py-3 ${className}`}
    >
      {children}
    </th>
  );
}

/** Figures line up on the right, digits of equal width. */
export const NUMBER = 'whitespace-nowrap text-right tabular-nums';
