import type { Item, OptionValues, VariantInput } from '../../../shared/items';
import type { Product } from '../../../shared/products';

/**
 * The item editor's draft (DESIGN §22): options and their values as typed, each with an id of its
 * own so a renamed value keeps its row of the variant matrix, and the matrix's rows by combination.
 */
export type ValueDraft = {
  id: string;
  text: string /** As the server has it (an edit), for matching. */;
  original?: string;
};
export type OptionDraft = { id: string; name: string; original?: string; values: ValueDraft[] };

/** A new combination's boxes, as typed; `include` false: the combination is left out (DESIGN §22). */
export type RowDraft = {
  include: boolean;
  sku: string;
  barcode: string;
  price: string;
  cost: string;
  stock: string;
  taxRate: string;
};
export const ROW_FIELDS = ['sku', 'barcode', 'price', 'cost', 'stock', 'taxRate'] as const;
export type RowField = (typeof ROW_FIELDS)[number];

export const emptyRow = (include: boolean): RowDraft => ({
  include,
  sku: '',
  barcode: '',
  price: '',
  cost: '',
  stock: '',
  taxRate: '',
});

/** One cell of the matrix: a value of each option that has a name and values, in the options' order. */
export type Combination = { key: string; parts: { option: OptionDraft; value: ValueDraft }[] };

let made = 0;
/** An id for a value or option typed here (never sent: the server knows them by text and place). */
export function newId(): string {
  made += 1;
  return `new-${made}`;
}

/** The options the matrix is made of: those with a name and at least one value that is not blank. */
export function usableOptions(options: readonly OptionDraft[]): OptionDraft[] {
  return options
    .map((option) => ({ ...option, values: option.values.filter((value) => value.text.trim() !== '') }))
    .filter((option) => option.name.trim() !== '' && option.values.length > 0);
}

/** Every combination of the options' values (their cartesian product), the first option's slowest. */
export function combinations(options: readonly OptionDraft[]): Combination[] {
  let all: Combination[] = [{ key: '', parts: [] }];
  for (const option of usableOptions(options)) {
    all = all.flatMap((combination) =>
      option.values.map((value) => ({
        key: combination.key === '' ? value.id : `${combination.key}|${value.id}`,
        parts: [...combination.parts, { option, value }],
      })),
    );
  }
  return all;
}

/** "M / Red": how the matrix names a combination (the item alone when it has no options). */
export function combinationLabel(combination: Combination): string {
  return combination.parts.map((part) => part.value.text.trim()).join(' / ') || 'The item itself';
}

export function optionValuesOf(combination: Combination): OptionValues {
  return Object.fromEntries(
    combination.parts.map((part) => [part.option.name.trim(), part.value.text.trim()]),
  );
}

/** The options as the server takes them: names and values trimmed, blanks dropped. */
export function optionsInput(options: readonly OptionDraft[]): { name: string; values: string[] }[] {
  return options
    .filter((option) => option.name.trim() !== '' || option.values.some((value) => value.text.trim() !== ''))
    .map((option) => ({
      name: option.name.trim(),
      values: option.values.map((value) => value.text.trim()).filter((text) => text !== ''),
    }));
}

/** A row's boxes as a variant: empty optional boxes left out, numbers as numbers (an empty price NaN). */
export function variantInputOf(row: RowDraft, combination: Combination, withStock: boolean): VariantInput {
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  return {
    optionValues: optionValuesOf(combination),
    ...(row.sku.trim() ? { sku: row.sku } : {}),
    ...(row.barcode.trim() ? { barcode: row.barcode } : {}),
    price: number(row.price),
    ...(row.cost.trim() ? { cost: number(row.cost) } : {}),
    ...(withStock && row.stock.trim() ? { stock: number(row.stock) } : {}),
    ...(row.taxRate ? { taxRate: row.taxRate } : {}),
  };
}

/** An item as the editor starts from: its options with ids by place, so each variant finds its row. */
export function draftOf(item: Item): OptionDraft[] {
  return item.options.map((option, i) => ({
    id: `o${i}`,
    name: option.name,
    original: option.name,
    values: option.values.map((text, j) => ({ id: `o${i}v${j}`, text, original: text })),
  }));
}

const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

/**
 * The existing variants by the key of their combination in the draft: a variant's value is found
 * by its text now or as loaded (a value renamed here keeps its variant).
 */
export function existingByKey(
  variants: readonly Product[],
  options: readonly OptionDraft[],
): Map<string, Product> {
  const found = new Map<string, Product>();
  const usable = usableOptions(options);
  for (const variant of variants) {
    const values = variant.optionValues ?? {};
    const ids: string[] = [];
    for (const option of usable) {
      const entry = Object.entries(values).find(
        ([name]) => same(option.original, name) || same(option.name.trim(), name),
      );
      const value =
        entry && option.values.find((one) => same(one.original, entry[1]) || same(one.text.trim(), entry[1]));
      if (!value) break;
      ids.push(value.id);
    }
    if (ids.length === usable.length) found.set(ids.join('|'), variant);
  }
  return found;
}

/** "$4.00" or "$4.00–$6.00": an item's variants' prices, lowest to highest; null without variants. */
export function priceRange(variants: readonly Product[], money: (value: number) => string): string | null {
  if (variants.length === 0) return null;
  const prices = variants.map((variant) => variant.price);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return low === high ? money(low) : `${money(low)}–${money(high)}`;
}
