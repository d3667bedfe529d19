// Apart from api.ts (and its schemas) so the login page can tell failures apart without zod.
import type { ErrorCode } from '../../shared/refusals';

/** Where else a product is held, as a refusal names it: `{location: {_id, name}, stock}`, most first. */
export type Elsewhere = { location: { _id: string; name: string }; stock: number }[];

/**
 * A refusal's sentence with where else the product is held (DESIGN §17: "12 at Stockroom"), for a
 * line short at this location; any other failure's sentence as it is.
 */
export function withElsewhere(message: string, error: unknown): string {
  if (!(error instanceof ApiRequestError) || error.elsewhere.length === 0) return message;
  const places = error.elsewhere.map((place) => `${place.stock} at ${place.location.name}`).join(', ');
  return `${message} Elsewhere: ${places}.`;
}

export const GENERIC_ERROR = 'error occurred. Please try again.';

/** No answer at all (the network is down, the server stopped): status 0. */
export const UNREACHABLE = 'The server cannot be reached. Check your connection and try again.';

/**
 * What a failure without our error body says (a proxy's HTML page, an empty body): one sentence
 * that names the status, so a cashier can tell a 502 from a 504 on the phone to support.
 */
export function unreadableFailure(status: number): string {
  return `The server did not answer properly (${status}). Please try again.`;
}

/** What a refusal says besides its sentence (see ApiError in src/shared/common.ts). */
export type FailureFacts = {
  details?: { path: string; message: string }[];
  existing?: { _id: string; name: string };
  /** The refusal's stable code (ERROR_CODES): screens decide by it, never by the sentence. */
  code?: string;
  /** TOTAL_CHANGED: the sale's total as the server computes it now. */
  total?: number;
  /** STOCK_CHANGED: the product's stock now. */
  stock?: number;
  /** SHORT_AT_LOCATION (DESIGN §17): the product's stock at the other locations holding some. */
  elsewhere?: Elsewhere;
  /** The answer carried no sentence of ours (a proxy's page, an empty body): `message` is ours. */
  withoutSentence?: boolean;
};

/** A failed call: the server's sentence, its status, and what else the refusal said. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly details: { path: string; message: string }[];
  /** The record the refusal names (a duplicate's original, a draft already there). */
  readonly existing: { _id: string; name: string } | undefined;
  readonly code: string | undefined;
  readonly total: number | undefined;
  readonly stock: number | undefined;
  readonly elsewhere: Elsewhere;
  readonly withoutSentence: boolean;

  constructor(message: string, status: number, facts: FailureFacts = {}) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.details = facts.details ?? [];
    this.existing = facts.existing;
    this.code = facts.code;
    this.total = facts.total;
    this.stock = facts.stock;
    this.elsewhere = facts.elsewhere ?? [];
    this.withoutSentence = facts.withoutSentence ?? false;
  }
}

/** Whether `error` is the server's refusal with `code` (ERROR_CODES): how a screen tells refusals apart. */
export function refusedAs(error: unknown, ...codes: ErrorCode[]): error is ApiRequestError {
  return (
    error instanceof ApiRequestError && error.code !== undefined && (codes as string[]).includes(error.code)
  );
}
