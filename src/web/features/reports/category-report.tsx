import { useQuery } from '@tanstack/react-query';
import { Td } from '../../components/table';
import { formatRange, formatShare } from './report-format';
import { Figures, NUMBER, RangeReport, RowHeader, RowsChart, RowsTable } from './report-parts';
import type { DateRange } from './report-range';
import { categoryReportQuery } from './reports-api';

/** Revenue by the category each sale was made under, with each one's share of the range's revenue. */
export function CategoryReport({ range }: { range: DateRange }) {
  const query = useQuery(categoryReportQuery(range));
  return (
    <RangeReport report="categories" range={range} query={query} rows={(answer) => answer.categories}>
      {(answer) => (
        <>
          <RowsChart
            title="Revenue by category"
            covers={formatRange(answer)}
            points={answer.categories.map(({ name, revenue }) => ({ label: name, value: revenue }))}
          />
          <RowsTable
            caption={`Sales by category, ${formatRange(answer)}`}
            words={['Category']}
            figures={['Units', 'Revenue', 'Margin', 'Share of revenue']}
            rows={answer.categories}
            rowKey={(category) => category.name}
          >
            {(category) => (
              <>
                <RowHeader>{category.name}</RowHeader>
                <Figures counts={[category.units]} money={[category.revenue, category.margin]} />
                <Td className={NUMBER}>{formatShare(category.share)}</Td>
              </>
            )}
          </RowsTable>
        </>
      )}
    </RangeReport>
  );
}
