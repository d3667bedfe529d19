import { useQuery } from '@tanstack/react-query';
import type { ItemReportResponse, ProductReportSort } from '../../../shared/reports';
import { ReportSection } from '../../components/report-section';
import { Td } from '../../components/table';
import { formatRange, rangeFile } from './report-format';
import { Choice, Figures, NUMBER, RowHeader, RowsChart, RowsTable } from './report-parts';
import type { DateRange } from './report-range';
import { itemReportQuery, reportPaths, reportWords } from './reports-api';

const SORT_LABEL: Record<ProductReportSort, string> = {
  revenue: 'Revenue',
  units: 'Units',
  margin: 'Margin',
};

type Line = ItemReportResponse['items'][number];

/** An item's name, or the product's when it is a line on its own. */
const nameOf = (line: Line) => line.item?.name ?? line.product?.name ?? '';

/**
 * The best-selling items of the range (DESIGN §22): each item's variants summed, with how many of
 * them sold; a product that is no item's variant is a line of its own.
 */
export function ItemReport({
  range,
  sort,
  onSort,
}: {
  range: DateRange;
  sort: ProductReportSort;
  onSort: (sort: ProductReportSort) => void;
}) {
  const query = useQuery(itemReportQuery(range, sort));
  return (
    <ReportSection
      {...reportWords.items}
      covers={formatRange(range)}
      csv={{ path: reportPaths.items(range, sort), filename: rangeFile(`items-by-${sort}`, range) }}
      controls={<Choice legend="Best by" labels={SORT_LABEL} value={sort} onChange={onSort} />}
      query={query}
      isEmpty={(answer) => answer.items.length === 0}
    >
      {(answer) => (
        <>
          <RowsChart
            title={`${SORT_LABEL[answer.sort]} by item`}
            covers={formatRange(answer)}
            valueName={SORT_LABEL[answer.sort]}
            kind={answer.sort === 'units' ? 'count' : 'money'}
            points={answer.items.map((line) => ({ label: nameOf(line), value: line[answer.sort] }))}
          />
          <RowsTable
            caption={`Top items by ${answer.sort}, ${formatRange(answer)}`}
            ranked
            words={['Item', 'Category', 'Variants sold']}
            figures={['Units', 'Revenue', 'Margin']}
            rows={answer.items}
            rowKey={(line) => line.item?._id ?? line.product?._id ?? ''}
          >
            {(line, index) => (
              <>
                <Td className={`${NUMBER} text-slate-500`}>{index + 1}</Td>
                <RowHeader className="min-w-40">{nameOf(line)}</RowHeader>
                <Td className="whitespace-nowrap text-slate-600">{line.category.name}</Td>
                <Td className="whitespace-nowrap text-slate-600">
                  {line.item ? line.variants : 'Single product'}
                </Td>
                <Figures counts={[line.units]} money={[line.revenue, line.margin]} />
              </>
            )}
          </RowsTable>
        </>
      )}
    </ReportSection>
  );
}
