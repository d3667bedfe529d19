import { describe, expect, it } from 'vitest';
import type { Product } from '../../shared/products';
import { groupVariants, isGroup, orderValues } from './variant-groups';

const variant = (id: string, values: Record<string, string>): Product =>
  ({
    _id: id,
    name: `Tee — ${Object.values(values).join(' / ')}`,
    item: { _id: 'tee', name: 'Tee' },
    optionValues: values,
  }) as unknown as Product;

describe('the values of an item’s options as the picker offers them', () => {
  it('puts clothing sizes smallest first, whatever the page order', () => {
    expect(orderValues(['L', 'M', 'S', 'XL', 'xs'])).toEqual(['xs', 'S', 'M', 'L', 'XL']);
  });

  it('puts values that start with a number by that number', () => {
    expect(orderValues(['12 oz', '16 oz', '8 oz'])).toEqual(['8 oz', '12 oz', '16 oz']);
    expect(orderValues(['45', '38', '40.5', '39'])).toEqual(['38', '39', '40.5', '45']);
  });

  it('keeps any other values in the order the variants came', () => {
    expect(orderValues(['White', 'Black', 'Blue'])).toEqual(['White', 'Black', 'Blue']);
    expect(orderValues(['M', 'Tall'])).toEqual(['M', 'Tall']);
    expect(orderValues(['8 oz', 'Travel'])).toEqual(['8 oz', 'Travel']);
  });

  it('groups a page sorted by name into one entry whose sizes read S, M, L', () => {
    const page = [
      variant('1', { Size: 'L', Colour: 'Black' }),
      variant('2', { Size: 'M', Colour: 'Black' }),
      variant('3', { Size: 'M', Colour: 'White' }),
      variant('4', { Size: 'S', Colour: 'White' }),
    ];
    const [entry, ...rest] = groupVariants(page);
    expect(rest).toEqual([]);
    if (!entry || !isGroup(entry)) throw new Error('The variants were not grouped.');
    expect(entry.options).toEqual([
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Colour', values: ['Black', 'White'] },
    ]);
  });
});
