import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  STOCKTAKE_STATUS_LABEL,
  STOCKTAKE_STATUSES,
  type Stocktake,
  type StocktakeQuery,
} from '../../../shared/stocktakes';
import { buttonClass } from '../../components/button';
import { SelectField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { LocationPicker } from '../../components/location-picker';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { NEW_STOCKTAKE_PATH, stocktakePath } from '../../lib/admin-paths';
import { formatDate } from '../../lib/format';
import { oneOf, pageIn, useListAddress } from '../../lib/list-address';
import { isPastEnd, serverPage } from '../../lib/paging';
import { usePageInRange } from '../../lib/use-paged-list';
import { StocktakeStatusBadge } from './stocktake-status';
import { STOCKTAKES_PAGE_SIZE, stocktakePageQuery } from './stocktakes-api';

/** The filters and page the address holds; anything unreadable there counts as unset. */
function readFilters(params: URLSearchParams) {
  return {
    status: oneOf(STOCKTAKE_STATUSES, params.get('status')),
    location: params.get('location') || undefined,
    page: pageIn(params),
  };
}

/** On phones a row is a small card (number and status, location, lines, date and who). */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';

function StocktakeRow({ stocktake }: { stocktake: Stocktake }) {
  return (
    <tr className={`hover:bg-slate-50 ${STACKED_ROW}`}>
      <Td className={`whitespace-nowrap font-medium ${STACKED_CELL}`}>
        <Link to={stocktakePath(stocktake._id)} className="text-indigo-700 hover:underline">
          {stocktake.number}
        </Link>
        {stocktake.blind ? <span className="ml-2 text-xs font-normal text-slate-500">Blind</span> : null}
      </Td>
      <Td className={`max-sm:col-start-1 max-sm:row-start-2 ${STACKED_CELL}`}>{stocktake.location.name}</Td>
      <Td className={`max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right ${STACKED_CELL}`}>
        <StocktakeStatusBadge status={stocktake.status} />
      </Td>
      <Td className={`text-right tabular-nums max-sm:col-start-2 max-sm:row-start-2 ${STACKED_CELL}`}>
        <span className="text-xs text-slate-500 sm:hidden">Lines </span>
        {stocktake.lines.toLocaleString('en-US')}
      </Td>
      <Td className={`whitespace-nowrap text-slate-600 max-sm:text-xs ${STACKED_CELL}`}>
        <time dateTime={stocktake.createdAt}>{formatDate(stocktake.createdAt)}</time>
      </Td>
      <Td className={`text-slate-600 max-sm:text-right max-sm:text-xs ${STACKED_CELL}`}>
        <span className="sm:hidden">by </span>
        {stocktake.createdBy?.name ?? '—'}
      </Td>
    </tr>
  );
}

/** Admin: every stocktake, newest first, by status and location (DESIGN §18). */
export function StocktakesPage() {
  const { params, setFilter, setPage, clear } = useListAddress<'status' | 'location'>();
  const filters = readFilters(params);
  const filtered = filters.status !== undefined || filters.location !== undefined;
  const asked = { page: filters.page, pageSize: STOCKTAKES_PAGE_SIZE };
  const query: StocktakeQuery = { status: filters.status, location: filters.location, ...asked };
  const list = useQuery(stocktakePageQuery(query));
  const page = serverPage(list.data && { ...list.data, rows: list.data.stocktakes }, asked);
  usePageInRange(filters.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, setPage);

  return (
    <>
      <PageHeader title="Stocktakes">
        <Link to={NEW_STOCKTAKE_PATH} className={buttonClass('primary')}>
          New stocktake
        </Link>
      </PageHeader>
      <search aria-label="Filter stocktakes" className="mb-4 block">
        <div className="flex flex-col gap-3 sm:flex-row">
          <div className="w-full sm:w-56">
            <SelectField
              label="Status"
              value={filters.status ?? ''}
              onChange={(event) => setFilter('status', event.target.value)}
            >
              <option value="">Any status</option>
              {STOCKTAKE_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {STOCKTAKE_STATUS_LABEL[status]}
                </option>
              ))}
            </SelectField>
          </div>
          <LocationPicker value={filters.location ?? ''} onChange={(value) => setFilter('location', value)} />
        </div>
        {filtered ? (
          <button type="button" className={buttonClass('ghost', 'sm', 'mt-2 -ml-2.5')} onClick={clear}>
            Clear filters
          </button>
        ) : null}
      </search>
      <Table caption="Stocktakes, newest first" busy={list.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Number</Th>
            <Th>Location</Th>
            <Th>Status</Th>
            <Th className="text-right">Lines</Th>
            <Th>Created</Th>
            <Th>By</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={list}
            what="the stocktakes"
            loading="Loading stocktakes..."
            colSpan={6}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty={
              filtered ? (
                'No stocktakes match these filters.'
              ) : (
                <>
                  <span className="block">No stocktakes yet.</span>
                  <span className="mt-2 block">
                    <Link to={NEW_STOCKTAKE_PATH} className="text-indigo-700 underline">
                      Count a location
                    </Link>
                    .
                  </span>
                </>
              )
            }
          >
            {() => page.rows.map((stocktake) => <StocktakeRow key={stocktake._id} stocktake={stocktake} />)}
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Stocktakes" onPage={setPage} />
    </>
  );
}
