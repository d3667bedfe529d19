import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ReportSection } from '../../components/report-section';
import { Table, Td, Th } from '../../components/table';
import { ledgerPath } from '../../lib/admin-paths';
import { useMoney } from '../../lib/store-settings';
import { formatRange } from '../reports/report-format';
import { accountingPaths, trialBalanceQuery } from './accounting-api';
import { AccountingPage } from './accounting-layout';
import { BALANCE_NOTE, Badge, NUMBER } from './accounting-parts';
import { TYPE_LABEL } from './accounting-words';
import { RangeFields, useRangeAddress } from './range-fields';

/** On phones an account is a small card: its name, then its four figures two by two, each named. */
const STACKED_ROW = 'max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-1 max-sm:px-3 max-sm:py-2.5';

/** A figure's cell; on phones its column's name beside it, where the table's head is not shown. */
function Figure({ label, at, children }: { label: string; at: string; children: ReactNode }) {
  return (
    <Td
      className={`${NUMBER} max-sm:flex max-sm:items-baseline max-sm:justify-between max-sm:gap-2 max-sm:p-0 ${at}`}
    >
      <span className="text-xs font-normal text-slate-500 sm:hidden">{label}</span>
      {children}
    </Td>
  );
}

/**
 * Admin: the trial balance (DESIGN §19) over a range: every account with a balance or a movement,
 * its balance before the range, its debits and credits in it and its balance after; the totals of
 * the debits and credits, which are equal when the books balance; and the same as CSV.
 */
export function TrialBalancePage() {
  const address = useRangeAddress();
  const { range, rangeError } = address;
  const query = useQuery({ ...trialBalanceQuery(range), enabled: !rangeError });
  const money = useMoney();
  const shown = query.data;

  return (
    <AccountingPage title="Trial balance" tab="trial-balance">
      <RangeFields
        range={range}
        shown={shown}
        rangeError={rangeError}
        onDay={address.setFilter}
        onClear={address.clearRange}
      />
      <ReportSection
        title="Balances by account"
        covers={shown ? formatRange(shown) : 'The month to date'}
        csv={
          shown
            ? {
                path: accountingPaths.trialBalance(range),
                filename: `trial-balance-${shown.from}-to-${shown.to}.csv`,
              }
            : undefined
        }
        query={query}
        what="the trial balance"
        isEmpty={(answer) => answer.accounts.length === 0}
        empty="No account has a balance or a movement in these days."
      >
        {(answer) => {
          const balanced = answer.totals.debit === answer.totals.credit;
          return (
            <>
              <p role="status" className="mb-3 flex flex-wrap items-center gap-2 text-sm text-slate-700">
                {balanced ? <Badge tone="green">Balanced</Badge> : <Badge tone="red">Out of balance</Badge>}
                <span>
                  Debits {money(answer.totals.debit)}, credits {money(answer.totals.credit)}.
                </span>
              </p>
              <Table caption={`Trial balance, ${formatRange(answer)}`}>
                <thead className="max-sm:sr-only">
                  <tr>
                    <Th>Account</Th>
                    <Th className="max-md:hidden">Type</Th>
                    <Th className="text-right">Opening</Th>
                    <Th className="text-right">Debit</Th>
                    <Th className="text-right">Credit</Th>
                    <Th className="text-right">Closing</Th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {answer.accounts.map((row) => (
                    <tr key={row.account._id} className={`hover:bg-slate-50 ${STACKED_ROW}`}>
                      <th
                        scope="row"
                        className="px-3 py-2.5 text-left font-medium text-slate-900 sm:px-4 max-sm:col-span-2 max-sm:p-0"
                      >
                        <Link
                          to={ledgerPath(row.account._id)}
                          className="hover:text-indigo-700 hover:underline"
                        >
                          <span className="font-mono text-xs text-slate-600">{row.account.code}</span>{' '}
                          {row.account.name}
                        </Link>
                      </th>
                      <Td className="text-slate-600 max-md:hidden">{TYPE_LABEL[row.account.type]}</Td>
                      <Figure label="Opening" at="max-sm:col-start-1 max-sm:row-start-2">
                        {money(row.opening)}
                      </Figure>
                      <Figure label="Debit" at="max-sm:col-start-1 max-sm:row-start-3">
                        {money(row.debit)}
                      </Figure>
                      <Figure label="Credit" at="max-sm:col-start-2 max-sm:row-start-3">
                        {money(row.credit)}
                      </Figure>
                      <Figure label="Closing" at="max-sm:col-start-2 max-sm:row-start-2">
                        {money(row.closing)}
                      </Figure>
                    </tr>
                  ))}
                </tbody>
                <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-semibold">
                  <tr className={STACKED_ROW}>
                    <th scope="row" className="px-3 py-2.5 text-left sm:px-4 max-sm:col-span-2 max-sm:p-0">
                      Total
                    </th>
                    <Td className="max-md:hidden" />
                    <Td className="max-sm:hidden" />
                    <Figure label="Debit" at="max-sm:col-start-1 max-sm:row-start-2">
                      {money(answer.totals.debit)}
                    </Figure>
                    <Figure label="Credit" at="max-sm:col-start-2 max-sm:row-start-2">
                      {money(answer.totals.credit)}
                    </Figure>
                    <Td className="max-sm:hidden" />
                  </tr>
                </tfoot>
              </Table>
              <p className="mt-3 text-sm text-slate-600">{BALANCE_NOTE}</p>
            </>
          );
        }}
      </ReportSection>
    </AccountingPage>
  );
}
