import { useQuery } from '@tanstack/react-query';
import type { BooksCheckResponse } from '../../../shared/accounting';
import { buttonClass } from '../../components/button';
import { LoadState } from '../../components/load-state';
import { formatCount } from '../../lib/format';
import { useMoney } from '../../lib/store-settings';
import { booksCheckQuery } from './accounting-api';
import { AccountingPage } from './accounting-layout';

type Check = BooksCheckResponse['checks'][number];

/**
 * Whether a check compares money (an account's balance with the shop's figure) or counts what is
 * wrong (entries, documents, locations; 0 expected). The answer does not say: the money checks
 * are the ones named by an account's code or by the trial balance's totals.
 */
export function isMoneyCheck(check: Pick<Check, 'name'>): boolean {
  return /^\d{4}\b|^The trial balance|^The kept totals/.test(check.name);
}

function CheckRow({ check }: { check: Check }) {
  const money = useMoney();
  const figure = (value: number) => (isMoneyCheck(check) ? money(value) : formatCount(value));
  return (
    <li
      className={`flex flex-col gap-1 rounded-md border px-3 py-2.5 sm:flex-row sm:items-center sm:justify-between sm:gap-4 ${check.ok ? 'border-emerald-200 bg-emerald-50' : 'border-red-200 bg-red-50'}`}
    >
      <span className="flex items-start gap-2">
        <span
          aria-hidden="true"
          className={`mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-bold text-white ${check.ok ? 'bg-emerald-600' : 'bg-red-600'}`}
        >
          {check.ok ? '✓' : '✗'}
        </span>
        <span className={`text-sm font-medium ${check.ok ? 'text-emerald-900' : 'text-red-900'}`}>
          <span className="sr-only">{check.ok ? 'Passes: ' : 'Fails: '}</span>
          {check.name}
        </span>
      </span>
      <span
        className={`pl-7 text-sm tabular-nums sm:pl-0 sm:text-right ${check.ok ? 'text-emerald-800' : 'text-red-800'}`}
      >
        {check.ok ? (
          figure(check.actual)
        ) : (
          <>
            expected {figure(check.expected)}, the books {figure(check.actual)}
          </>
        )}
      </span>
    </li>
  );
}

/**
 * Admin: the books checked against the shop (DESIGN §19): every entry balances, the trial balance
 * is zero, each account the shop also keeps (the stock's value, goods in transit, tax, store
 * credit, the drawers) holds the shop's figure, and every document has its one entry. Each check
 * is green or red with its figures; a line above says how many pass.
 */
export function BooksCheckPage() {
  const query = useQuery(booksCheckQuery);
  return (
    <AccountingPage
      title="Books check"
      tab="check"
      actions={
        <button
          type="button"
          className={buttonClass('secondary')}
          disabled={query.isFetching}
          onClick={() => void query.refetch()}
        >
          {query.isFetching ? 'Checking...' : 'Check again'}
        </button>
      }
    >
      <LoadState
        query={query}
        what="the books check"
        loading="Checking the books..."
        isEmpty={(answer) => answer.checks.length === 0}
        empty="There is nothing to check."
      >
        {(answer) => {
          const failing = answer.checks.filter((check) => !check.ok).length;
          return (
            <section
              aria-label="Checks"
              className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4"
            >
              <p
                role="status"
                className={`mb-3 rounded-md p-3 text-sm font-semibold ${answer.ok ? 'bg-emerald-100 text-emerald-900' : 'bg-red-100 text-red-900'}`}
              >
                {answer.ok
                  ? `The books agree with the shop: all ${answer.checks.length} checks pass.`
                  : `${failing} of ${answer.checks.length} checks fail: the books disagree with the shop.`}
              </p>
              <ul className="space-y-2">
                {answer.checks.map((check) => (
                  <CheckRow key={check.name} check={check} />
                ))}
              </ul>
            </section>
          );
        }}
      </LoadState>
    </AccountingPage>
  );
}
