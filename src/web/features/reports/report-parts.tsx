import { type ReactNode, useId } from 'react';
import { Th } from '../../components/table';
import { type ChartPoint, ReportChart } from './report-chart';
import type { ValueKind } from './report-format';

/** The pieces report sections are made of (ReportSection frames them): switches, tiles, charts. */

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

/**
 * One figure by row (customer, category, product) as bars, titled; the chart's own title adds
 * what it covers: "Revenue by category, May 1, 2025 – May 31, 2025".
 */
export function RowsChart({
  title,
  covers,
  valueName = 'Revenue',
  kind = 'money',
  points,
}: {
  title: string;
  covers: string;
  valueName?: string;
  kind?: ValueKind;
  points: ChartPoint[];
}) {
  return (
    <ChartCard title={title}>
      <ReportChart
        layout="rows"
        title={`${title}, ${covers}`}
        valueName={valueName}
        kind={kind}
        points={points}
      />
    </ChartCard>
  );
}

/**
 * A report table's head: the rank when the rows are ranked, the row's name and other words, then
 * the figures, on the right.
 */
export function ReportHead({
  ranked = false,
  words,
  figures,
}: {
  ranked?: boolean;
  words: string[];
  figures: string[];
}) {
  return (
    <thead>
      <tr>
        {ranked ? <Th className="w-12 text-right">Rank</Th> : null}
        {words.map((word) => (
          <Th key={word}>{word}</Th>
        ))}
        {figures.map((figure) => (
          <Th key={figure} className="text-right">
            {figure}
          </Th>
        ))}
      </tr>
    </thead>
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
