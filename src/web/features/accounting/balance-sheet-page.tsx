import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { BalanceSheetResponse } from '../../../shared/accounting';
import { centsNumber, toCents } from '../../../shared/money';
import { TextField } from '../../components/form-field';
import { ReportSection } from '../../components/report-section';
import { Table, Td, Th } from '../../components/table';
import { ledgerPath } from '../../lib/admin-paths';
import { formatDate } from '../../lib/format';
import { useListAddress } from '../../lib/list-address';
import { useMoney } from '../../lib/store-settings';
import { accountingPaths, balanceSheetQuery } from './accounting-api';
import { AccountingPage } from './accounting-layout';
import { Badge, NUMBER } from './accounting-parts';
import { dayIn } from './range-fields';

type Balanced = BalanceSheetResponse['assets'];

/** One side of the sheet as a table: its accounts and their balances, and its total. */
function Section({
  title,
  rows,
  total,
  totalLabel = `Total ${title.toLowerCase()}`,
  extra,
}: {
  title: string;
  rows: Balanced;
  total: number;
  totalLabel?: string;
  /** A row after the accounts' (the earnings, under the equity). */
  extra?: { label: string; amount: number };
}) {
  const money = useMoney();
  return (
    <Table caption={title}>
      <thead>
        <tr>
          <Th>{title}</Th>
          <Th className="text-right">Balance</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.length === 0 && !extra ? (
          <tr>
            <td colSpan={2} className="px-3 py-2.5 text-sm text-slate-500 sm:px-4">
              None.
            </td>
          </tr>
        ) : null}
        {rows.map((row) => (
          <tr key={row.account._id} className="hover:bg-slate-50">
            <th scope="row" className="px-3 py-2.5 text-left font-normal text-slate-800 sm:px-4">
              <Link to={ledgerPath(row.account._id)} className="hover:text-indigo-700 hover:underline">
                <span className="font-mono text-xs text-slate-600">{row.account.code}</span>{' '}
                {row.account.name}
              </Link>
            </th>
            <Td className={NUMBER}>{money(row.balance)}</Td>
          </tr>
        ))}
        {extra ? (
          <tr className="hover:bg-slate-50">
            <th scope="row" className="px-3 py-2.5 text-left font-normal text-slate-800 sm:px-4">
              {extra.label}
            </th>
            <Td className={NUMBER}>{money(extra.amount)}</Td>
          </tr>
        ) : null}
      </tbody>
      <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-semibold">
        <tr>
          <th scope="row" className="px-3 py-2.5 text-left sm:px-4">
            {totalLabel}
          </th>
          <Td className={NUMBER}>{money(total)}</Td>
        </tr>
      </tfoot>
    </Table>
  );
}

function Sheet({ answer }: { answer: BalanceSheetResponse }) {
  const money = useMoney();
  const { assets, liabilities, equity } = answer.totals;
  // The sheet's equation, summed in cents: assets = liabilities + equity + earnings.
  const claims = toCents(liabilities) + toCents(equity) + toCents(answer.earnings);
  const balances = toCents(assets) === claims;
  return (
    <>
      <p role="status" className="mb-4 flex flex-wrap items-center gap-2 text-sm text-slate-700">
        {balances ? <Badge tone="green">Balances</Badge> : <Badge tone="red">Does not balance</Badge>}
        <span className="tabular-nums">
          Assets {money(assets)} {balances ? '=' : '≠'} liabilities {money(liabilities)} + equity{' '}
          {money(equity)} + earnings {money(answer.earnings)}
          {balances ? '' : ` (${money(centsNumber(claims))})`}
        </span>
      </p>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Section title="Assets" rows={answer.assets} total={assets} />
        <div className="grid gap-6">
          <Section title="Liabilities" rows={answer.liabilities} total={liabilities} />
          <Section
            title="Equity"
            rows={answer.equity}
            total={centsNumber(toCents(equity) + toCents(answer.earnings))}
            totalLabel="Total equity and earnings"
            extra={{ label: 'Earnings not yet closed', amount: answer.earnings }}
          />
        </div>
      </div>
      <p className="mt-3 text-sm text-slate-600">
        Earnings are income less expenses not yet closed into 3200 Retained earnings; they belong to the
        equity.
      </p>
    </>
  );
}

/**
 * Admin: the balance sheet (DESIGN §19) at a day (today unless chosen): assets, liabilities and
 * equity by account, the earnings not yet closed, their totals, and the equation they keep; as CSV.
 */
export function BalanceSheetPage() {
  const address = useListAddress<'at'>();
  const at = dayIn(address.params, 'at');
  const query = useQuery(balanceSheetQuery(at));
  const shown = query.data;

  return (
    <AccountingPage title="Balance sheet" tab="balance-sheet">
      <search
        aria-label="Day of the sheet"
        className="mb-5 block rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4"
      >
        <div className="flex flex-wrap items-end gap-3">
          <div className="w-full min-[400px]:w-44">
            <TextField
              label="At the end of"
              type="date"
              value={at ?? shown?.at ?? ''}
              onChange={(event) => address.setFilter('at', event.target.value)}
            />
          </div>
          {at ? (
            <button
              type="button"
              className="mb-2 text-sm font-medium text-indigo-700 hover:underline"
              onClick={address.clear}
            >
              Today
            </button>
          ) : null}
        </div>
      </search>
      <ReportSection
        title="Balance sheet"
        covers={shown ? `At the end of ${formatDate(shown.at)}` : 'Today'}
        csv={
          shown
            ? { path: accountingPaths.balanceSheet(at), filename: `balance-sheet-${shown.at}.csv` }
            : undefined
        }
        query={query}
        what="the balance sheet"
        isEmpty={(answer) =>
          answer.assets.length === 0 &&
          answer.liabilities.length === 0 &&
          answer.equity.length === 0 &&
          answer.earnings === 0
        }
        empty="The books hold nothing yet at that day."
      >
        {(answer) => <Sheet answer={answer} />}
      </ReportSection>
    </AccountingPage>
  );
}
