import { useQuery } from '@tanstack/react-query';
import { REPORT_GROUPS, type ReportGroup, type SalesReportResponse } from '../../../shared/reports';
import { Options, SelectField } from '../../components/form-field';
import { ReportSection } from '../../components/report-section';
import { Table, Td } from '../../components/table';
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
import { ChartCard, Choice, NUMBER, ReportHead, RowHeader, Tiles } from './report-parts';
import { type DateRange, GROUP_LABEL, SALES_METRICS, type SalesMetric } from './report-range';
import { reportPaths, salesReportQuery } from './reports-api';

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
      <Table caption={`Sales ${PER[groupBy]}, ${formatRange(answer)}`}>
        <ReportHead
          words={['Period']}
          figures={['Orders', 'Units', 'Revenue', 'Cost', 'Margin', 'Discounts', 'Tax']}
        />
        <tbody className="divide-y divide-slate-100">
          {answer.periods.map((period) => (
            <tr key={period.start} className="hover:bg-slate-50">
              <RowHeader className="whitespace-nowrap">
                <time dateTime={period.start}>{periodLabel(period.start, groupBy)}</time>
              </RowHeader>
              <Td className={NUMBER}>{count(period.orders)}</Td>
              <Td className={NUMBER}>{count(period.units)}</Td>
              <Td className={NUMBER}>{money(period.revenue)}</Td>
              <Td className={NUMBER}>{money(period.cost)}</Td>
              <Td className={NUMBER}>{money(period.margin)}</Td>
              <Td className={NUMBER}>{money(period.discount)}</Td>
              <Td className={NUMBER}>{money(period.tax)}</Td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-semibold">
          <tr>
            <RowHeader>Total</RowHeader>
            <Td className={NUMBER}>{count(totals.orders)}</Td>
            <Td className={NUMBER}>{count(totals.units)}</Td>
            <Td className={NUMBER}>{money(totals.revenue)}</Td>
            <Td className={NUMBER}>{money(totals.cost)}</Td>
            <Td className={NUMBER}>{money(totals.margin)}</Td>
            <Td className={NUMBER}>{money(totals.discount)}</Td>
            <Td className={NUMBER}>{money(totals.tax)}</Td>
          </tr>
        </tfoot>
      </Table>
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
      title="Sales over time"
      covers={`${formatRange(range)}, ${PER[group]}`}
      csv={{ path: reportPaths.sales(range, group), filename: rangeFile(`sales-by-${group}`, range) }}
      controls={
        <>
          <Choice
            legend="Show"
            options={SALES_METRICS}
            labels={METRIC_LABEL}
            value={metric}
            onChange={onMetric}
          />
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
      what="the sales report"
      isEmpty={({ totals }) => totals.orders === 0 && totals.units === 0 && totals.revenue === 0}
      empty="No sales in this range."
    >
      {(answer) => <SalesFigures answer={answer} metric={metric} />}
    </ReportSection>
  );
}
