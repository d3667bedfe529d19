import { z } from 'zod';
import { DateOnly, MAX, Named, Ok } from './common';
import { LocationId } from './locations';
import { ExportFormat, PageInfo, PageQuery } from './paging';

/**
 * Lots and expiry (DESIGN §15, decision 0031): the one contract of lot-tracked stock, read by the
 * server's routes, the screens and the import.
 */

/** 'lot': the product's stock lives in lots, sold first-expiry-first-out; 'none': it does not. */
export const TRACKINGS = ['none', 'lot'] as const;
export const Tracking = z.enum(TRACKINGS, { error: 'tracking must be none or lot.' });
export type Tracking = z.infer<typeof Tracking>;

/** A lot number as printed on the box: 1–64 visible characters (inner spaces allowed), trimmed. */
export const LotNumber = z
  .string({ error: 'Lot number must be text.' })
  .trim()
  .min(1, { error: 'Lot number is required.' })
  .max(MAX.code, { error: `Lot number must be at most ${MAX.code} characters.` })
  .regex(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/, {
    error: 'Lot number may hold only letters, digits, symbols and spaces.',
  });

/** An expiry day (YYYY-MM-DD), or null for a lot that does not expire (sold last). */
export const ExpiresOn = DateOnly.nullable();

/** A lot's id as a request names it (Id, with its sentences). */
const LotId = z
  .string({ error: 'Lot _id must be text.' })
  .min(1, { error: 'Lot _id must not be empty.' })
  .max(100, { error: 'Lot _id must be at most 100 characters.' });

/**
 * A lot named where units are added or taken by hand (DESIGN §15): by its id, or by its number
 * (ignoring case). Adding units: a new number creates the lot with `expiresOn` (required then,
 * null for none); a known number must agree on its expiry when one is given (409 otherwise).
 * Taking units (negative adjustments, counts): `_id` or `number` of a lot the product has.
 */
export const LotRef = z
  .object(
    {
      _id: LotId.optional(),
      number: LotNumber.optional(),
      expiresOn: ExpiresOn.optional(),
    },
    { error: 'lot must be an object with _id or number.' },
  )
  .refine((lot) => lot._id !== undefined || lot.number !== undefined, {
    error: 'Name the lot by its _id or its number.',
  });
export type LotRef = z.input<typeof LotRef>;

/** The most lots one receive line may split into. */
export const MAX_LOTS_PER_LINE = 50;

/** One lot of a receive line: its number, expiry (null: none) and the units received into it. */
export const ReceiveLot = z.object({
  number: LotNumber,
  expiresOn: ExpiresOn,
  quantity: z
    .number({ error: 'Quantity must be a number.' })
    .int({ error: 'Quantity must be a whole number.' })
    .min(1, { error: 'Quantity must be at least 1.' })
    .max(1_000_000, { error: 'Quantity is too large.' }),
});
export type ReceiveLot = z.input<typeof ReceiveLot>;

export const ReceiveLots = z
  .array(ReceiveLot, { error: 'lots must be a list.' })
  .min(1, { error: 'Give at least one lot.' })
  .max(MAX_LOTS_PER_LINE, { error: `A line splits into at most ${MAX_LOTS_PER_LINE} lots.` })
  .refine((lots) => new Set(lots.map((lot) => lot.number.toLowerCase())).size === lots.length, {
    error: 'Each lot may appear once per line.',
  });

/** A lot as every answer names it. */
export const LotName = z.object({ _id: z.string(), number: z.string(), expiresOn: z.string().nullable() });
export type LotName = z.infer<typeof LotName>;

/** A lot with its units. */
export const Lot = LotName.extend({ quantity: z.number().int() });
export type Lot = z.infer<typeof Lot>;

/** Today in the store's time zone (store_today()), the day a lot's expiry is judged by on every screen. */
const StoreToday = z.string().describe("Today in the store's time zone, as expiry is judged (YYYY-MM-DD)");

export const LotsResponse = Ok.extend({ lots: z.array(Lot), today: StoreToday });
export type LotsResponse = z.infer<typeof LotsResponse>;

/** The lots an order (or a receipt's line) took its units from, and how many from each. */
export const OrderLot = z.object({ lot: LotName, quantity: z.number().int() });
export type OrderLot = z.infer<typeof OrderLot>;

/** How many days ahead the expiring list and the dashboard's card look by default. */
export const EXPIRING_DAYS = 30;

export const ExpiringQuery = PageQuery.pick({ page: true, pageSize: true }).extend({
  days: z.coerce
    .number({ error: 'days must be a number.' })
    .int({ error: 'days must be a whole number.' })
    .min(1, { error: 'days must be at least 1.' })
    .max(365, { error: 'days must be at most 365.' })
    .default(EXPIRING_DAYS),
  format: ExportFormat,
  /** DESIGN §17: only the lots with units at this location, and their units there. */
  location: LocationId.optional(),
});
export type ExpiringQuery = z.input<typeof ExpiringQuery>;

/** A lot holding units that expires on or before today + days (expired ones too); value at cost. */
export const ExpiringLot = z.object({
  lot: LotName,
  product: Named,
  quantity: z.number().int(),
  /** quantity × the product's cost; 0 while its cost is unknown. */
  value: z.number(),
});
export type ExpiringLot = z.infer<typeof ExpiringLot>;

export const ExpiringResponse = Ok.extend({
  lots: z.array(ExpiringLot),
  today: StoreToday,
  /** Over every page: the units and their value at cost. */
  quantity: z.number().int(),
  value: z.number(),
}).extend(PageInfo.shape);
export type ExpiringResponse = z.infer<typeof ExpiringResponse>;

/** The columns of the expiring list's CSV, in order. */
export const EXPIRING_CSV_HEADER = ['Product', 'Lot', 'Expires', 'Quantity', 'Value'] as const;

/** One movement of a lot, with whom it reached (DESIGN §15: who got units of a recalled lot). */
export const TraceMovement = z.object({
  _id: z.string(),
  at: z.string(),
  kind: z.string(),
  quantity: z.number().int(),
  reason: z.string().nullable(),
  note: z.string(),
  order: z.object({ _id: z.string() }).optional(),
  sale: z.object({ _id: z.string(), number: z.number().int() }).optional(),
  customer: z.object({ _id: z.string().nullable(), name: z.string() }).optional(),
  purchaseOrder: z.object({ _id: z.string(), number: z.string() }).optional(),
  user: z.object({ _id: z.string().nullable(), name: z.string() }),
  /** Where the lot's units came in or went out (DESIGN §17). */
  location: Named,
});
export type TraceMovement = z.infer<typeof TraceMovement>;

export const TraceResponse = Ok.extend({
  lot: Lot.extend({ product: Named }),
  today: StoreToday,
  /** Oldest first. */
  movements: z.array(TraceMovement),
});
export type TraceResponse = z.infer<typeof TraceResponse>;

/** How a lot stands on `today`: expired (before today), soon (within `soonDays`), or ok. */
export type ExpiryState = 'expired' | 'soon' | 'ok';
export function expiryState(expiresOn: string | null, today: string, soonDays = EXPIRING_DAYS): ExpiryState {
  if (expiresOn === null) return 'ok';
  if (expiresOn < today) return 'expired';
  return expiresOn <= addDays(today, soonDays) ? 'soon' : 'ok';
}

/** `day` (YYYY-MM-DD) plus `days`. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * The lots a sale of `quantity` units would take (DESIGN §15), as the ledger's trigger takes them:
 * the lots unexpired on `today` holding units, earliest expiry first, no expiry last (then in the
 * order given, which is the API's). `short` is how many units the unexpired lots lack (0: enough).
 * For the screens only: the server decides at the sale.
 */
export function fefoPlan(
  lots: readonly Lot[],
  quantity: number,
  today: string,
): { takes: { lot: Lot; quantity: number }[]; unexpired: number; short: number } {
  const sellable = lots
    .map((lot, at) => ({ lot, at }))
    .filter(({ lot }) => lot.quantity > 0 && (lot.expiresOn === null || lot.expiresOn >= today))
    .sort((a, b) => {
      const [x, y] = [a.lot.expiresOn, b.lot.expiresOn];
      if (x !== y) return x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return a.at - b.at;
    });
  const unexpired = sellable.reduce((sum, { lot }) => sum + lot.quantity, 0);
  const takes: { lot: Lot; quantity: number }[] = [];
  let wanted = Math.max(0, quantity);
  for (const { lot } of sellable) {
    if (wanted === 0) break;
    const part = Math.min(wanted, lot.quantity);
    takes.push({ lot, quantity: part });
    wanted -= part;
  }
  return { takes, unexpired, short: wanted };
}
