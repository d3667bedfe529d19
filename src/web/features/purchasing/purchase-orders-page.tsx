import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  PURCHASE_ORDER_STATUSES,
  type PurchaseOrderQuery,
  type PurchaseOrderSummary,
} from '../../../shared/purchasing';
import { buttonClass } from '../../components/button';
import { DownloadCsvButton } from '../../components/download-csv';
import { SelectField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { LocationPicker } from '../../components/location-picker';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { PURCHASE_ORDERS_PATH, purchaseOrderPath, REORDER_PATH } from '../../lib/admin-paths';
import { formatDate } from '../../lib/format';
import { oneOf, pageIn, useListAddress } from '../../lib/list-address';
import { isPastEnd, serverPage, withQuery } from '../../lib/paging';
import { useProductChoices } from '../../lib/product-choices';
import { useMoney } from '../../lib/store-settings';
import { usePageInRange } from '../../lib/use-paged-list';
import { STATUS_LABEL, StatusBadge } from './purchase-order-status';
import { PURCHASE_ORDERS_PAGE_SIZE, purchaseOrderPageQuery } from './purchasing-api';

/** The filters and page the address holds; anything unreadable there counts as unset. */
function readFilters(params: URLSearchParams) {
  return {
    status: oneOf(PURCHASE_ORDER_STATUSES, params.get('status')),
    supplier: params.get('supplier') || undefined,
    location: params.get('location') || undefined,
    page: pageIn(params),
  };
}

/** On phones a row is a small card (number and status, supplier and total, where and when). */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';

function OrderRow({ order }: { order: PurchaseOrderSummary }) {
  const money = useMoney();
  return (
    <tr className={`hover:bg-slate-50 ${STACKED_ROW}`}>
      <Td className={`whitespace-nowrap font-medium ${STACKED_CELL}`}>
        <Link to={purchaseOrderPath(order._id)} className="text-indigo-700 hover:underline">
          {order.number}
        </Link>
      </Td>
      <Td className={`max-sm:col-start-1 max-sm:row-start-2 ${STACKED_CELL}`}>{order.supplier.name}</Td>
      <Td className={`max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right ${STACKED_CELL}`}>
        <StatusBadge status={order.status} />
      </Td>
      <Td
        className={`whitespace-nowrap text-right tabular-nums max-sm:col-start-2 max-sm:row-start-2 ${STACKED_CELL}`}
      >
        {money(order.total)}
      </Td>
      <Td className={`text-slate-600 max-sm:col-start-1 max-sm:text-xs ${STACKED_CELL}`}>
        <span className="sm:hidden">To </span>
        {order.location.name}
      </Td>
      <Td className={`whitespace-nowrap text-slate-600 max-sm:text-right max-sm:text-xs ${STACKED_CELL}`}>
        <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
      </Td>
    </tr>
  );
}

/** Admin: every purchase order, newest first, by status, supplier and location (DESIGN §9, §17). */
export function PurchaseOrdersPage() {
  const { params, setFilter, setPage, clear } = useListAddress<'status' | 'supplier' | 'location'>();
  const filters = readFilters(params);
  const filtered =
    filters.status !== undefined || filters.supplier !== undefined || filters.location !== undefined;
  const asked = { page: filters.page, pageSize: PURCHASE_ORDERS_PAGE_SIZE };
  const query: PurchaseOrderQuery = {
    status: filters.status,
    supplier: filters.supplier,
    location: filters.location,
    ...asked,
  };
  const list = useQuery(purchaseOrderPageQuery(query));
  const choices = useProductChoices();
  const page = serverPage(list.data && { ...list.data, rows: list.data.purchaseOrders }, asked);

  usePageInRange(filters.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, setPage);
  const knownSupplier = choices.data?.suppliers.some((supplier) => supplier._id === filters.supplier);

  return (
    <>
      <PageHeader title="Purchase orders">
        <DownloadCsvButton
          path={withQuery('/purchase-orders', {
            status: filters.status,
            supplier: filters.supplier,
            location: filters.location,
          })}
          filename="purchase-orders.csv"
        />
        <Link to={REORDER_PATH} className={buttonClass('secondary')}>
          Reorder suggestions
        </Link>
        <Link to={`${PURCHASE_ORDERS_PATH}/new`} className={buttonClass('primary')}>
          New purchase order
        </Link>
      </PageHeader>
      <search aria-label="Filter purchase orders" className="mb-4 block">
        <div className="grid gap-3 sm:grid-cols-3 lg:max-w-4xl">
          <SelectField
            label="Status"
            value={filters.status ?? ''}
            onChange={(event) => setFilter('status', event.target.value)}
          >
            <option value="">Any status</option>
            {PURCHASE_ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABEL[status]}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Supplier"
            value={filters.supplier ?? ''}
            onChange={(event) => setFilter('supplier', event.target.value)}
          >
            <option value="">Every supplier</option>
            {filters.supplier && !knownSupplier ? (
              <option value={filters.supplier}>{choices.isPending ? 'Loading…' : 'Unknown supplier'}</option>
            ) : null}
            {choices.data?.suppliers.map((supplier) => (
              <option key={supplier._id} value={supplier._id}>
                {supplier.name}
              </option>
            ))}
          </SelectField>
          <LocationPicker
            label="Delivered to"
            value={filters.location ?? ''}
            onChange={(value) => setFilter('location', value)}
          />
        </div>
        {filtered ? (
          <button type="button" className={buttonClass('ghost', 'sm', 'mt-2 -ml-2.5')} onClick={clear}>
            Clear filters
          </button>
        ) : null}
      </search>
      <Table caption="Purchase orders, newest first" busy={list.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Number</Th>
            <Th>Supplier</Th>
            <Th>Status</Th>
            <Th className="text-right">Total</Th>
            <Th>Delivered to</Th>
            <Th>Date</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={list}
            what="the purchase orders"
            loading="Loading purchase orders..."
            colSpan={6}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty={
              filtered ? (
                'No purchase orders match these filters.'
              ) : (
                <>
                  <span className="block">No purchase orders yet.</span>
                  <span className="mt-2 block">
                    <Link to={`${PURCHASE_ORDERS_PATH}/new`} className="text-indigo-700 underline">
                      Create one
                    </Link>{' '}
                    or start from the{' '}
                    <Link to={REORDER_PATH} className="text-indigo-700 underline">
                      reorder suggestions
                    </Link>
                    .
                  </span>
                </>
              )
            }
          >
            {() => page.rows.map((order) => <OrderRow key={order._id} order={order} />)}
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Purchase orders" onPage={setPage} />
    </>
  );
}
