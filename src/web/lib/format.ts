import type { Role } from '../../shared/roles';

/** The one way the app writes money (shared with the server's sentences). */
export { formatMoney } from '../../shared/money';

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** A day alone ("2026-11-25"): a calendar day, the same in every time zone. */
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const DATE_STYLES = {
  date: { dateStyle: 'medium' },
  calendarDate: { dateStyle: 'medium', timeZone: 'UTC' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  dateTimeSeconds: { dateStyle: 'medium', timeStyle: 'medium' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

const DATE_FORMATS = new Map<keyof typeof DATE_STYLES, Intl.DateTimeFormat>();
/** Made when first used: each takes milliseconds to build, and many screens write no date. */
function dateFormat(style: keyof typeof DATE_STYLES): Intl.DateTimeFormat {
  let format = DATE_FORMATS.get(style);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', DATE_STYLES[style]);
    DATE_FORMATS.set(style, format);
  }
  return format;
}

/** One style whatever the reader's locale, with plain spaces (ICU puts a narrow one before AM/PM). */
function plain(text: string): string {
  return text.replace(/[\u202f\u00a0]/g, ' ');
}

/**
 * The one way the app writes a date: "Nov 25, 2026" — a moment on the reader's calendar, a day
 * alone ("2026-11-25") as that day. The raw text when it is not a date.
 */
/** "1 sale", "3 sales": the offline counter's banner and the sign-out question. */
export function salesCount(count: number): string {
  return `${count} ${count === 1 ? 'sale' : 'sales'}`;
}

export function formatDate(value: string): string {
  if (DAY_ONLY.test(value)) return plain(dateFormat('calendarDate').format(new Date(`${value}T00:00:00Z`)));
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : plain(dateFormat('date').format(date));
}

/**
 * A moment with its time of day: "Nov 25, 2026, 3:04 PM" (with `seconds`, "3:04:05 PM", for the
 * activity log, where several things happen in one minute). The raw text when it is not a date.
 */
export function formatDateTime(value: string, options: { seconds?: boolean } = {}): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return plain(dateFormat(options.seconds ? 'dateTimeSeconds' : 'dateTime').format(date));
}

/**
 * A record's own short reference (the head of its id), for the spec's ID column: a row number
 * there changed with every page, sort and search, so the same person or product had many IDs.
 */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

export const ROLE_LABEL: Record<Role, string> = {
  superAdmin: 'Super Admin',
  admin: 'Admin',
  salesRep: 'Sales Rep.',
  medicalRep: 'Medical Rep.',
  user: 'Employee',
};
