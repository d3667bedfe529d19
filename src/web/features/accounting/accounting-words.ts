import type { AccountType, JournalEntry, SourceKind } from '../../../shared/accounting';
import {
  billPath,
  journalEntryPath,
  purchaseOrderPath,
  stocktakePath,
  transferPath,
} from '../../lib/admin-paths';
import { customerPath, refundPath, salePath, sessionPath, sessionsPath } from '../../lib/area-paths';
import { withQuery } from '../../lib/paging';
import { homePathFor } from '../../lib/role-home';

export const TYPE_LABEL: Record<AccountType, string> = {
  asset: 'Asset',
  liability: 'Liability',
  equity: 'Equity',
  income: 'Income',
  expense: 'Expense',
};

/** What posted an entry, in words (the journal's source filter and each entry's source). */
export const SOURCE_LABEL: Record<SourceKind, string> = {
  sale: 'Sale',
  refund: 'Refund',
  return: 'Return (Orders screen)',
  receipt: 'Purchase receipt',
  movement: 'Stock movement',
  transfer: 'Transfer',
  stocktake: 'Stocktake',
  cash: 'Cash in or out',
  sessionOpen: 'Till opened',
  sessionClose: 'Till closed',
  credit: 'Store credit',
  bill: 'Bill',
  payment: 'Payment',
  manual: 'Manual entry',
  reversal: 'Reversal',
  opening: 'Opening balances',
};

/** A link to a screen of the app, with its words. */
export type ScreenLink = { to: string; label: string };

const ADMIN = 'admin';

/**
 * The screen of the document that posted an entry (DESIGN §19: each entry links to its sale,
 * refund, purchase order, session, stocktake or bill), or null when the app has no screen for it
 * (a stock movement, a manual entry, the opening balances, a supplier payment). A cash movement's
 * entry names the movement, not its session: it leads to its register's sessions up to that day,
 * the session it belongs to first among them.
 */
export function sourceLink(entry: Pick<JournalEntry, 'source' | 'lines' | 'date'>): ScreenLink | null {
  const { kind, _id: id, number } = entry.source;
  const named = (what: string) => (number ? `${what} ${number}` : what);
  if (kind === 'return') {
    // The source is the order; the sales view finds its sale by the receipt number.
    return number
      ? { to: withQuery(`${homePathFor(ADMIN)}/sales`, { q: number }), label: `Sale ${number}` }
      : { to: `${homePathFor(ADMIN)}/orders`, label: 'Orders' };
  }
  if (kind === 'cash') {
    const register = entry.lines.find((line) => line.register)?.register;
    if (!register) return { to: sessionsPath(ADMIN), label: 'Till sessions' };
    return {
      to: withQuery(sessionsPath(ADMIN), { register: register._id, to: entry.date }),
      label: `Sessions of ${register.name}`,
    };
  }
  if (kind === 'credit') {
    const customer = entry.lines.find((line) => line.customer)?.customer;
    return customer ? { to: customerPath(ADMIN, customer._id), label: customer.name } : null;
  }
  if (!id) return null;
  switch (kind) {
    case 'sale':
      // An order placed before sales had receipts posts as a sale of its own, without a number.
      return number
        ? { to: salePath(ADMIN, id), label: named('Sale') }
        : { to: `${homePathFor(ADMIN)}/orders`, label: 'Orders' };
    case 'refund':
      return { to: refundPath(ADMIN, id), label: named('Refund') };
    case 'receipt':
      return { to: purchaseOrderPath(id), label: named('Purchase order') };
    case 'transfer':
      return { to: transferPath(id), label: named('Transfer') };
    case 'stocktake':
      return { to: stocktakePath(id), label: named('Stocktake') };
    case 'bill':
      return { to: billPath(id), label: named('Bill') };
    case 'sessionOpen':
    case 'sessionClose':
      return { to: sessionPath(ADMIN, id), label: named('Till session') };
    case 'reversal':
      return { to: journalEntryPath(id), label: number ?? 'the entry reversed' };
    default:
      return null;
  }
}
