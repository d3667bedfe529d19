import {
  type FieldError,
  type FieldPath,
  type FieldValues,
  get,
  type RegisterOptions,
  type UseFormReturn,
} from 'react-hook-form';
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

/**
 * A form's field binder: `field('email')` is what a TextField needs of the form, the registration
 * and the field's message, so each field is written once with its label and its kind.
 */
export function fieldProps<T extends FieldValues>({ register, formState }: UseFormReturn<T>) {
  const { errors } = formState;
  return <N extends FieldPath<T>>(name: N, options?: RegisterOptions<T, N>) => ({
    ...register(name, options),
    error: (get(errors, name) as FieldError | undefined)?.message,
  });
}
