import type { Bill, BillStatus, SupplierPaymentMethod } from '../../../shared/bills';

export const STATUS_LABEL: Record<BillStatus, string> = {
  draft: 'Draft',
  posted: 'Posted',
  partiallyPaid: 'Partly paid',
  paid: 'Paid',
  void: 'Void',
};

const STATUS_TONE: Record<BillStatus, string> = {
  draft: 'bg-slate-100 text-slate-800 ring-slate-500/30',
  posted: 'bg-blue-100 text-blue-800 ring-blue-600/30',
  partiallyPaid: 'bg-amber-100 text-amber-900 ring-amber-600/30',
  paid: 'bg-green-100 text-green-800 ring-green-600/30',
  void: 'bg-red-100 text-red-800 ring-red-600/30',
};

/** A status in words, coloured by status (the words alone say it; the colour only helps). */
export function BillStatusBadge({ status }: { status: BillStatus }) {
  return (
    <span
      data-status={status}
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATUS_TONE[status]}`}
    >
      {STATUS_LABEL[status]}
    </span>
  );
}

/** "12 days overdue": said in words beside the due date, in red, so colour is not the only sign. */
export function overdueText(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'} overdue`;
}

export function OverdueMark({ bill }: { bill: Pick<Bill, 'overdueDays'> }) {
  if (bill.overdueDays <= 0) return null;
  return (
    <span className="block text-xs font-semibold whitespace-nowrap text-red-700">
      {overdueText(bill.overdueDays)}
    </span>
  );
}

export const METHOD_LABEL: Record<SupplierPaymentMethod, string> = {
  bank: 'Bank transfer',
  cash: 'Cash',
  card: 'Card',
};

/** Figures line up on the right, digits of equal width. */
export const NUMBER = 'whitespace-nowrap text-right tabular-nums';
