import { describe, expect, it } from 'vitest';
import { StoreSettingsInput, TaxRateInput, taxRateLabel } from './store';

describe('tax rate labels', () => {
  it('say the name and the percent as written, once', () => {
    expect(taxRateLabel({ name: 'VAT', rate: 20 })).toBe('VAT 20%');
    expect(taxRateLabel({ name: 'Standard', rate: 8.875 })).toBe('Standard 8.875%');
    expect(taxRateLabel({ name: 'Standard 8.875%', rate: 8.875 })).toBe('Standard 8.875%');
    expect(taxRateLabel({ name: 'Zero', rate: 0 })).toBe('Zero 0%');
  });
});

describe('the store and tax rate inputs', () => {
  it('take a partial store and the percents people type', () => {
    expect(StoreSettingsInput.parse({})).toEqual({});
    expect(StoreSettingsInput.parse({ currency: 'EUR', maxDiscountPercent: 12.5 })).toEqual({
      currency: 'EUR',
      maxDiscountPercent: 12.5,
    });
    expect(TaxRateInput.parse({ name: ' Standard ', rate: 8.875 })).toEqual({
      name: 'Standard',
      rate: 8.875,
    });
    // 0.1 + 0.2 style float noise is not a fourth decimal.
    expect(TaxRateInput.safeParse({ name: 'x', rate: 0.1 + 0.2 }).success).toBe(true);
  });

  it.each([
    ['usd', 'Currency must be three upper-case letters, such as USD or EUR.'],
    ['ABC', 'Currency must be an ISO 4217 code, such as USD or EUR.'],
  ])('refuse the currency %s with one sentence', (currency, message) => {
    const result = StoreSettingsInput.safeParse({ currency });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([message]);
  });
});
