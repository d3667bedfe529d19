import { type ExpiryState, expiryState } from '../../shared/lots';
import { formatDate } from '../lib/format';

const STYLE: Record<ExpiryState, string> = {
  expired: 'bg-red-100 text-red-800 ring-red-600/30',
  soon: 'bg-amber-100 text-amber-900 ring-amber-600/30',
  ok: 'bg-green-100 text-green-800 ring-green-600/30',
};

/** The words say what the colour says, so colour is never all that tells. */
export const EXPIRY_WORDS: Record<ExpiryState, string> = {
  expired: 'Expired',
  soon: 'Expires soon',
  ok: 'OK',
};

/** A lot's expiry day as the screens write it: "Mar 3, 2027", or "Does not expire". */
export function expiryLabel(expiresOn: string | null): string {
  return expiresOn === null ? 'Does not expire' : formatDate(expiresOn);
}

/**
 * How a lot stands on `today` (DESIGN §15): expired (red), expires soon — within 30 days —
 * (amber), or OK (green), each in words.
 */
export function ExpiryBadge({ expiresOn, today }: { expiresOn: string | null; today: string }) {
  const state = expiryState(expiresOn, today);
  return (
    <span
      data-expiry={state}
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STYLE[state]}`}
    >
      {EXPIRY_WORDS[state]}
    </span>
  );
}
