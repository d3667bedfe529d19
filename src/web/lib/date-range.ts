import { rangeProblem } from '../../shared/common';

/**
 * The To field's error on a list filtered by days: the server's rule (rangeProblem, from ≤ to),
 * worded for the field it sits under. Undefined while either day is missing or not a day.
 */
export function toDayError(from: string | undefined, to: string | undefined): string | undefined {
  return rangeProblem({ from, to }) ? 'Must be on or after the From date.' : undefined;
}

/** What the list says in place of rows while its range is backwards. */
export const BACKWARDS_RANGE = 'Choose a From date on or before the To date.';

/** Today on the reader's calendar, YYYY-MM-DD: a new entry's, bill's or payment's day unless changed. */
export function localToday(now = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}
