// Apart from api.ts (and its schemas) so the login page can tell failures apart without zod.

export const GENERIC_ERROR = 'error occurred. Please try again.';

/** A failed call: the server's sentence, its status, and per-field details when it sent them. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly details: { path: string; message: string }[];
  /** The record the refusal names (a duplicate's original, a draft already there). */
  readonly existing: { _id: string; name: string } | undefined;

  constructor(
    message: string,
    status: number,
    details: { path: string; message: string }[] = [],
    existing?: { _id: string; name: string },
  ) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.details = details;
    this.existing = existing;
  }
}
