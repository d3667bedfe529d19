import { ApiRequestError } from './api';

/**
 * Puts the server's per-field validation messages next to the matching fields.
 * Paths may come as "name", "body.name" or "/name"; the last segment names the field.
 */
export function applyServerFieldErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
  setError: (field: F, error: { type: string; message: string }) => void,
): void {
  if (!(error instanceof ApiRequestError)) return;
  for (const detail of error.details) {
    const field = detail.path.split(/[./]/).filter(Boolean).pop();
    if (field && (fields as readonly string[]).includes(field)) {
      setError(field as F, { type: 'server', message: detail.message });
    }
  }
}
