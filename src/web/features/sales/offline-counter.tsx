import { useEffect, useId, useState } from 'react';
import type { Sale } from '../../../shared/sales';
import { buttonClass } from '../../components/button';
import { formatDateTime, formatMoney, salesCount } from '../../lib/format';
import type { Outbox } from '../offline/outbox';
import { type QueuedSale, refused, waiting } from '../offline/queue';
import { Receipt } from './receipt-page';

/**
 * The counter's word on the network (DESIGN §21): offline, "Offline — N sales kept on this
 * device" and that selling goes on (or why it stopped); back online, the sales being sent, or
 * waiting for their seller to sign in again. Nothing while online with nothing kept.
 */
export function OfflineState({
  offline,
  outbox,
  stopped,
  kitKeptAt,
}: {
  offline: boolean;
  outbox: Outbox;
  stopped: string | null;
  /** When the products and prices sold from offline were read (null: none kept on this device). */
  kitKeptAt: string | null;
}) {
  const kept = outbox.waiting ?? 0;
  if (offline) {
    return (
      <section
        aria-label="Offline"
        role="status"
        className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
      >
        <p className="font-semibold">Offline — {salesCount(kept)} kept on this device</p>
        {stopped ? (
          <p className="mt-1 font-medium text-red-800">{stopped}</p>
        ) : kitKeptAt ? (
          <p className="mt-1">
            The server cannot be reached. Sales are kept here and sent once it answers, each exactly once.
            Products, prices and stock as read at{' '}
            <time dateTime={kitKeptAt}>{formatDateTime(kitKeptAt)}</time>. Not while offline: refunds, new
            customers, store credit, discounts that need approval.
          </p>
        ) : (
          <p className="mt-1 font-medium text-red-800">
            Nothing was kept on this device to sell from: the counter must be opened once while online.
          </p>
        )}
      </section>
    );
  }
  if (kept === 0) return null;
  const signedOut = outbox.last?.stopped === 'signedOut';
  return (
    <section
      aria-label="Offline sales"
      role="status"
      className="mb-4 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-950"
    >
      <p className="font-semibold">
        {signedOut
          ? `${salesCount(kept)} kept on this device wait for their seller to sign in again.`
          : outbox.sending
            ? `Sending ${salesCount(kept)} kept on this device...`
            : `${salesCount(kept)} kept on this device, to be sent.`}
      </p>
    </section>
  );
}

/**
 * The sale just kept offline: its device number, total and change, and its receipt to print
 * (the receipt screen's, numbered by the device).
 */
export function OfflineReceipt({ receipt }: { receipt: Sale }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const number = receipt.offline?.deviceNumber ?? '';
  const { currency } = receipt.store;
  return (
    <div className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <p>
          <span className="font-semibold">Sale {number} kept on this device</span>:{' '}
          {formatMoney(receipt.total, currency)}
          {receipt.change !== null ? (
            <>
              , change{' '}
              <span className="font-semibold tabular-nums">{formatMoney(receipt.change, currency)}</span>
            </>
          ) : null}
          .
        </p>
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((now) => !now)}
        >
          {open ? 'Hide receipt' : `Receipt ${number}`}
        </button>
      </div>
      {open ? (
        <div id={id} className="mt-3 space-y-3">
          <button
            type="button"
            className={buttonClass('primary', 'sm', 'print:hidden')}
            onClick={() => window.print()}
          >
            Print
          </button>
          <Receipt sale={receipt} />
        </div>
      ) : null}
    </div>
  );
}

/** A kept sale's total as the device computed it. */
function totalOf(sale: QueuedSale, currency: string): string {
  return sale.body.total === undefined ? '—' : formatMoney(sale.body.total, currency);
}

/**
 * The sales kept on this device (DESIGN §21): those waiting to be sent, in the order they were
 * made, and those the server refused (kept here with why, for an admin). Read again whenever the
 * outbox's counts move; shown only when there is something.
 */
export function OfflineQueue({
  sellerId,
  outbox,
  currency,
}: {
  sellerId: string;
  outbox: Outbox;
  currency: string;
}) {
  const [sales, setSales] = useState<{ waiting: QueuedSale[]; refused: QueuedSale[] } | null>(null);
  const [failed, setFailed] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the counts are the signal to read again
  useEffect(() => {
    let current = true;
    Promise.all([waiting(sellerId), refused(sellerId)])
      .then(([waitingNow, refusedNow]) => {
        if (!current) return;
        setSales({ waiting: waitingNow, refused: refusedNow });
        setFailed(false);
      })
      .catch(() => {
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [sellerId, outbox.waiting, outbox.refused]);

  if (failed)
    return (
      <p role="alert" className="mt-6 text-sm text-red-700">
        The sales kept on this device could not be read. Reload the page; they are not lost.
      </p>
    );
  const rows = sales ? [...sales.waiting, ...sales.refused] : [];
  if (rows.length === 0) return null;
  return (
    <section
      aria-labelledby="kept-sales"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="kept-sales" className="text-sm font-semibold text-slate-900">
        Sales kept on this device ({rows.length})
      </h2>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-xs text-slate-600">
              <th scope="col" className="py-2 pr-3 font-semibold">
                Receipt
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Made
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">
                Total
              </th>
              <th scope="col" className="py-2 font-semibold">
                State
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((sale) => (
              <tr key={sale.id} className="border-b border-slate-100 align-top last:border-0">
                <td className="py-2 pr-3 font-mono break-all">{sale.body.offline.deviceNumber}</td>
                <td className="py-2 pr-3">
                  <time dateTime={sale.madeAt}>{formatDateTime(sale.madeAt)}</time>
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">{totalOf(sale, currency)}</td>
                <td className="py-2">
                  {sale.state === 'waiting' ? (
                    <span className="text-slate-700">Waiting to be sent</span>
                  ) : (
                    <span className="text-red-800">
                      Refused by the server: {sale.refusal?.message ?? 'no reason given.'} Kept here for an
                      admin.
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
