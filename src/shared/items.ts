import { z } from 'zod';
import { MAX, Money, Named, Ok, optionalText, requiredText } from './common';
import { PageInfo, PageQuery } from './paging';
import { Product, ProductCode, Stock } from './products';
import { UnitCost } from './purchasing';
import { TaxRateRef } from './store';

/**
 * Items and their variants (DESIGN §22, decision 0045): "CeraVe Lotion" with the option Size
 * (8 oz, 12 oz, 16 oz), each size a product of its own (its SKU, barcode, price, cost, stock at
 * each location, lots, tax rate, movements and sales) carrying `item{_id, name}` and its
 * `optionValues`. This file is the one place for the contract and for a variant's name.
 */

/** At most 3 options, each of at most 100 values. */
export const MAX_OPTIONS = 3;
export const MAX_OPTION_VALUES = 100;

/** An option's name or value: text a label holds, no NUL, at most 100 characters. */
const OptionText = (label: string) =>
  requiredText(100, label).refine((text) => !text.includes('\0'), {
    error: `${label} must not hold a NUL character.`,
  });

/** An option and its values, in the order the screens show them; names and values unique ignoring case. */
export const ItemOption = z
  .object(
    {
      name: OptionText('Option name'),
      values: z
        .array(OptionText('Option value'), { error: 'values must be a list of texts.' })
        .min(1, { error: 'An option needs at least one value.' })
        .max(MAX_OPTION_VALUES, { error: `An option has at most ${MAX_OPTION_VALUES} values.` }),
    },
    { error: 'An option is {name, values}.' },
  )
  .refine((option) => unique(option.values), {
    error: 'The values of an option must differ (ignoring case).',
  });
export type ItemOption = z.infer<typeof ItemOption>;

const unique = (texts: readonly string[]) =>
  new Set(texts.map((text) => text.toLowerCase())).size === texts.length;

export const ItemOptions = z
  .array(ItemOption, { error: 'options must be a list of {name, values}.' })
  .max(MAX_OPTIONS, { error: `An item has at most ${MAX_OPTIONS} options.` })
  .refine((options) => unique(options.map((option) => option.name)), {
    error: 'The options of an item must have different names (ignoring case).',
  });

/** A variant's value of each option: {Size: '12 oz', Colour: 'Red'}. */
export const OptionValues = z.record(z.string().max(100), z.string().max(100), {
  error: 'optionValues must be an object of option → value.',
});
export type OptionValues = z.infer<typeof OptionValues>;

/** A variant as an item's creation or `POST /api/items/:id/variants` gives it. */
export const VariantInput = z.object({
  optionValues: OptionValues,
  sku: ProductCode('SKU').optional(),
  barcode: ProductCode('Barcode').optional(),
  price: Money,
  cost: UnitCost.nullable().optional(),
  stock: Stock.optional(),
  taxRate: TaxRateRef('Tax rate').optional().describe("A tax rate id; null: the store's default"),
});
export type VariantInput = z.input<typeof VariantInput>;

/** A category's or supplier's id, refused in one sentence that names it. */
const RefId = (label: string) =>
  z
    .string({ error: `${label} must be an id.` })
    .min(1, { error: `Choose a ${label}.` })
    .max(100, { error: `${label} must be an id.` });

export const ItemInput = z.object({
  name: requiredText(MAX.name, 'Item name'),
  description: optionalText(MAX.description).default(''),
  category: RefId('category').describe('Category id'),
  supplier: RefId('supplier').describe('Supplier id'),
  brand: optionalText(MAX.name).nullable().optional(),
  options: ItemOptions,
  variants: z.array(VariantInput).max(1000, { error: 'An item has at most 1,000 variants.' }).optional(),
});
export type ItemInput = z.input<typeof ItemInput>;

/**
 * An edit: the name, description, category, supplier, brand and options. An option's values may
 * be renamed (same place in the list), added or removed (a value a variant has cannot be, 409);
 * options may be neither added nor removed once the item has variants.
 */
export const ItemUpdateInput = ItemInput.omit({ variants: true });
export type ItemUpdateInput = z.input<typeof ItemUpdateInput>;

export const Item = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  category: Named,
  supplier: Named,
  brand: z.string().nullable(),
  options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
  /** Its variants, in the order of their values (the options' order, then each option's values' order). */
  variants: z.array(Product),
});
export type Item = z.infer<typeof Item>;
export const ItemResponse = Ok.extend({ item: Item });
export type ItemResponse = z.infer<typeof ItemResponse>;

export const ItemQuery = PageQuery.extend({ category: RefId('category').optional() });
export type ItemQuery = z.input<typeof ItemQuery>;
/** A page of items by name, each with its variants. */
export const ItemListResponse = Ok.extend({ items: z.array(Item) }).extend(PageInfo.shape);
export type ItemListResponse = z.infer<typeof ItemListResponse>;

/** The separator between an item's name and its values in a variant's name. */
export const VARIANT_SEPARATOR = ' — ';

/**
 * A variant's name (DESIGN §22): the item's name and its values in the options' order, "CeraVe
 * Lotion — 12 oz", "Tee — M / Red". The one rule: the server names variants by it (and renames
 * them by it when the item or a value is renamed), the import matches rows by it.
 */
export function variantName(
  itemName: string,
  options: readonly { name: string }[],
  optionValues: Readonly<Record<string, string>>,
): string {
  const values = options
    .map((option) => optionValues[option.name])
    .filter((value): value is string => value !== undefined && value !== '');
  return values.length === 0 ? itemName : `${itemName}${VARIANT_SEPARATOR}${values.join(' / ')}`;
}
