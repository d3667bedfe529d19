import { describe, expect, it } from 'vitest';
import { MAX_WAITING, offlineStop, offlineStopSentence } from './limits';

const NOW = new Date('2026-12-06T12:00:00Z');
const made = (...times: string[]) => times.map((madeAt) => ({ madeAt }));

describe('offlineStop', () => {
  it('lets the counter sell on while nothing waits, or the oldest is within offlineHours', () => {
    expect(offlineStop([], NOW, 72)).toBeNull();
    // Exactly 72 hours is still within (the server takes a sale at most offlineHours old).
    expect(offlineStop(made('2026-12-03T12:00:00Z', '2026-12-06T11:00:00Z'), NOW, 72)).toBeNull();
    // Offsets count: 13:30+01:00 is 12:30Z, 23.5 hours ago.
    expect(offlineStop(made('2026-12-05T13:30:00+01:00'), NOW, 24)).toBeNull();
  });

  it('stops once the oldest waiting sale is older than offlineHours, wherever it is in the list', () => {
    const stop = offlineStop(made('2026-12-06T11:00:00Z', '2026-12-03T11:59:59+00:00'), NOW, 72);
    expect(stop).toEqual({ why: 'old', hours: 72, oldest: '2026-12-03T11:59:59.000Z' });
    expect(offlineStop(made('2026-12-06T10:59:00Z'), NOW, 1)).toMatchObject({ why: 'old', hours: 1 });
  });

  it('stops at 500 waiting sales, not at 499', () => {
    const recent = (count: number) =>
      Array.from({ length: count }, () => ({ madeAt: '2026-12-06T11:00:00Z' }));
    expect(offlineStop(recent(MAX_WAITING - 1), NOW, 72)).toBeNull();
    expect(offlineStop(recent(MAX_WAITING), NOW, 72)).toEqual({ why: 'full', waiting: 500 });
  });

  it('counts a sale dated after now (a clock put back) as new, and the old reason first', () => {
    expect(offlineStop(made('2026-12-07T12:00:00Z'), NOW, 1)).toBeNull();
    const many = Array.from({ length: MAX_WAITING }, (_, at) => ({
      madeAt: at === 0 ? '2026-12-01T00:00:00Z' : '2026-12-06T11:00:00Z',
    }));
    expect(offlineStop(many, NOW, 72)?.why).toBe('old');
  });
});

describe('offlineStopSentence', () => {
  it('says why in plain words', () => {
    expect(offlineStopSentence({ why: 'old', hours: 72, oldest: '2026-12-03T11:00:00.000Z' })).toBe(
      'Selling offline has stopped: the oldest unsent sale was made more than 72 hours ago. Connect to the server to send it.',
    );
    expect(offlineStopSentence({ why: 'old', hours: 1, oldest: '2026-12-06T10:00:00.000Z' })).toContain(
      'more than 1 hour ago',
    );
    expect(offlineStopSentence({ why: 'full', waiting: 500 })).toBe(
      'Selling offline has stopped: 500 sales are waiting to be sent from this device. Connect to the server to send them.',
    );
  });
});
