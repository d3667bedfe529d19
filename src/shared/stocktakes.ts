import { z } from 'zod';
import { Named, Ok, optionalText } from './common';
import { LocationId, LocationName } from './locations';
import { ExpiresOn, LotName, LotNumber } from './lots';
import { ExportFormat, PageInfo, PageQuery } from './paging';

/**
 * Stocktakes (DESIGN §18, decision 0044): a whole location counted by category while it trades.
 * The scope is fixed when it is made (its products, a tracked product's lots with stock as one
 * line each); counts record who, when and the ledger's stock of the line at that moment
 * (`expectedAtCount`); posting writes `counted − expectedAtCount` per counted line, so a sale
 * after the count stays counted. counting → posted | cancelled.
 */

export const STOCKTAKE_STATUSES = ['counting', 'posted', 'cancelled'] as const;
export const StocktakeStatus = z.enum(STOCKTAKE_STATUSES, {
  error: `status must be one of ${STOCKTAKE_STATUSES.join(', ')}.`,
});
export type StocktakeStatus = z.infer<typeof StocktakeStatus>;
export const STOCKTAKE_STATUS_LABEL: Record<StocktakeStatus, string> = {
  counting: 'Counting',
  posted: 'Posted',
  cancelled: 'Cancelled',
};

/** ST-000001 */
export const stocktakeNumber = (n: number): string => `ST-${String(n).padStart(6, '0')}`;

export const MAX_STOCKTAKE_NOTE = 2000;
/** The most categories or products a scope names by hand. */
export const MAX_STOCKTAKE_SCOPE = 1000;
/** The most counts one request sends (a scanner sends one; a typed page or a sheet many). */
export const MAX_COUNTS = 10_000;
/** The largest count of one line. */
export const MAX_COUNT = 1_000_000;

/** An id a request names (a category, a product), with a sentence for each way it can be wrong. */
const NamedId = (label: string) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .min(1, { error: `${label} must not be empty.` })
    .max(100, { error: `${label} must be at most 100 characters.` });

const IdList = (label: string) =>
  z
    .array(NamedId(label), { error: `${label}s must be a list.` })
    .max(MAX_STOCKTAKE_SCOPE, { error: `Name at most ${MAX_STOCKTAKE_SCOPE} ${label}s.` });

export const StocktakeInput = z.object({
  location: LocationId,
  /** Every product of these categories; with `products`, their union; neither: every product with stock there. */
  categories: IdList('category').optional(),
  products: IdList('product').optional(),
  /** The counters do not see what the ledger expects (admins still do). */
  blind: z.boolean({ error: 'blind must be true or false.' }).default(false),
  note: optionalText(MAX_STOCKTAKE_NOTE).default(''),
});
export type StocktakeInput = z.input<typeof StocktakeInput>;

export const COUNT_MODES = ['set', 'add'] as const;
export const CountMode = z.enum(COUNT_MODES, { error: 'mode must be set or add.' });
export type CountMode = z.infer<typeof CountMode>;

export const CountQuantity = z
  .number({ error: 'quantity must be a number.' })
  .int({ error: 'quantity must be a whole number.' })
  .min(0, { error: 'quantity must be at least 0.' })
  .max(MAX_COUNT, { error: 'quantity must be at most 1,000,000.' });

export const CountInput = z.object({
  /** The product's _id, or its SKU or barcode as scanned (matched within the stocktake's scope). */
  product: NamedId('product'),
  /** A tracked product's lot, by number; a number not on the list becomes a line (new lots need expiresOn). */
  lot: z
    .object(
      { number: LotNumber, expiresOn: ExpiresOn.optional() },
      { error: 'lot must be an object with a number.' },
    )
    .optional(),
  quantity: CountQuantity,
  mode: CountMode,
});
export type CountInput = z.input<typeof CountInput>;

export const CountsInput = z.object({
  counts: z
    .array(CountInput, { error: 'counts must be a list.' })
    .min(1, { error: 'Send at least one count.' })
    .max(MAX_COUNTS, { error: `Send at most ${MAX_COUNTS.toLocaleString('en-US')} counts at once.` }),
});
export type CountsInput = z.input<typeof CountsInput>;

export const UNCOUNTED_CHOICES = ['keep', 'zero'] as const;
export const PostStocktakeInput = z.object({
  /** keep: uncounted lines are left as they are; zero: each is written down to 0. */
  uncounted: z.enum(UNCOUNTED_CHOICES, { error: 'uncounted must be keep or zero.' }),
});
export type PostStocktakeInput = z.input<typeof PostStocktakeInput>;

/** The figures of a set of lines: counted ones judged by counted − expectedAtCount, values at cost. */
export const VarianceFigures = z.object({
  lines: z.number().int(),
  counted: z.number().int(),
  uncounted: z.number().int(),
  /** Magnitudes. */
  unitsOver: z.number().int(),
  unitsShort: z.number().int(),
  valueOver: z.number(),
  valueShort: z.number(),
  /** valueOver − valueShort. */
  net: z.number(),
});
export type VarianceFigures = z.infer<typeof VarianceFigures>;

export const StocktakeSummary = VarianceFigures.extend({
  categories: z.array(VarianceFigures.extend({ category: Named.nullable() })),
});
export type StocktakeSummary = z.infer<typeof StocktakeSummary>;

const Who = z.object({ _id: z.string().nullable(), name: z.string() }).nullable();

export const Stocktake = z.object({
  _id: z.string(),
  number: z.string(),
  location: LocationName,
  status: StocktakeStatus,
  blind: z.boolean(),
  /** What it was made of (empty lists: every product with stock at the location). */
  scope: z.object({ categories: z.array(Named), products: z.array(Named) }),
  note: z.string(),
  /** How many lines it has. */
  lines: z.number().int(),
  createdBy: Who,
  createdAt: z.string(),
  postedAt: z.string().nullable(),
  postedBy: Who,
  cancelledAt: z.string().nullable(),
  /** The choice made when posting. */
  uncounted: z.enum(UNCOUNTED_CHOICES).nullable(),
  /** Admins only (GET /api/stocktakes/:id, and every answer to an admin). */
  summary: StocktakeSummary.optional(),
});
export type Stocktake = z.infer<typeof Stocktake>;

export const StocktakeResponse = Ok.extend({ stocktake: Stocktake });
export type StocktakeResponse = z.infer<typeof StocktakeResponse>;

/** A line the post took to 0 rather than below it. */
export const ClampedLine = z.object({
  product: Named,
  lot: LotName.optional(),
  /** counted − expectedAtCount (or −stock for an uncounted line zeroed). */
  difference: z.number().int(),
  /** What was written: −(the stock there when posted). */
  posted: z.number().int(),
});
export type ClampedLine = z.infer<typeof ClampedLine>;

export const PostStocktakeResponse = StocktakeResponse.extend({ clamped: z.array(ClampedLine) });
export type PostStocktakeResponse = z.infer<typeof PostStocktakeResponse>;

export const StocktakeListResponse = Ok.extend({ stocktakes: z.array(Stocktake) }).merge(PageInfo);
export type StocktakeListResponse = z.infer<typeof StocktakeListResponse>;

export const StocktakeQuery = PageQuery.pick({ page: true, pageSize: true }).extend({
  status: StocktakeStatus.optional(),
  location: LocationId.optional(),
});
export type StocktakeQuery = z.input<typeof StocktakeQuery>;

export const StocktakeLine = z.object({
  _id: z.string(),
  product: z.object({ _id: z.string(), name: z.string(), sku: z.string(), barcode: z.string() }),
  lot: LotName.optional(),
  category: Named.nullable(),
  counted: z.number().int().nullable(),
  countedBy: z.object({ _id: z.string().nullable(), name: z.string() }).nullable(),
  countedAt: z.string().nullable(),
  /** The ledger's stock of the line now (admins only in a blind stocktake). */
  expected: z.number().int().optional(),
  /** The ledger's stock of the line at its last count (admins only in a blind stocktake). */
  expectedAtCount: z.number().int().nullable().optional(),
  /** The product's cost (admins only). */
  cost: z.number().optional(),
  /** The difference's value at cost, (counted − expectedAtCount) × cost, exact to the cent (admins only; null while uncounted). */
  value: z.number().nullable().optional(),
  /** Once posted: the movement written for the line (null: none, an uncounted line kept). */
  posted: z.number().int().nullable().optional(),
});
export type StocktakeLine = z.infer<typeof StocktakeLine>;

export const StocktakeLinesQuery = PageQuery.extend({
  /** true: counted lines only; false: uncounted only. */
  counted: z
    .enum(['true', 'false'], { error: 'counted must be true or false.' })
    .transform((v) => v === 'true')
    .optional(),
  /** true: only counted lines whose count differs from what was expected at the count (the review). */
  differences: z
    .enum(['true', 'false'], { error: 'differences must be true or false.' })
    .transform((v) => v === 'true')
    .optional(),
  category: NamedId('category').optional(),
  format: ExportFormat,
});
export type StocktakeLinesQuery = z.input<typeof StocktakeLinesQuery>;

export const StocktakeLinesResponse = Ok.extend({ lines: z.array(StocktakeLine) }).merge(PageInfo);
export type StocktakeLinesResponse = z.infer<typeof StocktakeLinesResponse>;

/** A count's answer: the stocktake, and the lines it counted as they are now. */
export const CountsResponse = StocktakeResponse.extend({ counted: z.array(StocktakeLine) });
export type CountsResponse = z.infer<typeof CountsResponse>;

/** The count sheet's columns, exactly these, in this order (DESIGN §18). */
export const COUNT_SHEET_HEADER = ['Name', 'SKU', 'Barcode', 'Lot', 'Expiry', 'Counted'] as const;
