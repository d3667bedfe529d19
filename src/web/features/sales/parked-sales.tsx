import { useState } from 'react';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDateTime } from '../../lib/format';
import { itemCount } from './cart-rules';
import type { ParkedSale } from './counter-drafts';

/** What names a parked sale to the cashier: its customer (or none) and when it was parked. */
export function parkedName(sale: ParkedSale): string {
  return `${sale.draft.customer?.name ?? 'No customer'}, parked ${formatDateTime(sale.parkedAt)}`;
}

/**
 * The parked sales, newest first: when, for whom, how many items and their total as parked.
 * Resume brings one back to the counter; Discard asks first, since it drops a sale for good.
 */
export function ParkedSales({
  id,
  parked,
  disabled,
  onResume,
  onDiscard,
  totalOf,
}: {
  id: string;
  /** A parked sale's total as the counter prices it (with its discounts and tax), written out. */
  totalOf: (sale: ParkedSale) => string;
  parked: readonly ParkedSale[];
  disabled: boolean;
  onResume: (sale: ParkedSale) => void;
  onDiscard: (sale: ParkedSale) => void;
}) {
  const [confirming, setConfirming] = useState<ParkedSale | null>(null);

  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id={`${id}-title`} className="mb-3 text-sm font-semibold text-slate-900">
        Parked sales
      </h2>
      {parked.length === 0 ? (
        <p className="text-sm text-slate-500">No parked sales.</p>
      ) : (
        <ul aria-label="Parked sales" className="divide-y divide-slate-100">
          {parked.map((sale) => {
            const name = parkedName(sale);
            const items = itemCount(sale.draft.lines);
            return (
              <li
                key={sale.id}
                aria-label={name}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-2"
              >
                <div className="min-w-0 text-sm">
                  <p className="font-medium break-words text-slate-900">
                    {sale.draft.customer?.name ?? 'No customer'}
                  </p>
                  <p className="text-slate-600">
                    <time dateTime={sale.parkedAt}>{formatDateTime(sale.parkedAt)}</time> · {items}{' '}
                    {items === 1 ? 'item' : 'items'} · <span className="tabular-nums">{totalOf(sale)}</span>
                  </p>
                </div>
                <div className="flex gap-2">
                  <button
                    type="button"
                    className={buttonClass('primary', 'sm')}
                    onClick={() => onResume(sale)}
                    disabled={disabled}
                    aria-label={`Resume ${name}`}
                  >
                    Resume
                  </button>
                  <button
                    type="button"
                    className={buttonClass('secondary', 'sm')}
                    onClick={() => setConfirming(sale)}
                    disabled={disabled}
                    aria-label={`Discard ${name}`}
                  >
                    Discard
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {confirming ? (
        <ConfirmDialog
          title="Discard the parked sale?"
          message={`The sale ${parkedName(confirming)} (${totalOf(confirming)}) is dropped from this counter for good.`}
          confirmLabel="Discard"
          cancelLabel="Keep it"
          onConfirm={() => {
            setConfirming(null);
            onDiscard(confirming);
          }}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
    </section>
  );
}
