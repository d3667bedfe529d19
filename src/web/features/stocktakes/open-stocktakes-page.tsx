import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { countPath, countSheetPath } from '../../lib/area-paths';
import { formatDate } from '../../lib/format';
import { useListAddress } from '../../lib/list-address';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useSignedInUser } from '../../lib/signed-in';
import { usePageInRange } from '../../lib/use-paged-list';
import { linesText } from './stocktake-status';
import { STOCKTAKES_PAGE_SIZE, stocktakePageQuery } from './stocktakes-api';

/**
 * The counters' Stocktake screen (salesRep, medicalRep, employee): the stocktakes still counting,
 * newest first, each opening the count screen (and its paper sheet).
 */
export function OpenStocktakesPage() {
  const { role } = useSignedInUser();
  const { page: asked, setPage } = useListAddress();
  const query = { status: 'counting' as const, page: asked, pageSize: STOCKTAKES_PAGE_SIZE };
  const list = useQuery(stocktakePageQuery(query));
  const page = serverPage(list.data && { ...list.data, rows: list.data.stocktakes }, query);
  usePageInRange(asked, page.pageCount, list.isSuccess && !list.isPlaceholderData, setPage);
  return (
    <>
      <PageHeader title="Stocktake" />
      <p className="mb-4 text-sm text-slate-600">
        Open a stocktake to count it: scan each item, or type what you counted.
      </p>
      <LoadState
        query={list}
        what="the open stocktakes"
        loading="Loading stocktakes..."
        waiting={isPastEnd(page)}
        isEmpty={() => page.total === 0}
        empty="No stocktake is being counted now."
      >
        {() => (
          <ul aria-label="Stocktakes being counted" className="space-y-3">
            {page.rows.map((stocktake) => (
              <li
                key={stocktake._id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
              >
                <div className="min-w-0">
                  <p className="font-semibold text-slate-900">
                    {stocktake.number} · {stocktake.location.name}
                  </p>
                  <p className="text-sm text-slate-600">
                    {linesText(stocktake.lines)} · started{' '}
                    <time dateTime={stocktake.createdAt}>{formatDate(stocktake.createdAt)}</time>
                    {stocktake.note ? ` · ${stocktake.note}` : ''}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Link
                    to={countSheetPath(role, stocktake._id)}
                    aria-label={`Count sheet of ${stocktake.number}`}
                    className="inline-flex min-h-11 items-center rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-700 hover:bg-slate-50"
                  >
                    Sheet
                  </Link>
                  <Link
                    to={countPath(role, stocktake._id)}
                    aria-label={`Count ${stocktake.number}`}
                    className="inline-flex min-h-11 items-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white hover:bg-indigo-700"
                  >
                    Count
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </LoadState>
      <Pager page={page} label="Stocktakes" onPage={setPage} />
    </>
  );
}
