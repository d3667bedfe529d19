import { z } from 'zod';
import { checkRange, DateOnly, Id, Named, Ok, optionalText, requiredText } from './common';
import { LocationId, LocationName } from './locations';
import { centsNumber, toCents } from './money';
import { Quantity } from './orders';
import { PageInfo, PageQuery } from './paging';

/**
 * The till (DESIGN §13): registers, their sessions, cash in and out, split payments, refunds at
 * the counter and store credit. Inputs are checked here for the server and the screens alike;
 * `settlePayments` and `sessionReport` are the one computation of change and of a drawer.
 */

/** How a customer may pay: `storeCredit` needs the sale's customer and at most their balance. */
export const PAYMENT_METHODS = ['cash', 'card', 'other', 'storeCredit'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** How each payment method is written on screens and receipts. */
export const PAYMENT_LABEL: Record<PaymentMethod, string> = {
  cash: 'Cash',
  card: 'Card',
  other: 'Other',
  storeCredit: 'Store credit',
};
/** A sale's method as lists show it: its one payment's, or `split` when it had several. */
export const SALE_METHODS = [...PAYMENT_METHODS, 'split'] as const;
export type SaleMethod = (typeof SALE_METHODS)[number];
export const SALE_METHOD_LABEL: Record<SaleMethod, string> = { ...PAYMENT_LABEL, split: 'Split' };

/** The most payments one sale may have. */
export const MAX_PAYMENTS = 10;

const MAX_MONEY = 999_999_999.99;
const twoDecimals = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

/** Money ≥ 0 with at most 2 decimals, named in its messages (`label` starts a sentence). */
export const Cash = (label: string) =>
  z
    .number({ error: `${label} must be a number.` })
    .min(0, { error: `${label} must be 0 or more.` })
    .max(MAX_MONEY, { error: `${label} is too large.` })
    .refine(twoDecimals, { error: `${label} has at most 2 decimals.` });

/** Signed money, not 0, at most 2 decimals: + put in (or credited), − taken out. */
export const SignedCash = (label: string) =>
  z
    .number({ error: `${label} must be a number.` })
    .min(-MAX_MONEY, { error: `${label} is too large.` })
    .max(MAX_MONEY, { error: `${label} is too large.` })
    .refine((value) => value !== 0, { error: `${label} must not be 0.` })
    .refine(twoDecimals, { error: `${label} has at most 2 decimals.` });

export const TILL_MAX = { registerName: 50, reason: 200, note: 500 } as const;

// ---------------------------------------------------------------------------------------------
// Registers and sessions

export const Register = z.object({
  _id: z.string(),
  name: z.string(),
  active: z.boolean(),
  /** Where its sessions' sales take stock from (DESIGN §17). */
  location: LocationName,
});
export type Register = z.infer<typeof Register>;
export const RegisterInput = z.object({
  name: requiredText(TILL_MAX.registerName, 'Register name'),
  /** A location id; missing: the default location. */
  location: LocationId.optional(),
});
export type RegisterInput = z.input<typeof RegisterInput>;
/** A register's change: the fields it names (location only while no session is open). */
export const RegisterUpdate = z.object({
  name: requiredText(TILL_MAX.registerName, 'Register name').optional(),
  active: z.boolean({ error: 'active must be true or false.' }).optional(),
  location: LocationId.optional(),
});
export type RegisterUpdate = z.input<typeof RegisterUpdate>;
export const RegisterResponse = Ok.extend({ register: Register });
export const RegisterListResponse = Ok.extend({ registers: z.array(Register) });
export type RegisterListResponse = z.infer<typeof RegisterListResponse>;

export const OpenSessionInput = z.object({ openingFloat: Cash('The opening float') });
export type OpenSessionInput = z.input<typeof OpenSessionInput>;
/** Cash put in (> 0) or taken out (< 0) of the drawer, with why. */
export const CashMovementInput = z.object({
  amount: SignedCash('The amount'),
  reason: requiredText(TILL_MAX.reason, 'A reason'),
  /** DESIGN §19: the account the cash comes from (in) or goes to (out); omitted, 1050 Safe / 6900 General expenses. */
  account: Id.optional(),
});
export type CashMovementInput = z.input<typeof CashMovementInput>;
export const CloseSessionInput = z.object({
  countedCash: Cash('The counted cash'),
  note: optionalText(TILL_MAX.note).optional(),
});
export type CloseSessionInput = z.input<typeof CloseSessionInput>;

export const SESSION_STATUSES = ['open', 'closed'] as const;
export const RegisterSession = z.object({
  _id: z.string(),
  number: z.number().int(),
  register: Named,
  /** Its register's location (DESIGN §17): where the session's sales take stock from. */
  location: LocationName,
  status: z.enum(SESSION_STATUSES),
  openedBy: z.object({ _id: z.string().nullable(), name: z.string() }),
  openedAt: z.string(),
  openingFloat: z.number(),
  closedBy: z.object({ _id: z.string().nullable(), name: z.string() }).nullable(),
  closedAt: z.string().nullable(),
  /** Null while open. */
  countedCash: z.number().nullable(),
  note: z.string(),
});
export type RegisterSession = z.infer<typeof RegisterSession>;

/** A drawer's figures as the database sums them for one session (money as exact text). */
export type SessionFigures = {
  openingFloat: string;
  /** Count and total of the session's sales. */
  sales: { count: number; total: string };
  /** Count and total of the session's refunds. */
  refunds: { count: number; total: string };
  /** Per method: what sales put towards their totals (cash net of change) and what refunds gave back. */
  payments: { method: PaymentMethod; in: string; out: string }[];
  /** Σ of the cash movements put in (> 0) and, as a positive amount, taken out. */
  cashIn: string;
  cashOut: string;
  /** Every discount on the session's sales. */
  discount: string;
  /** The session's sales' tax by rate, less what its refunds gave back of it. */
  taxes: { name: string; rate: number; base: string; tax: string }[];
  /** Null while open. */
  countedCash: string | null;
};

export const SessionReport = z.object({
  sales: z.object({ count: z.number().int(), total: z.number() }),
  refunds: z.object({ count: z.number().int(), total: z.number() }),
  payments: z.array(z.object({ method: z.enum(PAYMENT_METHODS), in: z.number(), out: z.number() })),
  cashIn: z.number(),
  cashOut: z.number(),
  expectedCash: z.number(),
  /** Null while open (an X report). */
  countedCash: z.number().nullable(),
  /** countedCash − expectedCash: over > 0, short < 0; null while open. */
  difference: z.number().nullable(),
  discount: z.number(),
  taxes: z.array(z.object({ name: z.string(), rate: z.number(), base: z.number(), tax: z.number() })),
});
export type SessionReport = z.infer<typeof SessionReport>;

/**
 * A session's report (DESIGN §13) from its figures: expectedCash = opening float + cash sales
 * took (net of change) − cash refunds gave back + cash put in − cash taken out; difference =
 * counted − expected. Every method appears in `payments`, in PAYMENT_METHODS order.
 */
export function sessionReport(figures: SessionFigures): SessionReport {
  const cash = figures.payments.find((payment) => payment.method === 'cash');
  const expected =
    toCents(figures.openingFloat) +
    toCents(cash?.in ?? '0') -
    toCents(cash?.out ?? '0') +
    toCents(figures.cashIn) -
    toCents(figures.cashOut);
  const counted = figures.countedCash === null ? null : toCents(figures.countedCash);
  return {
    sales: { count: figures.sales.count, total: centsNumber(toCents(figures.sales.total)) },
    refunds: { count: figures.refunds.count, total: centsNumber(toCents(figures.refunds.total)) },
    payments: PAYMENT_METHODS.map((method) => {
      const found = figures.payments.find((payment) => payment.method === method);
      return {
        method,
        in: centsNumber(toCents(found?.in ?? '0')),
        out: centsNumber(toCents(found?.out ?? '0')),
      };
    }),
    cashIn: centsNumber(toCents(figures.cashIn)),
    cashOut: centsNumber(toCents(figures.cashOut)),
    expectedCash: centsNumber(expected),
    countedCash: counted === null ? null : centsNumber(counted),
    difference: counted === null ? null : centsNumber(counted - expected),
    discount: centsNumber(toCents(figures.discount)),
    taxes: figures.taxes.map((tax) => ({
      name: tax.name,
      rate: tax.rate,
      base: centsNumber(toCents(tax.base)),
      tax: centsNumber(toCents(tax.tax)),
    })),
  };
}

export const SessionResponse = Ok.extend({ session: RegisterSession, report: SessionReport });
export type SessionResponse = z.infer<typeof SessionResponse>;
/** Sessions newest first; admins see all, others their own. from/to: days opened, both included. */
export const SessionQuery = PageQuery.omit({ search: true })
  .extend({
    register: Id.optional(),
    status: z.enum(SESSION_STATUSES, { error: 'status must be open or closed.' }).optional(),
    from: DateOnly.optional(),
    to: DateOnly.optional(),
  })
  .superRefine(checkRange());
export type SessionQuery = z.input<typeof SessionQuery>;
/** A session in a list: with its expected cash and difference (null while open). */
export const SessionSummary = RegisterSession.extend({
  expectedCash: z.number().nullable(),
  difference: z.number().nullable(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;
export const SessionListResponse = Ok.extend({ sessions: z.array(SessionSummary) }).extend(PageInfo.shape);
export type SessionListResponse = z.infer<typeof SessionListResponse>;
export const CashMovement = z.object({
  _id: z.string(),
  amount: z.number(),
  reason: z.string(),
  user: z.object({ _id: z.string().nullable(), name: z.string() }),
  at: z.string(),
});
export const CashMovementResponse = Ok.extend({ movement: CashMovement, report: SessionReport });

/** How a session number is shown: #12. */
export function sessionNumberLabel(number: number): string {
  return `#${number}`;
}

// ---------------------------------------------------------------------------------------------
// Split payments

/** One payment of a sale: cash `amount` is what was handed over (change comes back from it). */
export const PaymentInput = z.object({
  method: z.enum(PAYMENT_METHODS, {
    error: `Payment method must be one of ${PAYMENT_METHODS.join(', ')}.`,
  }),
  amount: Cash('A payment amount'),
});
export type PaymentInput = z.infer<typeof PaymentInput>;
export const PaymentsInput = z
  .array(PaymentInput, { error: 'payments must be a list.' })
  .min(1, { error: 'A sale needs at least one payment.' })
  .max(MAX_PAYMENTS, { error: `A sale has at most ${MAX_PAYMENTS} payments.` });

/** A payment as a sale keeps it: `amount` put towards the total; `tendered` what cash handed over. */
export type SettledPayment = { method: PaymentMethod; amount: bigint; tendered: bigint | null };
export type Settlement = { payments: SettledPayment[]; change: bigint };
export type PaymentProblem = { problem: 'nonCashAboveTotal' } | { problem: 'short'; missing: bigint };

/**
 * Payments against a total, in cents (DESIGN §13): the non-cash amounts may not exceed the total,
 * all together must cover it, and only cash gives change (Σ amounts − total, which the rules above
 * keep within the cash paid). The change comes out of the last cash payments first, so each
 * payment's `amount` is what it put towards the total and the amounts add up to it exactly.
 */
export function settlePayments(
  total: bigint,
  payments: readonly PaymentInput[],
): Settlement | PaymentProblem {
  return settleCents(
    total,
    payments.map((payment) => ({ method: payment.method, amount: toCents(payment.amount) })),
  );
}

/** A payment in cents, as the server holds a sale's from its parsed request on. */
export type CentsPayment = { method: PaymentMethod; amount: bigint };

/** settlePayments of payments already in cents. */
export function settleCents(total: bigint, payments: readonly CentsPayment[]): Settlement | PaymentProblem {
  const cents = payments.map((payment) => payment.amount);
  const nonCash = payments.reduce(
    (sum, payment, at) => (payment.method === 'cash' ? sum : sum + (cents[at] as bigint)),
    0n,
  );
  if (nonCash > total) return { problem: 'nonCashAboveTotal' };
  const given = cents.reduce((a, b) => a + b, 0n);
  if (given < total) return { problem: 'short', missing: total - given };
  const change = given - total;
  let left = change;
  const settled = payments.map((payment, at) => ({
    method: payment.method,
    amount: cents[at] as bigint,
    tendered: payment.method === 'cash' ? (cents[at] as bigint) : null,
  }));
  for (let at = settled.length - 1; at >= 0 && left > 0n; at -= 1) {
    const payment = settled[at] as SettledPayment;
    if (payment.method !== 'cash') continue;
    // bigint: the smaller of what this payment put in and the change still to give.
    if (payment.amount <= left) {
      left -= payment.amount;
      payment.amount = 0n;
    } else {
      payment.amount -= left;
      left = 0n;
    }
  }
  return { payments: settled, change };
}

export function isPaymentProblem(settled: Settlement | PaymentProblem): settled is PaymentProblem {
  return 'problem' in settled;
}

// ---------------------------------------------------------------------------------------------
// Refunds at the counter

/** A refund: which lines (orders of the sale) and how many units of each. */
export const RefundInput = z.object({
  lines: z
    .array(z.object({ order: Id, quantity: Quantity }), { error: 'lines must be a list.' })
    .min(1, { error: 'A refund needs at least one line.' })
    .max(100, { error: 'A refund has at most 100 lines.' }),
  method: z.enum(PAYMENT_METHODS, {
    error: `Refund method must be one of ${PAYMENT_METHODS.join(', ')}.`,
  }),
  /** true (default): the units go back on the shelf; false: they are written off as damaged. */
  restock: z.boolean({ error: 'restock must be true or false.' }).default(true),
  /** The open session whose drawer pays a cash refund. */
  session: Id.optional(),
  reason: optionalText(TILL_MAX.reason).optional(),
  /** Where the units go back, or are written off (DESIGN §17); absent: where they left from. */
  location: LocationId.optional(),
});
export type RefundInput = z.input<typeof RefundInput>;

export const RefundLine = z.object({
  order: z.object({ _id: z.string() }),
  product: z.object({ _id: z.string().nullable(), name: z.string() }),
  quantity: z.number().int(),
  amount: z.number(),
  tax: z.number(),
});
export const Refund = z.object({
  _id: z.string(),
  number: z.number().int().describe('Unique and increasing; shown as R-000123'),
  sale: z.object({ _id: z.string(), number: z.number().int() }),
  session: z.object({ _id: z.string(), number: z.number().int() }).nullable(),
  lines: z.array(RefundLine),
  total: z.number(),
  tax: z.number(),
  method: z.enum(PAYMENT_METHODS),
  restock: z.boolean(),
  reason: z.string(),
  customer: z.object({ _id: z.string().nullable(), name: z.string() }).nullable(),
  user: z.object({ _id: z.string().nullable(), name: z.string() }),
  createdAt: z.string(),
});
export type Refund = z.infer<typeof Refund>;
export const RefundResponse = Ok.extend({ refund: Refund });
export type RefundResponse = z.infer<typeof RefundResponse>;
/** A refund as its sale's receipt lists it. */
export const RefundSummary = Refund.pick({
  _id: true,
  number: true,
  total: true,
  method: true,
  createdAt: true,
});

/** How a refund number is shown: R-000123. */
export function refundNumberLabel(number: number): string {
  return `R-${String(number).padStart(6, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Store credit

export const CREDIT_KINDS = ['refund', 'sale', 'adjustment'] as const;
export const CreditEntry = z.object({
  _id: z.string(),
  at: z.string(),
  amount: z.number(),
  kind: z.enum(CREDIT_KINDS),
  sale: z.object({ _id: z.string(), number: z.number().int() }).nullable(),
  refund: z.object({ _id: z.string(), number: z.number().int() }).nullable(),
  user: z.object({ _id: z.string().nullable(), name: z.string() }),
  note: z.string(),
  balanceAfter: z.number(),
});
export type CreditEntry = z.infer<typeof CreditEntry>;
/** A customer's balance and their entries, newest first, one page. */
export const CreditResponse = Ok.extend({ balance: z.number(), entries: z.array(CreditEntry) }).extend(
  PageInfo.shape,
);
export type CreditResponse = z.infer<typeof CreditResponse>;
export const CreditQuery = PageQuery.omit({ search: true });
/** An admin's adjustment: + gives credit, − takes it (never below 0: 409). */
export const CreditAdjustmentInput = z.object({
  amount: SignedCash('The amount'),
  note: requiredText(TILL_MAX.note, 'A note'),
});
export type CreditAdjustmentInput = z.input<typeof CreditAdjustmentInput>;
export const CreditAdjustmentResponse = Ok.extend({ balance: z.number(), entry: CreditEntry });
