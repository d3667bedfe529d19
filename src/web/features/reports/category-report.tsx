import { useQuery } from '@tanstack/react-query';
import { Table, Td, Th } from '../../components/table';
import { useCurrency } from '../../lib/store-settings';
import { ReportChart } from './report-chart';
import { formatRange, formatShare, formatValue } from './report-format';
import { ChartCard, NUMBER, ReportState, RowHeader, SectionHeader } from './report-parts';
import type { DateRange } from './report-range';
import { categoryReportQuery, reportPaths } from './reports-api';

/** Revenue by the category each sale was made under, with each one's share of the range's revenue. */
export function CategoryReport({ range }: { range: DateRange }) {
  const currency = useCurrency();
  const query = useQuery(categoryReportQuery(range));
  return (
    <>
      <SectionHeader
        title="Sales by category"
        covers={formatRange(range)}
        csv={{
          path: reportPaths.categories(range),
          filename: `categories-${range.from}-to-${range.to}.csv`,
        }}
      />
      <ReportState
        query={query}
        what="the category report"
        isEmpty={(answer) => answer.categories.length === 0}
        empty="No sales in this range."
      >
        {(answer) => (
          <>
            <ChartCard title="Revenue by category">
              <ReportChart
                layout="rows"
                title={`Revenue by category, ${formatRange(answer)}`}
                valueName="Revenue"
                kind="money"
                points={answer.categories.map((category) => ({
                  label: category.name,
                  value: category.revenue,
                }))}
              />
            </ChartCard>
            <Table caption={`Sales by category, ${formatRange(answer)}`}>
              <thead>
                <tr>
                  <Th>Category</Th>
                  <Th className="text-right">Units</Th>
                  <Th className="text-right">Revenue</Th>
                  <Th className="text-right">Margin</Th>
                  <Th className="text-right">Share of revenue</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {answer.categories.map((category) => (
                  <tr key={category.name} className="hover:bg-slate-50">
                    <RowHeader>{category.name}</RowHeader>
                    <Td className={NUMBER}>{formatValue(category.units, 'count')}</Td>
                    <Td className={NUMBER}>{formatValue(category.revenue, 'money', currency)}</Td>
                    <Td className={NUMBER}>{formatValue(category.margin, 'money', currency)}</Td>
                    <Td className={NUMBER}>{formatShare(category.share)}</Td>
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
