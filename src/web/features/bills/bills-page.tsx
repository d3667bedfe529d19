import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { BILL_STATUSES, type Bill, type BillQuery } from '../../../shared/bills';
import { buttonClass } from '../../components/button';
import { Options, SelectField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { billPath, NEW_BILL_PATH, payBillsPath } from '../../lib/admin-paths';
import { formatDate } from '../../lib/format';
import { oneOf, pageIn, useListAddress } from '../../lib/list-address';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useMoney } from '../../lib/store-settings';
import { usePageInRange } from '../../lib/use-paged-list';
import { BillStatusBadge, NUMBER, OverdueMark, STATUS_LABEL } from './bill-status';
import { BILLS_PAGE_SIZE, billPageQuery, suppliersQuery } from './bills-api';

/** The filters and page the address holds; anything unreadable there counts as unset. */
function readFilters(params: URLSearchParams) {
  return {
    status: oneOf(BILL_STATUSES, params.get('status')),
    supplier: params.get('supplier') || undefined,
    overdue: params.get('overdue') === 'true',
    page: pageIn(params),
  };
}

/** On phones a row is a small card: number and status, supplier and open, then the rest. */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const CELL = 'max-sm:p-0';

/** A figure's cell; on phones its column's name before it, where the head is not shown. */
function Figure({ label, value, className = '' }: { label: string; value: string; className?: string }) {
  return (
    <Td className={`${NUMBER} max-sm:text-left ${CELL} ${className}`}>
      <span className="text-xs font-normal text-slate-500 sm:hidden">{label} </span>
      {value}
    </Td>
  );
}

function BillRow({ bill }: { bill: Bill }) {
  const money = useMoney();
  const overdue = bill.overdueDays > 0;
  return (
    <tr className={`hover:bg-slate-50 ${overdue ? 'bg-red-50/40' : ''} ${STACKED_ROW}`}>
      <th scope="row" className={`px-3 py-2.5 text-left font-medium whitespace-nowrap sm:px-4 ${CELL}`}>
        <Link to={billPath(bill._id)} className="text-indigo-700 hover:underline">
          {bill.number}
        </Link>
      </th>
      <Td className={`max-sm:col-start-1 max-sm:row-start-2 ${CELL}`}>{bill.supplier.name}</Td>
      <Td
        className={`text-slate-700 max-sm:col-start-1 max-sm:text-xs max-sm:break-words sm:whitespace-nowrap ${CELL}`}
      >
        <span className="sm:hidden">Ref. </span>
        {bill.reference}
      </Td>
      <Td className={`whitespace-nowrap text-slate-600 max-sm:hidden ${CELL}`}>
        <time dateTime={bill.date}>{formatDate(bill.date)}</time>
      </Td>
      <Td className={`whitespace-nowrap text-slate-700 max-sm:col-start-1 max-sm:text-xs ${CELL}`}>
        <span className="sm:hidden">Due </span>
        <time dateTime={bill.dueDate}>{formatDate(bill.dueDate)}</time>
        <OverdueMark bill={bill} />
      </Td>
      <Figure label="Total" value={money(bill.total)} className="max-sm:col-start-2 max-sm:text-right" />
      <Figure label="Paid" value={money(bill.paid)} className="max-sm:col-start-2 max-sm:text-right" />
      <Figure
        label="Open"
        value={money(bill.open)}
        className="font-medium max-sm:col-start-2 max-sm:row-start-2 max-sm:text-right"
      />
      <Td className={`max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right ${CELL}`}>
        <BillStatusBadge status={bill.status} />
      </Td>
    </tr>
  );
}

/**
 * Admin: suppliers' bills (DESIGN §20), those owed past their due date first (most days first),
 * then by due date; by status, by supplier, or only the overdue ones. Each leads to its bill.
 */
export function BillsPage() {
  const { params, setFilter, setPage, clear } = useListAddress<'status' | 'supplier' | 'overdue'>();
  const filters = readFilters(params);
  const filtered = filters.status !== undefined || filters.supplier !== undefined || filters.overdue;
  const asked = { page: filters.page, pageSize: BILLS_PAGE_SIZE };
  const query: BillQuery = {
    status: filters.status,
    supplier: filters.supplier,
    ...(filters.overdue ? { overdue: 'true' as const } : {}),
    ...asked,
  };
  const list = useQuery(billPageQuery(query));
  const suppliers = useQuery(suppliersQuery);
  const page = serverPage(list.data && { ...list.data, rows: list.data.bills }, asked);
  usePageInRange(filters.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, setPage);
  const overdueId = useId();
  const knownSupplier = suppliers.data?.suppliers.some((one) => one._id === filters.supplier);

  return (
    <>
      <PageHeader title="Bills">
        <Link to={payBillsPath(filters.supplier)} className={buttonClass('secondary')}>
          Pay bills
        </Link>
        <Link to={NEW_BILL_PATH} className={buttonClass('primary')}>
          New bill
        </Link>
      </PageHeader>
      <search aria-label="Filter bills" className="mb-4 block">
        <div className="grid items-end gap-3 sm:grid-cols-[repeat(2,minmax(0,1fr))_auto] lg:max-w-4xl">
          <SelectField
            label="Status"
            value={filters.status ?? ''}
            onChange={(event) => setFilter('status', event.target.value)}
          >
            <option value="">Any status</option>
            <Options values={BILL_STATUSES} labels={STATUS_LABEL} />
          </SelectField>
          <SelectField
            label="Supplier"
            value={filters.supplier ?? ''}
            onChange={(event) => setFilter('supplier', event.target.value)}
          >
            <option value="">Every supplier</option>
            {filters.supplier && !knownSupplier ? (
              <option value={filters.supplier}>
                {suppliers.isPending ? 'Loading…' : 'Unknown supplier'}
              </option>
            ) : null}
            {suppliers.data?.suppliers.map((one) => (
              <option key={one._id} value={one._id}>
                {one.name}
              </option>
            ))}
          </SelectField>
          <div className="flex items-center gap-2 pb-2">
            <input
              id={overdueId}
              type="checkbox"
              className="size-4 rounded border-slate-300 text-indigo-600"
              checked={filters.overdue}
              onChange={(event) => setFilter('overdue', event.target.checked ? 'true' : '')}
            />
            <label htmlFor={overdueId} className="text-sm font-medium text-slate-700">
              Overdue only
            </label>
          </div>
        </div>
        {filtered ? (
          <button type="button" className={buttonClass('ghost', 'sm', 'mt-2 -ml-2.5')} onClick={clear}>
            Clear filters
          </button>
        ) : null}
      </search>
      <Table caption="Bills, overdue first" busy={list.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Number</Th>
            <Th>Supplier</Th>
            <Th>Reference</Th>
            <Th>Date</Th>
            <Th>Due</Th>
            <Th className="text-right">Total</Th>
            <Th className="text-right">Paid</Th>
            <Th className="text-right">Open</Th>
            <Th>Status</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={list}
            what="the bills"
            loading="Loading bills..."
            colSpan={9}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty={
              filtered ? (
                'No bills match these filters.'
              ) : (
                <>
                  <span className="block">No bills yet.</span>
                  <span className="mt-2 block">
                    <Link to={NEW_BILL_PATH} className="text-indigo-700 underline">
                      Enter a supplier’s bill
                    </Link>
                    , or bill a purchase order from its page.
                  </span>
                </>
              )
            }
          >
            {() => page.rows.map((bill) => <BillRow key={bill._id} bill={bill} />)}
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Bills" onPage={setPage} />
    </>
  );
}
