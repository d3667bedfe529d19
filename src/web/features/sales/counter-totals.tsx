import type { ReactNode } from 'react';
import { type CartProblem, centsNumber, isCartProblem, type PricedCart } from '../../../shared/money';
import { taxRateLabel } from '../../../shared/store';
import { type Loadable, LoadState } from '../../components/load-state';
import { formatMoney } from '../../lib/format';
import type { CounterStore } from './sales-api';

/**
 * The sale's sums as the shared computation gives them: items, subtotal (before discounts), the
 * discounts, the tax of each rate (included in the prices, or added to them) and the total.
 */
export function CounterTotals({
  settings,
  priced,
  items,
  currency,
  discountEditor,
}: {
  settings: Loadable<{ store: CounterStore }>;
  priced: PricedCart | CartProblem | null;
  items: number;
  currency: string;
  discountEditor: ReactNode;
}) {
  const ok = priced && !isCartProblem(priced) ? priced : null;
  const money = (cents: bigint | undefined) =>
    cents === undefined ? '—' : formatMoney(centsNumber(cents), currency);
  const inclusive = settings.data?.store.pricesIncludeTax ?? false;
  return (
    <div className="space-y-2 border-t border-slate-200 pt-3">
      <LoadState query={settings} what="the store's prices and taxes" loading="Loading prices and taxes...">
        {() => null}
      </LoadState>
      <dl className="space-y-1">
        <div className="flex items-baseline justify-between text-sm text-slate-600">
          <dt>Items</dt>
          <dd className="tabular-nums">{items}</dd>
        </div>
        <div className="flex items-baseline justify-between text-sm text-slate-600">
          <dt>Subtotal</dt>
          <dd className="tabular-nums">{money(ok?.subtotal)}</dd>
        </div>
        {ok && ok.discount > 0n ? (
          <div className="flex items-baseline justify-between text-sm text-green-800">
            <dt>Discounts</dt>
            <dd className="tabular-nums">−{money(ok.discount)}</dd>
          </div>
        ) : null}
        {ok?.taxes.map((tax) => (
          <div
            key={`${tax.name} ${tax.rate}`}
            className="flex items-baseline justify-between gap-3 text-sm text-slate-600"
          >
            <dt>
              {inclusive ? 'Incl. ' : ''}
              {taxRateLabel(tax)} on {money(tax.base)}
            </dt>
            <dd className="tabular-nums">{money(tax.tax)}</dd>
          </div>
        ))}
        <div className="flex items-baseline justify-between">
          <dt className="text-base font-semibold text-slate-900">Total</dt>
          <dd className="text-2xl font-bold tabular-nums text-slate-900" aria-live="polite">
            {money(ok?.total)}
          </dd>
        </div>
      </dl>
      {discountEditor}
    </div>
  );
}
