import { useQuery } from '@tanstack/react-query';
import { Td } from '../../components/table';
import { ROLE_LABEL } from '../../lib/format';
import { formatRange } from './report-format';
import { Figures, RangeReport, RowHeader, RowsChart, RowsTable } from './report-parts';
import type { DateRange } from './report-range';
import { staffReportQuery } from './reports-api';

/** Someone since removed keeps their sales, under this name. */
const REMOVED = 'Staff since removed';

/** Sales by who placed the orders, most revenue first. */
export function StaffReport({ range }: { range: DateRange }) {
  const query = useQuery(staffReportQuery(range));
  return (
    <RangeReport report="staff" range={range} query={query} rows={(answer) => answer.staff}>
      {(answer) => (
        <>
          <RowsChart
            title="Revenue by staff member"
            covers={formatRange(answer)}
            points={answer.staff.map((row) => ({ label: row.user?.name ?? REMOVED, value: row.revenue }))}
          />
          <RowsTable
            caption={`Sales by staff member, ${formatRange(answer)}`}
            words={['Name', 'Role']}
            figures={['Orders', 'Units', 'Revenue']}
            rows={answer.staff}
            rowKey={(row, index) => row.user?._id ?? `removed-${index}`}
          >
            {(row) => (
              <>
                <RowHeader className="min-w-36">
                  {row.user?.name ?? <span className="text-slate-500">{REMOVED}</span>}
                </RowHeader>
                <Td className="whitespace-nowrap text-slate-600">
                  {row.user ? ROLE_LABEL[row.user.role] : '—'}
                </Td>
                <Figures counts={[row.orders, row.units]} money={[row.revenue]} />
              </>
            )}
          </RowsTable>
        </>
      )}
    </RangeReport>
  );
}
