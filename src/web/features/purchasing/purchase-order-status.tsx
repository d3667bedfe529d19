import type { PurchaseOrderLine, PurchaseOrderStatus } from '../../../shared/purchasing';

export const STATUS_LABEL: Record<PurchaseOrderStatus, string> = {
  draft: 'Draft',
  ordered: 'Ordered',
  partially_received: 'Partially received',
  received: 'Received',
  cancelled: 'Cancelled',
  closed: 'Closed',
};

const STATUS_TONE: Record<PurchaseOrderStatus, string> = {
  draft: 'bg-slate-100 text-slate-800 ring-slate-500/30',
  ordered: 'bg-blue-100 text-blue-800 ring-blue-600/30',
  partially_received: 'bg-amber-100 text-amber-900 ring-amber-600/30',
  received: 'bg-green-100 text-green-800 ring-green-600/30',
  cancelled: 'bg-red-100 text-red-800 ring-red-600/30',
  closed: 'bg-violet-100 text-violet-800 ring-violet-600/30',
};

/** A status in words, coloured by status (the words alone say it; the colour only helps). */
export function StatusBadge({ status }: { status: PurchaseOrderStatus }) {
  return (
    <span
      data-status={status}
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATUS_TONE[status]}`}
    >
      {STATUS_LABEL[status]}
    </span>
  );
}

/** Units of a line still expected. */
export const openQuantity = (line: PurchaseOrderLine) => Math.max(0, line.quantity - line.received);
