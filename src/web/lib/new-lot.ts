import { DateOnly } from '../../shared/common';
import { LotNumber } from '../../shared/lots';

/** A new lot as a form holds it: its number, its expiry day, or "Does not expire" ticked. */
export type NewLotDraft = { number: string; expiresOn: string; noExpiry: boolean };

/**
 * The new lot a form names (DESIGN §15: `{number, expiresOn}`, null for a lot that does not
 * expire), or what is wrong with each part, by the shared rules.
 */
export function newLotOf(draft: NewLotDraft): {
  lot?: { number: string; expiresOn: string | null };
  errors: { number?: string; expiresOn?: string };
} {
  const errors: { number?: string; expiresOn?: string } = {};
  const number = LotNumber.safeParse(draft.number);
  if (!number.success) errors.number = number.error.issues[0]?.message ?? 'Enter the lot number.';
  let expiresOn: string | null = null;
  if (!draft.noExpiry) {
    const day = DateOnly.safeParse(draft.expiresOn);
    if (draft.expiresOn.trim() === '') errors.expiresOn = 'Enter the expiry date, or tick Does not expire.';
    else if (!day.success) errors.expiresOn = day.error.issues[0]?.message ?? 'Enter a real date.';
    else expiresOn = day.data;
  }
  if (!number.success || errors.expiresOn) return { errors };
  return { lot: { number: number.data, expiresOn }, errors };
}
