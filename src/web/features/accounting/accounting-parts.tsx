import type { ReactNode } from 'react';
import { useMoney } from '../../lib/store-settings';

/** Figures line up on the right, digits of equal width. */
export const NUMBER = 'whitespace-nowrap text-right tabular-nums';

/** A debit or credit as the books write it: the amount, or nothing on the side it is not on. */
export function useSide(): (amount: number) => string {
  const money = useMoney();
  return (amount) => (amount === 0 ? '' : money(amount));
}

const BADGE = {
  slate: 'bg-slate-100 text-slate-700',
  indigo: 'bg-indigo-50 text-indigo-700',
  green: 'bg-emerald-50 text-emerald-800',
  red: 'bg-red-50 text-red-800',
  amber: 'bg-amber-50 text-amber-800',
};

export function Badge({ tone = 'slate', children }: { tone?: keyof typeof BADGE; children: ReactNode }) {
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${BADGE[tone]}`}
    >
      {children}
    </span>
  );
}

/** Why balances of some accounts read negative: one sentence under each table of balances. */
export const BALANCE_NOTE =
  'Balances are debits less credits, so income, liability and equity accounts read negative.';
