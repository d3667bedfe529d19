import { z } from 'zod';
import { Customer } from '../../../shared/customers';
import type { Discount } from '../../../shared/money';
import { Product } from '../../../shared/products';
import { DiscountInput, MAX_SALE_LINES, PAYMENT_METHODS, type PaymentMethod } from '../../../shared/sales';
import { MAX_PAYMENTS, PaymentInput } from '../../../shared/till';
import type { UnansweredSubmit } from '../../lib/idempotency';
import type { Cart } from './cart-rules';

/**
 * The counter's unfinished sale and its parked sales, kept in this browser per signed-in user, so a
 * reload, a visit to another screen or signing in again does not lose a sale (decision 0020).
 * What is stored is read back as untrusted: anything that is not exactly the current format (an
 * older one, a hand edit, another app's value) counts as nothing stored.
 */

/** Everything the cashier has entered for one sale. */
export type CounterDraft = {
  lines: Cart;
  /** The discount on the whole sale (DESIGN §12), shared over the lines; the lines keep their own. */
  discount: Discount | null;
  customer: Customer | null;
  /** The quick single payment: its method, and for cash what was handed over (empty: the total). */
  method: PaymentMethod;
  tendered: string;
  /** Paid in several payments (DESIGN §13) instead of the quick single one. */
  split: boolean;
  /** The split payments added so far, in order; cash amounts are what was handed over. */
  payments: PaymentInput[];
  /**
   * The last Complete sale that got no answer (the server may have made it): sent again after a
   * reload, it carries the same Idempotency-Key, so the sale is made once.
   */
  unanswered: UnansweredSubmit | null;
};

/** A sale put aside to serve someone else first. */
export type ParkedSale = { id: string; parkedAt: string; draft: CounterDraft };

/** Parked sales kept at most; a counter with more has forgotten some. */
export const MAX_PARKED = 20;

export const EMPTY_DRAFT: CounterDraft = {
  lines: [],
  discount: null,
  customer: null,
  method: 'cash',
  tendered: '',
  split: false,
  payments: [],
  unanswered: null,
};

/** Nothing entered: no line, no customer, no cash typed, no payment (the method alone is not a sale). */
export function isEmptyDraft(draft: CounterDraft): boolean {
  return (
    draft.lines.length === 0 &&
    draft.customer === null &&
    draft.tendered.trim() === '' &&
    draft.payments.length === 0
  );
}

// Bump when the stored shape changes: older values are then ignored, never misread. The discounts
// and the split payments came later as optional fields, so a sale kept before them still loads
// (without discounts, paid in one payment).
const VERSION = 1;
const cartKey = (userId: string) => `ims_counter_cart:${userId}`;
const parkedKey = (userId: string) => `ims_counter_parked:${userId}`;

const StoredDraft = z.object({
  lines: z
    .array(
      z.object({
        product: Product,
        quantity: z.string().max(12),
        discount: DiscountInput.nullable().optional(),
      }),
    )
    .max(MAX_SALE_LINES)
    // The cart has one line per product; two would be a value this code never wrote.
    .refine((lines) => new Set(lines.map((line) => line.product._id)).size === lines.length),
  discount: DiscountInput.nullable()
    .optional()
    .transform((discount) => discount ?? null),
  customer: Customer.nullable(),
  method: z.enum(PAYMENT_METHODS),
  tendered: z.string().max(20),
  split: z
    .boolean()
    .optional()
    .transform((split) => split ?? false),
  payments: z
    .array(PaymentInput)
    .max(MAX_PAYMENTS)
    .optional()
    .transform((payments) => payments ?? []),
  unanswered: z.object({ body: z.string().max(100_000), key: z.string().min(1).max(200) }).nullable(),
});
const StoredCart = z.object({ version: z.literal(VERSION), draft: StoredDraft });
const StoredParked = z.object({ id: z.string().min(1), parkedAt: z.iso.datetime(), draft: StoredDraft });

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function readJson(key: string): unknown {
  try {
    const text = storage()?.getItem(key);
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes, or removes when there is nothing to keep. A full or refused storage only loses the copy. */
function writeJson(key: string, value: unknown | null): void {
  try {
    const store = storage();
    if (value === null) store?.removeItem(key);
    else store?.setItem(key, JSON.stringify(value));
  } catch {
    // The sale on screen is unaffected; only its copy for a reload is missing.
  }
}

/** The user's unfinished sale, or the empty one when none (or nothing usable) is stored. */
export function readDraft(userId: string): CounterDraft {
  const parsed = StoredCart.safeParse(readJson(cartKey(userId)));
  return parsed.success ? parsed.data.draft : EMPTY_DRAFT;
}

export function writeDraft(userId: string, draft: CounterDraft): void {
  writeJson(cartKey(userId), isEmptyDraft(draft) ? null : { version: VERSION, draft });
}

/** The user's parked sales, newest first; a damaged entry is left out, the others kept. */
export function readParked(userId: string): ParkedSale[] {
  const stored = readJson(parkedKey(userId));
  if (typeof stored !== 'object' || stored === null) return [];
  const { version, parked } = stored as { version?: unknown; parked?: unknown };
  if (version !== VERSION || !Array.isArray(parked)) return [];
  return parked
    .flatMap((one) => {
      const entry = StoredParked.safeParse(one);
      return entry.success ? [entry.data] : [];
    })
    .slice(0, MAX_PARKED);
}

export function writeParked(userId: string, parked: readonly ParkedSale[]): void {
  writeJson(parkedKey(userId), parked.length === 0 ? null : { version: VERSION, parked });
}
