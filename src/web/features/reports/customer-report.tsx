import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { customerPath } from '../../lib/area-paths';
import { formatRange } from './report-format';
import { Figures, RangeReport, RowHeader, RowsChart, RowsTable } from './report-parts';
import type { DateRange } from './report-range';
import { customerReportQuery } from './reports-api';

/** Customers since deleted keep their sales, together, under this name. */
const REMOVED = 'Customers since deleted';

/** The customers who spent most in the range, best first (the reports are the admin's). */
export function CustomerReport({ range }: { range: DateRange }) {
  const query = useQuery(customerReportQuery(range));
  return (
    <RangeReport report="customers" range={range} query={query} rows={(answer) => answer.customers}>
      {(answer) => (
        <>
          <RowsChart
            title="Revenue by customer"
            covers={formatRange(answer)}
            points={answer.customers.map((row) => ({
              label: row.customer?.name ?? REMOVED,
              value: row.revenue,
            }))}
          />
          <RowsTable
            caption={`Top customers by revenue, ${formatRange(answer)}`}
            words={['Customer']}
            figures={['Sales', 'Units', 'Revenue']}
            rows={answer.customers}
            rowKey={(row, index) => row.customer?._id ?? `removed-${index}`}
          >
            {(row) => (
              <>
                <RowHeader className="min-w-36">
                  {row.customer ? (
                    <Link
                      to={customerPath('admin', row.customer._id)}
                      className="text-indigo-700 hover:underline focus-visible:outline-2"
                    >
                      {row.customer.name}
                    </Link>
                  ) : (
                    <span className="text-slate-500">{REMOVED}</span>
                  )}
                </RowHeader>
                <Figures counts={[row.sales, row.units]} money={[row.revenue]} />
              </>
            )}
          </RowsTable>
        </>
      )}
    </RangeReport>
  );
}
