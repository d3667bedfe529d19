import type { ReportGroup } from '../../../shared/reports';
import { formatCount, formatDate, formatMoney } from '../../lib/format';

/** Report days are calendar days: read and written in UTC so no time zone moves them. */
function calendarDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

const SHORT_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const SHORT_MONTH = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "May 5, 2025": the app's one date style. */
export function formatDay(day: string): string {
  return formatDate(day);
}

/** "May 5, 2025 – June 3, 2025", or one day. */
export function formatRange(range: { from: string; to: string }): string {
  return range.from === range.to
    ? formatDay(range.from)
    : `${formatDay(range.from)} – ${formatDay(range.to)}`;
}

/** A period in the table: "May 5, 2025", "Week of May 5, 2025", "May 2025". */
export function periodLabel(start: string, group: ReportGroup): string {
  if (group === 'month') return MONTH.format(calendarDay(start));
  if (group === 'week') return `Week of ${formatDay(start)}`;
  return formatDay(start);
}

/** A period under a bar, short: "May 5", "May 2025". */
export function periodTick(start: string, group: ReportGroup): string {
  return group === 'month' ? SHORT_MONTH.format(calendarDay(start)) : SHORT_DAY.format(calendarDay(start));
}

/** A share of 0–1 as a percentage with one decimal: "42.5%". */
export function formatShare(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

const COMPACT_MONEY = new Map<string, Intl.NumberFormat>();
function compactMoney(currency: string): Intl.NumberFormat {
  let format = COMPACT_MONEY.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      notation: 'compact',
      maximumFractionDigits: 1,
    });
    COMPACT_MONEY.set(currency, format);
  }
  return format;
}
const COMPACT_COUNT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export type ValueKind = 'money' | 'count';

/** A figure in full (tables, tooltips); money in the store's currency (useCurrency). */
export function formatValue(value: number, kind: ValueKind, currency = 'USD'): string {
  if (kind === 'count') return formatCount(value);
  // A loss (negative margin) reads -$12.00, not $-12.00.
  return formatMoney(value, currency);
}

/** A figure on a chart's axis, short: "$1.2K", "350". */
export function formatTick(value: number, kind: ValueKind, currency = 'USD'): string {
  return kind === 'money' ? compactMoney(currency).format(value) : COMPACT_COUNT.format(value);
}

/** A report's CSV file name: "customers-2025-05-01-to-2025-05-31.csv". */
export function rangeFile(name: string, range: { from: string; to: string }): string {
  return `${name}-${range.from}-to-${range.to}.csv`;
}
