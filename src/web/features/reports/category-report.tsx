import { useQuery } from '@tanstack/react-query';
import { ReportSection } from '../../components/report-section';
import { Table, Td } from '../../components/table';
import { useCurrency } from '../../lib/store-settings';
import { formatRange, formatShare, formatValue, rangeFile } from './report-format';
import { NUMBER, ReportHead, RowHeader, RowsChart } from './report-parts';
import type { DateRange } from './report-range';
import { categoryReportQuery, reportPaths } from './reports-api';

/** Revenue by the category each sale was made under, with each one's share of the range's revenue. */
export function CategoryReport({ range }: { range: DateRange }) {
  const currency = useCurrency();
  const query = useQuery(categoryReportQuery(range));
  return (
    <ReportSection
      title="Sales by category"
      covers={formatRange(range)}
      csv={{ path: reportPaths.categories(range), filename: rangeFile('categories', range) }}
      query={query}
      what="the category report"
      isEmpty={(answer) => answer.categories.length === 0}
      empty="No sales in this range."
    >
      {(answer) => (
        <>
          <RowsChart
            title="Revenue by category"
            covers={formatRange(answer)}
            points={answer.categories.map(({ name, revenue }) => ({ label: name, value: revenue }))}
          />
          <Table caption={`Sales by category, ${formatRange(answer)}`}>
            <ReportHead words={['Category']} figures={['Units', 'Revenue', 'Margin', 'Share of revenue']} />
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
    </ReportSection>
  );
}
