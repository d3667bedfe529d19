import { useState } from 'react';
import { Link } from 'react-router';
import { linesTotal, type PurchaseOrder } from '../../../shared/purchasing';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormError } from '../../components/form-field';
import { Table, Td, Th } from '../../components/table';
import { newBillPath, stockPath } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { useMoney } from '../../lib/store-settings';
import { openQuantity, StatusBadge } from './purchase-order-status';
import { useChangeStatus, useKeys } from './purchasing-api';
import { ReceiveDialog } from './receive-dialog';

/** Status, the dates that matter and (once it is fixed) the supplier, above the lines. */
export function OrderFacts({
  order,
  withSupplier = false,
}: {
  order: PurchaseOrder;
  withSupplier?: boolean;
}) {
  const dates: [string, string | null][] = [
    ['Created', order.createdAt],
    ['Ordered', order.orderedAt],
    ['Received', order.receivedAt],
  ];
  return (
    <dl className="mb-6 grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 sm:grid-cols-4 lg:grid-cols-5">
      <div>
        <dt className="text-slate-500">Status</dt>
        <dd className="mt-0.5">
          <StatusBadge status={order.status} />
        </dd>
      </div>
      {withSupplier ? (
        <>
          <div>
            <dt className="text-slate-500">Supplier</dt>
            <dd className="mt-0.5 font-medium">{order.supplier.name}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Delivered to</dt>
            <dd className="mt-0.5 font-medium">{order.location.name}</dd>
          </div>
        </>
      ) : null}
      {dates.map(([label, at]) =>
        at ? (
          <div key={label}>
            <dt className="text-slate-500">{label}</dt>
            <dd className="mt-0.5">
              <time dateTime={at}>{formatDateTime(at)}</time>
            </dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}

const STACKED_ROW = 'max-sm:grid max-sm:grid-cols-4 max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';

/**
 * The lines of an order that is no longer a draft: what was ordered, received, billed (DESIGN §20:
 * on posted bills) and is still open.
 */
export function ReceivedLines({ order }: { order: PurchaseOrder }) {
  const money = useMoney();
  return (
    <Table caption={`Lines of ${order.number}`}>
      <thead className="max-sm:sr-only">
        <tr>
          <Th>Product</Th>
          <Th className="text-right">Ordered</Th>
          <Th className="text-right">Received</Th>
          <Th className="text-right">Billed</Th>
          <Th className="text-right">Open</Th>
          <Th className="text-right">Unit cost</Th>
          <Th className="text-right">Line total</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {order.lines.map((line) => (
          <tr key={line._id} className={STACKED_ROW}>
            <Td className={`font-medium max-sm:col-span-4 ${STACKED_CELL}`}>
              <Link to={stockPath(line.product._id)} className="hover:underline">
                {line.product.name}
              </Link>
            </Td>
            {(
              [
                ['Ordered', line.quantity],
                ['Received', line.received],
                ['Billed', line.billed],
                ['Open', openQuantity(line)],
              ] as const
            ).map(([label, value]) => (
              <Td key={label} className={`text-right tabular-nums max-sm:text-left ${STACKED_CELL}`}>
                <span className="text-xs text-slate-500 sm:hidden">{label} </span>
                {value}
              </Td>
            ))}
            <Td className={`text-right tabular-nums max-sm:col-span-3 max-sm:text-left ${STACKED_CELL}`}>
              <span className="text-xs text-slate-500 sm:hidden">Unit cost </span>
              {money(line.unitCost)}
            </Td>
            <Td className={`whitespace-nowrap text-right font-medium tabular-nums ${STACKED_CELL}`}>
              {money(linesTotal([line]))}
            </Td>
          </tr>
        ))}
      </tbody>
      <tfoot className="border-t border-slate-200 bg-slate-50">
        <tr className="max-sm:flex max-sm:justify-between max-sm:px-3 max-sm:py-3">
          <th
            scope="row"
            colSpan={6}
            className="px-3 py-3 text-left font-semibold sm:px-4 sm:text-right max-sm:p-0"
          >
            Total
          </th>
          <td className="whitespace-nowrap px-3 py-3 text-right font-semibold tabular-nums sm:px-4 max-sm:p-0">
            {money(order.total)}
          </td>
        </tr>
      </tfoot>
    </Table>
  );
}

/**
 * An order past its draft: read only, with Receive and Cancel while goods are expected, and
 * Close instead of Cancel once some arrived (the rest is then no longer expected).
 */
export function PurchaseOrderView({ order }: { order: PurchaseOrder }) {
  const keys = useKeys();
  const cancel = useChangeStatus('cancel');
  const [receiving, setReceiving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const receivable = order.status === 'ordered' || order.status === 'partially_received';
  const closing = order.status === 'partially_received';
  const stillOpen = order.lines.reduce((sum, line) => sum + openQuantity(line), 0);
  // DESIGN §20: what was received and is on no posted bill yet can be billed from here.
  const billable = order.lines.some((line) => line.received > line.billed);

  function stop() {
    const key = keys.keyFor({ cancel: order._id });
    cancel.mutate(
      { id: order._id, key },
      {
        onSuccess: (answer) => {
          keys.settled();
          notify.success(
            `${answer.purchaseOrder.number} is ${answer.purchaseOrder.status === 'closed' ? 'closed' : 'cancelled'}.`,
          );
        },
        onError: (error) => keys.settled(error),
        onSettled: () => setConfirming(false),
      },
    );
  }

  return (
    <>
      <OrderFacts order={order} withSupplier />
      {order.note ? (
        <p className="mb-4 text-sm break-words whitespace-pre-line">
          <span className="text-slate-500">Note: </span>
          {order.note}
        </p>
      ) : null}
      <ReceivedLines order={order} />
      <FormError>{cancel.error ? errorMessage(cancel.error) : null}</FormError>
      {receivable || billable ? (
        <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          {receivable ? (
            <>
              <button
                type="button"
                className={buttonClass('secondary')}
                onClick={() => setConfirming(true)}
                disabled={cancel.isPending}
              >
                {closing ? 'Close purchase order' : 'Cancel purchase order'}
              </button>
              <button
                type="button"
                className={buttonClass('primary')}
                onClick={() => setReceiving(true)}
                disabled={cancel.isPending}
              >
                Receive
              </button>
            </>
          ) : null}
          {billable ? (
            <Link to={newBillPath(order._id)} className={buttonClass(receivable ? 'secondary' : 'primary')}>
              Bill this
            </Link>
          ) : null}
        </div>
      ) : null}
      {receiving ? <ReceiveDialog order={order} onClose={() => setReceiving(false)} /> : null}
      {confirming ? (
        <ConfirmDialog
          title={closing ? `Close ${order.number}?` : `Cancel ${order.number}?`}
          message={
            closing
              ? `What was received stays in stock. The rest (${stillOpen} ${stillOpen === 1 ? 'unit' : 'units'}) will no longer be expected from ${order.supplier.name}.`
              : `Nothing will be expected from ${order.supplier.name} for this order. It stays in the list as cancelled.`
          }
          confirmLabel={closing ? 'Close purchase order' : 'Cancel purchase order'}
          busyLabel={closing ? 'Closing...' : 'Cancelling...'}
          cancelLabel="Keep it open"
          busy={cancel.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={stop}
        />
      ) : null}
    </>
  );
}
