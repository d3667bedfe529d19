import { z } from 'zod';
import { DateOnly, Id, MAX, Named, Ok, optionalText } from './common';
import { centsNumber, type LineRate, lineTax, toCents } from './money';
import { ExportFormat, PageInfo, PageQuery } from './paging';

/**
 * DESIGN §20: suppliers' bills and the payments that settle them. Money is exact to the cent, as
 * numbers with at most two decimals; a bill's prices are without tax.
 */

/** BL-000001 and PY-000001. */
export const billNumberLabel = (n: number) => `BL-${String(n).padStart(6, '0')}`;
export const paymentNumberLabel = (n: number) => `PY-${String(n).padStart(6, '0')}`;

export const BILL_STATUSES = ['draft', 'posted', 'partiallyPaid', 'paid', 'void'] as const;
export const BillStatus = z.enum(BILL_STATUSES, {
  error: `status must be one of ${BILL_STATUSES.join(', ')}.`,
});
export type BillStatus = z.infer<typeof BillStatus>;
/** The statuses of a bill that is owed (allocations go to these). */
export const PAYABLE_STATUSES = ['posted', 'partiallyPaid'] as const satisfies readonly BillStatus[];

export const PAYMENT_METHODS = ['bank', 'cash', 'card'] as const;
export const SupplierPaymentMethod = z.enum(PAYMENT_METHODS, {
  error: `method must be one of ${PAYMENT_METHODS.join(', ')}.`,
});
export type SupplierPaymentMethod = z.infer<typeof SupplierPaymentMethod>;

/** The most one bill line or payment may be: 12 digits before the point. */
export const MAX_BILL_AMOUNT = 9_999_999_999.99;
export const MAX_BILL_LINES = 200;
export const MAX_ALLOCATIONS = 200;

const Price = z
  .number({ error: 'unitPrice must be a number.' })
  .min(0, { error: 'unitPrice must be 0 or more.' })
  .max(99_999_999.99, { error: 'unitPrice is too large.' })
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
    error: 'unitPrice has at most 2 decimals.',
  });
const PositiveAmount = z
  .number({ error: 'amount must be a number.' })
  .gt(0, { error: 'amount must be above 0.' })
  .max(MAX_BILL_AMOUNT, { error: 'amount is too large.' })
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
    error: 'amount has at most 2 decimals.',
  });

export const BillLineInput = z.object({
  /** A line of a purchase order of the bill's supplier: bills its received − billed units. */
  purchaseOrderLine: Id.optional(),
  description: optionalText(MAX.name).optional(),
  quantity: z
    .number({ error: 'quantity must be a number.' })
    .int({ error: 'quantity must be a whole number.' })
    .min(1, { error: 'quantity must be at least 1.' })
    .max(1_000_000, { error: 'quantity must be at most 1,000,000.' }),
  unitPrice: Price,
  /** A tax rate's id (DESIGN §12); without one the line has no tax. */
  taxRate: Id.optional(),
  /** The account of a line not on a purchase order (freight, services): an expense or asset. */
  account: Id.optional(),
});
export type BillLineInput = z.input<typeof BillLineInput>;

export const BillInput = z
  .object({
    supplier: Id,
    reference: z
      .string({ error: 'reference must be text.' })
      .trim()
      .min(1, { error: "reference is the supplier's invoice number: it must not be empty." })
      .max(100, { error: 'reference must be at most 100 characters.' })
      .refine((text) => !text.includes('\u0000'), { error: 'reference must not contain NUL.' }),
    date: DateOnly,
    dueDate: DateOnly.optional(),
    lines: z
      .array(BillLineInput, { error: 'lines must be a list.' })
      .min(1, { error: 'A bill needs at least one line.' })
      .max(MAX_BILL_LINES, { error: `A bill has at most ${MAX_BILL_LINES} lines.` }),
    note: optionalText(MAX.note).optional(),
  })
  .superRefine((bill, ctx) => {
    if (bill.dueDate !== undefined && bill.dueDate < bill.date)
      ctx.addIssue({
        code: 'custom',
        path: ['dueDate'],
        message: 'The due date is on or after the bill date.',
      });
    bill.lines.forEach((line, at) => {
      if (line.purchaseOrderLine === undefined && line.account === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['lines', at, 'account'],
          message: 'A line not on a purchase order needs an account (freight, services).',
        });
      if (line.purchaseOrderLine !== undefined && line.account !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['lines', at, 'account'],
          message: 'A purchase order line is billed to goods received: it takes no account.',
        });
    });
    const onLines = bill.lines.map((line) => line.purchaseOrderLine).filter((line) => line !== undefined);
    if (new Set(onLines).size !== onLines.length)
      ctx.addIssue({
        code: 'custom',
        path: ['lines'],
        message: 'Each purchase order line is billed on one line of the bill.',
      });
  });
export type BillInput = z.input<typeof BillInput>;

export const BillLine = z.object({
  _id: z.string(),
  purchaseOrderLine: z
    .object({
      _id: z.string(),
      purchaseOrder: z.object({ _id: z.string(), number: z.string() }),
      product: Named,
      unitCost: z.number(),
    })
    .optional(),
  description: z.string(),
  quantity: z.number().int(),
  unitPrice: z.number(),
  taxRate: z.object({ _id: z.string().nullable(), name: z.string(), rate: z.number() }).nullable(),
  account: z.object({ _id: z.string(), code: z.string(), name: z.string() }),
  net: z.number(),
  tax: z.number(),
});
export type BillLine = z.infer<typeof BillLine>;

export const BillPaymentRef = z.object({
  _id: z.string(),
  number: z.string(),
  date: z.string(),
  method: SupplierPaymentMethod,
  amount: z.number(),
});

export const Bill = z.object({
  _id: z.string(),
  number: z.string(),
  supplier: Named,
  reference: z.string(),
  date: z.string(),
  /** The bill's date when it names no due date. */
  dueDate: z.string(),
  status: BillStatus,
  note: z.string(),
  lines: z.array(BillLine),
  net: z.number(),
  tax: z.number(),
  total: z.number(),
  paid: z.number(),
  open: z.number(),
  /** Days past the due date today (0 when not due, or not owed). */
  overdueDays: z.number().int(),
  /** The entry that posted it, and the reversal that voided it. */
  entry: z.object({ _id: z.string(), number: z.string() }).optional(),
  voidEntry: z.object({ _id: z.string(), number: z.string() }).optional(),
  /** The allocations of payments to it (GET /api/bills/:id). */
  payments: z.array(BillPaymentRef.extend({ allocated: z.number() })).optional(),
  createdAt: z.string(),
  postedAt: z.string().nullable(),
  voidedAt: z.string().nullable(),
});
export type Bill = z.infer<typeof Bill>;
export const BillResponse = Ok.extend({ bill: Bill });

const Flag = z
  .enum(['true', 'false'], { error: 'overdue must be true or false.' })
  .transform((value) => value === 'true');

export const BillQuery = PageQuery.pick({ page: true, pageSize: true }).extend({
  supplier: Id.optional(),
  status: BillStatus.optional(),
  /** true: only bills owed past their due date. */
  overdue: Flag.optional(),
});
export type BillQuery = z.input<typeof BillQuery>;
/** Overdue first (most days first), then by due date, newest bill last. */
export const BillListResponse = Ok.extend({ bills: z.array(Bill) }).extend(PageInfo.shape);

export const AllocationInput = z.object({ bill: Id, amount: PositiveAmount });
const Allocations = z
  .array(AllocationInput, { error: 'allocations must be a list.' })
  .max(MAX_ALLOCATIONS, { error: `A payment has at most ${MAX_ALLOCATIONS} allocations.` })
  .refine((list) => new Set(list.map((a) => a.bill)).size === list.length, {
    error: 'Each bill is allocated once.',
  });

export const SupplierPaymentInput = z
  .object({
    supplier: Id,
    date: DateOnly,
    amount: PositiveAmount,
    method: SupplierPaymentMethod,
    /** Cash from this open till session (its report counts it as cash out). */
    session: Id.optional(),
    allocations: Allocations.default([]),
  })
  .superRefine((payment, ctx) => {
    if (payment.session !== undefined && payment.method !== 'cash')
      ctx.addIssue({
        code: 'custom',
        path: ['session'],
        message: 'Only a cash payment comes from a till session.',
      });
  });
export type SupplierPaymentInput = z.input<typeof SupplierPaymentInput>;

export const AllocateInput = z.object({
  allocations: Allocations.refine((list) => list.length > 0, { error: 'Allocate to at least one bill.' }),
});
export type AllocateInput = z.input<typeof AllocateInput>;

export const SupplierPayment = z.object({
  _id: z.string(),
  number: z.string(),
  supplier: Named,
  date: z.string(),
  amount: z.number(),
  method: SupplierPaymentMethod,
  session: z.object({ _id: z.string(), number: z.string() }).optional(),
  allocations: z.array(
    z.object({ bill: z.object({ _id: z.string(), number: z.string() }), amount: z.number() }),
  ),
  unallocated: z.number(),
  entry: z.object({ _id: z.string(), number: z.string() }).optional(),
  createdAt: z.string(),
});
export type SupplierPayment = z.infer<typeof SupplierPayment>;
export const SupplierPaymentResponse = Ok.extend({ payment: SupplierPayment });
export const SupplierPaymentQuery = PageQuery.pick({ page: true, pageSize: true }).extend({
  supplier: Id.optional(),
  /** true: only payments with some of their amount not allocated yet. */
  unallocated: z
    .enum(['true', 'false'], { error: 'unallocated must be true or false.' })
    .transform((value) => value === 'true')
    .optional(),
});
export const SupplierPaymentListResponse = Ok.extend({ payments: z.array(SupplierPayment) }).extend(
  PageInfo.shape,
);

/** What is owed to each supplier at a day, by days past due (DESIGN §20). */
const Aged = z.object({
  notDue: z.number(),
  days1to30: z.number(),
  days31to60: z.number(),
  days61to90: z.number(),
  over90: z.number(),
  /** What the supplier holds of ours: payments not allocated (positive). */
  unallocated: z.number(),
  /** Σ open − unallocated = the balance of 2000 Accounts payable. */
  total: z.number(),
});
export type Aged = z.infer<typeof Aged>;
export const AGING_BUCKETS = ['notDue', 'days1to30', 'days31to60', 'days61to90', 'over90'] as const;
export const PayablesQuery = z.object({ at: DateOnly.optional(), format: ExportFormat });
export const PayablesResponse = Ok.extend({
  at: z.string(),
  suppliers: z.array(Aged.extend({ supplier: Named })),
  totals: Aged,
});
export type PayablesResponse = z.infer<typeof PayablesResponse>;

export const ReceivedNotBilledQuery = z.object({ supplier: Id.optional(), format: ExportFormat });
export const ReceivedNotBilledResponse = Ok.extend({
  lines: z.array(
    z.object({
      purchaseOrder: z.object({ _id: z.string(), number: z.string() }),
      supplier: Named,
      line: z.string(),
      product: Named,
      unitCost: z.number(),
      received: z.number().int(),
      billed: z.number().int(),
      /** (received − billed) × the line's unit cost. */
      value: z.number(),
    }),
  ),
  /** Σ value = the balance of 2100 Goods received not billed. */
  total: z.number(),
});
export type ReceivedNotBilledResponse = z.infer<typeof ReceivedNotBilledResponse>;

const RateRow = z.object({ name: z.string(), rate: z.number(), base: z.number(), tax: z.number() });
export const TaxReturnResponse = Ok.extend({
  from: z.string(),
  to: z.string(),
  /** Sales less refunds and returns, by rate, on the days the books date them. */
  output: z.array(RateRow),
  /** Posted bills (less those voided), by rate. */
  input: z.array(RateRow),
  outputTax: z.number(),
  inputTax: z.number(),
  /** output − input: the change of 2200 − 1400 over those days. */
  net: z.number(),
});
export type TaxReturnResponse = z.infer<typeof TaxReturnResponse>;

/**
 * A bill's lines priced (DESIGN §20, §12's rounding): net = quantity × unit price, tax per line =
 * round(net × rate / 100) half away from zero, total = net + tax. The bill screen's preview and the
 * server both call it.
 */
export function priceBill(
  lines: readonly { quantity: number; unitPrice: number | string; taxRate: LineRate }[],
) {
  const priced = lines.map((line) => {
    const net = toCents(line.unitPrice) * BigInt(line.quantity);
    const tax = line.taxRate ? lineTax(net, line.taxRate.rate) : 0n;
    return { net, tax, total: net + tax };
  });
  const sum = (pick: (line: { net: bigint; tax: bigint; total: bigint }) => bigint) =>
    priced.reduce((a, line) => a + pick(line), 0n);
  return { lines: priced, net: sum((l) => l.net), tax: sum((l) => l.tax), total: sum((l) => l.total) };
}

/** priceBill's figures as money numbers, for a screen. */
export function billFigures(lines: readonly { quantity: number; unitPrice: number; taxRate: LineRate }[]) {
  const priced = priceBill(lines);
  return { net: centsNumber(priced.net), tax: centsNumber(priced.tax), total: centsNumber(priced.total) };
}
