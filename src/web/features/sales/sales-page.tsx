import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { can } from '../../../shared/roles';
import { type SaleQuery, type SaleSummary, saleNumberLabel } from '../../../shared/sales';
import { buttonClass } from '../../components/button';
import { SearchField, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { OFFLINE_REVIEW_PATH } from '../../lib/admin-paths';
import { salePath } from '../../lib/area-paths';
import { BACKWARDS_RANGE, toDayError } from '../../lib/date-range';
import { formatDateTime, formatMoney } from '../../lib/format';
import { isPastEnd, serverPage } from '../../lib/paging';
import { homePathFor } from '../../lib/role-home';
import { useSignedInUser } from '../../lib/signed-in';
import { useCurrency } from '../../lib/store-settings';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';
import { salesPageQuery } from './sales-api';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What came back of a sale: its money and units, or a dash. */
export function returnedLabel(
  sale: Pick<SaleSummary, 'returnedQuantity' | 'returnedTotal'>,
  currency = 'USD',
): string {
  if (sale.returnedQuantity === 0) return '—';
  const units = `${sale.returnedQuantity} ${sale.returnedQuantity === 1 ? 'unit' : 'units'}`;
  return `${formatMoney(sale.returnedTotal, currency)} (${units})`;
}

/**
 * On phones a row is a small card: the receipt and the total, then the time and the customer,
 * then the seller, the lines and what came back; the cells stay cells of the table.
 */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:px-3 max-sm:py-3';

function SaleRow({ sale, href }: { sale: SaleSummary; href: string }) {
  const currency = useCurrency();
  return (
    <tr className={`hover:bg-slate-50 ${STACKED_ROW}`}>
      <Td className="whitespace-nowrap font-medium max-sm:p-0">
        <Link to={href} className="text-indigo-700 hover:underline">
          {saleNumberLabel(sale.number)}
        </Link>
      </Td>
      <Td className="whitespace-nowrap text-slate-600 max-sm:col-start-1 max-sm:row-start-2 max-sm:p-0 max-sm:text-xs">
        <time dateTime={sale.createdAt}>{formatDateTime(sale.createdAt)}</time>
      </Td>
      <Td className="max-sm:col-start-1 max-sm:row-start-4 max-sm:p-0 max-sm:text-xs max-sm:text-slate-600">
        <span className="sm:hidden">Sold by </span>
        {sale.seller.name}
      </Td>
      <Td className="break-words max-sm:col-start-1 max-sm:row-start-3 max-sm:p-0">
        {sale.customer?.name ?? <span className="text-slate-500">—</span>}
      </Td>
      <Td className="text-right tabular-nums max-sm:col-start-2 max-sm:row-start-2 max-sm:p-0 max-sm:text-xs max-sm:text-slate-600">
        {sale.lineCount}
        <span className="sm:hidden"> {sale.lineCount === 1 ? 'line' : 'lines'}</span>
      </Td>
      <Td className="whitespace-nowrap text-right font-medium tabular-nums max-sm:col-start-2 max-sm:row-start-1 max-sm:p-0">
        {formatMoney(sale.total, currency)}
      </Td>
      <Td className="whitespace-nowrap text-right tabular-nums text-slate-600 max-sm:col-start-2 max-sm:row-start-3 max-sm:row-span-2 max-sm:p-0 max-sm:text-xs">
        {sale.returnedQuantity > 0 ? <span className="sm:hidden">Returned </span> : null}
        {returnedLabel(sale, currency)}
      </Td>
    </tr>
  );
}

/**
 * The sales view (DESIGN §16): one row per sale, newest first — every sale for an admin, a
 * seller's own for the others — found by receipt number (S-000123 or 123) or the customer's name,
 * between two days. The view lives in the address (?q=…&from=…&to=…&page=…).
 */
export function SalesPage() {
  const me = useSignedInUser();
  const paging = usePagedList<'from' | 'to'>();
  const day = (name: 'from' | 'to') => {
    const value = paging.params.get(name) ?? '';
    return DAY.test(value) ? value : undefined;
  };
  const [from, to] = [day('from'), day('to')];
  const rangeError = toDayError(from, to);
  const filtered = Boolean(paging.search || from || to);
  const asked = { page: paging.page, pageSize: paging.pageSize };
  const query: SaleQuery = { ...(paging.search ? { search: paging.search } : {}), from, to, ...asked };
  const list = useQuery({ ...salesPageQuery(query), enabled: !rangeError });
  const page = serverPage(list.data && { ...list.data, rows: list.data.sales }, asked);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, paging.setPage);

  function clear() {
    // The box's text reaches the address once typing pauses, as when it is typed.
    paging.setText('');
    paging.setFilter('from', '');
    paging.setFilter('to', '');
  }

  return (
    <>
      <PageHeader title="Sales">
        {can(me.role, 'sales:review') ? (
          <Link to={OFFLINE_REVIEW_PATH} className={buttonClass('secondary')}>
            Offline sales to review
          </Link>
        ) : null}
        {can(me.role, 'sales:create') ? (
          <Link to={`${homePathFor(me.role)}/sales/new`} className={buttonClass('primary')}>
            New sale
          </Link>
        ) : null}
      </PageHeader>
      <search aria-label="Find sales" className="mb-4 block">
        <div className="grid grid-cols-2 items-start gap-3 sm:grid-cols-[minmax(0,1fr)_10rem_10rem]">
          <div className="col-span-2 sm:col-span-1">
            <SearchField
              value={paging.text}
              onChange={paging.setText}
              placeholder="Receipt number or customer..."
              maxLength={SEARCH_MAX_LENGTH}
            />
          </div>
          <TextField
            label="From"
            type="date"
            value={from ?? ''}
            max={to}
            onChange={(e) => paging.setFilter('from', e.target.value)}
          />
          <TextField
            label="To"
            type="date"
            value={to ?? ''}
            min={from}
            error={rangeError}
            onChange={(e) => paging.setFilter('to', e.target.value)}
          />
        </div>
        {filtered ? (
          <button type="button" className={buttonClass('ghost', 'sm', 'mt-2 -ml-2.5')} onClick={clear}>
            Clear filters
          </button>
        ) : null}
      </search>
      <Table caption="Sales, newest first" busy={list.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Receipt</Th>
            <Th>Time</Th>
            <Th>Seller</Th>
            <Th>Customer</Th>
            <Th className="text-right">Lines</Th>
            <Th className="text-right">Total</Th>
            <Th className="text-right">Returned</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rangeError ? (
            <TableMessage colSpan={7}>{BACKWARDS_RANGE}</TableMessage>
          ) : (
            <LoadState
              query={list}
              what="the sales"
              loading="Loading sales..."
              colSpan={7}
              waiting={isPastEnd(page)}
              isEmpty={() => page.total === 0}
              empty={filtered ? 'No sales match these filters.' : 'No sales yet.'}
            >
              {() =>
                page.rows.map((sale) => (
                  <SaleRow key={sale._id} sale={sale} href={salePath(me.role, sale._id)} />
                ))
              }
            </LoadState>
          )}
        </tbody>
      </Table>
      <Pager page={page} label="Sales" onPage={paging.setPage} />
    </>
  );
}
