import { z } from 'zod';
import { checkRange, DateOnly, dayProblem, FIRST_YEAR, Id, Named, Ok } from './common';
import { OrderLot } from './lots';
import { Quantity } from './orders';
import { PageInfo, PageQuery } from './paging';
import { Cash, PAYMENT_METHODS, PaymentsInput, RefundSummary, SALE_METHODS } from './till';
import { Pin } from './users';

export { PAYMENT_LABEL, PAYMENT_METHODS, type PaymentMethod } from './till';

/** The most lines one sale may have. */
export const MAX_SALE_LINES = 100;

/**
 * A discount (DESIGN §12): a percent of what it applies to (0–100, at most 3 decimals) or an
 * amount of money (2 decimals; at most what it applies to, judged by the server: a 400).
 */
export const DiscountInput = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('percent'),
      value: z
        .number({ error: 'A percent discount must be a number.' })
        .min(0, { error: 'A percent discount must be 0 or more.' })
        .max(100, { error: 'A percent discount must be at most 100.' })
        .refine((value) => Math.abs(value * 1000 - Math.round(value * 1000)) < 1e-6, {
          error: 'A percent discount has at most 3 decimals.',
        }),
    }),
    z.object({
      type: z.literal('amount'),
      value: z
        .number({ error: 'A discount amount must be a number.' })
        .min(0, { error: 'A discount amount must be 0 or more.' })
        .max(999_999_999.99, { error: 'A discount amount is too large.' })
        .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
          error: 'A discount amount has at most 2 decimals.',
        }),
    }),
  ],
  { error: "A discount's type must be percent or amount." },
);
export type DiscountInput = z.infer<typeof DiscountInput>;

/** An admin's approval given at the counter: their email and PIN (4–8 digits). */
export const ApprovalInput = z.object(
  {
    email: z
      .string({ error: 'Approval email must be text.' })
      .max(254, { error: 'Approval email is too long.' }),
    pin: Pin,
  },
  { error: 'An approval is an email and a PIN.' },
);
export type ApprovalInput = z.infer<typeof ApprovalInput>;

/**
 * A line: a product and quantity, an optional discount, and `overrideStock` (with an approval)
 * to sell units the system does not know of (DESIGN §12: a `found` adjustment first).
 */
export const SaleLineInput = z.object({
  productId: Id,
  quantity: Quantity,
  discount: DiscountInput.optional(),
  overrideStock: z.boolean({ error: 'overrideStock must be true or false.' }).optional(),
  /** DESIGN §21, an offline sale only: the unit price the device sold at (the customer paid it). */
  unitPrice: Cash('unitPrice').optional(),
  /** DESIGN §21, an offline sale only: the tax rate the device taxed the line at, when it knew one. */
  taxRate: Id.optional(),
});

/** DESIGN §21: why an offline sale is for an admin to look at. */
export const REVIEW_REASONS = ['stock', 'price', 'session'] as const;
export const ReviewReason = z.enum(REVIEW_REASONS);
export type ReviewReason = z.infer<typeof ReviewReason>;

/** DESIGN §21: the device's number for a receipt: 1–40 visible ASCII characters (T1-K7Q2-000123). */
export const DeviceNumber = z
  .string({ error: 'deviceNumber must be text.' })
  .regex(/^[\x21-\x7e]{1,40}$/, { error: 'deviceNumber is 1–40 visible ASCII characters.' });

/** An instant with its offset (2026-12-03T14:05:00+01:00 or …Z), as a device's clock writes it. */
export const OffsetDateTime = z
  .string({ error: 'soldAt must be text.' })
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/, {
    error: 'soldAt is a date and time with its offset, like 2026-12-03T14:05:00+01:00.',
    abort: true,
  })
  .refine(
    (text) =>
      dayProblem(text.slice(0, 10)) === undefined &&
      !Number.isNaN(Date.parse(text)) &&
      new Date(text).getUTCFullYear() >= FIRST_YEAR,
    { error: 'soldAt is not a real moment.' },
  );

/** DESIGN §21: what makes a sale an offline one; all three required. */
export const OfflineInput = z.object(
  {
    id: z.uuid({ error: 'offline.id is a UUID made on the device.' }),
    soldAt: OffsetDateTime,
    deviceNumber: DeviceNumber,
  },
  { error: 'offline is {id, soldAt, deviceNumber}.' },
);
export type OfflineInput = z.infer<typeof OfflineInput>;

const Tendered = z
  .number({ error: 'Tendered must be a number.' })
  .min(0, { error: 'Tendered must be 0 or more.' })
  .max(999_999_999.99, { error: 'Tendered is too large.' })
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
    error: 'Tendered must have at most 2 decimals.',
  });

/**
 * A sale (DESIGN §11, §13): lines of products and quantities (the same product twice counts once,
 * quantities added), an optional customer by id, and how it is paid: either `payments` (one or
 * more; see settlePayments in src/shared/till.ts) or the single `payment` of §11, where
 * `tendered` is for cash only and without it the customer paid the exact total. `session`: the
 * open till session whose drawer takes the cash.
 */
export const SaleInput = z
  .object({
    lines: z
      .array(SaleLineInput, { error: 'lines must be a list.' })
      .min(1, { error: 'A sale needs at least one line.' })
      .max(MAX_SALE_LINES, { error: `A sale has at most ${MAX_SALE_LINES} lines.` }),
    customer: Id.optional().describe('Customer id'),
    /** A discount on the whole cart, shared over the lines (DESIGN §12 step 3). */
    discount: DiscountInput.optional(),
    /** Needed only when a discount is above the store's limit or a line overrides stock. */
    approval: ApprovalInput.optional(),
    payment: z
      .object({
        method: z.enum(PAYMENT_METHODS, {
          error: `Payment method must be one of ${PAYMENT_METHODS.join(', ')}.`,
        }),
        tendered: Tendered.optional(),
      })
      .optional(),
    payments: PaymentsInput.optional(),
    session: Id.optional().describe('The open till session whose drawer takes the cash'),
    /**
     * The total the screen showed: when the server's computation gives another (a price, a rate
     * or the store's settings changed), the sale is refused with TOTAL_CHANGED and nothing is taken.
     */
    total: Cash('The total').optional(),
    /** DESIGN §21: a sale the device made offline, sent now. */
    offline: OfflineInput.optional(),
  })
  .refine((sale) => (sale.payment === undefined) !== (sale.payments === undefined), {
    error: 'A sale is paid by payment or by payments, one of the two.',
    path: ['payments'],
  })
  .refine((sale) => sale.payment?.tendered === undefined || sale.payment.method === 'cash', {
    error: 'Only a cash payment takes a tendered amount.',
    path: ['payment', 'tendered'],
  })
  .superRefine((sale, ctx) => {
    // DESIGN §21: an offline sale says its prices and total; only an offline sale says prices.
    if (sale.offline === undefined) {
      if (sale.lines.some((line) => line.unitPrice !== undefined || line.taxRate !== undefined))
        ctx.addIssue({
          code: 'custom',
          path: ['lines'],
          message: 'Only an offline sale gives its lines’ prices; the server prices the others.',
        });
      return;
    }
    if (sale.total === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['total'],
        message: 'An offline sale gives the total the device computed.',
      });
    sale.lines.forEach((line, at) => {
      if (line.unitPrice === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['lines', at, 'unitPrice'],
          message: 'An offline sale gives each line’s unit price.',
        });
      if (line.overrideStock !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['lines', at, 'overrideStock'],
          message: 'An offline sale is recorded as sold; it takes no overrideStock.',
        });
    });
    if (sale.approval !== undefined)
      ctx.addIssue({ code: 'custom', path: ['approval'], message: 'An offline sale carries no approval.' });
  });
export type SaleInput = z.input<typeof SaleInput>;

/** A tax rate as a line was taxed at it (a snapshot); null: untaxed (and every line before taxes). */
export const TaxRateSnapshot = z.object({ name: z.string(), rate: z.number() }).nullable();

/**
 * One line of a sale: its order, as sold (returns show in returnedQuantity and returnedTotal).
 * `discount` is its own and its cart share; `total` what the customer paid for it; `net` = total − tax.
 */
export const SaleLine = z.object({
  order: z.object({ _id: z.string() }),
  product: z.object({ _id: z.string().nullable(), name: z.string() }),
  quantity: z.number().int(),
  unitPrice: z.number(),
  gross: z.number(),
  discount: z.number(),
  tax: z.number(),
  taxRate: TaxRateSnapshot,
  total: z.number(),
  net: z.number(),
  returnedQuantity: z.number().int(),
  returnedTotal: z.number(),
  /** DESIGN §15: the lots the line took its units from; [] for a product without lots. */
  lots: z.array(OrderLot),
});

/** The store as it was at the sale (DESIGN §12), printed on the receipt. */
export const ReceiptStore = z.object({
  name: z.string(),
  address: z.string(),
  phone: z.string(),
  taxNumber: z.string(),
  receiptFooter: z.string(),
  currency: z.string(),
  pricesIncludeTax: z.boolean(),
});
export type ReceiptStore = z.infer<typeof ReceiptStore>;

/** A receipt's tax line: one per rate on its lines (0 % too); base is those lines' net. */
export const ReceiptTax = z.object({ name: z.string(), rate: z.number(), base: z.number(), tax: z.number() });
/** A sale as its receipt shows it. */
export const Sale = z.object({
  _id: z.string(),
  number: z.number().int().describe('Unique and increasing; shown as S-000123'),
  createdAt: z.string(),
  store: ReceiptStore,
  seller: z.object({ _id: z.string().nullable(), name: z.string() }),
  customer: z.object({ _id: z.string().nullable(), name: z.string() }).nullable(),
  lines: z.array(SaleLine),
  /** Σ gross of the lines. */
  subtotal: z.number(),
  /** Every discount (lines' own and the cart's). */
  discount: z.number(),
  tax: z.number(),
  taxes: z.array(ReceiptTax),
  total: z.number(),
  /** The sale's method (`split` when it had several payments); tendered: the cash handed over, or null. */
  payment: z.object({ method: z.enum(SALE_METHODS), tendered: z.number().nullable() }),
  /** Each payment in the order given: amount put towards the total; tendered, cash only, what was handed over. */
  payments: z.array(
    z.object({ method: z.enum(PAYMENT_METHODS), amount: z.number(), tendered: z.number().nullable() }),
  ),
  /** Cash handed back; null when no cash was paid. */
  change: z.number().nullable(),
  /** The till session the sale was made in, or null. */
  session: z.object({ _id: z.string(), number: z.number().int() }).nullable(),
  /** Refunds at the counter against this sale, oldest first. */
  refunds: z.array(RefundSummary),
  /** Where its units left from (DESIGN §17); every sale the server answers names it. */
  location: Named.optional(),
  /**
   * DESIGN §21: a sale made offline: the receipt number the device printed, when it reached the
   * server (createdAt is when it was sold) and why an admin should look at it (empty: nothing).
   */
  offline: z
    .object({ deviceNumber: z.string(), recordedAt: z.string(), review: z.array(ReviewReason) })
    .optional(),
});
export type Sale = z.infer<typeof Sale>;
export const SaleResponse = Ok.extend({ sale: Sale });

/** A sale in a list: no lines, their count, and what of it came back (units and money). */
export const SaleSummary = Sale.omit({
  lines: true,
  store: true,
  taxes: true,
  payments: true,
  session: true,
  refunds: true,
}).extend({
  lineCount: z.number().int(),
  returnedQuantity: z.number().int().describe('Units returned over all lines'),
  returnedTotal: z.number().describe('Money given back by returns over all lines'),
});
export type SaleSummary = z.infer<typeof SaleSummary>;
/**
 * The sales view's filters (DESIGN §16): `search` is a receipt number (S-000123, 123) or words
 * of the customer's name; from/to are days in the server's time zone, both included; customer
 * an id. Always one page, newest first.
 */
export const SaleQuery = PageQuery.extend({
  customer: Id.optional(),
  from: DateOnly.optional(),
  to: DateOnly.optional(),
}).superRefine(checkRange());
export type SaleQuery = z.input<typeof SaleQuery>;

/** The receipt number a search names (S-000123, s123, 000123, 123), or undefined when it is words. */
export function saleNumberSearched(search: string | undefined): number | undefined {
  const match = /^\s*(?:s-?)?(\d{1,15})\s*$/i.exec(search ?? '');
  if (!match?.[1]) return undefined;
  const number = Number(match[1]);
  return Number.isSafeInteger(number) ? number : undefined;
}
export const SaleListResponse = Ok.extend({ sales: z.array(SaleSummary) }).extend(PageInfo.shape);
export type SaleListResponse = z.infer<typeof SaleListResponse>;

/** How a receipt number is shown: S-000123. */
export function saleNumberLabel(number: number): string {
  return `S-${String(number).padStart(6, '0')}`;
}

/** DESIGN §21: the offline sales an admin should look at, open or closed. */
export const ReviewQuery = PageQuery.pick({ page: true, pageSize: true }).extend({
  status: z.enum(['open', 'closed'], { error: 'status must be open or closed.' }).optional(),
});
export type ReviewQuery = z.input<typeof ReviewQuery>;
export const ReviewItem = z.object({
  sale: z.object({ _id: z.string(), number: z.number().int() }),
  deviceNumber: z.string(),
  soldAt: z.string(),
  recordedAt: z.string(),
  seller: z.object({ _id: z.string().nullable(), name: z.string() }),
  total: z.number(),
  review: z.array(ReviewReason),
  note: z.string().optional(),
  reviewedBy: z.object({ _id: z.string().nullable(), name: z.string() }).optional(),
  reviewedAt: z.string().optional(),
});
export type ReviewItem = z.infer<typeof ReviewItem>;
export const ReviewListResponse = Ok.extend({ sales: z.array(ReviewItem) }).extend(PageInfo.shape);
export const ReviewInput = z.object({
  note: z
    .string({ error: 'note must be text.' })
    .trim()
    .min(1, { error: 'Say what was done: note must not be empty.' })
    .max(500, { error: 'note must be at most 500 characters.' })
    .refine((text) => !text.includes('\u0000'), { error: 'note must not contain NUL.' }),
});
export type ReviewInput = z.input<typeof ReviewInput>;
export const ReviewResponse = Ok.extend({ review: ReviewItem });
