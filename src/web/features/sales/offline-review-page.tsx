import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type ReactNode, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type ReviewItem, type ReviewQuery, saleNumberLabel } from '../../../shared/sales';
import { buttonClass } from '../../components/button';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { salePath } from '../../lib/area-paths';
import { formatDateTime } from '../../lib/format';
import { oneOf, pageIn, useListAddress } from '../../lib/list-address';
import { isPastEnd, PAGE_SIZE, serverPage } from '../../lib/paging';
import { useSignedInUser } from '../../lib/signed-in';
import { useMoney } from '../../lib/store-settings';
import { usePageInRange } from '../../lib/use-paged-list';
import { CloseReviewDialog } from './close-review-dialog';
import { REVIEW_REASON_LABEL } from './review-reasons';
import { reviewPageQuery } from './sales-api';

type Status = NonNullable<ReviewQuery['status']>;
const STATUSES: readonly Status[] = ['open', 'closed'];
const STATUS_LABEL: Record<Status, string> = { open: 'Open', closed: 'Reviewed' };
const CAPTION: Record<Status, string> = {
  open: 'Offline sales to review, newest sold first',
  closed: 'Reviewed offline sales, newest sold first',
};
const EMPTY: Record<Status, string> = {
  open: 'No offline sales to review.',
  closed: 'No reviewed offline sales yet.',
};
const COLUMNS = 8;

const tabId = (status: Status) => `offline-review-tab-${status}`;
const PANEL_ID = 'offline-review-panel';

/**
 * Open and Reviewed as tabs (the WAI-ARIA tabs pattern): one tab stop; the arrow keys, Home and
 * End move between them and show the one reached.
 */
function StatusTabs({
  current,
  onChange,
  children,
}: {
  current: Status;
  onChange: (status: Status) => void;
  children: ReactNode;
}) {
  const buttons = useRef(new Map<Status, HTMLButtonElement>());
  function move(event: KeyboardEvent) {
    const at = STATUSES.indexOf(current);
    const last = STATUSES.length - 1;
    const to = {
      ArrowRight: at === last ? 0 : at + 1,
      ArrowLeft: at === 0 ? last : at - 1,
      Home: 0,
      End: last,
    }[event.key];
    const status = to === undefined ? undefined : STATUSES[to];
    if (!status) return;
    event.preventDefault();
    onChange(status);
    buttons.current.get(status)?.focus();
  }
  return (
    <>
      <div
        role="tablist"
        aria-label="Offline sales"
        onKeyDown={move}
        className="mb-4 flex border-b border-slate-200"
      >
        {STATUSES.map((status) => {
          const selected = status === current;
          return (
            <button
              key={status}
              ref={(button) => {
                if (button) buttons.current.set(status, button);
                else buttons.current.delete(status);
              }}
              type="button"
              role="tab"
              id={tabId(status)}
              aria-selected={selected}
              aria-controls={PANEL_ID}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(status)}
              className={`-mb-px shrink-0 border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 sm:px-4 ${selected ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'}`}
            >
              {STATUS_LABEL[status]}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={PANEL_ID} aria-labelledby={tabId(current)}>
        {children}
      </div>
    </>
  );
}

/**
 * On phones a row is a small card: the receipt and the total, then the device number, the times
 * and the seller, then why and the review, each with its column's name; the cells stay cells.
 */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const CELL = 'max-sm:col-span-2 max-sm:p-0';
/** A column's name, said on phones where the head is not shown. */
const Named = ({ children }: { children: ReactNode }) => (
  <span className="text-xs text-slate-500 sm:hidden">{children} </span>
);

function ReviewRow({ item, onClose }: { item: ReviewItem; onClose: (item: ReviewItem) => void }) {
  const me = useSignedInUser();
  const money = useMoney();
  const label = saleNumberLabel(item.sale.number);
  return (
    <tr className={`align-top hover:bg-slate-50 ${STACKED_ROW}`}>
      <th
        scope="row"
        className="px-3 py-2.5 text-left font-medium whitespace-nowrap sm:px-4 sm:py-3 max-sm:col-start-1 max-sm:row-start-1 max-sm:p-0"
      >
        <Link to={salePath(me.role, item.sale._id)} className="text-indigo-700 hover:underline">
          {label}
        </Link>
      </th>
      <Td className={`break-all sm:min-w-40 ${CELL} max-sm:row-start-2`}>
        <Named>Device</Named>
        {item.deviceNumber}
      </Td>
      <Td className={`whitespace-nowrap text-slate-600 ${CELL} max-sm:row-start-3`}>
        <Named>Sold</Named>
        <time dateTime={item.soldAt}>{formatDateTime(item.soldAt)}</time>
      </Td>
      <Td className={`whitespace-nowrap text-slate-600 ${CELL} max-sm:row-start-4`}>
        <Named>Sent</Named>
        <time dateTime={item.recordedAt}>{formatDateTime(item.recordedAt)}</time>
      </Td>
      <Td className={`break-words ${CELL} max-sm:row-start-5`}>
        <Named>Seller</Named>
        {item.seller.name}
      </Td>
      <Td className="text-right font-medium whitespace-nowrap tabular-nums max-sm:col-start-2 max-sm:row-start-1 max-sm:p-0">
        {money(item.total)}
      </Td>
      <Td className={`${CELL} max-sm:row-start-6`}>
        <span className="text-xs text-slate-500 sm:hidden">Why</span>
        <ul className="space-y-0.5">
          {item.review.map((reason) => (
            <li key={reason}>{REVIEW_REASON_LABEL[reason]}</li>
          ))}
        </ul>
      </Td>
      <Td className={`${CELL} max-sm:row-start-7 max-sm:pt-1`}>
        {item.reviewedAt ? (
          <div className="max-w-sm space-y-1">
            <p className="break-words whitespace-pre-line">{item.note}</p>
            <p className="text-xs text-slate-600">
              {item.reviewedBy ? `Closed by ${item.reviewedBy.name}, ` : 'Closed '}
              <time dateTime={item.reviewedAt}>{formatDateTime(item.reviewedAt)}</time>
            </p>
          </div>
        ) : (
          <button
            type="button"
            className={buttonClass('secondary', 'sm', 'whitespace-nowrap max-sm:w-full')}
            aria-label={`Close review of ${label}`}
            onClick={() => onClose(item)}
          >
            Close review
          </button>
        )}
      </Td>
    </tr>
  );
}

/**
 * Admin: the sales a counter made offline that the server recorded all the same but marked for a
 * look (DESIGN §21): sold above the stock on record, at a price the product did not have, or after
 * its session closed. Open ones are closed with a note of what was done; Reviewed ones show it,
 * who and when. The tab and the page live in the address (?status=closed&page=2).
 */
export function OfflineReviewPage() {
  const { params, setFilter, setPage } = useListAddress<'status'>();
  const status = oneOf(STATUSES, params.get('status')) ?? 'open';
  const asked = { page: pageIn(params), pageSize: PAGE_SIZE };
  const list = useQuery(reviewPageQuery({ status, ...asked }));
  const page = serverPage(list.data && { ...list.data, rows: list.data.sales }, asked);
  usePageInRange(asked.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, setPage);
  const [closing, setClosing] = useState<ReviewItem | null>(null);

  return (
    <>
      <PageHeader title="Offline sales" />
      <p className="-mt-4 mb-4 max-w-3xl text-sm text-slate-600">
        Sales made while the counter was offline are recorded as they happened. These were recorded with
        something to look at; close each review with a note of what was done.
      </p>
      <StatusTabs current={status} onChange={(to) => setFilter('status', to === 'open' ? '' : to)}>
        <Table caption={CAPTION[status]} busy={list.isPlaceholderData}>
          <thead className="max-sm:sr-only">
            <tr>
              <Th>Receipt</Th>
              <Th>Device number</Th>
              <Th>Sold</Th>
              <Th>Sent</Th>
              <Th>Seller</Th>
              <Th className="text-right">Total</Th>
              <Th>Why</Th>
              <Th>Review</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            <LoadState
              query={list}
              what="the offline sales"
              loading="Loading offline sales..."
              colSpan={COLUMNS}
              waiting={isPastEnd(page)}
              isEmpty={() => page.total === 0}
              empty={EMPTY[status]}
            >
              {() =>
                page.rows.map((item) => <ReviewRow key={item.sale._id} item={item} onClose={setClosing} />)
              }
            </LoadState>
          </tbody>
        </Table>
        <Pager page={page} label="Offline sales" onPage={setPage} />
      </StatusTabs>
      {closing ? (
        <CloseReviewDialog
          item={closing}
          onClose={() => setClosing(null)}
          onDone={() => {
            setClosing(null);
            // The row leaves the open list; the focus waits on the tab rather than on nothing.
            setTimeout(() => document.getElementById(tabId(status))?.focus(), 0);
          }}
        />
      ) : null}
    </>
  );
}
