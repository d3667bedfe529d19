import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  TRANSFER_STATUS_LABEL,
  TRANSFER_STATUSES,
  type TransferQuery,
  type TransferSummary,
} from '../../../shared/transfers';
import { buttonClass } from '../../components/button';
import { SelectField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { LocationPicker } from '../../components/location-picker';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { NEW_TRANSFER_PATH, transferPath } from '../../lib/admin-paths';
import { formatDate } from '../../lib/format';
import { oneOf, pageIn, useListAddress } from '../../lib/list-address';
import { isPastEnd, serverPage } from '../../lib/paging';
import { usePageInRange } from '../../lib/use-paged-list';
import { TransferStatusBadge } from './transfer-status';
import { TRANSFERS_PAGE_SIZE, transferPageQuery } from './transfers-api';

/** The filters and page the address holds; anything unreadable there counts as unset. */
function readFilters(params: URLSearchParams) {
  return {
    status: oneOf(TRANSFER_STATUSES, params.get('status')),
    location: params.get('location') || undefined,
    page: pageIn(params),
  };
}

/** On phones a row is a small card (number and status, from → to, totals, date). */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';

function TransferRow({ transfer }: { transfer: TransferSummary }) {
  return (
    <tr className={`hover:bg-slate-50 ${STACKED_ROW}`}>
      <Td className={`whitespace-nowrap font-medium ${STACKED_CELL}`}>
        <Link to={transferPath(transfer._id)} className="text-indigo-700 hover:underline">
          {transfer.number}
        </Link>
      </Td>
      <Td className={`max-sm:col-start-1 max-sm:row-start-2 ${STACKED_CELL}`}>
        {transfer.from.name} <span aria-hidden="true">→</span>
        <span className="sr-only">to</span> {transfer.to.name}
      </Td>
      <Td className={`max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right ${STACKED_CELL}`}>
        <TransferStatusBadge status={transfer.status} />
      </Td>
      <Td className={`text-right tabular-nums max-sm:text-left ${STACKED_CELL}`}>
        <span className="text-xs text-slate-500 sm:hidden">Lines </span>
        {transfer.lineCount}
      </Td>
      <Td className={`text-right tabular-nums ${STACKED_CELL}`}>
        <span className="text-xs text-slate-500 sm:hidden">Units </span>
        {transfer.units}
      </Td>
      <Td className={`text-right tabular-nums max-sm:text-left ${STACKED_CELL}`}>
        <span className="text-xs text-slate-500 sm:hidden">In transit </span>
        {transfer.inTransit}
      </Td>
      <Td className={`whitespace-nowrap text-slate-600 max-sm:text-right max-sm:text-xs ${STACKED_CELL}`}>
        <time dateTime={transfer.createdAt}>{formatDate(transfer.createdAt)}</time>
      </Td>
    </tr>
  );
}

/** Admin: every transfer between locations, newest first, by status and location (DESIGN §17). */
export function TransfersPage() {
  const { params, setFilter, setPage, clear } = useListAddress<'status' | 'location'>();
  const filters = readFilters(params);
  const filtered = filters.status !== undefined || filters.location !== undefined;
  const asked = { page: filters.page, pageSize: TRANSFERS_PAGE_SIZE };
  const query: TransferQuery = { status: filters.status, location: filters.location, ...asked };
  const list = useQuery(transferPageQuery(query));
  const page = serverPage(list.data && { ...list.data, rows: list.data.transfers }, asked);
  usePageInRange(filters.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, setPage);

  return (
    <>
      <PageHeader title="Transfers">
        <Link to={NEW_TRANSFER_PATH} className={buttonClass('primary')}>
          New transfer
        </Link>
      </PageHeader>
      <search aria-label="Filter transfers" className="mb-4 block">
        <div className="flex flex-col gap-3 sm:flex-row">
          <div className="w-full sm:w-56">
            <SelectField
              label="Status"
              value={filters.status ?? ''}
              onChange={(event) => setFilter('status', event.target.value)}
            >
              <option value="">Any status</option>
              {TRANSFER_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {TRANSFER_STATUS_LABEL[status]}
                </option>
              ))}
            </SelectField>
          </div>
          <LocationPicker
            value={filters.location ?? ''}
            onChange={(value) => setFilter('location', value)}
            label="From or to"
          />
        </div>
        {filtered ? (
          <button type="button" className={buttonClass('ghost', 'sm', 'mt-2 -ml-2.5')} onClick={clear}>
            Clear filters
          </button>
        ) : null}
      </search>
      <Table caption="Transfers, newest first" busy={list.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Number</Th>
            <Th>From → to</Th>
            <Th>Status</Th>
            <Th className="text-right">Lines</Th>
            <Th className="text-right">Units</Th>
            <Th className="text-right">In transit</Th>
            <Th>Created</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={list}
            what="the transfers"
            loading="Loading transfers..."
            colSpan={7}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty={
              filtered ? (
                'No transfers match these filters.'
              ) : (
                <>
                  <span className="block">No transfers yet.</span>
                  <span className="mt-2 block">
                    <Link to={NEW_TRANSFER_PATH} className="text-indigo-700 underline">
                      Move stock between locations
                    </Link>
                    .
                  </span>
                </>
              )
            }
          >
            {() => page.rows.map((transfer) => <TransferRow key={transfer._id} transfer={transfer} />)}
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Transfers" onPage={setPage} />
    </>
  );
}
