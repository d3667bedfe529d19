import { useQuery } from '@tanstack/react-query';
import { ReportSection } from '../../components/report-section';
import { Table, Td } from '../../components/table';
import { ROLE_LABEL } from '../../lib/format';
import { useCurrency } from '../../lib/store-settings';
import { formatRange, formatValue, rangeFile } from './report-format';
import { NUMBER, ReportHead, RowHeader, RowsChart } from './report-parts';
import type { DateRange } from './report-range';
import { reportPaths, staffReportQuery } from './reports-api';

/** Someone since removed keeps their sales, under this name. */
const REMOVED = 'Staff since removed';

/** Sales by who placed the orders, most revenue first. */
export function StaffReport({ range }: { range: DateRange }) {
  const currency = useCurrency();
  const query = useQuery(staffReportQuery(range));
  return (
    <ReportSection
      title="Sales by staff member"
      covers={formatRange(range)}
      csv={{ path: reportPaths.staff(range), filename: rangeFile('staff', range) }}
      query={query}
      what="the staff report"
      isEmpty={(answer) => answer.staff.length === 0}
      empty="No sales in this range."
    >
      {(answer) => (
        <>
          <RowsChart
            title="Revenue by staff member"
            covers={formatRange(answer)}
            points={answer.staff.map((row) => ({ label: row.user?.name ?? REMOVED, value: row.revenue }))}
          />
          <Table caption={`Sales by staff member, ${formatRange(answer)}`}>
            <ReportHead words={['Name', 'Role']} figures={['Orders', 'Units', 'Revenue']} />
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
    </ReportSection>
  );
}
