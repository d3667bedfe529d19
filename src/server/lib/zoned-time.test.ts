import { describe, expect, it } from 'vitest';
import { zonedClock } from './zoned-time';

describe('export times in the server zone', () => {
  it('writes ISO 8601 with the zone offset, to the second', () => {
    const paris = zonedClock('Europe/Paris');
    expect(paris(new Date('2026-11-25T14:04:05.678Z'))).toBe('2026-11-25T15:04:05+01:00');
    // Summer time: +02:00.
    expect(paris(new Date('2026-07-01T10:00:00Z'))).toBe('2026-07-01T12:00:00+02:00');
  });

  it('writes UTC as +00:00, zones behind UTC with a minus, and half-hour zones in full', () => {
    expect(zonedClock('UTC')(Date.parse('2026-11-25T15:04:05Z'))).toBe('2026-11-25T15:04:05+00:00');
    expect(zonedClock('America/New_York')(new Date('2026-01-01T03:00:00Z'))).toBe(
      '2025-12-31T22:00:00-05:00',
    );
    expect(zonedClock('Asia/Kolkata')(new Date('2026-11-25T00:00:00Z'))).toBe('2026-11-25T05:30:00+05:30');
  });

  it('changes offset at the moment the clocks change, not a quarter hour later', () => {
    const paris = zonedClock('Europe/Paris');
    // 2026-03-29 01:00 UTC: 02:00 becomes 03:00 in Paris.
    expect(paris(new Date('2026-03-29T00:59:59Z'))).toBe('2026-03-29T01:59:59+01:00');
    expect(paris(new Date('2026-03-29T01:00:00Z'))).toBe('2026-03-29T03:00:00+02:00');
  });
});
