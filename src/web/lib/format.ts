import type { Role } from '../../shared/roles';

/** Money as the spec shows it: a dollar sign and two decimals. */
export function formatMoney(value: number): string {
  return `$${value.toFixed(2)}`;
}

/** Larger sums (dashboard tiles) with thousands separators. */
export function formatMoneyGrouped(value: number): string {
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** An order's date in the reader's locale; the raw text when it is not a date. */
export function formatDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleDateString();
}

/** A moment (a stock movement) with its time of day, since several happen on one day. */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
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
