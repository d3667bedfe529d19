import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import type { Import } from '../../../shared/imports';
import { buttonClass } from '../../components/button';
import { FormError } from '../../components/form-field';
import { PRODUCTS_IMPORT_PATH, PRODUCTS_PATH } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
import { formatCount } from '../../lib/format';
import { FailedRowsButton, NewNames, StepHeading, SummaryFigures } from './import-parts';
import { useApplyImport, useProductsChanged } from './imports-api';

/** After this long without a row more, the progress says it is still going. */
const STALLED_MS = 15_000;

/** "1,200 of 8,000 rows". */
export function progressText(item: Pick<Import, 'processed' | 'total'>): string {
  return `${formatCount(item.processed)} of ${formatCount(item.total)} ${item.total === 1 ? 'row' : 'rows'}`;
}

/** Step 4 while the rows are written: how far it has gone, asked every second. */
export function ApplyingStep({
  item,
  focus,
  refreshError,
}: {
  item: Import;
  focus: boolean;
  /** Why the last progress check failed, while the next one is on its way. */
  refreshError: unknown;
}) {
  const ids = useId();
  const total = Math.max(item.total, 0);
  const processed = Math.min(Math.max(item.processed, 0), total);
  const percent = total === 0 ? 0 : Math.floor((processed / total) * 100);
  // No progress for a while (a big batch): say it is still going.
  const [stalled, setStalled] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the wait starts again with each row more
  useEffect(() => {
    setStalled(false);
    const timer = setTimeout(() => setStalled(true), STALLED_MS);
    return () => clearTimeout(timer);
  }, [processed]);
  return (
    <section aria-labelledby={`${ids}-heading`} className="space-y-4">
      <StepHeading id={`${ids}-heading`} focus={focus}>
        Importing {item.fileName}
      </StepHeading>
      <div
        role="progressbar"
        aria-labelledby={`${ids}-heading`}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={processed}
        aria-valuetext={progressText({ processed, total })}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-indigo-600 transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="text-sm font-medium text-slate-800 tabular-nums">
        {progressText({ processed, total })} ({percent}%)
      </p>
      <p className="text-sm text-slate-600">
        The rows are written in the background: you may leave this page, and this address shows how far the
        import has gone.
      </p>
      {stalled ? (
        <p role="status" className="text-sm text-slate-600">
          Still working: a large batch takes a little while.
        </p>
      ) : null}
      {refreshError ? (
        <p role="status" className="text-sm text-amber-800">
          The progress could not be refreshed ({errorMessage(refreshError)}); trying again.
        </p>
      ) : null}
    </section>
  );
}

/** Step 4 at its end: what was written, or why the import stopped (and a way to resume it). */
export function DoneStep({ item, focus }: { item: Import; focus: boolean }) {
  const ids = useId();
  const resume = useApplyImport(item._id);
  const productsChanged = useProductsChanged();
  // The catalogue has changed: every list of products, categories and suppliers is asked again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the end is first shown
  useEffect(() => productsChanged(), []);
  const failed = item.status === 'failed';
  return (
    <section aria-labelledby={`${ids}-heading`} className="space-y-4">
      <StepHeading id={`${ids}-heading`} focus={focus}>
        {failed ? 'The import stopped' : 'Import finished'}
      </StepHeading>
      {failed ? (
        <div className="space-y-1 rounded-md bg-red-50 p-4 text-sm text-red-800">
          <p role="alert">{item.failure ?? 'The import stopped before its end.'}</p>
          <p>{progressText(item)} had been gone through when it stopped.</p>
        </div>
      ) : null}
      {failed && resume.isError ? (
        <FormError>The import could not resume: {errorMessage(resume.error)}</FormError>
      ) : null}
      {failed ? (
        <p className="text-sm text-slate-600">
          Resuming goes on after the rows already written; none is written twice.
        </p>
      ) : (
        <p className="text-sm text-slate-600">
          {item.fileName}: {progressText(item)} gone through.
        </p>
      )}
      {item.summary && !failed ? (
        <>
          <SummaryFigures summary={item.summary} done />
          <NewNames summary={item.summary} done />
        </>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        {failed ? (
          <button
            type="button"
            className={buttonClass('primary')}
            disabled={resume.isPending}
            onClick={() => resume.mutate()}
          >
            {resume.isPending ? 'Resuming...' : 'Resume the import'}
          </button>
        ) : null}
        <Link to={PRODUCTS_PATH} className={buttonClass(failed ? 'secondary' : 'primary')}>
          View products
        </Link>
        {item.summary && item.summary.errors > 0 ? <FailedRowsButton item={item} /> : null}
        <Link to={PRODUCTS_IMPORT_PATH} state={{ stepFocus: true }} className={buttonClass('secondary')}>
          Import another file
        </Link>
      </div>
    </section>
  );
}
