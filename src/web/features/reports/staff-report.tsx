import { useQuery } from '@tanstack/react-query';
import { Table, Td, Th } from '../../components/table';
import { ROLE_LABEL } from '../../lib/format';
import { useCurrency } from '../../lib/store-settings';
import { ReportChart } from './report-chart';
import { formatRange, formatValue } from './report-format';
import { ChartCard, NUMBER, ReportState, RowHeader, SectionHeader } from './report-parts';
import type { DateRange } from './report-range';
import { reportPaths, staffReportQuery } from './reports-api';

/** Someone since removed keeps their sales, under this name. */
const REMOVED = 'Staff since removed';

/** Sales by who placed the orders, most revenue first. */
export function StaffReport({ range }: { range: DateRange }) {
  const currency = useCurrency();
  const query = useQuery(staffReportQuery(range));
  return (
    <>
      <SectionHeader
        title="Sales by staff member"
        covers={formatRange(range)}
        csv={{ path: reportPaths.staff(range), filename: `staff-${range.from}-to-${range.to}.csv` }}
      />
      <ReportState
        query={query}
        what="the staff report"
        isEmpty={(answer) => answer.staff.length === 0}
        empty="No sales in this range."
      >
        {(answer) => (
          <>
            <ChartCard title="Revenue by staff member">
              <ReportChart
                layout="rows"
                title={`Revenue by staff member, ${formatRange(answer)}`}
                valueName="Revenue"
                kind="money"
                points={answer.staff.map((row) => ({
                  label: row.user?.name ?? REMOVED,
                  value: row.revenue,
                }))}
              />
            </ChartCard>
            <Table caption={`Sales by staff member, ${formatRange(answer)}`}>
              <thead>
                <tr>
                  <Th>Name</Th>
                  <Th>Role</Th>
                  <Th className="text-right">Orders</Th>
                  <Th className="text-right">Units</Th>
                  <Th className="text-right">Revenue</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {answer.staff.map((row, index) => (
                  <tr key={row.user?._id ?? `removed-${index}`} className="hover:bg-slate-50">
                    <RowHeader className="min-w-36">
                      {row.user?.name ?? <span className="text-slate-500">{REMOVED}</span>}
                    </RowHeader>
                    <Td className="whitespace-nowrap text-slate-600">
                      {row.user ? ROLE_LABEL[row.user.role] : '—'}
                    </Td>
                    <Td className={NUMBER}>{formatValue(row.orders, 'count')}</Td>
                    <Td className={NUMBER}>{formatValue(row.units, 'count')}</Td>
                    <Td className={NUMBER}>{formatValue(row.revenue, 'money', currency)}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </>
        )}
      </ReportState>
    </>
  );
}
