import { describe, expect, it } from 'vitest';
import { isPastEnd, pageOf, serverPage } from './paging';

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

describe('isPastEnd', () => {
  it('is true only for an empty page while matches remain on earlier pages', () => {
    expect(
      isPastEnd(serverPage({ rows: [], total: 120, page: 4, pageSize: 50 }, { page: 4, pageSize: 50 })),
    ).toBe(true);
    expect(isPastEnd(serverPage({ rows: [], total: 0 }, { page: 1, pageSize: 50 }))).toBe(false);
    expect(
      isPastEnd(serverPage({ rows: [1], total: 120, page: 3, pageSize: 50 }, { page: 3, pageSize: 50 })),
    ).toBe(false);
  });
});

describe('serverPage', () => {
  it('keeps the server saying it stopped counting, and pages over the matches it counted', () => {
    const capped = serverPage(
      { rows: [1], total: 2000, totalCapped: true, page: 1, pageSize: 50 },
      { page: 1, pageSize: 50 },
    );
    expect(capped).toMatchObject({ total: 2000, totalCapped: true, pageCount: 40 });
    expect(serverPage({ rows: [1], total: 120 }, { page: 1, pageSize: 50 }).totalCapped).toBeUndefined();
  });
});
