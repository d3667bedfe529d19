import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { TraceMovement, TraceResponse } from '../../../shared/lots';
import { saleNumberLabel } from '../../../shared/sales';
import { MOVEMENT_KIND_LABEL, MOVEMENT_KINDS, type MovementKind } from '../../../shared/stock';
import { buttonClass } from '../../components/button';
import { LoadState } from '../../components/load-state';
import { Expiry } from '../../components/lot-expiry';
import { Table, Td, Th } from '../../components/table';
import { EXPIRING_PATH, purchaseOrderPath, stockPath } from '../../lib/admin-paths';
import { customerPath, salePath } from '../../lib/area-paths';
import { formatCount, formatDateTime } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { lotTraceQuery } from './lots-api';

const KIND_LABEL = MOVEMENT_KIND_LABEL;

const REASON_LABEL: Record<string, string> = {
  received: 'Received',
  damaged: 'Damaged',
  lost: 'Lost',
  found: 'Found',
  returned: 'Returned',
  correction: 'Correction',
  expired: 'Expired',
};

function kindLabel(kind: string): string {
  return (MOVEMENT_KINDS as readonly string[]).includes(kind) ? KIND_LABEL[kind as MovementKind] : kind;
}

/** "+3" or "−3": a signed change, as the stock page writes it. */
function signed(quantity: number): string {
  return quantity > 0 ? `+${formatCount(quantity)}` : quantity < 0 ? `−${formatCount(-quantity)}` : '0';
}

const LINK = 'text-indigo-700 hover:underline print:text-slate-900 print:no-underline';

type Lot = TraceResponse['lot'];

/** The lot's title, as a recall notice names it. */
const titleOf = (lot: Lot) => `Recall trace: ${lot.product.name}, lot ${lot.number}`;

/**
 * Admin: one lot and every movement of its units, oldest first (DESIGN §15): when, what, how many,
 * the receipt or order, the customer, the purchase order it came in on, and who recorded it, so a
 * recall reaches everyone who got a unit. It prints as the trace alone: the sidebar is dropped by
 * the print stylesheet (styles.css), the buttons here are hidden on paper, and the page turns to
 * landscape so every column fits.
 */
export function LotTracePage() {
  const { id = '' } = useParams();
  const answer = useQuery(lotTraceQuery(id));
  const lot = answer.data?.lot;
  useDocumentTitle(lot ? titleOf(lot) : 'Lot trace');

  return (
    <div className="print:[page:trace]">
      <div className="mb-6 flex flex-wrap gap-2 print:hidden">
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => window.print()}
          disabled={!lot}
        >
          Print
        </button>
        <Link to={EXPIRING_PATH} className={buttonClass('secondary')}>
          Expiring lots
        </Link>
      </div>
      <LoadState
        query={answer}
        what="the lot's trace"
        loading="Loading the lot's trace..."
        missing="Lot not found."
      >
        {(trace) => <Trace trace={trace} />}
      </LoadState>
    </div>
  );
}

function Trace({ trace }: { trace: TraceResponse }) {
  const { lot, movements, today } = trace;
  // Who may hold units of it: the customers named on its sales.
  const customers = new Set(
    movements.flatMap((movement) =>
      movement.kind === 'sale' && movement.customer
        ? [movement.customer._id ?? `name:${movement.customer.name}`]
        : [],
    ),
  );
  return (
    <article aria-labelledby="trace-title">
      <header className="mb-4">
        <h1 id="trace-title" className="text-xl font-bold text-slate-900 sm:text-2xl">
          {titleOf(lot)}
        </h1>
        <p className="mt-1 hidden text-sm print:block">Printed {formatDateTime(new Date().toISOString())}</p>
      </header>
      <dl className="mb-6 grid grid-cols-2 gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm sm:grid-cols-4 print:border-slate-400 print:shadow-none">
        <div className="min-w-0">
          <dt className="text-slate-600">Product</dt>
          <dd className="font-medium break-words">
            <Link to={stockPath(lot.product._id)} className={LINK}>
              {lot.product.name}
            </Link>
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-slate-600">Lot</dt>
          <dd className="font-mono font-medium break-all">{lot.number}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-slate-600">Expires</dt>
          <dd>
            <Expiry expiresOn={lot.expiresOn} today={today} />
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-slate-600">Units now</dt>
          <dd className="font-semibold tabular-nums">{formatCount(lot.quantity)}</dd>
        </div>
      </dl>
      <p className="mb-3 text-sm text-slate-600 print:text-slate-900">
        {movements.length === 1 ? '1 movement' : `${formatCount(movements.length)} movements`}, oldest first;{' '}
        {customers.size === 1 ? '1 customer named' : `${formatCount(customers.size)} customers named`} on its
        sales.
      </p>
      <Table caption={`Movements of lot ${lot.number} of ${lot.product.name}, oldest first`}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>When</Th>
            <Th>Kind</Th>
            <Th className="text-right">Quantity</Th>
            <Th>Receipt or order</Th>
            <Th>Customer</Th>
            <Th>Purchase order</Th>
            <Th>Who</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {movements.length === 0 ? (
            <tr>
              <td colSpan={7} className="px-4 py-8 text-center text-sm text-slate-500">
                This lot has no movements.
              </td>
            </tr>
          ) : (
            movements.map((movement) => <MovementRow key={movement._id} movement={movement} />)
          )}
        </tbody>
      </Table>
    </article>
  );
}

const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:px-3 max-sm:py-3 break-inside-avoid';
const STACKED_CELL = 'max-sm:p-0';

function MovementRow({ movement }: { movement: TraceMovement }) {
  const reason = movement.reason ? (REASON_LABEL[movement.reason] ?? movement.reason) : '';
  const tone = movement.quantity < 0 ? 'text-red-700' : movement.quantity > 0 ? 'text-emerald-700' : '';
  return (
    <tr className={`align-top ${STACKED_ROW}`}>
      <Td className={`tabular-nums max-sm:col-start-1 max-sm:row-start-2 max-sm:text-xs ${STACKED_CELL}`}>
        <time dateTime={movement.at} className="whitespace-nowrap text-slate-600 print:text-slate-900">
          {formatDateTime(movement.at)}
        </time>
      </Td>
      <Td className={`font-medium max-sm:col-start-1 max-sm:row-start-1 sm:font-normal ${STACKED_CELL}`}>
        {kindLabel(movement.kind)}
        {reason ? <span className="block text-xs text-slate-600">{reason}</span> : null}
        {movement.note ? (
          <span className="block text-xs break-words text-slate-600">{movement.note}</span>
        ) : null}
      </Td>
      <Td
        className={`text-right font-semibold tabular-nums max-sm:col-start-2 max-sm:row-start-1 ${STACKED_CELL}`}
      >
        <span className={`${tone} print:text-slate-900`}>{signed(movement.quantity)}</span>
      </Td>
      <Td className={`max-sm:col-start-1 max-sm:text-xs max-sm:empty:hidden ${STACKED_CELL}`}>
        <Source movement={movement} />
      </Td>
      <Td className={`break-words max-sm:col-start-1 max-sm:text-xs max-sm:empty:hidden ${STACKED_CELL}`}>
        {movement.customer ? (
          <>
            <span className="sm:hidden">Customer </span>
            {movement.customer._id ? (
              <Link to={customerPath('admin', movement.customer._id)} className={LINK}>
                {movement.customer.name}
              </Link>
            ) : (
              movement.customer.name
            )}
          </>
        ) : null}
      </Td>
      <Td className={`max-sm:col-start-1 max-sm:text-xs max-sm:empty:hidden ${STACKED_CELL}`}>
        {movement.purchaseOrder ? (
          <>
            <span className="sm:hidden">Purchase order </span>
            <Link to={purchaseOrderPath(movement.purchaseOrder._id)} className={`whitespace-nowrap ${LINK}`}>
              {movement.purchaseOrder.number}
            </Link>
          </>
        ) : null}
      </Td>
      <Td
        className={`max-sm:col-start-2 max-sm:row-start-2 max-sm:text-right max-sm:text-xs ${STACKED_CELL}`}
      >
        {movement.user.name}
      </Td>
    </tr>
  );
}

/** The sale's receipt (a link), or the order a movement belongs to. */
function Source({ movement }: { movement: TraceMovement }) {
  if (movement.sale)
    return (
      <Link to={salePath('admin', movement.sale._id)} className={`whitespace-nowrap ${LINK}`}>
        Receipt {saleNumberLabel(movement.sale.number)}
      </Link>
    );
  if (movement.order)
    return (
      <span title={`Order ${movement.order._id}`} className="whitespace-nowrap">
        Order <span className="font-mono text-xs">{movement.order._id.slice(0, 8)}</span>
      </span>
    );
  return null;
}
