import { describe, expect, it } from 'vitest';
import { addDays, expiryState, fefoPlan, type Lot, LotNumber, LotRef, ReceiveLots } from './lots';

const lot = (number: string, expiresOn: string | null, quantity: number): Lot => ({
  _id: number,
  number,
  expiresOn,
  quantity,
});

describe('lots, the shared rules', () => {
  it('plans a sale first-expiry-first-out over unexpired lots, no expiry last', () => {
    const lots = [
      lot('N', null, 5),
      lot('L', '2026-03-01', 5),
      lot('S', '2026-01-10', 2),
      lot('X', '2025-12-31', 9),
    ];
    const plan = fefoPlan(lots, 4, '2026-01-01');
    expect(plan.takes.map((take) => [take.lot.number, take.quantity])).toEqual([
      ['S', 2],
      ['L', 2],
    ]);
    expect(plan.unexpired).toBe(12);
    expect(plan.short).toBe(0);
    expect(fefoPlan(lots, 15, '2026-01-01').short).toBe(3);
    // A lot expiring today is still sold today.
    expect(fefoPlan([lot('T', '2026-01-01', 1)], 1, '2026-01-01').short).toBe(0);
    expect(fefoPlan([], 1, '2026-01-01')).toEqual({ takes: [], unexpired: 0, short: 1 });
  });

  it('says how a lot stands', () => {
    expect(expiryState('2025-12-31', '2026-01-01')).toBe('expired');
    expect(expiryState('2026-01-01', '2026-01-01')).toBe('soon');
    expect(expiryState('2026-01-31', '2026-01-01')).toBe('soon');
    expect(expiryState('2026-02-01', '2026-01-01')).toBe('ok');
    expect(expiryState(null, '2026-01-01')).toBe('ok');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
  });

  it('refuses lot numbers and lots that are not', () => {
    expect(LotNumber.parse('  A12-34 b ')).toBe('A12-34 b');
    for (const bad of ['', '   ', 'a\u0000b', 'x'.repeat(65), 'tab\there', 12, ['A1'], null]) {
      expect(LotNumber.safeParse(bad).success).toBe(false);
    }
    expect(LotRef.safeParse({}).success).toBe(false);
    expect(LotRef.safeParse({ number: 'A1', expiresOn: '2025-02-30' }).success).toBe(false);
    expect(LotRef.safeParse({ number: 'A1', expiresOn: '0000-01-01' }).success).toBe(false);
    expect(LotRef.safeParse({ number: 'A1', expiresOn: null }).success).toBe(true);
    expect(
      ReceiveLots.safeParse([
        { number: 'a1', expiresOn: null, quantity: 1 },
        { number: 'A1', expiresOn: null, quantity: 1 },
      ]).error?.issues[0]?.message,
    ).toBe('Each lot may appear once per line.');
    expect(ReceiveLots.safeParse([{ number: 'A1', expiresOn: null, quantity: Number.NaN }]).success).toBe(
      false,
    );
  });
});
