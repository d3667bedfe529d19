import { useQuery } from '@tanstack/react-query';
import { ReportSection } from '../../components/report-section';
import { Table, Td } from '../../components/table';
import { useCurrency } from '../../lib/store-settings';
import { formatValue } from './report-format';
import { NUMBER, ReportHead, RowHeader, RowsChart, Tiles } from './report-parts';
import { reportPaths, stockReportQuery } from './reports-api';

/** What the stock on hand is worth now, at cost, by category. The date range does not apply. */
export function StockReport() {
  const currency = useCurrency();
  const query = useQuery(stockReportQuery());
  return (
    <ReportSection
      title="Stock value by category"
      covers="The stock on hand now, at cost. This report does not depend on the date range."
      csv={{ path: reportPaths.stock(), filename: 'stock-value.csv' }}
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
          <RowsChart
            title="Stock value by category"
            covers="now, at cost"
            valueName="Value"
            points={answer.categories.map(({ name, value }) => ({ label: name, value }))}
          />
          <Table caption="Stock value by category, now, at cost">
            <ReportHead words={['Category']} figures={['Products', 'Units', 'Value at cost']} />
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
    </ReportSection>
  );
}
