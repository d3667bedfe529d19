import {
  DEFAULT_RANGE_DAYS,
  PRODUCT_REPORT_SORTS,
  type ProductReportSort,
  REPORT_GROUPS,
  type ReportGroup,
  ReportRange,
} from '../../../shared/reports';
import { oneOf, pageIn } from '../../lib/list-address';

/**
 * What the reports screen shows, read from the address (STYLE: state in the URL): the tab, the
 * range (a preset, or two dates), the grouping of sales over time, the sales metric, the top
 * products' order and the never-sold page. Presets are kept by name, so "Last 7 days" opened
 * tomorrow means tomorrow's last 7 days; only a custom range keeps its dates.
 */

export const RANGE_PRESETS = [
  'today',
  'last-7-days',
  'last-30-days',
  'this-month',
  'last-month',
  'this-year',
  'custom',
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const DEFAULT_PRESET: RangePreset = 'last-30-days';

export const PRESET_LABEL: Record<RangePreset, string> = {
  today: 'Today',
  'last-7-days': 'Last 7 days',
  'last-30-days': `Last ${DEFAULT_RANGE_DAYS} days`,
  'this-month': 'This month',
  'last-month': 'Last month',
  'this-year': 'This year',
  custom: 'Custom',
};

export const REPORT_TABS = [
  'sales',
  'categories',
  'products',
  'items',
  'never-sold',
  'staff',
  'customers',
  'tax',
  'stock',
] as const;
export type ReportTab = (typeof REPORT_TABS)[number];

export const TAB_LABEL: Record<ReportTab, string> = {
  sales: 'Sales over time',
  categories: 'By category',
  products: 'Top products',
  items: 'By item',
  'never-sold': 'Never sold',
  staff: 'By staff member',
  customers: 'By customer',
  tax: 'Tax',
  stock: 'Stock value',
};

export const SALES_METRICS = ['revenue', 'units', 'orders', 'margin'] as const;
export type SalesMetric = (typeof SALES_METRICS)[number];

export const GROUP_LABEL: Record<ReportGroup, string> = { day: 'Day', week: 'Week', month: 'Month' };

/** The days a report covers, and the location it is of (DESIGN §17; absent or '': the whole store). */
export type DateRange = { from: string; to: string; location?: string };

/** A day as YYYY-MM-DD, in the reader's calendar. */
export function localDay(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/** Calendar arithmetic on YYYY-MM-DD days (at noon UTC, far from any clock change). */
function asDate(day: string): Date {
  return new Date(`${day}T12:00:00Z`);
}

function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  const date = asDate(day);
  date.setUTCDate(date.getUTCDate() + days);
  return dayOf(date);
}

/** How many days the range covers, both ends included. */
export function daysIn(range: DateRange): number {
  return Math.round((asDate(range.to).getTime() - asDate(range.from).getTime()) / 86_400_000) + 1;
}

/** The days a preset covers when today is `today` (YYYY-MM-DD); every range ends today at most. */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, today: string): DateRange {
  const [year, month] = today.split('-');
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'last-7-days':
      return { from: addDays(today, -6), to: today };
    case 'last-30-days':
      return { from: addDays(today, -(DEFAULT_RANGE_DAYS - 1)), to: today };
    case 'this-month':
      return { from: `${year}-${month}-01`, to: today };
    case 'last-month': {
      const firstOfThisMonth = `${year}-${month}-01`;
      const lastOfLastMonth = addDays(firstOfThisMonth, -1);
      return { from: `${lastOfLastMonth.slice(0, 7)}-01`, to: lastOfLastMonth };
    }
    case 'this-year':
      return { from: `${year}-01-01`, to: today };
  }
}

/** Days for a month or so, weeks up to half a year, months beyond. */
export function defaultGroup(range: DateRange): ReportGroup {
  const days = daysIn(range);
  if (days <= 31) return 'day';
  if (days <= 183) return 'week';
  return 'month';
}

export type ReportView = {
  tab: ReportTab;
  preset: RangePreset;
  /** The range's days; for a custom range, what the date boxes hold (possibly empty). */
  from: string;
  to: string;
  /** Why a custom range cannot be asked for (no report is then asked); null when it can. */
  rangeError: string | null;
  group: ReportGroup;
  /** Whether the grouping was chosen (else it follows the range's length). */
  groupChosen: boolean;
  metric: SalesMetric;
  sort: ProductReportSort;
  page: number;
  /** The location the reports are of (`?location=`), '' for the whole store. */
  location: string;
};

/** The view the address holds, with `today` for the presets; anything unreadable is the default. */
export function readView(params: URLSearchParams, today: string): ReportView {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const named = oneOf(RANGE_PRESETS, params.get('range'));
  // A link with only dates in it is a custom range too.
  const preset = named ?? (from || to ? 'custom' : DEFAULT_PRESET);
  let range: DateRange = { from, to };
  let rangeError: string | null = null;
  if (preset === 'custom') {
    if (!from || !to) rangeError = 'Choose both dates.';
    else {
      const checked = ReportRange.safeParse({ from, to });
      if (!checked.success) rangeError = checked.error.issues[0]?.message ?? 'Choose other dates.';
    }
  } else {
    range = presetRange(preset, today);
  }
  const chosenGroup = oneOf(REPORT_GROUPS, params.get('group'));
  const group = chosenGroup ?? (rangeError ? 'day' : defaultGroup(range));
  return {
    tab: oneOf(REPORT_TABS, params.get('tab')) ?? 'sales',
    preset,
    ...range,
    rangeError,
    group,
    groupChosen: chosenGroup !== undefined,
    metric: oneOf(SALES_METRICS, params.get('metric')) ?? 'revenue',
    sort: oneOf(PRODUCT_REPORT_SORTS, params.get('sort')) ?? 'revenue',
    page: pageIn(params),
    location: params.get('location') ?? '',
  };
}

/**
 * The address after choosing a range: a preset by name, a custom range by its dates (starting
 * from the days shown before). A chosen grouping is dropped, so the new range gets its own, and
 * the never-sold list goes back to its first page.
 */
export function withRange(
  current: URLSearchParams,
  choice: { preset: RangePreset } | { from: string; to: string },
  shown: DateRange,
): URLSearchParams {
  const next = new URLSearchParams(current);
  next.delete('group');
  next.delete('page');
  if ('preset' in choice && choice.preset !== 'custom') {
    next.delete('from');
    next.delete('to');
    if (choice.preset === DEFAULT_PRESET) next.delete('range');
    else next.set('range', choice.preset);
    return next;
  }
  const dates = 'preset' in choice ? shown : choice;
  next.set('range', 'custom');
  for (const name of ['from', 'to'] as const) {
    if (dates[name]) next.set(name, dates[name]);
    else next.delete(name);
  }
  return next;
}
