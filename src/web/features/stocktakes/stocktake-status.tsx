import { STOCKTAKE_STATUS_LABEL, type StocktakeLine, type StocktakeStatus } from '../../../shared/stocktakes';
import { expiryLabel } from '../../components/lot-expiry';

const STATUS_TONE: Record<StocktakeStatus, string> = {
  counting: 'bg-blue-100 text-blue-800 ring-blue-600/30',
  posted: 'bg-green-100 text-green-800 ring-green-600/30',
  cancelled: 'bg-red-100 text-red-800 ring-red-600/30',
};

/** A status in words, coloured by status (the words alone say it; the colour only helps). */
export function StocktakeStatusBadge({ status }: { status: StocktakeStatus }) {
  return (
    <span
      data-status={status}
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset print:ring-0 ${STATUS_TONE[status]}`}
    >
      {STOCKTAKE_STATUS_LABEL[status]}
    </span>
  );
}

/** "Paracetamol 500 mg" or, for a lot's line, "Paracetamol 500 mg, lot A12". */
export const lineName = (line: { product: { name: string }; lot?: StocktakeLine['lot'] }) =>
  line.lot ? `${line.product.name}, lot ${line.lot.number}` : line.product.name;

/** A line's lot with its expiry ("A12 · expires Mar 3, 2027"), or nothing for an untracked product. */
export const lotText = (line: Pick<StocktakeLine, 'lot'>) =>
  line.lot ? `${line.lot.number} · ${expiryLabel(line.lot.expiresOn)}` : '';

/** What a count answered, as the scanner's person reads it: "Paracetamol 500 mg — 7 counted". */
export const countedText = (line: StocktakeLine) => `${lineName(line)} — ${line.counted ?? 0} counted`;

export const linesText = (count: number) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? 'line' : 'lines'}`;
