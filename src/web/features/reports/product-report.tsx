import { useQuery } from '@tanstack/react-query';
import type { ProductReportSort } from '../../../shared/reports';
import { ReportSection } from '../../components/report-section';
import { Td } from '../../components/table';
import { formatRange, rangeFile } from './report-format';
import { Choice, Figures, NUMBER, RowHeader, RowsChart, RowsTable } from './report-parts';
import type { DateRange } from './report-range';
import { productReportQuery, reportPaths, reportWords } from './reports-api';

const SORT_LABEL: Record<ProductReportSort, string> = {
  revenue: 'Revenue',
  units: 'Units',
  margin: 'Margin',
};

/** The best-selling products of the range, by revenue, units or margin. */
export function ProductReport({
  range,
  sort,
  onSort,
}: {
  range: DateRange;
  sort: ProductReportSort;
  onSort: (sort: ProductReportSort) => void;
}) {
  const query = useQuery(productReportQuery(range, sort));
  return (
    <ReportSection
      {...reportWords.products}
      covers={formatRange(range)}
      csv={{ path: reportPaths.products(range, sort), filename: rangeFile(`products-by-${sort}`, range) }}
      controls={<Choice legend="Best by" labels={SORT_LABEL} value={sort} onChange={onSort} />}
      query={query}
      isEmpty={(answer) => answer.products.length === 0}
    >
      {(answer) => (
        <>
          <RowsChart
            title={`${SORT_LABEL[answer.sort]} by product`}
            covers={formatRange(answer)}
            valueName={SORT_LABEL[answer.sort]}
            kind={answer.sort === 'units' ? 'count' : 'money'}
            points={answer.products.map((row) => ({ label: row.product.name, value: row[answer.sort] }))}
          />
          <RowsTable
            caption={`Top products by ${answer.sort}, ${formatRange(answer)}`}
            ranked
            words={['Product', 'Category']}
            figures={['Units', 'Revenue', 'Margin']}
            rows={answer.products}
            rowKey={(row) => row.product._id}
          >
            {(row, index) => (
              <>
                <Td className={`${NUMBER} text-slate-500`}>{index + 1}</Td>
                <RowHeader className="min-w-40">
                  {row.product.name}
                  {row.item ? (
                    <span className="block text-xs font-normal text-slate-500">
                      Variant of {row.item.name}
                    </span>
                  ) : null}
                </RowHeader>
                <Td className="whitespace-nowrap text-slate-600">{row.category.name}</Td>
                <Figures counts={[row.units]} money={[row.revenue, row.margin]} />
              </>
            )}
          </RowsTable>
        </>
      )}
    </ReportSection>
  );
}
