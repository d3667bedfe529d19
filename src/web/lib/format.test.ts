import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, localDay } from './format';

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

describe('the local day', () => {
  it('is the day on the reader’s calendar, not in UTC: a lot’s expiry is judged by it', () => {
    const zone = process.env.TZ;
    try {
      process.env.TZ = 'America/New_York';
      // 03:00 UTC on the 29th is still the evening of the 28th in New York.
      expect(localDay(new Date('2026-11-29T03:00:00Z'))).toBe('2026-11-28');
      process.env.TZ = 'Pacific/Auckland';
      expect(localDay(new Date('2026-11-28T12:00:00Z'))).toBe('2026-11-29');
      expect(localDay(new Date('2026-01-04T12:00:00Z'))).toBe('2026-01-05');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
