import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { Import, ImportSummary } from '../../../shared/imports';
import { DownloadCsvButton } from '../../components/download-csv';
import { formatCount } from '../../lib/format';
import { importErrorsPath } from './imports-api';

/** After this long a wait says it is still going, so a big file does not look stuck. */
export const SLOW_MS = 5_000;

/** True once `active` has lasted `ms`; false again as soon as it ends. */
export function useSlow(active: boolean, ms = SLOW_MS): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    setSlow(false);
    if (!active) return;
    const timer = setTimeout(() => setSlow(true), ms);
    return () => clearTimeout(timer);
  }, [active, ms]);
  return active && slow;
}

/**
 * A step's heading. It takes the focus when the step was reached from another one (`focus`), so a
 * screen reader says where the reader now is and Tab goes on from there.
 */
export function StepHeading({ id, focus, children }: { id: string; focus: boolean; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  // Only the step's first render counts: the step changed, this heading is new.
  const focusOnArrival = useRef(focus);
  useEffect(() => {
    if (focusOnArrival.current) ref.current?.focus();
  }, []);
  return (
    <h2 ref={ref} id={id} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
      {children}
    </h2>
  );
}

/** A row count with its noun: "1 product", "1,200 products". */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** The dry run's four numbers (and, after the apply, what was written), as labelled figures. */
export function SummaryFigures({
  summary,
  done = false,
}: {
  summary: ImportSummary;
  /** After the apply: the same numbers, said in the past. */
  done?: boolean;
}) {
  const figures = [
    { label: done ? 'Created' : 'To create', value: summary.create, tone: 'text-emerald-700' },
    { label: done ? 'Updated' : 'To update', value: summary.update, tone: 'text-indigo-700' },
    { label: 'Unchanged', value: summary.unchanged, tone: 'text-slate-700' },
    {
      label: done ? 'Skipped (errors)' : 'With errors',
      value: summary.errors,
      tone: summary.errors > 0 ? 'text-red-700' : 'text-slate-700',
    },
  ];
  // DESIGN §22: rows a preset reads as no product (a Shopify image row), apart from the errors.
  if (summary.skipped > 0)
    figures.push({ label: 'Skipped (not products)', value: summary.skipped, tone: 'text-slate-700' });
  return (
    <dl className={`grid grid-cols-2 gap-3 ${figures.length > 4 ? 'sm:grid-cols-5' : 'sm:grid-cols-4'}`}>
      {figures.map((figure) => (
        <div key={figure.label} className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm">
          <dt className="text-xs font-medium text-slate-500 uppercase">{figure.label}</dt>
          <dd className={`mt-1 text-2xl font-semibold tabular-nums ${figure.tone}`}>
            {formatCount(figure.value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The categories and suppliers the import makes, when it makes any. */
export function NewNames({ summary, done = false }: { summary: ImportSummary; done?: boolean }) {
  const lists = [
    { label: done ? 'Categories created' : 'New categories', names: summary.newCategories },
    { label: done ? 'Suppliers created' : 'New suppliers', names: summary.newSuppliers },
  ].filter((list) => list.names.length > 0);
  if (lists.length === 0) return null;
  return (
    <dl className="space-y-2 text-sm">
      {lists.map((list) => (
        <div key={list.label}>
          <dt className="font-medium text-slate-700">
            {list.label} ({formatCount(list.names.length)})
          </dt>
          <dd className="mt-0.5 break-words text-slate-600">{list.names.join(', ')}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The failed rows as a CSV to fix and upload again. */
export function FailedRowsButton({ item }: { item: Import }) {
  const stem = item.fileName.replace(/\.[^.]+$/, '') || 'products';
  return (
    <DownloadCsvButton
      path={importErrorsPath(item._id)}
      filename={`${stem}-errors.csv`}
      label="Download failed rows"
    />
  );
}
