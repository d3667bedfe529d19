import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { ReportSection } from '../../components/report-section';
import { Table, Td, Th } from '../../components/table';
import { useCurrency } from '../../lib/store-settings';
import { type ChartPoint, ReportChart } from './report-chart';
import { formatRange, formatValue, rangeFile, type ValueKind } from './report-format';
import type { DateRange } from './report-range';
import { reportPaths, reportWords } from './reports-api';

/** The pieces report sections are made of (ReportSection frames them): switches, tiles, charts, tables. */

/**
 * The section of a report asked for a range alone, by its name: its words (reportWords), the range
 * it covers, and its CSV, asked at the report's path (reportPaths) and named after the report and
 * the range. It is empty when the answer has no rows.
 */
export function RangeReport<T>({
  report,
  range,
  query,
  rows,
  children,
}: {
  report: 'categories' | 'staff' | 'customers' | 'tax';
  range: DateRange;
  query: UseQueryResult<T>;
  rows: (answer: T) => unknown[];
  children: (answer: T) => ReactNode;
}) {
  return (
    <ReportSection
      {...reportWords[report]}
      covers={formatRange(range)}
      csv={{ path: reportPaths[report](range), filename: rangeFile(report, range) }}
      query={query}
      isEmpty={(answer) => rows(answer).length === 0}
    >
      {children}
    </ReportSection>
  );
}

/**
 * A small set of exclusive choices as one row of buttons (radio buttons underneath: arrow keys
 * move), in the order `labels` names them.
 */
export function Choice<T extends string>({
  legend,
  labels,
  value,
  onChange,
}: {
  legend: string;
  labels: Record<T, string>;
  value: T;
  onChange: (value: T) => void;
}) {
  const name = useId();
  const options = Object.keys(labels) as T[];
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
function ReportHead({
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

/**
 * A report's rows as a table: its caption, its head (ReportHead), then a row for each, its cells
 * from `children` (the row's name first, a RowHeader); `total`, the figures of a Total row below.
 */
export function RowsTable<R>({
  caption,
  ranked,
  words,
  figures,
  rows,
  rowKey,
  total,
  children,
}: Parameters<typeof ReportHead>[0] & {
  caption: string;
  rows: R[];
  rowKey: (row: R, index: number) => string;
  total?: ReactNode;
  children: (row: R, index: number) => ReactNode;
}) {
  return (
    <Table caption={caption}>
      <ReportHead ranked={ranked} words={words} figures={figures} />
      <tbody className="divide-y divide-slate-100">
        {rows.map((row, index) => (
          <tr key={rowKey(row, index)} className="hover:bg-slate-50">
            {children(row, index)}
          </tr>
        ))}
      </tbody>
      {total ? (
        <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-semibold">
          <tr>
            <RowHeader>Total</RowHeader>
            {total}
          </tr>
        </tfoot>
      ) : null}
    </Table>
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

/** A row's figures, a cell each: its counts, then its money in the store's currency. */
export function Figures({ counts = [], money = [] }: { counts?: number[]; money?: number[] }) {
  const currency = useCurrency();
  const figures = [
    ...counts.map((count) => formatValue(count, 'count')),
    ...money.map((amount) => formatValue(amount, 'money', currency)),
  ];
  return figures.map((figure, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: a row's figures stand in the order of its head
    <Td key={index} className={NUMBER}>
      {figure}
    </Td>
  ));
}
