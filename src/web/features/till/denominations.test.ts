import { describe, expect, it } from 'vitest';
import { countedCents, countOf, denominationsOf, typedCents } from './denominations';

describe('counting the drawer', () => {
  it('adds notes and coins in cents, exactly', () => {
    const usd = denominationsOf('USD');
    expect(usd.map(String)).toEqual([
      '10000',
      '5000',
      '2000',
      '1000',
      '500',
      '200',
      '100',
      '25',
      '10',
      '5',
      '1',
    ]);
    const counts = usd.map(() => '');
    counts[2] = '3'; // 3 × 20
    counts[7] = '7'; // 7 × 0.25
    counts[10] = '2'; // 2 × 0.01
    expect(countedCents(usd, counts)).toBe(6177n);
    // 3 × 0.10 is 0.30, not 0.30000000000000004.
    expect(
      countedCents(
        usd,
        usd.map((_, at) => (at === 8 ? '3' : '')),
      ),
    ).toBe(30n);
  });

  it('refuses counts that are not whole numbers, and amounts with more than 2 decimals', () => {
    expect(countOf('')).toBe(0);
    expect(countOf(' 12 ')).toBe(12);
    for (const bad of ['2.5', '-1', '1e3', 'x', '1000001']) expect(countOf(bad)).toBeNull();
    expect(countedCents(denominationsOf('USD'), ['1', 'x'])).toBeNull();
    expect(typedCents('61.77')).toBe(6177n);
    expect(typedCents('0')).toBe(0n);
    for (const bad of ['', '1.234', '-5', 'abc', '1,5']) expect(typedCents(bad)).toBeNull();
  });

  it('has no notes and coins for a currency it does not know: the total is typed', () => {
    expect(denominationsOf('XYZ')).toEqual([]);
  });
});
