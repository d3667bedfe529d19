import { describe, expect, it } from 'vitest';
import { pageOf } from './paging';

const items = Array.from({ length: 120 }, (_, index) => index);

describe('pageOf', () => {
  it('cuts pages of the given size and reports where they start', () => {
    const second = pageOf(items, 2, 50);
    expect(second.rows[0]).toBe(50);
    expect(second.rows).toHaveLength(50);
    expect(second).toMatchObject({ page: 2, pageCount: 3, offset: 50, total: 120 });
    expect(pageOf(items, 3, 50).rows).toHaveLength(20);
  });

  it('clamps a page past the end (after a search shrank the list) and before the start', () => {
    expect(pageOf(items.slice(0, 10), 3, 50)).toMatchObject({ page: 1, pageCount: 1, offset: 0 });
    expect(pageOf(items, 0, 50).page).toBe(1);
  });

  it('has one empty page for an empty list', () => {
    expect(pageOf([], 1, 50)).toEqual({ rows: [], page: 1, pageCount: 1, offset: 0, total: 0 });
  });
});
