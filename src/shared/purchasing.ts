import { z } from 'zod';
import { Id, MAX, Named, Ok, optionalText } from './common';
import { LocationId } from './locations';
import { ReceiveLots, Tracking } from './lots';
import { ExportFormat, PageInfo, PageQuery } from './paging';

/**
 * A purchase order's life (DESIGN §9): draft → ordered → partially_received → received;
 * cancelled while nothing was received, closed when the rest is no longer expected.
 */
export const PURCHASE_ORDER_STATUSES = [
  'draft',
  'ordered',
  'partially_received',
  'received',
  'cancelled',
  'closed',
] as const;
export const PurchaseOrderStatus = z.enum(PURCHASE_ORDER_STATUSES, {
  error: `status must be one of ${PURCHASE_ORDER_STATUSES.join(', ')}.`,
});
export type PurchaseOrderStatus = z.infer<typeof PurchaseOrderStatus>;

/** The statuses in which goods are still expected: their open quantities are "on order". */
export const RECEIVABLE_STATUSES = ['ordered', 'partially_received'] as const satisfies PurchaseOrderStatus[];

/** A purchase order's human number: PO- and six or more digits. */
export function purchaseOrderNumber(n: number): string {
  return `PO-${String(n).padStart(6, '0')}`;
}

/** A unit cost: at least 0, at most two decimals (like a price). */
export const UnitCost = z
  .number({ error: 'Unit cost must be a number.' })
  .min(0, { error: 'Unit cost must be 0 or more.' })
  .max(999_999_999.99, { error: 'Unit cost is too large.' })
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
    error: 'Unit cost must have at most 2 decimals.',
  });

const LineQuantity = z
  .number({ error: 'Quantity must be a number.' })
  .int({ error: 'Quantity must be a whole number.' })
  .min(1, { error: 'Quantity must be at least 1.' })
  .max(1_000_000, { error: 'Quantity is too large.' });

/** The most lines one purchase order holds. */
export const MAX_PURCHASE_ORDER_LINES = 500;

export const PurchaseOrderLineInput = z.object({
  product: Id.describe('Product id'),
  quantity: LineQuantity,
  unitCost: UnitCost,
});
export type PurchaseOrderLineInput = z.input<typeof PurchaseOrderLineInput>;

export const PurchaseOrderInput = z.object({
  supplier: Id.describe('Supplier id'),
  lines: z
    .array(PurchaseOrderLineInput, { error: 'lines must be a list.' })
    .min(1, { error: 'Add at least one line.' })
    .max(MAX_PURCHASE_ORDER_LINES, {
      error: `A purchase order holds at most ${MAX_PURCHASE_ORDER_LINES} lines.`,
    }),
  note: optionalText(MAX.description).default(''),
  /** Where it is delivered (DESIGN §17): a location's id; the default location when not given. */
  location: LocationId.optional(),
});
export type PurchaseOrderInput = z.input<typeof PurchaseOrderInput>;

export const PurchaseOrderLine = z.object({
  _id: z.string(),
  /** tracking (DESIGN §15): 'lot' when receiving the line names its lots. */
  product: Named.extend({ tracking: Tracking.optional() }),
  quantity: z.number().int(),
  received: z.number().int(),
  /** DESIGN §20: the units posted bills have billed (≤ received). */
  billed: z.number().int(),
  unitCost: z.number(),
});
export type PurchaseOrderLine = z.infer<typeof PurchaseOrderLine>;

export const PurchaseOrder = z.object({
  _id: z.string(),
  number: z.string(),
  supplier: Named,
  /** Where it is delivered (DESIGN §17): receipts add stock there; its open units are on order there. */
  location: Named,
  status: PurchaseOrderStatus,
  note: z.string(),
  lines: z.array(PurchaseOrderLine),
  /** Σ quantity × unit cost over the lines, exact to the cent. */
  total: z.number(),
  createdAt: z.string(),
  orderedAt: z.string().nullable(),
  receivedAt: z.string().nullable(),
});
export type PurchaseOrder = z.infer<typeof PurchaseOrder>;

export const PurchaseOrderSummary = PurchaseOrder.pick({
  _id: true,
  number: true,
  supplier: true,
  location: true,
  status: true,
  total: true,
  createdAt: true,
});
export type PurchaseOrderSummary = z.infer<typeof PurchaseOrderSummary>;

export const PurchaseOrderResponse = Ok.extend({ purchaseOrder: PurchaseOrder });
export type PurchaseOrderResponse = z.infer<typeof PurchaseOrderResponse>;

/** Always one page, newest first (the list only grows). */
export const PurchaseOrderQuery = PageQuery.omit({ search: true }).extend({
  status: PurchaseOrderStatus.optional(),
  supplier: Id.optional(),
  /** Only those delivered to this location (404 when it names none). */
  location: LocationId.optional(),
  format: ExportFormat,
});

/** The columns of the purchase orders CSV, in order. */
export const PURCHASE_ORDER_CSV_HEADER = [
  'number',
  'supplier',
  'status',
  'total',
  'created',
  'ordered',
  'received',
  'location',
] as const;
export type PurchaseOrderQuery = z.input<typeof PurchaseOrderQuery>;
export const PurchaseOrderListResponse = Ok.extend({ purchaseOrders: z.array(PurchaseOrderSummary) }).extend(
  PageInfo.shape,
);
export type PurchaseOrderListResponse = z.infer<typeof PurchaseOrderListResponse>;

export const ReceiveInput = z.object({
  lines: z
    .array(
      z
        .object({
          line: Id.describe('Purchase order line id'),
          quantity: LineQuantity,
          /** DESIGN §15, required for a lot-tracked product: the lots received, adding up to quantity. */
          lots: ReceiveLots.optional(),
        })
        .refine(
          (line) =>
            line.lots === undefined ||
            line.lots.reduce((sum, lot) => sum + lot.quantity, 0) === line.quantity,
          { error: "A line's lots must add up to its quantity.", path: ['lots'] },
        ),
      { error: 'lines must be a list.' },
    )
    .min(1, { error: 'Receive at least one line.' })
    .max(MAX_PURCHASE_ORDER_LINES)
    .refine((lines) => new Set(lines.map((line) => line.line)).size === lines.length, {
      error: 'Each line may be received once per receipt.',
    }),
});
export type ReceiveInput = z.input<typeof ReceiveInput>;

export const ReorderSuggestionLine = z.object({
  product: Named,
  stock: z.number().int(),
  /** Ordered − received over ordered and partially received purchase orders. */
  onOrder: z.number().int(),
  reorderPoint: z.number().int(),
  suggested: z.number().int(),
  /** The product's cost, or 0 when it has none yet. */
  unitCost: z.number(),
  /**
   * With ?location= (DESIGN §17): the other active location with the most units above its own
   * reorder point in force (`available`), and the units to transfer from it (`quantity`, at most
   * available); `suggested` is then what is left to buy (0 when the transfer covers it). Null
   * when no location can spare any; absent without ?location=.
   */
  transferFrom: z
    .object({ location: Named, available: z.number().int(), quantity: z.number().int() })
    .nullable()
    .optional(),
});
export type ReorderSuggestionLine = z.infer<typeof ReorderSuggestionLine>;

/** A purchase order named by its id and number. */
export const PurchaseOrderRef = z.object({ _id: z.string(), number: z.string() });
export type PurchaseOrderRef = z.infer<typeof PurchaseOrderRef>;

/** GET /api/reorder-suggestions?location=: judged at that location (DESIGN §17); absent, the whole store. */
export const ReorderSuggestionsQuery = z.object({ location: LocationId.optional() });
export type ReorderSuggestionsQuery = z.input<typeof ReorderSuggestionsQuery>;

export const ReorderSuggestionsResponse = Ok.extend({
  /** The location judged, when ?location= named one. */
  location: Named.optional(),
  suppliers: z.array(
    z.object({
      supplier: Named,
      /** The supplier's newest draft purchase order, if it has one: drafting again adds none. */
      draft: PurchaseOrderRef.nullable(),
      lines: z.array(ReorderSuggestionLine),
    }),
  ),
});
export type ReorderSuggestionsResponse = z.infer<typeof ReorderSuggestionsResponse>;

/**
 * Drafts one purchase order per supplier from the suggestions (only `supplier`'s when given).
 * `quantities` replaces suggested quantities by product id; 0 leaves the product out. A supplier
 * with a draft already gets no second one: named alone, a 409 naming its draft; among all,
 * left out and listed in `existingDrafts`.
 */
export const DraftFromSuggestionsInput = z.object({
  supplier: Id.optional(),
  /** Drafts from the suggestions at this location (what transfers do not cover), delivered there. */
  location: LocationId.optional(),
  quantities: z
    .record(
      Id,
      z
        .number({ error: 'Quantity must be a number.' })
        .int({ error: 'Quantity must be a whole number.' })
        .min(0, { error: 'Quantity must be 0 or more.' })
        .max(1_000_000, { error: 'Quantity is too large.' }),
    )
    .optional(),
});
export type DraftFromSuggestionsInput = z.input<typeof DraftFromSuggestionsInput>;

export const DraftPurchaseOrdersResponse = Ok.extend({
  purchaseOrders: z.array(PurchaseOrder),
  /** Suppliers left out because they have a draft already, with that draft. */
  existingDrafts: z.array(z.object({ supplier: Named, draft: PurchaseOrderRef })),
});
export type DraftPurchaseOrdersResponse = z.infer<typeof DraftPurchaseOrdersResponse>;

/** Σ quantity × unit cost, in cents so sums stay exact. */
export function linesTotal(lines: readonly { quantity: number; unitCost: number }[]): number {
  const cents = lines.reduce((sum, line) => sum + line.quantity * Math.round(line.unitCost * 100), 0);
  return cents / 100;
}
