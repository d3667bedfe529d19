import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { AGING_BUCKETS, type Aged, type PayablesResponse } from '../../../shared/bills';
import { TextField } from '../../components/form-field';
import { ReportSection } from '../../components/report-section';
import { Table, Td, Th } from '../../components/table';
import { supplierBillsPath } from '../../lib/admin-paths';
import { formatDate } from '../../lib/format';
import { useListAddress } from '../../lib/list-address';
import { useMoney } from '../../lib/store-settings';
import { accountingPaths, payablesQuery } from './accounting-api';
import { AccountingPage } from './accounting-layout';
import { NUMBER } from './accounting-parts';
import { dayIn } from './range-fields';

/** The columns of the aging, by days past the due date, then the credit held and the total. */
export const AGING_LABEL: Record<(typeof AGING_BUCKETS)[number], string> = {
  notDue: 'Not due',
  days1to30: '1–30 days',
  days31to60: '31–60 days',
  days61to90: '61–90 days',
  over90: 'Over 90 days',
};

function Figures({ row, strong = false }: { row: Aged; strong?: boolean }) {
  const money = useMoney();
  return (
    <>
      {AGING_BUCKETS.map((bucket) => (
        <Td key={bucket} className={`${NUMBER} ${row[bucket] === 0 ? 'text-slate-400' : ''}`}>
          {money(row[bucket])}
        </Td>
      ))}
      <Td className={`${NUMBER} ${row.unallocated === 0 ? 'text-slate-400' : ''}`}>
        {money(row.unallocated)}
      </Td>
      <Td className={`${NUMBER} ${strong ? 'font-semibold' : 'font-medium'}`}>{money(row.total)}</Td>
    </>
  );
}

function Aging({ answer }: { answer: PayablesResponse }) {
  return (
    <>
      <Table
        caption={`What is owed to each supplier at the end of ${formatDate(answer.at)}, by days past due`}
      >
        <thead>
          <tr>
            <Th>Supplier</Th>
            {AGING_BUCKETS.map((bucket) => (
              <Th key={bucket} className="text-right">
                {AGING_LABEL[bucket]}
              </Th>
            ))}
            <Th className="text-right">Credit held</Th>
            <Th className="text-right">Total</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {answer.suppliers.map((row) => (
            <tr key={row.supplier._id} className="hover:bg-slate-50">
              <th scope="row" className="px-3 py-2.5 text-left font-medium sm:px-4">
                <Link
                  to={supplierBillsPath(row.supplier._id)}
                  className="text-slate-900 hover:text-indigo-700 hover:underline"
                >
                  {row.supplier.name}
                </Link>
              </th>
              <Figures row={row} />
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-semibold">
          <tr>
            <th scope="row" className="px-3 py-2.5 text-left sm:px-4">
              Total
            </th>
            <Figures row={answer.totals} strong />
          </tr>
        </tfoot>
      </Table>
      <p className="mt-3 text-sm text-slate-600">
        Each bill is aged by days past its due date. Credit held is what suppliers hold of ours (payments not
        yet on a bill); the total is what is open less that credit, the balance of 2000 Accounts payable.
      </p>
    </>
  );
}

/**
 * Admin: what is owed to suppliers (DESIGN §20) at a day (today unless chosen): each supplier's
 * open bills by days past due, the credit they hold, and the total; the totals row; as CSV.
 */
export function PayablesPage() {
  const address = useListAddress<'at'>();
  const at = dayIn(address.params, 'at');
  const query = useQuery(payablesQuery(at));
  const shown = query.data;
  return (
    <AccountingPage title="Payables" tab="payables">
      <search
        aria-label="Day of the aging"
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
        title="Owed to suppliers"
        covers={shown ? `At the end of ${formatDate(shown.at)}` : 'Today'}
        csv={shown ? { path: accountingPaths.payables(at), filename: `payables-${shown.at}.csv` } : undefined}
        query={query}
        what="the payables"
        isEmpty={(answer) => answer.suppliers.length === 0}
        empty="Nothing is owed to any supplier at that day."
      >
        {(answer) => <Aging answer={answer} />}
      </ReportSection>
    </AccountingPage>
  );
}
