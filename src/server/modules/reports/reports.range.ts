import { DEFAULT_RANGE_DAYS } from '../../../shared/reports';
import type { Range } from './reports.repository';

/** Today in `timeZone`, YYYY-MM-DD. */
export function todayIn(timeZone: string, now = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** `day` moved by `days`, kept within the years a date can have (1 to 9999). */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  const year = date.getUTCFullYear();
  if (year < 1) return '0001-01-01';
  if (year > 9999) return '9999-12-31';
  return date.toISOString().slice(0, 10);
}

/**
 * The range a report answers for (DESIGN §10). Without from and to: the last DEFAULT_RANGE_DAYS
 * days, today included. With to alone: the DEFAULT_RANGE_DAYS days ending then. With from alone:
 * the DEFAULT_RANGE_DAYS days starting then, cut at today (nothing later has sales), or that one
 * day when it is after today. Both given ones were checked by the shared schema.
 */
export function resolveRange(query: { from?: string; to?: string }, today: string): Range {
  const span = DEFAULT_RANGE_DAYS - 1;
  const { from, to } = query;
  if (from && to) return { from, to };
  if (to) return { from: addDays(to, -span), to };
  if (from) {
    const end = addDays(from, span);
    return { from, to: end <= today ? end : today >= from ? today : from };
  }
  return { from: addDays(today, -span), to: today };
}
