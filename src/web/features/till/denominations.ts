import { toCents } from '../../../shared/money';

/**
 * The notes and coins of a store's currency, in cents, largest first: the close screen counts the
 * drawer with them (count × value, added in cents, so the total is exact). A currency not listed
 * here is counted by typing the total.
 */
const DENOMINATIONS: Record<string, readonly bigint[]> = {
  USD: [10000n, 5000n, 2000n, 1000n, 500n, 200n, 100n, 25n, 10n, 5n, 1n],
  CAD: [10000n, 5000n, 2000n, 1000n, 500n, 200n, 100n, 25n, 10n, 5n],
  AUD: [10000n, 5000n, 2000n, 1000n, 500n, 200n, 100n, 50n, 20n, 10n, 5n],
  EUR: [50000n, 20000n, 10000n, 5000n, 2000n, 1000n, 500n, 200n, 100n, 50n, 20n, 10n, 5n, 2n, 1n],
  GBP: [5000n, 2000n, 1000n, 500n, 200n, 100n, 50n, 20n, 10n, 5n, 2n, 1n],
};

export function denominationsOf(currency: string): readonly bigint[] {
  return DENOMINATIONS[currency] ?? [];
}

/** The most of one note or coin the helper takes: more is a typing slip. */
export const MAX_COUNT = 100_000;

/** A count as typed: empty is 0; whole numbers only; null when it is not one. */
export function countOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d{1,6}$/.test(trimmed)) return null;
  const count = Number(trimmed);
  return count <= MAX_COUNT ? count : null;
}

/** Σ count × value in cents, or null when a count is not a whole number. */
export function countedCents(denominations: readonly bigint[], counts: readonly string[]): bigint | null {
  let total = 0n;
  for (const [at, value] of denominations.entries()) {
    const count = countOf(counts[at] ?? '');
    if (count === null) return null;
    total += value * BigInt(count);
  }
  return total;
}

/** Money typed by the cashier ("61.77", "20", "0.5") in cents, or null when it is not 0 or more with at most 2 decimals. */
export function typedCents(text: string): bigint | null {
  const trimmed = text.trim();
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(trimmed)) return null;
  return toCents(trimmed);
}
