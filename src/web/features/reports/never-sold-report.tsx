import { useQuery } from '@tanstack/react-query';
import { Pager } from '../../components/pager';
import { ReportSection } from '../../components/report-section';
import { Table, Td } from '../../components/table';
import { formatCount } from '../../lib/format';
import { serverPage } from '../../lib/paging';
import { usePageInRange } from '../../lib/use-paged-list';
import { formatRange, rangeFile } from './report-format';
import { NUMBER, ReportHead, RowHeader } from './report-parts';
import type { DateRange } from './report-range';
import { NEVER_SOLD_PAGE_SIZE, neverSoldQuery, reportPaths } from './reports-api';

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
      title="Products never sold"
      covers={formatRange(range)}
      csv={{ path: reportPaths.neverSold(range, asked), filename: rangeFile('never-sold', range) }}
      query={query}
      what="the products never sold"
      isEmpty={(answer) => answer.total === 0}
      empty="Every product sold in this range."
    >
      {(answer) => (
        <>
          <Table caption={`Products never sold, ${formatRange(answer)}, by name`}>
            <ReportHead words={['Product', 'Category']} figures={['In stock']} />
            <tbody className="divide-y divide-slate-100">
              {answer.products.map((product) => (
                <tr key={product._id} className="hover:bg-slate-50">
                  <RowHeader className="min-w-40">{product.name}</RowHeader>
                  <Td className="whitespace-nowrap text-slate-600">{product.category.name}</Td>
                  <Td className={NUMBER}>{formatCount(product.stock)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pager page={page} label="Products never sold" onPage={onPage} />
        </>
      )}
    </ReportSection>
  );
}
