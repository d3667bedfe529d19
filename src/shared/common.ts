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

/** The stable codes of refusals (DESIGN §3, decision 0041), each described in ./refusals. */
export { ERROR_CODES, type ErrorCode } from './refusals';

export const ErrorDetail = z.object({ path: z.string(), message: z.string() });
export const ApiError = z.object({
  success: z.literal(false),
  error: z.string(),
  /** One of ERROR_CODES (every refusal has one); text here, so a newer server's code still parses. */
  code: z.string().optional(),
  details: z.array(ErrorDetail).optional(),
  /** The record a refusal names (a 409's existing duplicate or draft), so a screen can offer it. */
  existing: z.object({ _id: z.string(), name: z.string() }).optional(),
  /** TOTAL_CHANGED: the sale's total as the server computes it now. */
  total: z.number().optional(),
  /** STOCK_CHANGED: the product's stock now. */
  stock: z.number().optional(),
  /** SHORT_AT_LOCATION (DESIGN §17): the product's stock at the other locations holding some. */
  elsewhere: z
    .array(z.object({ location: z.object({ _id: z.string(), name: z.string() }), stock: z.number().int() }))
    .optional(),
});
export type ApiError = z.infer<typeof ApiError>;

export const Named = z.object({ _id: z.string(), name: z.string() });
export type Named = z.infer<typeof Named>;

/** The years a date may name: before 1900 or after 9999 is a typing slip, not a day of business. */
export const FIRST_YEAR = 1900;
export const LAST_YEAR = 9999;

const DAY_FORMAT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Why `text` is not a calendar day we accept (YYYY-MM-DD, a real date, years 1900–9999), or undefined. */
export function dayProblem(text: unknown): string | undefined {
  if (typeof text !== 'string') return 'Dates must be text.';
  const parts = DAY_FORMAT.exec(text);
  if (!parts) return 'Dates look like 2025-01-31.';
  const [year, month, day] = parts.slice(1).map(Number) as [number, number, number];
  if (year < FIRST_YEAR || year > LAST_YEAR) return `Dates must be between ${FIRST_YEAR} and ${LAST_YEAR}.`;
  // Date.UTC rolls 2024-02-30 over into March; a day that exists comes back as itself.
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return 'That date does not exist.';
  return undefined;
}

/** A calendar day, YYYY-MM-DD, that exists, in years 1900–9999 (one check, one sentence). */
export const DateOnly = z
  .string({ error: 'Dates must be text.' })
  .regex(DAY_FORMAT, { error: 'Dates look like 2025-01-31.', abort: true })
  .superRefine((text, ctx) => {
    const problem = dayProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * The rule relating `from` and `to` of a range (from ≤ to, and at most `maxYears` when given),
 * checked only when both are days: a refinement on the whole runs even when a field failed, and
 * a date that is not one must stay that field's 400, not become a RangeError here.
 */
export function rangeProblem(range: { from?: unknown; to?: unknown }, maxYears?: number): string | undefined {
  const { from, to } = range;
  if (typeof from !== 'string' || typeof to !== 'string' || dayProblem(from) || dayProblem(to))
    return undefined;
  if (from > to) return 'The from date must be on or before the to date.';
  if (maxYears !== undefined && to > lastDayOfYears(from, maxYears))
    return `A report covers at most ${maxYears} years.`;
  return undefined;
}

/** The last day of `years` years starting on `from` (from + years − 1 day), at most 9999-12-31. */
function lastDayOfYears(from: string, years: number): string {
  const date = new Date(`${from}T00:00:00Z`);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  date.setUTCDate(date.getUTCDate() - 1);
  if (date.getUTCFullYear() > LAST_YEAR) return `${LAST_YEAR}-12-31`;
  return date.toISOString().slice(0, 10);
}

/** Adds `rangeProblem` as an issue of the whole object (no path: it is about both fields). */
export function checkRange(maxYears?: number) {
  return (range: { from?: unknown; to?: unknown }, ctx: z.RefinementCtx) => {
    const problem = rangeProblem(range, maxYears);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };
}
