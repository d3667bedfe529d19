import type { TransferLine } from '../../../shared/transfers';
import { expiryLabel } from '../../components/lot-expiry';

/**
 * A line's lots in words: those it was sent with and their expiries once sent, the lots a draft
 * names before; nothing for a line without lots (an untracked product, or FEFO at `from`).
 */
export function LineLots({ line }: { line: TransferLine }) {
  if (line.lots && line.lots.length > 0)
    return (
      <ul className="space-y-0.5">
        {line.lots.map((lot) => (
          <li key={lot._id} className="whitespace-nowrap">
            Lot {lot.number} ({lot.sent}) ·{' '}
            {lot.expiresOn ? `expires ${expiryLabel(lot.expiresOn)}` : expiryLabel(null)}
          </li>
        ))}
      </ul>
    );
  if (line.requestedLots && line.requestedLots.length > 0)
    return (
      <ul className="space-y-0.5">
        {line.requestedLots.map((lot) => (
          <li key={lot.number} className="whitespace-nowrap">
            Lot {lot.number} ({lot.quantity})
          </li>
        ))}
      </ul>
    );
  return <span className="text-slate-400">—</span>;
}
