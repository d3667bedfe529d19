import { describe, expect, it } from 'vitest';
import { filterByName } from './search';

const items = [{ name: 'Blue Pen' }, { name: 'red pen' }, { name: 'Stapler' }, { name: 'Écran' }];

describe('filterByName', () => {
  it('keeps names containing the text, ignoring case', () => {
    expect(filterByName(items, 'PEN').map((item) => item.name)).toEqual(['Blue Pen', 'red pen']);
    expect(filterByName(items, 'apl').map((item) => item.name)).toEqual(['Stapler']);
  });

  it('ignores surrounding spaces and returns everything for an empty query', () => {
    expect(filterByName(items, '  stapler ')).toEqual([{ name: 'Stapler' }]);
    expect(filterByName(items, '   ')).toHaveLength(4);
  });

  it('matches accented letters case-insensitively and returns nothing when nothing matches', () => {
    expect(filterByName(items, 'écr')).toEqual([{ name: 'Écran' }]);
    expect(filterByName(items, 'laptop')).toEqual([]);
  });
});
