import { useQuery } from '@tanstack/react-query';
import { REPORT_GROUPS, type ReportGroup, type SalesReportResponse } from '../../../shared/reports';
import { Options, SelectField } from '../../components/form-field';
import { ReportSection } from '../../components/report-section';
import { useCurrency } from '../../lib/store-settings';
import { ReportChart } from './report-chart';
import {
  formatRange,
  formatValue,
  periodLabel,
  periodTick,
  rangeFile,
  type ValueKind,
} from './report-format';
import { ChartCard, Choice, Figures, RowHeader, RowsTable, Tiles } from './report-parts';
import { type DateRange, GROUP_LABEL, type SalesMetric } from './report-range';
import { reportPaths, reportWords, salesReportQuery } from './reports-api';

export const METRIC_LABEL: Record<SalesMetric, string> = {
  revenue: 'Revenue',
  units: 'Units',
  orders: 'Orders',
  margin: 'Margin',
};
const METRIC_KIND: Record<SalesMetric, ValueKind> = {
  revenue: 'money',
  units: 'count',
  orders: 'count',
  margin: 'money',
};
const PER: Record<ReportGroup, string> = { day: 'per day', week: 'per week', month: 'per month' };

/** A period's figures, or the range's totals, in the order of the table's head. */
function PeriodFigures({ period }: { period: SalesReportResponse['totals'] }) {
  const { orders, units, revenue, cost, margin, discount, tax } = period;
  return <Figures counts={[orders, units]} money={[revenue, cost, margin, discount, tax]} />;
}

function SalesFigures({ answer, metric }: { answer: SalesReportResponse; metric: SalesMetric }) {
  const currency = useCurrency();
  const { totals, groupBy } = answer;
  const money = (value: number) => formatValue(value, 'money', currency);
  const count = (value: number) => formatValue(value, 'count');
  return (
    <>
      <Tiles
        tiles={[
          { label: 'Revenue', value: money(totals.revenue) },
          { label: 'Orders', value: count(totals.orders) },
          { label: 'Units', value: count(totals.units) },
          { label: 'Margin', value: money(totals.margin) },
          { label: 'Discounts', value: money(totals.discount) },
          { label: 'Tax', value: money(totals.tax) },
        ]}
      />
      <ChartCard title={`${METRIC_LABEL[metric]} ${PER[groupBy]}`}>
        <ReportChart
          layout="columns"
          title={`${METRIC_LABEL[metric]} ${PER[groupBy]}, ${formatRange(answer)}`}
          valueName={METRIC_LABEL[metric]}
          kind={METRIC_KIND[metric]}
          points={answer.periods.map((period) => ({
            label: periodTick(period.start, groupBy),
            value: period[metric],
          }))}
        />
      </ChartCard>
      <RowsTable
        caption={`Sales ${PER[groupBy]}, ${formatRange(answer)}`}
        words={['Period']}
        figures={['Orders', 'Units', 'Revenue', 'Cost', 'Margin', 'Discounts', 'Tax']}
        rows={answer.periods}
        rowKey={(period) => period.start}
        total={<PeriodFigures period={totals} />}
      >
        {(period) => (
          <>
            <RowHeader className="whitespace-nowrap">
              <time dateTime={period.start}>{periodLabel(period.start, groupBy)}</time>
            </RowHeader>
            <PeriodFigures period={period} />
          </>
        )}
      </RowsTable>
    </>
  );
}

/**
 * Sales over time: the figure chosen per period as bars, the totals, and every period's figures.
 * Revenue is net (without tax, after discounts); the discounts given and the tax collected are
 * shown beside it.
 */
export function SalesReport({
  range,
  group,
  metric,
  onGroup,
  onMetric,
}: {
  range: DateRange;
  group: ReportGroup;
  metric: SalesMetric;
  onGroup: (group: ReportGroup) => void;
  onMetric: (metric: SalesMetric) => void;
}) {
  const query = useQuery(salesReportQuery(range, group));
  return (
    <ReportSection
      {...reportWords.sales}
      covers={`${formatRange(range)}, ${PER[group]}`}
      csv={{ path: reportPaths.sales(range, group), filename: rangeFile(`sales-by-${group}`, range) }}
      controls={
        <>
          <Choice legend="Show" labels={METRIC_LABEL} value={metric} onChange={onMetric} />
          <div className="w-36">
            <SelectField
              label="Group by"
              value={group}
              onChange={(event) => onGroup(event.target.value as ReportGroup)}
            >
              <Options values={REPORT_GROUPS} labels={GROUP_LABEL} />
            </SelectField>
          </div>
        </>
      }
      query={query}
      isEmpty={({ totals }) => totals.orders === 0 && totals.units === 0 && totals.revenue === 0}
    >
      {(answer) => <SalesFigures answer={answer} metric={metric} />}
    </ReportSection>
  );
}
