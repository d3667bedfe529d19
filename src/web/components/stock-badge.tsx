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

/** A shape beside the count (a slashed circle, a downward arrow), so colour is not all that tells. */
const MARK: Record<StockLevel, string | null> = {
  out: 'M6 1.5a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9zM2.8 2.8l6.4 6.4',
  low: 'M6 2v7.5M2.8 6.5 6 9.5l3.2-3',
  ok: null,
};

/**
 * Stock count coloured red at 0, yellow at or below the product's reorder point, green above;
 * out and low also carry a mark, named for assistive technology. The mark is drawn, not written,
 * so the cell's text stays the count (copied, compared, read in lists).
 * The reorder point comes with the product from the server; the web app keeps no threshold.
 */
export function StockBadge({ stock, reorderPoint }: { stock: number; reorderPoint: number }) {
  const level = stockLevel(stock, reorderPoint);
  return (
    <span
      data-level={level}
      title={MEANING[level]}
      className={`inline-flex min-w-10 items-center justify-center gap-0.5 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STYLE[level]}`}
    >
      {MARK[level] ? (
        <svg
          role="img"
          aria-label={MEANING[level]}
          viewBox="0 0 12 12"
          className="size-3 shrink-0 fill-none stroke-current stroke-[1.6]"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d={MARK[level]} />
        </svg>
      ) : null}
      {stock}
    </span>
  );
}
