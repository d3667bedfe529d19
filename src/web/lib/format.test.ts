import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoney } from './format';

/** A moment on the reader's own clock, so the test reads the same in every time zone. */
const local = (...parts: [number, number, number, number, number, number]) =>
  new Date(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]).toISOString();

describe('one money format', () => {
  it('groups thousands and keeps two decimals: $1,334.16, $110,568.17, $5.00', () => {
    expect(formatMoney(1334.16)).toBe('$1,334.16');
    expect(formatMoney(110568.17)).toBe('$110,568.17');
    expect(formatMoney(5)).toBe('$5.00');
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
  });

  it('puts the minus before the sign (-$5.00) and never shows -$0.00', () => {
    expect(formatMoney(-5)).toBe('-$5.00');
    expect(formatMoney(-1234.5)).toBe('-$1,234.50');
    expect(formatMoney(-0)).toBe('$0.00');
  });

  it('writes another currency when given one, USD otherwise', () => {
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatMoney(-5, 'GBP')).toBe('-£5.00');
    expect(formatMoney(1234.5, 'USD')).toBe(formatMoney(1234.5));
  });
});

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
