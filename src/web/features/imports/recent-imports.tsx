import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { Import } from '../../../shared/imports';
import { LoadState } from '../../components/load-state';
import { Pager } from '../../components/pager';
import { productsImportPath } from '../../lib/admin-paths';
import { formatCount, formatDateTime } from '../../lib/format';
import { serverPage } from '../../lib/paging';
import { usePageInRange } from '../../lib/use-paged-list';
import { IMPORT_LIST_PAGE_SIZE, importListQuery } from './imports-api';

const STATUS_STYLE: Record<Import['status'], string> = {
  uploaded: 'bg-slate-100 text-slate-700',
  checked: 'bg-sky-50 text-sky-800',
  applying: 'bg-amber-50 text-amber-800',
  applied: 'bg-emerald-50 text-emerald-800',
  failed: 'bg-red-50 text-red-800',
};

/** An import's status in words: "Applying 120 of 500" while it is being written. */
export function importStatusText(item: Import): string {
  switch (item.status) {
    case 'uploaded':
      return 'Uploaded';
    case 'checked':
      return 'Checked';
    case 'applying':
      return `Applying ${formatCount(item.processed)} of ${formatCount(item.total)}`;
    case 'applied':
      return 'Applied';
    case 'failed':
      return 'Stopped';
  }
}

/** The summary in a line: as checked before the apply, as applied after it. */
function summaryText(item: Import): string | null {
  const summary = item.summary;
  if (!summary) return null;
  const applied = item.status === 'applied';
  const parts = [
    `${formatCount(summary.create)} ${applied ? 'created' : 'to create'}`,
    `${formatCount(summary.update)} ${applied ? 'updated' : 'to update'}`,
  ];
  if (summary.unchanged > 0) parts.push(`${formatCount(summary.unchanged)} unchanged`);
  parts.push(`${formatCount(summary.errors)} ${summary.errors === 1 ? 'error' : 'errors'}`);
  return parts.join(', ');
}

/** When it last moved: applied, checked, or uploaded. */
function lastStep(item: Import): string {
  if (item.appliedAt && item.status === 'applied') return `Applied ${formatDateTime(item.appliedAt)}`;
  if (item.checkedAt) return `Checked ${formatDateTime(item.checkedAt)}`;
  return `Uploaded ${formatDateTime(item.createdAt)}`;
}

function RecentImport({ item }: { item: Import }) {
  const summary = summaryText(item);
  return (
    <li className="p-3 sm:px-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <Link
          to={productsImportPath(item._id)}
          className="min-w-0 font-medium break-all text-indigo-700 underline-offset-2 hover:text-indigo-900 hover:underline"
        >
          {item.fileName}
        </Link>
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[item.status]}`}>
          {importStatusText(item)}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {formatCount(item.rows)} {item.rows === 1 ? 'row' : 'rows'}
        {summary ? ` · ${summary}` : ''}
      </p>
      <p className="mt-0.5 text-xs text-slate-600">
        {lastStep(item)} · by {item.createdBy.name}
      </p>
    </li>
  );
}

/** The upload step's list of earlier imports, newest first, each opening its import. */
export function RecentImports() {
  const ids = useId();
  const [pageAsked, setPage] = useState(1);
  const asked = { page: pageAsked, pageSize: IMPORT_LIST_PAGE_SIZE };
  const list = useQuery(importListQuery(asked));
  const page = serverPage(list.data && { ...list.data, rows: list.data.imports }, asked);
  usePageInRange(pageAsked, page.pageCount, list.isSuccess && !list.isPlaceholderData, setPage);
  return (
    <section aria-labelledby={`${ids}-heading`} className="space-y-3 pt-4">
      <h2 id={`${ids}-heading`} className="text-base font-semibold text-slate-900">
        Recent imports
      </h2>
      <LoadState
        query={list}
        what="the recent imports"
        loading="Loading recent imports..."
        empty="No imports yet."
        isEmpty={(data) => data.total === 0}
        waiting={list.isSuccess && page.rows.length === 0 && page.total > 0}
      >
        {() => (
          <>
            <ul
              aria-label="Recent imports"
              aria-busy={list.isPlaceholderData}
              className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm"
            >
              {page.rows.map((item) => (
                <RecentImport key={item._id} item={item} />
              ))}
            </ul>
            <Pager page={page} label="Recent imports" onPage={setPage} />
          </>
        )}
      </LoadState>
    </section>
  );
}
