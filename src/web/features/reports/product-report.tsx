import { useQuery } from '@tanstack/react-query';
import {
  DEFAULT_PRODUCT_REPORT_LIMIT,
  PRODUCT_REPORT_SORTS,
  type ProductReportSort,
} from '../../../shared/reports';
import { ReportSection } from '../../components/report-section';
import { Table, Td } from '../../components/table';
import { useCurrency } from '../../lib/store-settings';
import { formatRange, formatValue, rangeFile } from './report-format';
import { Choice, NUMBER, ReportHead, RowHeader, RowsChart } from './report-parts';
import type { DateRange } from './report-range';
import { productReportQuery, reportPaths } from './reports-api';

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
  const currency = useCurrency();
  const query = useQuery(productReportQuery(range, sort));
  return (
    <ReportSection
      title={`Top ${DEFAULT_PRODUCT_REPORT_LIMIT} products`}
      covers={formatRange(range)}
      csv={{ path: reportPaths.products(range, sort), filename: rangeFile(`products-by-${sort}`, range) }}
      controls={
        <Choice
          legend="Best by"
          options={PRODUCT_REPORT_SORTS}
          labels={SORT_LABEL}
          value={sort}
          onChange={onSort}
        />
      }
      query={query}
      what="the top products"
      isEmpty={(answer) => answer.products.length === 0}
      empty="No sales in this range."
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
          <Table caption={`Top products by ${answer.sort}, ${formatRange(answer)}`}>
            <ReportHead ranked words={['Product', 'Category']} figures={['Units', 'Revenue', 'Margin']} />
            <tbody className="divide-y divide-slate-100">
              {answer.products.map((row, index) => (
                <tr key={row.product._id} className="hover:bg-slate-50">
                  <Td className={`${NUMBER} text-slate-500`}>{index + 1}</Td>
                  <RowHeader className="min-w-40">{row.product.name}</RowHeader>
                  <Td className="whitespace-nowrap text-slate-600">{row.category.name}</Td>
                  <Td className={NUMBER}>{formatValue(row.units, 'count')}</Td>
                  <Td className={NUMBER}>{formatValue(row.revenue, 'money', currency)}</Td>
                  <Td className={NUMBER}>{formatValue(row.margin, 'money', currency)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </ReportSection>
  );
}
