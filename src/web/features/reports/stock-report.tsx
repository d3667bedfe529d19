import { useQuery } from '@tanstack/react-query';
import { Table, Td, Th } from '../../components/table';
import { useCurrency } from '../../lib/store-settings';
import { ReportChart } from './report-chart';
import { formatValue } from './report-format';
import { ChartCard, NUMBER, ReportState, RowHeader, SectionHeader, Tiles } from './report-parts';
import { reportPaths, stockReportQuery } from './reports-api';

/** What the stock on hand is worth now, at cost, by category. The date range does not apply. */
export function StockReport() {
  const currency = useCurrency();
  const query = useQuery(stockReportQuery());
  return (
    <>
      <SectionHeader
        title="Stock value by category"
        covers="The stock on hand now, at cost. This report does not depend on the date range."
        csv={{ path: reportPaths.stock(), filename: 'stock-value.csv' }}
      />
      <ReportState
        query={query}
        what="the stock value"
        isEmpty={(answer) => answer.categories.length === 0}
        empty="No products in stock."
      >
        {(answer) => (
          <>
            <Tiles
              tiles={[
                { label: 'Stock value', value: formatValue(answer.totals.value, 'money', currency) },
                { label: 'Units in stock', value: formatValue(answer.totals.units, 'count') },
                { label: 'Products', value: formatValue(answer.totals.products, 'count') },
              ]}
            />
            <ChartCard title="Stock value by category">
              <ReportChart
                layout="rows"
                title="Stock value by category, now, at cost"
                valueName="Value"
                kind="money"
                points={answer.categories.map((category) => ({
                  label: category.name,
                  value: category.value,
                }))}
              />
            </ChartCard>
            <Table caption="Stock value by category, now, at cost">
              <thead>
                <tr>
                  <Th>Category</Th>
                  <Th className="text-right">Products</Th>
                  <Th className="text-right">Units</Th>
                  <Th className="text-right">Value at cost</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {answer.categories.map((category) => (
                  <tr key={category.name} className="hover:bg-slate-50">
                    <RowHeader>{category.name}</RowHeader>
                    <Td className={NUMBER}>{formatValue(category.products, 'count')}</Td>
                    <Td className={NUMBER}>{formatValue(category.units, 'count')}</Td>
                    <Td className={NUMBER}>{formatValue(category.value, 'money', currency)}</Td>
                  </tr>
                ))}
              </tbody>
              <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-semibold">
                <tr>
                  <RowHeader>Total</RowHeader>
                  <Td className={NUMBER}>{formatValue(answer.totals.products, 'count')}</Td>
                  <Td className={NUMBER}>{formatValue(answer.totals.units, 'count')}</Td>
                  <Td className={NUMBER}>{formatValue(answer.totals.value, 'money', currency)}</Td>
                </tr>
              </tfoot>
            </Table>
          </>
        )}
      </ReportState>
    </>
  );
}
