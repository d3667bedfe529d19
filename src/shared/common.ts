import { z } from 'zod';
import { MAX } from './limits';

export { MAX };

const noNul = (value: string) => !value.includes('\u0000');
const NUL_MESSAGE = 'Must not contain NUL characters.';

/** Free text that may be empty: trimmed, bounded, no NUL characters. */
export const optionalText = (max: number) =>
  z
    .string({ error: 'Must be text.' })
    .trim()
    .max(max, { error: `Must be at most ${max} characters.` })
    .refine(noNul, { error: NUL_MESSAGE });

/** Text that must not be blank after trimming. */
export const requiredText = (max: number, label = 'This field') =>
  optionalText(max).refine((value) => value.length > 0, { error: `${label} is required.` });

export const Email = z
  .string({ error: 'Email must be text.' })
  .trim()
  .toLowerCase()
  .max(MAX.email, { error: `Email must be at most ${MAX.email} characters.` })
  .pipe(z.email({ error: 'Enter a valid email address.' }));

/** Ids are opaque strings; the server answers 404 to one it does not know or cannot parse. */
export const Id = z.string().min(1).max(100);
export const IdParams = z.object({ id: Id });

/** A whole number of cents, given as a number with at most two decimals. */
export const Money = z
  .number({ error: 'Price must be a number.' })
  .min(0, { error: 'Price must be 0 or more.' })
  .max(999_999_999.99, { error: 'Price is too large.' })
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
    error: 'Price must have at most 2 decimals.',
  });

export const Ok = z.object({ success: z.literal(true) });
export const Message = Ok.extend({ message: z.string() });

export const ErrorDetail = z.object({ path: z.string(), message: z.string() });
export const ApiError = z.object({
  success: z.literal(false),
  error: z.string(),
  details: z.array(ErrorDetail).optional(),
});
export type ApiError = z.infer<typeof ApiError>;

export const Named = z.object({ _id: z.string(), name: z.string() });
export type Named = z.infer<typeof Named>;

/** A calendar day, YYYY-MM-DD, that exists. */
export const DateOnly = z
  .string({ error: 'Dates must be text.' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Dates look like 2025-01-31.' })
  .refine(
    (text) => {
      const date = new Date(`${text}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
    },
    { error: 'That date does not exist.' },
  );
