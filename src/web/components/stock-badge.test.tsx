import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../test/helpers';
import { StockBadge } from './stock-badge';

function badge(stock: number) {
  render(<StockBadge stock={stock} />);
  return screen.getByText(String(stock));
}

describe('StockBadge', () => {
  it('is red at 0', () => {
    const element = badge(0);
    expect(element.dataset.level).toBe('out');
    expect(element.className).toContain('bg-red-100');
    expect(element.title).toBe('Out of stock');
  });

  it.each([1, 4, 5])('is yellow at %i (5 or fewer)', (stock) => {
    const element = badge(stock);
    expect(element.dataset.level).toBe('low');
    expect(element.className).toContain('bg-yellow-100');
  });

  it.each([6, 250])('is green at %i (above 5)', (stock) => {
    const element = badge(stock);
    expect(element.dataset.level).toBe('ok');
    expect(element.className).toContain('bg-green-100');
  });
});
