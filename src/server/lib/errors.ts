import {
  codeOfStatus,
  type ErrorCode,
  REFUSALS,
  type RefusalArgs,
  type RefusalCode,
  refusalSentence,
} from '../../shared/refusals';

/** The record a refusal names, so a screen can offer it (a duplicate's original, say). */
export type Existing = { _id: string; name: string };

/**
 * What a refusal says besides its sentence (see ApiError in src/shared/common.ts): its stable
 * `code` (by its status when not given), and each other field in the body only when given: the
 * record it names, for TOTAL_CHANGED the total, for STOCK_CHANGED the stock now.
 */
export type RefusalFacts = {
  code?: ErrorCode;
  existing?: Existing;
  total?: number;
  stock?: number;
  /** SHORT_AT_LOCATION (DESIGN §17): the product's stock at its other locations that hold some. */
  elsewhere?: Elsewhere;
  /** Where each of several problems is (STOCKTAKE_SHEET_INVALID: a sheet's rows, by line). */
  details?: ErrorDetail[];
};

/** One problem of several a refusal names (the shape of ApiError's details). */
export type ErrorDetail = { path: string; message: string };

/** Where else a product short at one location is held, and how many units each holds. */
export type Elsewhere = { location: { _id: string; name: string }; stock: number }[];

/** A business failure with the status, the stable code and the one sentence the client sees. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly existing: Existing | undefined;
  readonly total: number | undefined;
  readonly stock: number | undefined;
  readonly elsewhere: Elsewhere | undefined;
  readonly details: ErrorDetail[] | undefined;

  constructor(
    readonly status: number,
    message: string,
    facts: RefusalFacts = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = facts.code ?? codeOfStatus(status);
    this.existing = facts.existing;
    this.total = facts.total;
    this.stock = facts.stock;
    this.elsewhere = facts.elsewhere;
    this.details = facts.details;
  }
}

/** The answer's body for a business failure: the sentence, its code, and its facts when it has them. */
export function appErrorBody(
  error: AppError,
): { success: false; error: string; code: ErrorCode } & Omit<RefusalFacts, 'code'> {
  const { code, existing, total, stock, elsewhere, details } = error;
  return {
    success: false,
    error: error.message,
    code,
    ...(existing === undefined ? {} : { existing }),
    ...(total === undefined ? {} : { total }),
    ...(stock === undefined ? {} : { stock }),
    ...(elsewhere === undefined ? {} : { elsewhere }),
    ...(details === undefined ? {} : { details }),
  };
}

/** The named refusal `code`: its status and its one sentence (src/shared/refusals.ts). */
export function refuse<C extends RefusalCode>(code: C, ...facts: RefusalArgs<C>): AppError {
  return new AppError(REFUSALS[code].status, refusalSentence(code, ...facts), { code });
}

/** The named refusal `code` with the facts its body carries besides the sentence (`existing`, `total`, `stock`, `details`). */
export function refuseWith<C extends RefusalCode>(
  code: C,
  extra: Omit<RefusalFacts, 'code'>,
  ...facts: RefusalArgs<C>
): AppError {
  return new AppError(REFUSALS[code].status, refusalSentence(code, ...facts), { ...extra, code });
}

/** An id that names nothing of ours (404, NOT_FOUND): "Product not found." */
export const notFound = (what: string) => new AppError(404, `${what} not found.`);
export const forbidden = (message = 'You are not allowed to do that.') => new AppError(403, message);
export const conflict = (message: string, existing?: Existing) =>
  new AppError(409, message, existing ? { existing } : {});
export const badRequest = (message: string) => new AppError(400, message);
/** A record others still refer to (409, IN_USE), in a sentence that says what holds it. */
export const inUse = (message: string) => new AppError(409, message, { code: 'IN_USE' });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are opaque to clients: one that cannot be ours is simply unknown (404), never a 500. */
export function isId(value: string): boolean {
  return UUID.test(value);
}

/** Driver errors that mean the database is unreachable or overloaded, not that the request is bad. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code ?? '';
  if (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'ENOTFOUND',
      'EPIPE',
      '57P01',
      '57P02',
      '57P03',
      '08006',
      '08001',
      '08003',
      '08004',
      '53300',
      '57014',
    ].includes(code)
  ) {
    return true;
  }
  return /timeout exceeded when trying to connect|Connection terminated|Query read timeout|connection (is )?closed|PGlite is closed/i.test(
    error.message,
  );
}

/** The PostgreSQL error code of a failed statement, looking through Drizzle's wrapper. */
export function pgCode(error: unknown): string | undefined {
  return fromCauses(error, (current) => {
    const code = (current as { code?: unknown }).code;
    return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
  });
}

/** The DETAIL a statement was refused with (a RAISE's facts), looking through Drizzle's wrapper. */
export function pgDetail(error: unknown): string | undefined {
  return fromCauses(error, (current) => {
    const code = (current as { code?: unknown }).code;
    const detail = (current as { detail?: unknown }).detail;
    return typeof code === 'string' && typeof detail === 'string' ? detail : undefined;
  });
}

/** The message a statement was refused with (the RAISE's text), looking through Drizzle's wrapper. */
export function pgMessage(error: unknown): string | undefined {
  return fromCauses(error, (current) => {
    const code = (current as { code?: unknown }).code;
    const message = (current as { message?: unknown }).message;
    return typeof code === 'string' && typeof message === 'string' ? message : undefined;
  });
}

/** The first value `pick` finds on the error or its causes (Drizzle wraps the driver's error). */
function fromCauses<T>(error: unknown, pick: (current: object) => T | undefined): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current && typeof current === 'object'; depth++) {
    const found = pick(current);
    if (found !== undefined) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The ledgers' own refusals, raised inside a statement: IMS01 a movement that would take stock
 * below zero, IMS02 a movement for a product that does not exist (stock_movements_apply); IMS03
 * a store credit entry that would take a balance below zero, IMS04 one for a customer that does
 * not exist (store_credit_apply). Lots (DESIGN §15, stock_movements_apply): IMS05 a sale of more
 * than the unexpired lots hold, whose DETAIL carries the units and the product's name for the one
 * sentence of it (UNEXPIRED_SHORT); IMS06 a movement of a lot-tracked product that names no
 * lot where one must be named, IMS07 one that would take a lot below zero (each of these two the
 * trigger's own sentence, held to LOT_NEEDED's and LOT_SHORT's by refusals.test.ts), IMS08 a lot
 * that is not the product's. The books (DESIGN §19, journal_entries_unlocked): IMS11 an entry dated
 * on or before the lock date, whose DETAIL carries it.
 */
export const LEDGER_ERRORS: Record<string, (message: string, detail: string) => AppError> = {
  IMS01: () => refuse('NOT_ENOUGH_STOCK'),
  IMS02: () => notFound('Product'),
  IMS03: () => refuse('CREDIT_SHORT'),
  IMS04: () => notFound('Customer'),
  IMS05: (_message, detail) => {
    const facts = unexpiredFacts(detail);
    return facts ? refuse('UNEXPIRED_SHORT', facts) : refuse('NOT_ENOUGH_STOCK');
  },
  IMS06: (message) => new AppError(400, `${message}.`, { code: 'LOT_NEEDED' }),
  IMS07: (message) => new AppError(409, `${message}.`, { code: 'LOT_SHORT' }),
  IMS08: () => notFound('Lot'),
  IMS11: (_message, detail) => {
    const lockDate = (() => {
      try {
        return String((JSON.parse(detail) as { lockDate?: unknown }).lockDate ?? '');
      } catch {
        return '';
      }
    })();
    return refuse('BOOKS_LOCKED', { lockDate });
  },
};

/** The AppError a failure stands for: itself, or a ledger refusal; undefined for a real fault. */
export function businessError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  const code = pgCode(error);
  return code ? LEDGER_ERRORS[code]?.(pgMessage(error) ?? '', pgDetail(error) ?? '') : undefined;
}

/** IMS05's DETAIL, `{"unexpired": N, "product": "<name>"}`, or undefined when it is not that. */
function unexpiredFacts(detail: string): { unexpired: number; product: string } | undefined {
  try {
    const facts = JSON.parse(detail) as { unexpired?: unknown; product?: unknown };
    return typeof facts.unexpired === 'number' && typeof facts.product === 'string'
      ? { unexpired: facts.unexpired, product: facts.product }
      : undefined;
  } catch {
    return undefined;
  }
}

/** What a unique index refusing a value means, by the index's name. */
const DUPLICATES: Record<string, 'SKU_TAKEN' | 'BARCODE_TAKEN' | 'CUSTOMER_TAKEN'> = {
  products_sku_lower_key: 'SKU_TAKEN',
  products_barcode_lower_key: 'BARCODE_TAKEN',
  customers_duplicate_key: 'CUSTOMER_TAKEN',
};

/** The name of the constraint or unique index a failed statement broke, if any. */
export function violatedConstraint(error: unknown): string | undefined {
  return fromCauses(error, (current) => {
    const name = (current as { constraint?: unknown }).constraint;
    return typeof name === 'string' ? name : undefined;
  });
}

/** The refusal of a unique violation (23505): the index's own meaning, or a general one. */
export function duplicateRefusal(error: unknown): AppError {
  const constraint = violatedConstraint(error);
  return refuse((constraint && DUPLICATES[constraint]) || 'DUPLICATE');
}
