import { useQuery } from '@tanstack/react-query';
import { fefoPlan, unexpiredShortSentence } from '../../../shared/lots';
import type { Product } from '../../../shared/products';
import { lotsLabel } from '../../components/lot-expiry';
import { errorMessage } from '../../lib/api';
import { localDay } from '../../lib/format';
import { productLotsQuery } from './sales-api';

/** What a cart line of a lot-tracked product will take, as far as the counter can tell. */
export type LotPlan =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'failed'; message: string; retry: () => void }
  /** `label` names the lots ("Lot A12 · expires Dec 20, 2026"); `problem` says when they fall short. */
  | { state: 'ready'; label: string; problem: string | null };

/**
 * The lots a line of `quantity` units of `product` would take (DESIGN §15): its lots as the server
 * has them (cached), planned first-expiry-first-out by the shared rule on today's date here. Only
 * a preview: the server picks the lots when the sale is made, and refuses what is short.
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
  const plan = fefoPlan(lots.data.lots, quantity ?? 0, localDay());
  return {
    state: 'ready',
    label: quantity === null ? '' : lotsLabel(plan.takes),
    problem:
      quantity !== null && plan.short > 0 ? unexpiredShortSentence(plan.unexpired, product.name) : null,
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
