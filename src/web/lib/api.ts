import type { z } from 'zod';
import type { LogoutInput } from '../../shared/auth';
import { ApiError, Message } from '../../shared/common';
import { ApiRequestError, GENERIC_ERROR, refusedAs, UNREACHABLE, unreadableFailure } from './api-error';
import { isUnreachable, reportReach } from './connection';
import { notify } from './notify';
import { getToken } from './session';

export { ApiRequestError, GENERIC_ERROR, refusedAs };

let unauthorizedHandler: (() => void) | null = null;

/** Called on any 401 answer (except the login call itself, where 401 means wrong credentials). */
export function onUnauthorized(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type RequestOptions<S extends z.ZodType> = {
  method?: Method;
  body?: unknown;
  /** A file sent as it is with its own Content-Type (an import's upload), in place of `body`. */
  file?: { data: Blob; type: string };
  /** Schema the success answer must match. */
  schema: S;
  /** false for the login call: a 401 there is an answer to show, not an expired session. */
  signedIn?: boolean;
  /** false when the caller ends the session itself whatever the answer (signing out). */
  expireOn401?: boolean;
  /** The Idempotency-Key of a write that may be retried (see lib/idempotency.ts). */
  idempotencyKey?: string;
  signal?: AbortSignal;
};

export async function api<S extends z.ZodType>(
  path: string,
  options: RequestOptions<S>,
): Promise<z.output<S>> {
  const {
    method = 'GET',
    body,
    file,
    schema,
    signedIn = true,
    expireOn401 = true,
    idempotencyKey,
    signal,
  } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  if (file) headers['Content-Type'] = file.type;
  else if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = signedIn ? getToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers,
      body: file ? file.data : body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    reportReach('unreachable');
    throw new ApiRequestError(UNREACHABLE, 0);
  }
  answered();

  const payload: unknown = await response.json().catch(() => null);

  if (!response.ok) {
    if (response.status === 401 && signedIn && expireOn401) unauthorizedHandler?.();
    const failure = failureOf(response.status, payload);
    // A proxy's 502–504 page: the server is away still (see connection.ts).
    if (isUnreachable(failure)) reportReach('unreachable');
    throw failure;
  }

  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    throw new ApiRequestError('The server sent an answer this page does not understand.', response.status);
  }
  return parsed.data;
}

/**
 * A signed-in GET that answers a file (a CSV export): its bytes, or the server's sentence thrown
 * as ApiRequestError like any other call.
 */
export async function apiFile(path: string): Promise<Blob> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    reportReach('unreachable');
    throw new ApiRequestError(UNREACHABLE, 0);
  }
  answered();
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => null);
    if (response.status === 401) unauthorizedHandler?.();
    throw failureOf(response.status, payload);
  }
  return response.blob();
}

/** The server answered (whatever it said): a notice that it cannot be reached is no longer true. */
function answered(): void {
  notify.withdraw(UNREACHABLE);
  reportReach('answered');
}

/**
 * A failed answer as the screens take it: our envelope's sentence and facts, or, when the body is
 * not ours (a proxy's HTML page, an empty body), one sentence naming the status.
 */
function failureOf(status: number, payload: unknown): ApiRequestError {
  const failure = ApiError.safeParse(payload);
  if (!failure.success)
    return new ApiRequestError(unreadableFailure(status), status, { withoutSentence: true });
  const { error, details, existing, code, total, stock, elsewhere } = failure.data;
  return new ApiRequestError(error, status, { details, existing, code, total, stock, elsewhere });
}

/** The sentence to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return GENERIC_ERROR;
}

/** Signing out waits this long at most for the server, then ends the session here anyway. */
export const SIGN_OUT_WAIT_MS = 2_000;

/**
 * Asks the server to revoke the stored token (with `everywhere`, every token of the user), before
 * the caller clears the session. It never throws and never waits longer than `waitMs`: the session
 * ends here whether or not the server could be told. Answers whether the server confirmed.
 */
export async function signOut(input: LogoutInput = {}, waitMs = SIGN_OUT_WAIT_MS): Promise<boolean> {
  if (!getToken()) return false;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(false);
    }, waitMs);
  });
  const answered = api('/auth/logout', {
    method: 'POST',
    body: input ?? {},
    schema: Message,
    expireOn401: false,
    signal: controller.signal,
  }).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}
