import { formatMoney } from './money';

/**
 * Every refusal's stable code and, for those named by what they refuse, its one sentence (DESIGN
 * §3, decision 0041): a client decides by the code and shows the sentence, never matching its
 * text. The server builds each named refusal here (`refuse` in src/server/lib/errors.ts), the web
 * where it says the same thing itself, and a test holds the ledgers' triggers to these sentences.
 */

/** The codes of refusals that say no more than their status: the error handler's own. */
export const STATUS_CODES = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  431: 'HEADERS_TOO_LARGE',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
} as const;
export type StatusCode = (typeof STATUS_CODES)[keyof typeof STATUS_CODES];

/** The code of a refusal known by its status only (another 4xx is a BAD_REQUEST, another 5xx INTERNAL). */
export function codeOfStatus(status: number): StatusCode {
  const known = (STATUS_CODES as Record<number, StatusCode>)[status];
  if (known) return known;
  return status < 500 ? 'BAD_REQUEST' : 'INTERNAL';
}

/**
 * The refusals named by what they refuse: each its status and the one function building its
 * sentence from the facts it names. A refusal without facts is a function of none.
 */
export const REFUSALS = {
  /** A body or query that does not match its schema; its `details` say where. */
  VALIDATION: {
    status: 400,
    sentence: (facts: { path?: string; message: string }) =>
      facts.path ? `${facts.path}: ${facts.message}` : facts.message,
  },
  /** A movement or sale taking more than the stock: the ledger's IMS01 without a product, a sale's line with it. */
  NOT_ENOUGH_STOCK: {
    status: 409,
    sentence: (facts: { product?: string; left?: number } = {}) =>
      facts.product === undefined
        ? 'Not enough stock'
        : facts.left === 0
          ? `${facts.product} is out of stock.`
          : `Not enough stock of ${facts.product}: ${facts.left} left.`,
  },
  /**
   * A line short of unexpired units (DESIGN §15): it names its product, since a cart has many
   * lines. The counter's preview, the sale's own check and the ledger's trigger (IMS05, whose
   * DETAIL carries the count and the name) all say it.
   */
  UNEXPIRED_SHORT: {
    status: 409,
    sentence: (facts: { unexpired: number; product: string }) =>
      `Only ${facts.unexpired} of ${facts.product} unexpired in stock.`,
  },
  /** A movement taking a lot below zero (the ledger's IMS07). */
  LOT_SHORT: { status: 409, sentence: (facts: { lot: string }) => `Not enough stock in lot ${facts.lot}.` },
  /** Units said to expire otherwise than the known lot they name does: its expiry and the one given. */
  LOT_EXPIRY_DIFFERS: {
    status: 409,
    sentence: (facts: { lot: string; known: string | null; given: string | null }) =>
      facts.known === null
        ? `Lot ${facts.lot} has no expiry, not ${facts.given}.`
        : facts.given === null
          ? `Lot ${facts.lot} expires on ${facts.known}; it was given no expiry.`
          : `Lot ${facts.lot} expires on ${facts.known}, not ${facts.given}.`,
  },
  /** A movement of a lot-tracked product that names no lot (the ledger's IMS06 says it too). */
  LOT_NEEDED: { status: 400, sentence: () => 'Name the lot: this product is tracked by lot.' },
  /** A product's edit whose stock was not the stock any more; `stock` is the stock now. */
  STOCK_CHANGED: {
    status: 409,
    sentence: (facts: { from: number; to: number }) =>
      `Stock changed from ${facts.from} to ${facts.to} while you were editing`,
  },
  SKU_TAKEN: { status: 409, sentence: () => 'Another product already has this SKU.' },
  BARCODE_TAKEN: { status: 409, sentence: () => 'Another product already has this barcode.' },
  /** DESIGN §22: an inactive product is not sold (the sale's check, the counter's scan). */
  PRODUCT_INACTIVE: {
    status: 409,
    sentence: (facts: { product: string }) => `${facts.product} is inactive: it is not sold.`,
  },
  /** DESIGN §22: one variant per combination of an item's values. */
  VARIANT_EXISTS: {
    status: 409,
    sentence: (facts: { variant: string }) => `${facts.variant} already exists.`,
  },
  /** DESIGN §22: a value some variant has stays among its option's values. */
  OPTION_VALUE_IN_USE: {
    status: 409,
    sentence: (facts: { option: string; value: string }) =>
      `${facts.option} ${facts.value} is in use by a variant: remove that variant first.`,
  },
  /** DESIGN §22: an item's options are fixed once it has variants (their values may change). */
  ITEM_OPTIONS_FIXED: {
    status: 409,
    sentence: () => 'This item has variants, so its options stay: change their values instead.',
  },
  /** A category, tax rate or register named like one that exists (case-insensitive). */
  NAME_TAKEN: {
    status: 409,
    sentence: (facts: { kind: string; name: string }) =>
      `${/^[aeiou]/i.test(facts.kind) ? 'An' : 'A'} ${facts.kind} named "${facts.name}" already exists.`,
  },
  EMAIL_TAKEN: { status: 409, sentence: () => 'That email is already in use.' },
  /** A customer with the name and phone of one stored; `existing` names that one when known. */
  CUSTOMER_TAKEN: {
    status: 409,
    sentence: (facts: { name?: string; phone?: string } = {}) =>
      facts.name === undefined
        ? 'A customer with this name and phone already exists.'
        : facts.phone
          ? `A customer named ${facts.name} with phone ${facts.phone} already exists.`
          : `A customer named ${facts.name} with no phone already exists.`,
  },
  /** Another unique value already stored, of no index with a sentence of its own. */
  DUPLICATE: { status: 409, sentence: () => 'That already exists.' },
  /** A record other records still refer to. */
  IN_USE: { status: 409, sentence: () => 'That is still in use by other records.' },
  /** Spending or taking more store credit than a customer has (`balance` in the store's currency). */
  CREDIT_SHORT: {
    status: 409,
    sentence: (facts: { customer?: string; balance?: string } = {}) =>
      facts.customer === undefined
        ? 'Not enough store credit.'
        : `${facts.customer} has ${facts.balance} of store credit.`,
  },
  /**
   * A sale's total is not what the one money computation gives now (its prices, tax rates or
   * settings changed); the answer names the new `total` (decision 0038).
   */
  TOTAL_CHANGED: {
    status: 409,
    sentence: (facts: { now: number; shown: number; currency: string }) =>
      `The total is now ${formatMoney(facts.now, facts.currency)}, not ${formatMoney(facts.shown, facts.currency)} (prices or tax changed): check it with the customer and complete the sale again.`,
  },
  /** A discount or a stock override that needs a manager's approval, sent without one. */
  APPROVAL_NEEDED: { status: 403, sentence: () => "This discount needs a manager's approval." },
  /**
   * The one answer of an approval that does not approve, whatever the reason (a wrong PIN, an
   * email that is no active admin's, an admin without a PIN): so a manager sees they mistyped, and
   * no one learns from it which emails are admins' (DESIGN §12).
   */
  WRONG_PIN: {
    status: 403,
    sentence: (facts: { email: string }) => `That PIN is not right for ${facts.email}.`,
  },
  /** Too many wrong PINs for one approver's email. */
  TOO_MANY_PINS: {
    status: 429,
    sentence: (facts: { email: string; wait: string }) =>
      `Too many wrong PINs for ${facts.email}; ${facts.wait}.`,
  },
  /** Sign-in's one answer to an unknown email and a wrong password alike. */
  WRONG_CREDENTIALS: { status: 401, sentence: () => 'Invalid email or password' },
  /** The caller's own current password, asked before a change, is not theirs. */
  WRONG_PASSWORD: { status: 403, sentence: () => 'Your current password is wrong.' },
  /** Too many failed sign-ins (or checks of a current password) for the throttle. */
  TOO_MANY_ATTEMPTS: {
    status: 429,
    sentence: (facts: { wait: string }) => `Too many failed sign-in attempts; ${facts.wait}.`,
  },
  /** A user whose temporary password must be changed first. */
  MUST_CHANGE_PASSWORD: { status: 403, sentence: () => 'Change your password before you continue.' },
  DEACTIVATED: { status: 403, sentence: () => 'This account is deactivated.' },
  /** A token revoked (signed out, password changed) or of a user that is gone. */
  SIGNED_OUT: { status: 401, sentence: () => 'Your session is no longer valid; please sign in again.' },
  /** Too many expensive reads (searches, reports, exports) of one user at once (decision 0036). */
  BUSY: {
    status: 429,
    sentence: () => 'Too many searches, reports or exports at once; wait for the last one to finish.',
  },
  /** A search the indexes cannot narrow, stopped at the search time limit (decision 0036). */
  SEARCH_TOO_SLOW: {
    status: 503,
    sentence: () => 'This search took too long to answer; type more of the name, or choose a category.',
  },
  /** A sale, refund or cash movement of a till session that is closed; `session` names it when known. */
  SESSION_CLOSED: {
    status: 409,
    sentence: (facts: { session?: string } = {}) =>
      facts.session === undefined ? 'This till session is closed.' : `${facts.session} is closed.`,
  },
  /** A register that has an open session already. */
  SESSION_OPEN: {
    status: 409,
    sentence: () => 'This register already has an open session; close it before opening another.',
  },
  /** Taking out of a drawer more cash than it holds. */
  CASH_CAP: {
    status: 409,
    sentence: (facts: { holds: string; out?: string }) =>
      facts.out === undefined
        ? `The drawer holds only ${facts.holds}.`
        : `The drawer holds ${facts.holds}; you cannot take out ${facts.out}.`,
  },
  /** Giving back more of an order or a sale's line than is left of it. */
  RETURN_TOO_MANY: {
    status: 409,
    sentence: (facts: { product?: string; left: number }) =>
      facts.product === undefined
        ? facts.left === 0
          ? 'Every unit of this order was already returned.'
          : `Only ${facts.left} of this order can still be returned.`
        : facts.left === 0
          ? `Every unit of ${facts.product} was already given back.`
          : `Only ${facts.left} of ${facts.product} can still be refunded.`,
  },
  /** Drafting a purchase order for a supplier that has a draft; `existing` names the draft. */
  DRAFT_EXISTS: {
    status: 409,
    sentence: (facts: { supplier: string; draft: string }) =>
      `${facts.supplier} already has a draft purchase order, ${facts.draft}: open it to change it rather than drafting another.`,
  },
  /**
   * Locations (DESIGN §17). A line short at the location it takes from, even when another holds
   * it: it names the product and the location; the body's `elsewhere` says where else it is.
   */
  SHORT_AT_LOCATION: {
    status: 409,
    sentence: (facts: { product: string; location: string; left: number }) =>
      facts.left === 0
        ? `${facts.product} is out of stock at ${facts.location}.`
        : `Not enough stock of ${facts.product} at ${facts.location}: ${facts.left} left.`,
  },
  /** A location name another location has (ignoring case). */
  LOCATION_NAME_TAKEN: { status: 409, sentence: () => 'Another location already has this name.' },
  /** Deactivating a location that still holds something: `what` says which (stock, a till session, …). */
  LOCATION_IN_USE: {
    status: 409,
    sentence: (facts: { location: string; what: string }) =>
      `${facts.location} cannot be deactivated: it ${facts.what}.`,
  },
  /** An inactive location chosen for a register, purchase order, transfer, adjustment, count or sale. */
  LOCATION_INACTIVE: {
    status: 409,
    sentence: (facts: { location: string }) => `${facts.location} is inactive: choose an active location.`,
  },
  /** A transfer step its status does not allow (editing a sent one, receiving a draft, …). */
  TRANSFER_STATUS: {
    status: 409,
    sentence: (facts: { transfer: string; status: string; step: string }) =>
      `${facts.transfer} is ${facts.status}: it cannot be ${facts.step}.`,
  },
  /** A transfer line receiving more than is on the road: received + lost over what was sent. */
  TRANSFER_OVER_RECEIVED: {
    status: 409,
    sentence: (facts: { product: string; open: number }) =>
      `Only ${facts.open} of ${facts.product} are still in transit on this transfer.`,
  },
  /**
   * Stocktakes (DESIGN §18). Two open stocktakes sharing a product at one location: it names the
   * open one (the first, when several).
   */
  STOCKTAKE_OVERLAP: {
    status: 409,
    sentence: (facts: { stocktake: string; location: string; products: number }) =>
      `${facts.stocktake} is still counting ${facts.products === 1 ? 'one of these products' : `${facts.products.toLocaleString('en-US')} of these products`} at ${facts.location}: post or cancel it first.`,
  },
  /** A stocktake whose scope holds no product (no stock there, or empty categories). */
  STOCKTAKE_EMPTY: {
    status: 400,
    sentence: (facts: { location: string }) =>
      `There is nothing to count: no product is in this scope at ${facts.location}.`,
  },
  /** A count, post or cancel of a stocktake that is no longer counting. */
  STOCKTAKE_STATUS: {
    status: 409,
    sentence: (facts: { stocktake: string; status: string; step: string }) =>
      `${facts.stocktake} is ${facts.status}: it cannot be ${facts.step}.`,
  },
  /** A count of a product the stocktake does not count (or no product at all by that code). */
  STOCKTAKE_OUT_OF_SCOPE: {
    status: 400,
    sentence: (facts: { product: string; stocktake: string }) =>
      `${facts.product} is not counted in ${facts.stocktake}.`,
  },
  /** A filled count sheet with rows that cannot be read: `details` names each by its line. */
  STOCKTAKE_SHEET_INVALID: {
    status: 400,
    sentence: (facts: { rows: number }) =>
      `${facts.rows === 1 ? 'One row' : `${facts.rows.toLocaleString('en-US')} rows`} of the sheet cannot be counted, so nothing was counted.`,
  },
  /** A register whose location changes while one of its sessions is open. */
  REGISTER_SESSION_OPEN: {
    status: 409,
    sentence: (facts: { register: string }) =>
      `${facts.register} has an open session: close it before moving the register to another location.`,
  },
  /** DESIGN §19: an entry dated on or before the lock date, or a lock date that is not allowed. */
  BOOKS_LOCKED: {
    status: 409,
    sentence: (facts: { lockDate: string }) =>
      `The books are locked up to ${facts.lockDate}: date the entry after it.`,
  },
  LOCK_DATE_INVALID: {
    status: 409,
    sentence: (facts: { why: 'past' | 'today' | 'earlier'; lockDate?: string }) =>
      facts.why === 'earlier'
        ? `The books are locked up to ${facts.lockDate}: the lock date only moves forward.`
        : 'The lock date must be earlier than today.',
  },
  /** A manual entry whose debits and credits differ, or a line with both or neither. */
  ENTRY_UNBALANCED: {
    status: 400,
    sentence: (facts: { debit: string; credit: string }) =>
      `The entry does not balance: debits ${facts.debit}, credits ${facts.credit}.`,
  },
  ENTRY_LINE_SIDE: {
    status: 400,
    sentence: (facts: { line: number }) =>
      `Line ${facts.line} must have a debit or a credit above 0, not both.`,
  },
  /** An entry already reversed. */
  ENTRY_REVERSED: {
    status: 409,
    sentence: (facts: { entry: string; by: string }) => `${facts.entry} is already reversed by ${facts.by}.`,
  },
  /** An account code another account has. */
  ACCOUNT_CODE_TAKEN: {
    status: 409,
    sentence: (facts: { code: string }) => `Account ${facts.code} already exists.`,
  },
  /** Deactivating one of the accounts the postings use. */
  ACCOUNT_SYSTEM: {
    status: 409,
    sentence: (facts: { account: string }) => `${facts.account} is used by the postings and stays active.`,
  },
  /** A manual line on an inactive account. */
  ACCOUNT_INACTIVE: {
    status: 409,
    sentence: (facts: { account: string }) => `${facts.account} is inactive: post to an active account.`,
  },
  /** DESIGN §20: a supplier's invoice number the supplier has billed already (ignoring case). */
  BILL_REFERENCE_TAKEN: {
    status: 409,
    sentence: (facts: { supplier: string; reference: string; bill: string }) =>
      `${facts.supplier} has billed ${facts.reference} already: ${facts.bill}.`,
  },
  /** A bill asked to do what its status does not allow (change, post, void, be paid). */
  BILL_STATE: {
    status: 409,
    sentence: (facts: { bill: string; status: string; needs: 'draft' | 'posted' | 'payable' }) =>
      `${facts.bill} is ${facts.status}: ${
        facts.needs === 'draft'
          ? 'only a draft can be changed or posted'
          : facts.needs === 'posted'
            ? 'only a posted bill with nothing paid can be voided'
            : 'only a posted bill that is not paid in full takes a payment'
      }.`,
  },
  /** A bill line taking more units of a purchase order line than were received and not billed. */
  BILL_OVER_RECEIVED: {
    status: 409,
    sentence: (facts: { product: string; purchaseOrder: string; left: number; asked: number }) =>
      `${facts.product} on ${facts.purchaseOrder}: ${facts.left} received and not billed, not ${facts.asked}.`,
  },
  /** A bill line on another supplier's purchase order, or an account a bill does not post to. */
  BILL_LINE_INVALID: {
    status: 400,
    sentence: (facts: { line: number; why: 'supplier' | 'account' | 'inactive'; account?: string }) =>
      facts.why === 'supplier'
        ? `Line ${facts.line} is on a purchase order of another supplier.`
        : facts.why === 'inactive'
          ? `Line ${facts.line}: ${facts.account} is inactive.`
          : `Line ${facts.line}: ${facts.account} is not an expense or asset account.`,
  },
  /** A bill posted, or a payment made, with a date after today. */
  DATE_IN_FUTURE: {
    status: 409,
    sentence: (facts: { what: string; date: string }) =>
      `${facts.what} is dated ${facts.date}, after today: post it on or after that day.`,
  },
  /** Cash from a till is paid out today: the drawer holds it now. */
  PAYMENT_TILL_TODAY: {
    status: 409,
    sentence: (facts: { today: string }) => `Cash from a till is paid today (${facts.today}).`,
  },
  /** An allocation above the bill's open amount, or allocations above what the payment has left. */
  ALLOCATION_TOO_MUCH: {
    status: 409,
    sentence: (facts: { what: 'bill' | 'payment'; name: string; left: string; asked: string }) =>
      facts.what === 'bill'
        ? `${facts.name} has ${facts.left} open, less than ${facts.asked}.`
        : `${facts.name} has ${facts.left} left to allocate, less than ${facts.asked}.`,
  },
  /** A bill of another supplier named in a payment's allocations. */
  ALLOCATION_SUPPLIER: {
    status: 409,
    sentence: (facts: { bill: string; supplier: string }) =>
      `${facts.bill} is not a bill of ${facts.supplier}.`,
  },
  /** DESIGN §21: an offline sale's id sent again with another body, or by another seller. */
  OFFLINE_ID_TAKEN: {
    status: 409,
    sentence: (facts: { why: 'body' | 'seller' }) =>
      facts.why === 'body'
        ? 'This offline sale was already sent with other lines or payments.'
        : 'This offline sale was already sent by another seller.',
  },
  /** DESIGN §21: an offline sale sold in the future (past 5 minutes of clock skew), or too long ago to send. */
  OFFLINE_SOLD_AT: {
    status: 409,
    sentence: (facts: { why: 'future' | 'old'; hours?: number }) =>
      facts.why === 'future'
        ? "This sale's time is in the future: check the device's clock."
        : `This sale was made more than ${facts.hours} hours ago: an admin records it by hand.`,
  },
  /** DESIGN §21: an offline sale whose total is not its lines' as sent (a device's bug). */
  OFFLINE_TOTAL: {
    status: 400,
    sentence: (facts: { total: string; sent: string }) =>
      `The lines as sent come to ${facts.total}, not the ${facts.sent} sent.`,
  },
  /** DESIGN §21: what a counter does not do offline, sent offline. */
  OFFLINE_NOT_ALLOWED: {
    status: 400,
    sentence: () => 'Store credit is not spent offline.',
  },
  /** DESIGN §21: a review closed already. */
  REVIEW_CLOSED: {
    status: 409,
    sentence: (facts: { sale: string }) => `${facts.sale} has no open review.`,
  },
  /** A repeat of a keyed request while the first still runs, or the key used for another request. */
  IDEMPOTENCY_RUNNING: {
    status: 409,
    sentence: () => 'A request with this Idempotency-Key is still running.',
  },
  IDEMPOTENCY_REUSED: {
    status: 409,
    sentence: () => 'This Idempotency-Key was already used for a different request.',
  },
} as const;

export type RefusalCode = keyof typeof REFUSALS;

/** Every code a refusal answers with: a client decides by these, and shows the sentence. */
export const ERROR_CODES = [
  ...new Set([...Object.values(STATUS_CODES), ...(Object.keys(REFUSALS) as RefusalCode[])]),
] as readonly (StatusCode | RefusalCode)[];
export type ErrorCode = StatusCode | RefusalCode;

/** The facts a named refusal's sentence is built from (none for a sentence of none). */
export type RefusalArgs<C extends RefusalCode> = Parameters<(typeof REFUSALS)[C]['sentence']>;

/** The one sentence of the named refusal `code`. */
export function refusalSentence<C extends RefusalCode>(code: C, ...facts: RefusalArgs<C>): string {
  return (REFUSALS[code].sentence as (...given: RefusalArgs<C>) => string)(...facts);
}
