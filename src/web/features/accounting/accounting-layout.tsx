import { type ReactNode, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import {
  ACCOUNTING_PATH,
  BALANCE_SHEET_PATH,
  BOOKS_CHECK_PATH,
  EXPORT_PATH,
  JOURNAL_PATH,
  LOCK_DATE_PATH,
  NEW_ENTRY_PATH,
  PAYABLES_PATH,
  PROFIT_AND_LOSS_PATH,
  RECEIVED_NOT_BILLED_PATH,
  TAX_RETURN_PATH,
  TRIAL_BALANCE_PATH,
} from '../../lib/admin-paths';

/** Accounting's screens, in the order of their tabs (DESIGN §19, §20). */
export const ACCOUNTING_TABS = [
  { tab: 'accounts', label: 'Chart of accounts', to: ACCOUNTING_PATH },
  { tab: 'journal', label: 'Journal', to: JOURNAL_PATH },
  { tab: 'trial-balance', label: 'Trial balance', to: TRIAL_BALANCE_PATH },
  { tab: 'profit-and-loss', label: 'Profit and loss', to: PROFIT_AND_LOSS_PATH },
  { tab: 'balance-sheet', label: 'Balance sheet', to: BALANCE_SHEET_PATH },
  { tab: 'payables', label: 'Payables', to: PAYABLES_PATH },
  { tab: 'received-not-billed', label: 'Received not billed', to: RECEIVED_NOT_BILLED_PATH },
  { tab: 'tax-return', label: 'Tax return', to: TAX_RETURN_PATH },
  { tab: 'check', label: 'Books check', to: BOOKS_CHECK_PATH },
  { tab: 'export', label: 'Export', to: EXPORT_PATH },
  { tab: 'lock-date', label: 'Lock date', to: LOCK_DATE_PATH },
  { tab: 'manual-entry', label: 'Manual entry', to: NEW_ENTRY_PATH },
] as const;
export type AccountingTab = (typeof ACCOUNTING_TABS)[number]['tab'];

/**
 * Accounting's screens as tabs, drawn like the reports' tabs. Each is its own address (reload,
 * Back and a shared link keep it), so they are links in a navigation landmark, the current one
 * marked; on phones the row scrolls sideways.
 */
function AccountingTabs({ current }: { current: AccountingTab }) {
  const row = useRef<HTMLElement>(null);
  // On a phone the row is wider than the screen: bring the current tab into it.
  useEffect(() => {
    const nav = row.current;
    const link = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (nav && link && nav.scrollWidth > nav.clientWidth)
      nav.scrollLeft = link.offsetLeft - (nav.clientWidth - link.offsetWidth) / 2;
  }, []);
  return (
    <nav
      ref={row}
      aria-label="Accounting"
      className="-mx-3 mb-5 overflow-x-auto border-b border-slate-200 px-3 sm:mx-0 sm:px-0"
    >
      <ul className="flex">
        {ACCOUNTING_TABS.map(({ tab, label, to }) => {
          const selected = tab === current;
          return (
            <li key={tab} className="shrink-0">
              <Link
                to={to}
                aria-current={selected ? 'page' : undefined}
                className={`-mb-px block border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 sm:px-4 ${selected ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'}`}
              >
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** One screen of Accounting: its title (and the browser tab's), its actions, the tabs, then itself. */
export function AccountingPage({
  title,
  tab,
  actions,
  children,
}: {
  title: string;
  tab: AccountingTab;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title}>{actions}</PageHeader>
      <AccountingTabs current={tab} />
      {children}
    </>
  );
}
