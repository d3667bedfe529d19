import { useQuery } from '@tanstack/react-query';
import { Pager } from '../../components/pager';
import { ReportSection } from '../../components/report-section';
import { Td } from '../../components/table';
import { serverPage } from '../../lib/paging';
import { usePageInRange } from '../../lib/use-paged-list';
import { formatRange, rangeFile } from './report-format';
import { Figures, RowHeader, RowsTable } from './report-parts';
import type { DateRange } from './report-range';
import { NEVER_SOLD_PAGE_SIZE, neverSoldQuery, reportPaths, reportWords } from './reports-api';

/** Today's products that sold nothing in the range, by name, a page at a time. */
export function NeverSoldReport({
  range,
  page: asked,
  onPage,
}: {
  range: DateRange;
  page: number;
  onPage: (page: number) => void;
}) {
  const query = useQuery(neverSoldQuery(range, asked));
  const page = serverPage(query.data && { ...query.data, rows: query.data.products }, {
    page: asked,
    pageSize: NEVER_SOLD_PAGE_SIZE,
  });
  usePageInRange(asked, page.pageCount, query.isSuccess && !query.isPlaceholderData, onPage);
  return (
    <ReportSection
      {...reportWords.neverSold}
      covers={formatRange(range)}
      csv={{ path: reportPaths.neverSold(range, asked), filename: rangeFile('never-sold', range) }}
      query={query}
      isEmpty={(answer) => answer.total === 0}
    >
      {(answer) => (
        <>
          <RowsTable
            caption={`Products never sold, ${formatRange(answer)}, by name`}
            words={['Product', 'Category']}
            figures={['In stock']}
            rows={answer.products}
            rowKey={(product) => product._id}
          >
            {(product) => (
              <>
                <RowHeader className="min-w-40">{product.name}</RowHeader>
                <Td className="whitespace-nowrap text-slate-600">{product.category.name}</Td>
                <Figures counts={[product.stock]} />
              </>
            )}
          </RowsTable>
          <Pager page={page} label="Products never sold" onPage={onPage} />
        </>
      )}
    </ReportSection>
  );
}
