import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../test/helpers';
import { StockBadge } from './stock-badge';

function badge(stock: number, reorderPoint = 5) {
  render(<StockBadge stock={stock} reorderPoint={reorderPoint} />);
  return screen.getByText(String(stock));
}

describe('StockBadge', () => {
  it('is red at 0', () => {
    const element = badge(0);
    expect(element.dataset.level).toBe('out');
    expect(element.className).toContain('bg-red-100');
    expect(element.title).toBe('Out of stock');
  });

  it.each([1, 4, 5])('is yellow at %i (at or below a reorder point of 5)', (stock) => {
    const element = badge(stock);
    expect(element.dataset.level).toBe('low');
    expect(element.className).toContain('bg-yellow-100');
    expect(element.title).toBe('Low stock');
  });

  it.each([6, 250])('is green at %i (above a reorder point of 5)', (stock) => {
    const element = badge(stock);
    expect(element.dataset.level).toBe('ok');
    expect(element.className).toContain('bg-green-100');
  });

  it('calls 8 low at a reorder point of 10', () => {
    const element = badge(8, 10);
    expect(element.dataset.level).toBe('low');
    expect(element.className).toContain('bg-yellow-100');
  });

  it('calls 8 ok at a reorder point of 5', () => {
    const element = badge(8, 5);
    expect(element.dataset.level).toBe('ok');
    expect(element.className).toContain('bg-green-100');
  });

  it('is red at 0 even with a reorder point of 0, and green from 1', () => {
    expect(badge(0, 0).dataset.level).toBe('out');
    expect(badge(1, 0).dataset.level).toBe('ok');
  });

  it('marks out and low with a named shape, not by colour alone, and keeps the count as its text', () => {
    const out = badge(0);
    expect(within(out).getByRole('img', { name: 'Out of stock' })).toBeTruthy();
    expect(out.textContent).toBe('0');
    expect(within(badge(3)).getByRole('img', { name: 'Low stock' })).toBeTruthy();
    expect(within(badge(40)).queryByRole('img')).toBeNull();
  });
});
