import { type StockLevel, stockLevel } from '../../shared/products';

const STYLE: Record<StockLevel, string> = {
  out: 'bg-red-100 text-red-800 ring-red-600/30',
  low: 'bg-yellow-100 text-yellow-800 ring-yellow-600/30',
  ok: 'bg-green-100 text-green-800 ring-green-600/30',
};

const MEANING: Record<StockLevel, string> = {
  out: 'Out of stock',
  low: 'Low stock',
  ok: 'In stock',
};

/**
 * Stock count coloured red at 0, yellow at or below the product's reorder point, green above.
 * The reorder point comes with the product from the server; the web app keeps no threshold.
 */
export function StockBadge({ stock, reorderPoint }: { stock: number; reorderPoint: number }) {
  const level = stockLevel(stock, reorderPoint);
  return (
    <span
      data-level={level}
      title={MEANING[level]}
      className={`inline-flex min-w-10 justify-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STYLE[level]}`}
    >
      {stock}
    </span>
  );
}
