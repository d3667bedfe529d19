import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link, useParams } from 'react-router';
import { can } from '../../../shared/roles';
import { type Sale, saleNumberLabel } from '../../../shared/sales';
import { taxRateLabel } from '../../../shared/store';
import {
  PAYMENT_LABEL,
  refundNumberLabel,
  SALE_METHOD_LABEL,
  sessionNumberLabel,
} from '../../../shared/till';
import { buttonClass } from '../../components/button';
import { JournalLink } from '../../components/journal-link';
import { LoadState } from '../../components/load-state';
import { lotsLabel } from '../../components/lot-expiry';
import { type Returnable, ReturnDialog } from '../../components/return-dialog';
import { Table, Td, Th } from '../../components/table';
import { refundsPath } from '../../lib/area-paths';
import { formatDateTime, formatMoney } from '../../lib/format';
import { homePathFor } from '../../lib/role-home';
import { useSignedInUser } from '../../lib/signed-in';
import { useDocumentTitle } from '../../lib/use-document-title';
import { saleQuery } from './sales-api';

const CELL = 'py-1.5 align-top';

/**
 * A sale's receipt, for the seller and admins. It prints as a narrow till receipt: the print
 * stylesheet (styles.css) drops the sidebar and gives the receipt its own page type with small
 * margins, the buttons here are hidden on paper, and the receipt is 80 mm wide at most.
 */
export function ReceiptPage() {
  const { id = '' } = useParams();
  const user = useSignedInUser();
  const answer = useQuery(saleQuery(id));
  const sale = answer.data?.sale;
  useDocumentTitle(sale ? `Receipt ${saleNumberLabel(sale.number)}` : 'Receipt');

  return (
    <>
      <div className="mb-6 flex flex-wrap gap-2 print:hidden">
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => window.print()}
          disabled={!sale}
        >
          Print
        </button>
        {can(user.role, 'sales:create') ? (
          <Link to={`${homePathFor(user.role)}/sales/new`} className={buttonClass('secondary')}>
            New sale
          </Link>
        ) : null}
        {sale && can(user.role, 'till:use') ? (
          <Link to={refundsPath(user.role, sale.number)} className={buttonClass('secondary')}>
            Refund
          </Link>
        ) : null}
        {sale ? <JournalLink source="sale" sourceId={sale._id} /> : null}
      </div>
      <LoadState
        query={answer}
        what="the receipt"
        loading="Loading the receipt..."
        missing="This receipt does not exist, or it is not one of your sales."
      >
        {({ sale: shown }) => (
          <>
            <Receipt sale={shown} />
            {can(user.role, 'orders:return') ? <LineReturns sale={shown} /> : null}
          </>
        )}
      </LoadState>
    </>
  );
}

/**
 * The receipt as a store hands it over (DESIGN §12): the store's details as they were at the sale,
 * each line with its discount, the subtotal, the discounts, the tax of each rate and the total, the
 * payment and the change. Every amount is the server's (the shared computation's), in the store's
 * currency. A receipt from before discounts and taxes (none of either) shows no subtotal.
 */
export function Receipt({ sale }: { sale: Sale }) {
  // DESIGN §21: a sale kept on the device has no S- number yet; its device number stands for it.
  const number = sale.number > 0 ? saleNumberLabel(sale.number) : (sale.offline?.deviceNumber ?? '');
  const { store } = sale;
  const money = (value: number) => formatMoney(value, store.currency);
  const detailed = sale.discount > 0 || sale.taxes.length > 0;
  const givenBack = sale.lines.reduce((sum, line) => sum + Math.round(line.returnedTotal * 100), 0) / 100;
  const quiet = 'text-slate-600 print:text-slate-900';
  return (
    <article
      aria-labelledby="receipt-title"
      className="mx-auto w-full max-w-sm bg-white p-5 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-slate-200 print:mx-0 print:w-full print:max-w-[80mm] print:p-0 print:text-[11px] print:shadow-none print:ring-0 print:[page:receipt]"
    >
      <header className="border-b border-dashed border-slate-400 pb-3 text-center">
        <p className="font-sans text-lg font-bold break-words">{store.name}</p>
        {store.address ? <p className={`break-words whitespace-pre-line ${quiet}`}>{store.address}</p> : null}
        {store.phone ? <p className={quiet}>Tel. {store.phone}</p> : null}
        {store.taxNumber ? <p className={`break-words ${quiet}`}>Tax no. {store.taxNumber}</p> : null}
        <h1 id="receipt-title" className="mt-2 font-sans text-base font-semibold">
          Receipt {number}
        </h1>
        <p className={`mt-1 ${quiet}`}>
          <time dateTime={sale.createdAt}>{formatDateTime(sale.createdAt)}</time>
        </p>
      </header>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 border-b border-dashed border-slate-400 py-3">
        <dt className={quiet}>Seller</dt>
        <dd className="text-right break-words">{sale.seller.name}</dd>
        <dt className={quiet}>Customer</dt>
        <dd className="text-right break-words">{sale.customer?.name ?? '—'}</dd>
        {sale.session ? (
          <>
            <dt className={quiet}>Till session</dt>
            <dd className="text-right">{sessionNumberLabel(sale.session.number)}</dd>
          </>
        ) : null}
        {sale.offline ? (
          <>
            {/* DESIGN §21: sold offline; the number the device printed stays beside the S- number. */}
            <dt className={quiet}>Sold offline</dt>
            <dd className="text-right break-all">{sale.offline.deviceNumber}</dd>
            <dt className={quiet}>Sent</dt>
            <dd className="text-right">
              {sale.offline.recordedAt ? (
                <time dateTime={sale.offline.recordedAt}>{formatDateTime(sale.offline.recordedAt)}</time>
              ) : (
                'Not yet: kept on this device'
              )}
            </dd>
          </>
        ) : null}
      </dl>
      <table className="w-full border-collapse text-left">
        <caption className="sr-only">Lines of receipt {number}</caption>
        <thead>
          <tr className="border-b border-dashed border-slate-400 text-xs text-slate-600 print:text-[10px] print:text-slate-900">
            <th scope="col" className="py-1.5 font-semibold">
              Item
            </th>
            <th scope="col" className="py-1.5 text-right font-semibold whitespace-nowrap">
              Qty × price
            </th>
            <th scope="col" className="py-1.5 pl-3 text-right font-semibold">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {sale.lines.map((line) => (
            <tr key={line.order._id} className="break-inside-avoid">
              <td className={`${CELL} pr-2 break-words`}>
                {line.product.name}
                {line.lots && line.lots.length > 0 ? (
                  <span className={`block text-xs print:text-[10px] ${quiet}`}>{lotsLabel(line.lots)}</span>
                ) : null}
                {line.discount > 0 ? (
                  <span className={`block text-xs print:text-[10px] ${quiet}`}>
                    Discount −{money(line.discount)}
                  </span>
                ) : null}
                {line.returnedQuantity > 0 ? (
                  <span className={`block text-xs print:text-[10px] ${quiet}`}>
                    {line.returnedQuantity} returned
                  </span>
                ) : null}
              </td>
              <td className={`${CELL} text-right whitespace-nowrap tabular-nums`}>
                {line.quantity} × {money(line.unitPrice)}
              </td>
              <td className={`${CELL} pl-3 text-right tabular-nums`}>{money(line.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl
        aria-label={`Totals of receipt ${number}`}
        className="mt-1 grid grid-cols-[1fr_auto] gap-x-3 gap-y-0.5 border-t border-dashed border-slate-400 pt-3"
      >
        {detailed ? (
          <>
            <dt>Subtotal</dt>
            <dd className="text-right tabular-nums">{money(sale.subtotal)}</dd>
          </>
        ) : null}
        {sale.discount > 0 ? (
          <>
            <dt>Discounts</dt>
            <dd className="text-right tabular-nums">−{money(sale.discount)}</dd>
          </>
        ) : null}
        {sale.taxes.map((tax) => (
          <Fragment key={`${tax.name} ${tax.rate}`}>
            <dt>
              {store.pricesIncludeTax ? 'Incl. ' : ''}
              {taxRateLabel(tax)} on {money(tax.base)}
            </dt>
            <dd className="text-right tabular-nums">{money(tax.tax)}</dd>
          </Fragment>
        ))}
        <dt className="font-sans text-base font-bold">Total</dt>
        <dd className="text-right font-sans text-base font-bold tabular-nums">{money(sale.total)}</dd>
        <Payments sale={sale} />
        {givenBack > 0 ? (
          <>
            <dt>Given back</dt>
            <dd className="text-right tabular-nums">{money(givenBack)}</dd>
          </>
        ) : null}
      </dl>
      <Refunds sale={sale} />
      <p
        className={`mt-4 border-t border-dashed border-slate-400 pt-3 text-center break-words whitespace-pre-line ${quiet}`}
      >
        {store.receiptFooter || 'Thank you for your purchase!'}
      </p>
    </article>
  );
}

/**
 * How the sale was paid (DESIGN §13): one payment says its method (cash with what was tendered and
 * the change); several say Split, then each payment's method and what it put towards the total,
 * cash with what was handed over, and the change once. A sale from before split payments has none
 * listed: its single payment says it all.
 */
function Payments({ sale }: { sale: Sale }) {
  const money = (value: number) => formatMoney(value, sale.store.currency);
  const { payments } = sale;
  const change =
    sale.change !== null ? (
      <>
        <dt>Change</dt>
        <dd className="text-right tabular-nums">{money(sale.change)}</dd>
      </>
    ) : null;
  if (payments.length <= 1) {
    const tendered = payments[0]?.tendered ?? sale.payment.tendered;
    return (
      <>
        <dt>Payment</dt>
        <dd className="text-right">{SALE_METHOD_LABEL[sale.payment.method]}</dd>
        {sale.payment.method === 'cash' ? (
          <>
            <dt>Tendered</dt>
            <dd className="text-right tabular-nums">{money(tendered ?? sale.total)}</dd>
            <dt>Change</dt>
            <dd className="text-right tabular-nums">{money(sale.change ?? 0)}</dd>
          </>
        ) : null}
      </>
    );
  }
  return (
    <>
      <dt>Payment</dt>
      <dd className="text-right">{SALE_METHOD_LABEL.split}</dd>
      {payments.map((payment, at) => (
        // Payments have no id of their own: their order is the receipt's.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={at}>
          <dt className="pl-3">{PAYMENT_LABEL[payment.method]}</dt>
          <dd className="text-right tabular-nums">{money(payment.amount)}</dd>
          {payment.tendered !== null ? (
            <>
              <dt className="pl-6">Tendered</dt>
              <dd className="text-right tabular-nums">{money(payment.tendered)}</dd>
            </>
          ) : null}
        </Fragment>
      ))}
      {change}
    </>
  );
}

/**
 * The refunds made at the counter against this sale, oldest first: number, date, method and the
 * money given back. Printed with the receipt, so a reprint shows what came back.
 */
function Refunds({ sale }: { sale: Sale }) {
  if (sale.refunds.length === 0) return null;
  const money = (value: number) => formatMoney(value, sale.store.currency);
  return (
    <section aria-labelledby="receipt-refunds" className="mt-3 border-t border-dashed border-slate-400 pt-3">
      <h2 id="receipt-refunds" className="font-sans font-semibold">
        Refunds
      </h2>
      <ul className="mt-1 space-y-1">
        {sale.refunds.map((refund) => (
          <li key={refund._id} className="grid grid-cols-[1fr_auto] gap-x-3 break-inside-avoid">
            <span>{refundNumberLabel(refund.number)}</span>
            <span className="text-right tabular-nums">−{money(refund.total)}</span>
            <span className="text-xs text-slate-600 print:text-[10px] print:text-slate-900">
              <time dateTime={refund.createdAt}>{formatDateTime(refund.createdAt)}</time>
            </span>
            <span className="text-right text-xs text-slate-600 print:text-[10px] print:text-slate-900">
              {PAYMENT_LABEL[refund.method]}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** On phones a line is a small card: the item and its Return, then sold, returned and left. */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:px-3 max-sm:py-3';
const STACKED_FIGURE = 'max-sm:col-start-1 max-sm:p-0 max-sm:text-left max-sm:text-xs max-sm:text-slate-600';

/**
 * Admins take back a line of the sale here (DESIGN §8's return, the Orders list's dialog): each
 * line says what was sold, what came back and what is left to return. Not on the printed receipt.
 */
function LineReturns({ sale }: { sale: Sale }) {
  const [returning, setReturning] = useState<Returnable | null>(null);
  const number = saleNumberLabel(sale.number);
  return (
    <section aria-labelledby="line-returns" className="mx-auto mt-8 w-full max-w-3xl print:hidden">
      <h2 id="line-returns" className="mb-3 text-lg font-semibold text-slate-900">
        Returns
      </h2>
      <Table caption={`Returns of receipt ${number}`}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Item</Th>
            <Th className="text-right">Sold</Th>
            <Th className="text-right">Returned</Th>
            <Th className="text-right">Left to return</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {sale.lines.map((line) => {
            const left = line.quantity - line.returnedQuantity;
            return (
              <tr key={line.order._id} className={STACKED_ROW}>
                <Td className="break-words max-sm:p-0 max-sm:font-medium">{line.product.name}</Td>
                <Td className={`text-right tabular-nums ${STACKED_FIGURE}`}>
                  <span className="sm:hidden">Sold </span>
                  {line.quantity}
                </Td>
                <Td className={`text-right tabular-nums ${STACKED_FIGURE}`}>
                  <span className="sm:hidden">Returned </span>
                  {line.returnedQuantity}
                </Td>
                <Td className={`text-right tabular-nums ${STACKED_FIGURE}`}>
                  <span className="sm:hidden">Left to return </span>
                  {left}
                </Td>
                <Td className="text-right max-sm:col-start-2 max-sm:row-span-4 max-sm:row-start-1 max-sm:p-0">
                  {left > 0 ? (
                    <button
                      type="button"
                      className={buttonClass('secondary', 'sm')}
                      aria-label={`Return ${line.product.name}`}
                      onClick={() =>
                        setReturning({
                          _id: line.order._id,
                          product: { name: line.product.name },
                          quantity: line.quantity,
                          returnedQuantity: line.returnedQuantity,
                          user: { name: sale.seller.name },
                        })
                      }
                    >
                      Return
                    </button>
                  ) : (
                    <span className="text-sm text-slate-500">All returned</span>
                  )}
                </Td>
              </tr>
            );
          })}
        </tbody>
      </Table>
      {returning ? <ReturnDialog order={returning} onClose={() => setReturning(null)} /> : null}
    </section>
  );
}
