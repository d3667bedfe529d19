import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format';

/** A moment on the reader's own clock, so the test reads the same in every time zone. */
const local = (...parts: [number, number, number, number, number, number]) =>
  new Date(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]).toISOString();

describe('one date format', () => {
  it('writes a moment as "Nov 25, 2026" on the reader’s calendar', () => {
    expect(formatDate(local(2026, 11, 25, 0, 30, 0))).toBe('Nov 25, 2026');
    expect(formatDate(local(2026, 11, 25, 23, 30, 0))).toBe('Nov 25, 2026');
  });

  it('writes a day alone as that day, whatever the time zone', () => {
    expect(formatDate('2026-11-25')).toBe('Nov 25, 2026');
    expect(formatDate('2026-01-01')).toBe('Jan 1, 2026');
  });

  it('adds the time of day in one style with plain spaces: "Nov 25, 2026, 3:04 PM"', () => {
    expect(formatDateTime(local(2026, 11, 25, 15, 4, 5))).toBe('Nov 25, 2026, 3:04 PM');
    expect(formatDateTime(local(2026, 11, 25, 0, 4, 5))).toBe('Nov 25, 2026, 12:04 AM');
    expect(formatDateTime(local(2026, 11, 25, 15, 4, 5), { seconds: true })).toBe('Nov 25, 2026, 3:04:05 PM');
  });

  it('leaves what is not a date as it was', () => {
    expect(formatDate('soon')).toBe('soon');
    expect(formatDateTime('soon')).toBe('soon');
  });
});
