import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ReportSection } from '../../components/report-section';
import { Table, Td } from '../../components/table';
import { customerPath } from '../../lib/area-paths';
import { useCurrency } from '../../lib/store-settings';
import { formatRange, formatValue, rangeFile } from './report-format';
import { NUMBER, ReportHead, RowHeader, RowsChart } from './report-parts';
import type { DateRange } from './report-range';
import { customerReportQuery, reportPaths } from './reports-api';

/** Customers since deleted keep their sales, together, under this name. */
const REMOVED = 'Customers since deleted';

/** The customers who spent most in the range, best first (the reports are the admin's). */
export function CustomerReport({ range }: { range: DateRange }) {
  const currency = useCurrency();
  const query = useQuery(customerReportQuery(range));
  return (
    <ReportSection
      title="Top customers"
      covers={formatRange(range)}
      csv={{ path: reportPaths.customers(range), filename: rangeFile('customers', range) }}
      query={query}
      what="the customers report"
      isEmpty={(answer) => answer.customers.length === 0}
      empty="No sales to customers in this range."
    >
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
          <Table caption={`Top customers by revenue, ${formatRange(answer)}`}>
            <ReportHead words={['Customer']} figures={['Sales', 'Units', 'Revenue']} />
            <tbody className="divide-y divide-slate-100">
              {answer.customers.map((row, index) => (
                <tr key={row.customer?._id ?? `removed-${index}`} className="hover:bg-slate-50">
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
                  <Td className={NUMBER}>{formatValue(row.sales, 'count')}</Td>
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
