import { useQuery } from '@tanstack/react-query';
import { ReportSection } from '../../components/report-section';
import { useCurrency } from '../../lib/store-settings';
import { formatValue } from './report-format';
import { Figures, RowHeader, RowsChart, RowsTable, Tiles } from './report-parts';
import { reportPaths, reportWords, stockReportQuery } from './reports-api';

/** What the stock on hand is worth now, at cost, by category. The date range does not apply. */
export function StockReport() {
  const currency = useCurrency();
  const query = useQuery(stockReportQuery());
  return (
    <ReportSection
      {...reportWords.stock}
      covers="The stock on hand now, at cost. This report does not depend on the date range."
      csv={{ path: reportPaths.stock(), filename: 'stock-value.csv' }}
      query={query}
      isEmpty={(answer) => answer.categories.length === 0}
    >
      {({ categories, totals }) => (
        <>
          <Tiles
            tiles={[
              { label: 'Stock value', value: formatValue(totals.value, 'money', currency) },
              { label: 'Units in stock', value: formatValue(totals.units, 'count') },
              { label: 'Products', value: formatValue(totals.products, 'count') },
            ]}
          />
          <RowsChart
            title="Stock value by category"
            covers="now, at cost"
            valueName="Value"
            points={categories.map(({ name, value }) => ({ label: name, value }))}
          />
          <RowsTable
            caption="Stock value by category, now, at cost"
            words={['Category']}
            figures={['Products', 'Units', 'Value at cost']}
            rows={categories}
            rowKey={(category) => category.name}
            total={<Figures counts={[totals.products, totals.units]} money={[totals.value]} />}
          >
            {(category) => (
              <>
                <RowHeader>{category.name}</RowHeader>
                <Figures counts={[category.products, category.units]} money={[category.value]} />
              </>
            )}
          </RowsTable>
        </>
      )}
    </ReportSection>
  );
}
