import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Table, Td, Th } from '../../components/table';
import { customerPath } from '../../lib/area-paths';
import { useCurrency } from '../../lib/store-settings';
import { ReportChart } from './report-chart';
import { formatRange, formatValue } from './report-format';
import { ChartCard, NUMBER, ReportState, RowHeader, SectionHeader } from './report-parts';
import type { DateRange } from './report-range';
import { customerReportQuery, reportPaths } from './reports-api';

/** Customers since deleted keep their sales, together, under this name. */
const REMOVED = 'Customers since deleted';

/** The customers who spent most in the range, best first (the reports are the admin's). */
export function CustomerReport({ range }: { range: DateRange }) {
  const currency = useCurrency();
  const query = useQuery(customerReportQuery(range));
  return (
    <>
      <SectionHeader
        title="Top customers"
        covers={formatRange(range)}
        csv={{ path: reportPaths.customers(range), filename: `customers-${range.from}-to-${range.to}.csv` }}
      />
      <ReportState
        query={query}
        what="the customers report"
        isEmpty={(answer) => answer.customers.length === 0}
        empty="No sales to customers in this range."
      >
        {(answer) => (
          <>
            <ChartCard title="Revenue by customer">
              <ReportChart
                layout="rows"
                title={`Revenue by customer, ${formatRange(answer)}`}
                valueName="Revenue"
                kind="money"
                points={answer.customers.map((row) => ({
                  label: row.customer?.name ?? REMOVED,
                  value: row.revenue,
                }))}
              />
            </ChartCard>
            <Table caption={`Top customers by revenue, ${formatRange(answer)}`}>
              <thead>
                <tr>
                  <Th>Customer</Th>
                  <Th className="text-right">Sales</Th>
                  <Th className="text-right">Units</Th>
                  <Th className="text-right">Revenue</Th>
                </tr>
              </thead>
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
      </ReportState>
    </>
  );
}
