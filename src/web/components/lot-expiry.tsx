import { type ExpiryState, expiryState } from '../../shared/lots';
import { formatDate } from '../lib/format';

/** The words say what the colour says, so colour is never all that tells. */
export const EXPIRY_WORDS: Record<ExpiryState, string> = {
  expired: 'Expired',
  soon: 'Expires soon',
  ok: 'In date',
};

/** A lot's expiry day as the screens write it: "Mar 3, 2027", or "Does not expire". */
export function expiryLabel(expiresOn: string | null): string {
  return expiresOn === null ? 'Does not expire' : formatDate(expiresOn);
}

const STATE_STYLE: Record<ExpiryState, string> = {
  expired: 'bg-red-100 text-red-800 ring-red-600/30',
  soon: 'bg-amber-100 text-amber-900 ring-amber-600/30',
  ok: 'bg-green-100 text-green-800 ring-green-600/30',
};

/**
 * How a lot stands on `today` (DESIGN §15): expired, expiring within 30 days, or in date, said in
 * words and by colour (print keeps the words). A lot without expiry is in date.
 */
export function ExpiryBadge({ expiresOn, today }: { expiresOn: string | null; today: string }) {
  const state = expiryState(expiresOn, today);
  return (
    <span
      data-state={state}
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset print:ring-0 ${STATE_STYLE[state]}`}
    >
      {EXPIRY_WORDS[state]}
    </span>
  );
}

/** The expiry day and its state side by side ("Dec 20, 2026 Expires soon"). */
export function Expiry({ expiresOn, today }: { expiresOn: string | null; today: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      {expiresOn === null ? (
        <span className="text-slate-600">{expiryLabel(expiresOn)}</span>
      ) : (
        <time dateTime={expiresOn} className="tabular-nums">
          {expiryLabel(expiresOn)}
        </time>
      )}
      <ExpiryBadge expiresOn={expiresOn} today={today} />
    </span>
  );
}

type LotPart = { lot: { number: string; expiresOn: string | null }; quantity: number };

/**
 * The lots a line takes or took, in a few words: one lot with its expiry ("Lot A12 · expires
 * Dec 20, 2026"), several with their units ("Lots A12 (3), B7 (2)"); empty when there are none.
 */
export function lotsLabel(parts: readonly LotPart[]): string {
  const [only] = parts;
  if (!only) return '';
  if (parts.length === 1)
    return `Lot ${only.lot.number} · ${only.lot.expiresOn === null ? 'no expiry' : `expires ${formatDate(only.lot.expiresOn)}`}`;
  return `Lots ${parts.map((part) => `${part.lot.number} (${part.quantity})`).join(', ')}`;
}
