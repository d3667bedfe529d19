import { z } from 'zod';
import { MAX, Ok, optionalText, requiredText } from './common';
import { LocationId, LocationName } from './locations';

/** True when `value` has at most `decimals` decimals (as a person typed it, not as a float sums). */
const hasAtMostDecimals = (value: number, decimals: number) => {
  const scaled = value * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
};

/**
 * The longest a store's name (any name's, DESIGN §4, as STORE_NAME may give it), a tax rate's
 * name, a tax number and a receipt footer may be.
 */
export const STORE_MAX = { name: MAX.name, taxRateName: 50, taxNumber: 50, receiptFooter: 500 } as const;

/** A tax rate (DESIGN §12): a percent with at most 3 decimals (8.875). */
export const TaxRate = z.object({ _id: z.string(), name: z.string(), rate: z.number() });
export type TaxRate = z.infer<typeof TaxRate>;

/**
 * "VAT 20%", "Reduced 5%": how a screen names a rate, the percent as written (8.875, not 8.88);
 * a name that already says its percent ("Standard 8.875%") is not said twice.
 */
export function taxRateLabel(rate: { name: string; rate: number }): string {
  const percent = `${rate.rate}%`;
  return rate.name.includes(percent) ? rate.name : `${rate.name} ${percent}`;
}

export const TaxRateInput = z.object({
  name: requiredText(STORE_MAX.taxRateName, 'Tax rate name'),
  rate: z
    .number({ error: 'Rate must be a number.' })
    .min(0, { error: 'Rate must be 0 or more.' })
    .max(100, { error: 'Rate must be at most 100.' })
    .refine((value) => hasAtMostDecimals(value, 3), { error: 'Rate must have at most 3 decimals.' }),
});
export type TaxRateInput = z.input<typeof TaxRateInput>;

export const TaxRateResponse = Ok.extend({ taxRate: TaxRate });
export const TaxRateListResponse = Ok.extend({ taxRates: z.array(TaxRate) });
export type TaxRateListResponse = z.infer<typeof TaxRateListResponse>;

/** The currencies Intl.NumberFormat can write, where the runtime can list them. */
const KNOWN_CURRENCIES: ReadonlySet<string> | undefined =
  typeof Intl.supportedValuesOf === 'function' ? new Set(Intl.supportedValuesOf('currency')) : undefined;

/** An ISO 4217 code: three upper-case letters, one Intl.NumberFormat knows. */
export const Currency = z
  .string({ error: 'Currency must be text.' })
  .regex(/^[A-Z]{3}$/, {
    error: 'Currency must be three upper-case letters, such as USD or EUR.',
    abort: true,
  })
  .refine((code) => KNOWN_CURRENCIES?.has(code) ?? true, {
    error: 'Currency must be an ISO 4217 code, such as USD or EUR.',
  });

export const MaxDiscountPercent = z
  .number({ error: 'Maximum discount must be a number.' })
  .min(0, { error: 'Maximum discount must be 0 or more.' })
  .max(100, { error: 'Maximum discount must be at most 100.' })
  .refine((value) => hasAtMostDecimals(value, 2), {
    error: 'Maximum discount must have at most 2 decimals.',
  });

/** The store's details and money rules (DESIGN §12), as every signed-in role reads them. */
export const StoreSettings = z.object({
  name: z.string(),
  address: z.string(),
  phone: z.string(),
  taxNumber: z.string(),
  currency: z.string(),
  receiptFooter: z.string(),
  pricesIncludeTax: z.boolean(),
  /** The rate of products without their own; null: no tax. */
  defaultTaxRate: TaxRate.nullable(),
  /** The most the selling roles may give without a manager's approval, in percent of a line's gross. */
  maxDiscountPercent: z.number(),
  /** Where a write that names no location takes or puts stock (DESIGN §17). */
  defaultLocation: LocationName,
  /** DESIGN §21: how many hours (1–168) a counter may sell offline and send what it sold. */
  offlineHours: z.number().int(),
});
export type StoreSettings = z.infer<typeof StoreSettings>;

/** A tax rate chosen by its id; null: none (for a product, the store's default; for the store, no tax). */
export const TaxRateRef = (label: string) =>
  z
    .string({ error: `${label} must be a tax rate id or null.` })
    .min(1, { error: `${label} must be a tax rate id or null.` })
    .max(100, { error: 'Choose an existing tax rate.' })
    .nullable();

/** PUT /api/settings/store: changes only the fields it names. */
export const StoreSettingsInput = z.object({
  name: requiredText(STORE_MAX.name, 'Store name').optional(),
  address: optionalText(MAX.address).optional(),
  phone: optionalText(MAX.phone).optional(),
  taxNumber: optionalText(STORE_MAX.taxNumber).optional(),
  currency: Currency.optional(),
  receiptFooter: optionalText(STORE_MAX.receiptFooter).optional(),
  pricesIncludeTax: z.boolean({ error: 'Prices include tax must be true or false.' }).optional(),
  defaultTaxRate: TaxRateRef('Default tax rate').optional().describe('A tax rate id; null: no tax'),
  maxDiscountPercent: MaxDiscountPercent.optional(),
  defaultLocation: LocationId.optional().describe('An active location id'),
  offlineHours: z
    .number({ error: 'offlineHours must be a number of hours.' })
    .int({ error: 'offlineHours is a whole number of hours.' })
    .min(1, { error: 'offlineHours is at least 1.' })
    .max(168, { error: 'offlineHours is at most 168 (a week).' })
    .optional(),
});
export type StoreSettingsInput = z.input<typeof StoreSettingsInput>;

export const StoreSettingsResponse = Ok.extend({ store: StoreSettings });
export type StoreSettingsResponse = z.infer<typeof StoreSettingsResponse>;
