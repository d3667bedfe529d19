// Apart from api.ts (and its schemas) so the login page can tell failures apart without zod.

export const GENERIC_ERROR = 'error occurred. Please try again.';

/** A failed call: the server's sentence, its status, and per-field details when it sent them. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly details: { path: string; message: string }[];

  constructor(message: string, status: number, details: { path: string; message: string }[] = []) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.details = details;
  }
}
