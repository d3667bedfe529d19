import { useQuery } from '@tanstack/react-query';
import { fefoPlan } from '../../../shared/lots';
import type { Product } from '../../../shared/products';
import { refusalSentence } from '../../../shared/refusals';
import { lotsLabel } from '../../components/lot-expiry';
import { errorMessage } from '../../lib/api';
import { productLotsQuery } from './sales-api';

/** What a cart line of a lot-tracked product will take, as far as the counter can tell. */
export type LotPlan =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'failed'; message: string; retry: () => void }
  /**
   * `label` names the lots ("Lot A12 · expires Dec 20, 2026"); `problem` says when they fall
   * short; `unexpired` and `expired` are the units that can and cannot be sold today.
   */
  | { state: 'ready'; label: string; problem: string | null; unexpired: number; expired: number };

/**
 * The lots a line of `quantity` units of `product` would take (DESIGN §15): its lots as the server
 * has them (cached), planned first-expiry-first-out by the shared rule on the store's today, which
 * the answer names (the till's own clock may be in another day near midnight). Only a preview: the
 * server picks the lots when the sale is made, and refuses what is short.
 */
export function useLotPlan(product: Product, quantity: number | null): LotPlan {
  const tracked = product.tracking === 'lot';
  const lots = useQuery({ ...productLotsQuery(product._id), enabled: tracked });
  if (!tracked) return { state: 'none' };
  if (lots.data === undefined) {
    if (lots.isError && !lots.isFetching)
      return {
        state: 'failed',
        message: `The lots could not be loaded: ${errorMessage(lots.error)}`,
        retry: () => void lots.refetch(),
      };
    return { state: 'loading' };
  }
  const plan = fefoPlan(lots.data.lots, quantity ?? 0, lots.data.today);
  const held = lots.data.lots.reduce((sum, lot) => sum + Math.max(0, lot.quantity), 0);
  return {
    state: 'ready',
    label: quantity === null ? '' : lotsLabel(plan.takes),
    problem:
      quantity !== null && plan.short > 0
        ? refusalSentence('UNEXPIRED_SHORT', { unexpired: plan.unexpired, product: product.name })
        : null,
    unexpired: plan.unexpired,
    expired: held - plan.unexpired,
  };
}

/** The line's lots under its name: which lots it takes, or why that is not known yet. */
export function LotPlanText({ plan }: { plan: LotPlan }) {
  if (plan.state === 'none') return null;
  if (plan.state === 'loading') return <p className="text-xs text-slate-500">Finding its lots...</p>;
  if (plan.state === 'failed')
    return (
      <p className="flex flex-wrap items-center gap-x-2 text-xs text-red-700">
        {plan.message}
        <button
          type="button"
          onClick={plan.retry}
          className="rounded font-semibold text-indigo-700 underline hover:text-indigo-900"
        >
          Try again
        </button>
      </p>
    );
  if (!plan.label) return null;
  return <p className="text-xs text-slate-700">{plan.label}</p>;
}
