import { z } from 'zod';
import { MAX, Ok, optionalText } from './common';
import { LocationId } from './locations';
import { LotName, LotRef } from './lots';
import { ExportFormat, PageInfo, PageQuery } from './paging';
import { Product, Stock } from './products';

/** Why a stock number changed (DESIGN §8). */
export const MOVEMENT_KINDS = [
  'initial',
  'sale',
  'return',
  'receipt',
  'adjustment',
  'count',
  /** DESIGN §17: units leaving for, arriving from, and lost on a transfer. */
  'transferOut',
  'transferIn',
  'transferLoss',
  /** DESIGN §19: a cost edited while there is stock: value moves, no units. */
  'revaluation',
] as const;
/** The transfer movements (DESIGN §17): the ones Σ non-transfer movements leaves out (a transferLoss is a write-off). */
export const TRANSFER_MOVEMENT_KINDS = ['transferOut', 'transferIn'] as const;
export const MovementKind = z.enum(MOVEMENT_KINDS);
/** Each kind as the screens name it. */
export const MOVEMENT_KIND_LABEL: Record<(typeof MOVEMENT_KINDS)[number], string> = {
  initial: 'Opening stock',
  sale: 'Sale',
  return: 'Return',
  receipt: 'Receipt',
  adjustment: 'Adjustment',
  count: 'Count',
  transferOut: 'Transfer out',
  transferIn: 'Transfer in',
  transferLoss: 'Lost in transit',
  revaluation: 'Revaluation',
};
export type MovementKind = z.infer<typeof MovementKind>;

export const ADJUSTMENT_REASONS = [
  'received',
  'damaged',
  'lost',
  'found',
  'returned',
  'correction',
  'expired',
] as const;
export const AdjustmentReason = z.enum(ADJUSTMENT_REASONS, {
  error: `reason must be one of ${ADJUSTMENT_REASONS.join(', ')}.`,
});
export type AdjustmentReason = z.infer<typeof AdjustmentReason>;

/** The longest note a movement keeps. */
export const MAX_NOTE = 500;
const Note = optionalText(MAX_NOTE).default('');

export const AdjustInput = z.object({
  quantity: z
    .number({ error: 'Quantity must be a number.' })
    .int({ error: 'Quantity must be a whole number.' })
    .min(-1_000_000, { error: 'Quantity must be at least -1,000,000.' })
    .max(1_000_000, { error: 'Quantity must be at most 1,000,000.' })
    .refine((value) => value !== 0, { error: 'Quantity must not be 0.' }),
  reason: AdjustmentReason,
  note: Note,
  /**
   * DESIGN §15, required for a lot-tracked product: units added go into this lot (a new number
   * with its expiry creates it); units taken come out of it (by _id or number).
   */
  lot: LotRef.optional(),
  /** DESIGN §17: where (a location's id); omitted, the default location. */
  location: LocationId.optional(),
});
export type AdjustInput = z.input<typeof AdjustInput>;

export const CountInput = z.object({
  counted: Stock.describe('The number of units found on the shelf'),
  note: Note,
  /** DESIGN §15, required for a lot-tracked product: the one lot counted (`counted` = its units). */
  lot: LotRef.optional(),
  /** DESIGN §17: where the stock was counted (a location's id); omitted, the default location. */
  location: LocationId.optional(),
});
export type CountInput = z.input<typeof CountInput>;

/** One row of the ledger: signed quantity and the stock right after it. */
export const Movement = z.object({
  _id: z.string(),
  at: z.string(),
  kind: MovementKind,
  quantity: z.number().int(),
  stockAfter: z.number().int(),
  /** DESIGN §19: what the units were worth, signed like the quantity (exact to the cent). */
  value: z.number(),
  reason: z.string().nullable(),
  note: z.string(),
  user: z.object({ _id: z.string().nullable(), name: z.string() }).nullable(),
  /** The order it belongs to, and the sale that order is a line of (its receipt number). */
  order: z
    .object({ _id: z.string(), sale: z.object({ _id: z.string(), number: z.number().int() }).optional() })
    .optional(),
  purchaseOrder: z.object({ _id: z.string(), number: z.string() }).optional(),
  /** The lot the units came from or went to (DESIGN §15). */
  lot: LotName.optional(),
  /** Where the units came in or went out (DESIGN §17). */
  location: z.object({ _id: z.string(), name: z.string() }),
  /** The transfer a transfer movement belongs to (DESIGN §17). */
  transfer: z.object({ _id: z.string(), number: z.string() }).optional(),
});
export type Movement = z.infer<typeof Movement>;

export const MovementResponse = Ok.extend({ product: Product, movement: Movement });
export type MovementResponse = z.infer<typeof MovementResponse>;

export const MovementQuery = PageQuery.pick({ page: true, pageSize: true }).extend({ format: ExportFormat });

/** The columns of a product's movements CSV, in order; the lot's (DESIGN §15) empty for none. */
export const MOVEMENT_CSV_HEADER = [
  'time',
  'kind',
  'quantity',
  'stock after',
  'reason',
  'note',
  'who',
  'order id',
  'purchase order',
  'lot',
  'lot expires',
  /** DESIGN §17: where, and a transfer movement's transfer (TR-000001). */
  'location',
  'transfer',
  /** DESIGN §19: the movement's value. */
  'value',
] as const;
export type MovementQuery = z.input<typeof MovementQuery>;
export const MovementListResponse = Ok.extend({ movements: z.array(Movement) }).extend(PageInfo.shape);
export type MovementListResponse = z.infer<typeof MovementListResponse>;

export const StockMismatch = z.object({
  product: z.object({ _id: z.string(), name: z.string() }),
  stock: z.number().int(),
  ledger: z.number().int(),
  /** Set when the mismatch is a lot's: its quantity (stock) against the sum of its movements (ledger), or, with no lot, the product's stock against the sum of its lots (lots). */
  lot: LotName.optional(),
  lots: z.number().int().optional(),
  /**
   * Set when the mismatch is at one location (DESIGN §17): the product's (or, with `lot`, the
   * lot's) units there (stock) against the sum of the movements there (ledger).
   */
  location: z.object({ _id: z.string(), name: z.string() }).optional(),
  /** The product's (or the lot's) units summed over its locations, when that is not its stock. */
  locations: z.number().int().optional(),
  /**
   * Set when Σ locations + units in transit is not the sum of the movements that are not
   * transfers (transferOut, transferIn): the units in transit and that sum.
   */
  inTransit: z.number().int().optional(),
  outsideTransfers: z.number().int().optional(),
});
export const StockCheckResponse = Ok.extend({
  checked: z.number().int(),
  mismatches: z.array(StockMismatch),
});
export type StockCheckResponse = z.infer<typeof StockCheckResponse>;

export const ReturnInput = z.object({
  quantity: z
    .number({ error: 'Quantity must be a number.' })
    .int({ error: 'Quantity must be a whole number.' })
    .min(1, { error: 'Quantity must be at least 1.' })
    .max(1_000_000, { error: 'Quantity is too large.' }),
  reason: optionalText(MAX.description).optional(),
  /** Where the units go back (DESIGN §17); absent: the location they left from. */
  location: LocationId.optional(),
});
export type ReturnInput = z.input<typeof ReturnInput>;

/**
 * The Idempotency-Key header: 1–200 visible ASCII characters. The same user sending the same key
 * within 24 h gets the first answer again, and nothing happens twice.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, { error: 'Idempotency-Key must be 1 to 200 visible ASCII characters.' });
