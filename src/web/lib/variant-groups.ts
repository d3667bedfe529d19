import type { Product } from '../../shared/products';

/**
 * An item's variants shown together (DESIGN §22): the catalogue and the counter list one entry
 * per item, and the seller picks its values. Grouped from the products a page answers, in the
 * order they came (variants of one item sit together: they share the item's name).
 */
export type VariantGroup = {
  /** The item's id, so a list keys it apart from any product. */
  _id: string;
  kind: 'item';
  name: string;
  variants: Product[];
  /** Each option's values: sizes and numbers in their order, others as the variants carry them (orderValues). */
  options: { name: string; values: string[] }[];
};

export type ProductOrGroup = Product | VariantGroup;

export const isGroup = (entry: ProductOrGroup): entry is VariantGroup =>
  'kind' in entry && entry.kind === 'item';

/** The products with an item's variants (two or more on the page) folded into one group, where its first was. */
export function groupVariants(products: readonly Product[]): ProductOrGroup[] {
  const byItem = new Map<string, Product[]>();
  for (const product of products)
    if (product.item) byItem.set(product.item._id, [...(byItem.get(product.item._id) ?? []), product]);
  const entries: ProductOrGroup[] = [];
  const placed = new Set<string>();
  for (const product of products) {
    const variants = product.item ? (byItem.get(product.item._id) ?? []) : [];
    if (!product.item || variants.length < 2) {
      entries.push(product);
      continue;
    }
    if (placed.has(product.item._id)) continue;
    placed.add(product.item._id);
    entries.push({
      _id: `item-${product.item._id}`,
      kind: 'item',
      name: product.item.name,
      variants,
      options: optionsOf(variants),
    });
  }
  return entries;
}

function optionsOf(variants: readonly Product[]): VariantGroup['options'] {
  const options: VariantGroup['options'] = [];
  for (const variant of variants)
    for (const [name, value] of Object.entries(variant.optionValues ?? {})) {
      let option = options.find((one) => one.name === name);
      if (!option) {
        option = { name, values: [] };
        options.push(option);
      }
      if (!option.values.includes(value)) option.values.push(value);
    }
  return options.map((option) => ({ ...option, values: orderValues(option.values) }));
}

/** Clothing sizes, smallest first, as shops write them. */
const SIZES = [
  'XXXS',
  '3XS',
  'XXS',
  '2XS',
  'XS',
  'S',
  'M',
  'L',
  'XL',
  'XXL',
  '2XL',
  'XXXL',
  '3XL',
  '4XL',
  '5XL',
];

/**
 * An option's values in the order a shopper reads them: a page lists variants by name, so "L"
 * comes before "M" and "12 oz" before "8 oz". Values that are all clothing sizes go smallest
 * first, values that all start with a number go by that number; any others keep their order.
 */
export function orderValues(values: readonly string[]): string[] {
  const size = (value: string) => SIZES.indexOf(value.trim().toUpperCase());
  if (values.every((value) => size(value) >= 0)) return [...values].sort((a, b) => size(a) - size(b));
  const number = (value: string) => Number(/^\s*(\d+(?:[.,]\d+)?)/.exec(value)?.[1]?.replace(',', '.'));
  if (values.every((value) => Number.isFinite(number(value))))
    return [...values].sort((a, b) => number(a) - number(b) || a.localeCompare(b));
  return [...values];
}

/** The values chosen so far: an option with one value only is chosen already. */
export function initialChoice(group: VariantGroup): Record<string, string> {
  return Object.fromEntries(
    group.options
      .filter((option) => option.values.length === 1)
      .map((option) => [option.name, option.values[0] as string]),
  );
}

/** The variant the chosen values name, once every option has one; undefined otherwise or when not made. */
export function chosenVariant(group: VariantGroup, chosen: Record<string, string>): Product | undefined {
  if (group.options.some((option) => chosen[option.name] === undefined)) return undefined;
  return group.variants.find((variant) =>
    group.options.every((option) => variant.optionValues?.[option.name] === chosen[option.name]),
  );
}

/** Whether some variant has `value` for `option` along with the other values chosen. */
export function isOffered(
  group: VariantGroup,
  chosen: Record<string, string>,
  option: string,
  value: string,
): boolean {
  return group.variants.some((variant) =>
    group.options.every((one) =>
      one.name === option
        ? variant.optionValues?.[one.name] === value
        : chosen[one.name] === undefined || variant.optionValues?.[one.name] === chosen[one.name],
    ),
  );
}
