import { TRANSFER_STATUS_LABEL, type TransferLine, type TransferStatus } from '../../../shared/transfers';

const STATUS_TONE: Record<TransferStatus, string> = {
  draft: 'bg-slate-100 text-slate-800 ring-slate-500/30',
  inTransit: 'bg-blue-100 text-blue-800 ring-blue-600/30',
  partiallyReceived: 'bg-amber-100 text-amber-900 ring-amber-600/30',
  received: 'bg-green-100 text-green-800 ring-green-600/30',
  cancelled: 'bg-red-100 text-red-800 ring-red-600/30',
  closed: 'bg-violet-100 text-violet-800 ring-violet-600/30',
};

/** A status in words, coloured by status (the words alone say it; the colour only helps). */
export function TransferStatusBadge({ status }: { status: TransferStatus }) {
  return (
    <span
      data-status={status}
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset print:ring-0 ${STATUS_TONE[status]}`}
    >
      {TRANSFER_STATUS_LABEL[status]}
    </span>
  );
}

/** Units of a line on the road: sent and not yet received, lost or returned to `from`. */
export const inTransitOf = (line: TransferLine) =>
  Math.max(0, line.sent - line.received - line.lost - line.returned);

/** Whether units of it can still be received (or the rest sent back by closing it). */
export const isOpen = (status: TransferStatus) => status === 'inTransit' || status === 'partiallyReceived';

export const units = (count: number) => `${count} ${count === 1 ? 'unit' : 'units'}`;
