import { useQuery } from '@tanstack/react-query';
import { ReportSection } from '../../components/report-section';
import { useCurrency } from '../../lib/store-settings';
import { formatValue } from './report-format';
import { Figures, RowHeader, RowsChart, RowsTable, Tiles } from './report-parts';
import { reportPaths, reportWords, stockByLocationQuery, stockReportQuery } from './reports-api';

/**
 * What the stock held at each location is worth now, at cost (DESIGN §17), or at the one chosen:
 * a small table, with its totals (units on the road between two locations belong to neither).
 */
export function StockByLocation({ location }: { location: string }) {
  const query = useQuery(stockByLocationQuery(location));
  return (
    <ReportSection
      {...reportWords.stockByLocation}
      covers="The stock each location holds now, at cost; units in transit belong to no location."
      csv={{ path: reportPaths.stockByLocation(location), filename: 'stock-value-by-location.csv' }}
      query={query}
      isEmpty={(answer) => answer.locations.length === 0}
    >
      {({ locations, totals }) => (
        <RowsTable
          caption="Stock value by location, now, at cost"
          words={['Location']}
          figures={['Products', 'Units', 'Value at cost']}
          rows={locations}
          rowKey={(row) => row.location._id}
          total={<Figures counts={[totals.products, totals.units]} money={[totals.value]} />}
        >
          {(row) => (
            <>
              <RowHeader>
                {row.location.name}
                {row.active ? null : <span className="ml-1 text-xs text-slate-500">(inactive)</span>}
              </RowHeader>
              <Figures counts={[row.products, row.units]} money={[row.value]} />
            </>
          )}
        </RowsTable>
      )}
    </ReportSection>
  );
}

/**
 * What the stock on hand is worth now, at cost, by category (at the chosen location, or the whole
 * store), then by location. The date range does not apply.
 */
export function StockReport({ location = '' }: { location?: string }) {
  return (
    <>
      <StockByCategory location={location} />
      <div className="mt-6">
        <StockByLocation location={location} />
      </div>
    </>
  );
}

function StockByCategory({ location }: { location: string }) {
  const currency = useCurrency();
  const query = useQuery(stockReportQuery(location));
  return (
    <ReportSection
      {...reportWords.stock}
      covers={`The stock on hand now${location ? ' at this location' : ''}, at cost. This report does not depend on the date range.`}
      csv={{ path: reportPaths.stock(location), filename: 'stock-value.csv' }}
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
