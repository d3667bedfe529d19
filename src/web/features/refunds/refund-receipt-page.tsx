import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { saleNumberLabel } from '../../../shared/sales';
import type { StoreSettings } from '../../../shared/store';
import { PAYMENT_LABEL, type Refund, refundNumberLabel, sessionNumberLabel } from '../../../shared/till';
import { buttonClass } from '../../components/button';
import { JournalLink } from '../../components/journal-link';
import { LoadState } from '../../components/load-state';
import { refundsPath, salePath } from '../../lib/area-paths';
import { formatDateTime, formatMoney } from '../../lib/format';
import { useSignedInUser } from '../../lib/signed-in';
import { useStoreSettings } from '../../lib/store-settings';
import { useDocumentTitle } from '../../lib/use-document-title';
import { refundQuery } from './refunds-api';

const CELL = 'py-1.5 align-top';

/**
 * A refund's receipt (R-000123), handed to the customer with the money. It prints like a sale's
 * receipt: only the receipt, on the narrow `receipt` page type (styles.css), at most 80 mm wide;
 * the buttons and links around it are hidden on paper. Just after the refund the focus is on its
 * heading, so a screen reader says it was made.
 */
export function RefundReceiptPage() {
  const { id = '' } = useParams();
  const me = useSignedInUser();
  const answer = useQuery(refundQuery(id));
  const refund = answer.data?.refund;
  useDocumentTitle(refund ? `Refund ${refundNumberLabel(refund.number)}` : 'Refund');

  return (
    <>
      <div className="mb-6 flex flex-wrap gap-2 print:hidden">
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => window.print()}
          disabled={!refund}
        >
          Print
        </button>
        {refund ? (
          <Link to={salePath(me.role, refund.sale._id)} className={buttonClass('secondary')}>
            Back to sale {saleNumberLabel(refund.sale.number)}
          </Link>
        ) : null}
        <Link to={refundsPath(me.role)} className={buttonClass('secondary')}>
          New refund
        </Link>
        {refund ? <JournalLink source="refund" sourceId={refund._id} /> : null}
      </div>
      <LoadState
        query={answer}
        what="the refund"
        loading="Loading the refund..."
        missing="This refund does not exist, or it is not one you may see."
      >
        {({ refund: shown }) => <RefundReceipt refund={shown} />}
      </LoadState>
    </>
  );
}

/**
 * The refund as the customer keeps it: the store, the refund's number and time, the sale it
 * refunds, each line and what it gave back, the total and its tax, how the money went back,
 * whether the units went back on the shelf or were written off, and who made it.
 */
export function RefundReceipt({ refund }: { refund: Refund }) {
  const settings = useStoreSettings().data?.store;
  const location = useLocation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const justRefunded = (location.state as { justRefunded?: boolean } | null)?.justRefunded === true;
  useEffect(() => {
    if (justRefunded) headingRef.current?.focus();
  }, [justRefunded]);

  const store: Pick<StoreSettings, 'name' | 'address' | 'phone' | 'taxNumber' | 'currency'> = settings ?? {
    name: '',
    address: '',
    phone: '',
    taxNumber: '',
    currency: 'USD',
  };
  const number = refundNumberLabel(refund.number);
  const money = (value: number) => formatMoney(value, store.currency);
  const quiet = 'text-slate-600 print:text-slate-900';
  return (
    <article
      aria-labelledby="refund-title"
      className="mx-auto w-full max-w-sm bg-white p-5 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-slate-200 print:mx-0 print:w-full print:max-w-[80mm] print:p-0 print:text-[11px] print:shadow-none print:ring-0 print:[page:receipt]"
    >
      <header className="border-b border-dashed border-slate-400 pb-3 text-center">
        {store.name ? <p className="font-sans text-lg font-bold break-words">{store.name}</p> : null}
        {store.address ? <p className={`break-words whitespace-pre-line ${quiet}`}>{store.address}</p> : null}
        {store.phone ? <p className={quiet}>Tel. {store.phone}</p> : null}
        {store.taxNumber ? <p className={`break-words ${quiet}`}>Tax no. {store.taxNumber}</p> : null}
        <h1
          id="refund-title"
          ref={headingRef}
          tabIndex={-1}
          className="mt-2 font-sans text-base font-semibold focus:outline-none"
        >
          Refund {number}
        </h1>
        <p className={`mt-1 ${quiet}`}>
          <time dateTime={refund.createdAt}>{formatDateTime(refund.createdAt)}</time>
        </p>
      </header>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 border-b border-dashed border-slate-400 py-3">
        <dt className={quiet}>Sale</dt>
        <dd className="text-right">{saleNumberLabel(refund.sale.number)}</dd>
        <dt className={quiet}>Served by</dt>
        <dd className="text-right break-words">{refund.user.name}</dd>
        <dt className={quiet}>Customer</dt>
        <dd className="text-right break-words">{refund.customer?.name ?? '—'}</dd>
        {refund.session ? (
          <>
            <dt className={quiet}>Till session</dt>
            <dd className="text-right">{sessionNumberLabel(refund.session.number)}</dd>
          </>
        ) : null}
      </dl>
      <table className="w-full border-collapse text-left">
        <caption className="sr-only">Lines of refund {number}</caption>
        <thead>
          <tr className="border-b border-dashed border-slate-400 text-xs text-slate-600 print:text-[10px] print:text-slate-900">
            <th scope="col" className="py-1.5 font-semibold">
              Item
            </th>
            <th scope="col" className="py-1.5 text-right font-semibold">
              Qty
            </th>
            <th scope="col" className="py-1.5 pl-3 text-right font-semibold">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {refund.lines.map((line) => (
            <tr key={line.order._id} className="break-inside-avoid">
              <td className={`${CELL} pr-2 break-words`}>{line.product.name}</td>
              <td className={`${CELL} text-right tabular-nums`}>{line.quantity}</td>
              <td className={`${CELL} pl-3 text-right tabular-nums`}>{money(line.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl
        aria-label={`Totals of refund ${number}`}
        className="mt-1 grid grid-cols-[1fr_auto] gap-x-3 gap-y-0.5 border-t border-dashed border-slate-400 pt-3"
      >
        <dt className="font-sans text-base font-bold">Total refunded</dt>
        <dd className="text-right font-sans text-base font-bold tabular-nums">{money(refund.total)}</dd>
        <dt>Of which tax</dt>
        <dd className="text-right tabular-nums">{money(refund.tax)}</dd>
        <dt>Refunded by</dt>
        <dd className="text-right">{PAYMENT_LABEL[refund.method]}</dd>
        <dt>Units</dt>
        <dd className="text-right">{refund.restock ? 'Back on the shelf' : 'Written off (damaged)'}</dd>
        {refund.reason ? (
          <>
            <dt>Reason</dt>
            <dd className="text-right break-words">{refund.reason}</dd>
          </>
        ) : null}
      </dl>
      <p className={`mt-4 border-t border-dashed border-slate-400 pt-3 text-center ${quiet}`}>
        Keep this receipt with receipt {saleNumberLabel(refund.sale.number)}.
      </p>
    </article>
  );
}
