import { useQuery } from '@tanstack/react-query';
import { ReportSection } from '../../components/report-section';
import { Table, Td } from '../../components/table';
import { useCurrency } from '../../lib/store-settings';
import { formatRange, formatValue, rangeFile } from './report-format';
import { NUMBER, ReportHead, RowHeader } from './report-parts';
import type { DateRange } from './report-range';
import { reportPaths, taxReportQuery } from './reports-api';

/** The lines sold without a rate, and every sale made before taxes, come under this name. */
export const NO_TAX_RATE = 'No tax rate';

const RATE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/** A rate as a percent with up to 3 decimals: "8.875%". */
export function formatRate(rate: number): string {
  return `${RATE.format(rate)}%`;
}

/** The tax of the range by rate (DESIGN §12): what was sold under each rate, net, and its tax. */
export function TaxReport({ range }: { range: DateRange }) {
  const currency = useCurrency();
  const query = useQuery(taxReportQuery(range));
  return (
    <ReportSection
      title="Tax by rate"
      covers={formatRange(range)}
      csv={{ path: reportPaths.tax(range), filename: rangeFile('tax', range) }}
      query={query}
      what="the tax report"
      isEmpty={(answer) => answer.rates.length === 0}
      empty="No sales in this range."
    >
      {(answer) => (
        <Table caption={`Tax by rate, ${formatRange(answer)}`}>
          <ReportHead words={['Tax rate']} figures={['Rate', 'Net sales', 'Tax']} />
          <tbody className="divide-y divide-slate-100">
            {answer.rates.map((rate) => (
              <tr key={`${rate.name}\u0000${rate.rate}`} className="hover:bg-slate-50">
                <RowHeader>{rate.name === '' ? NO_TAX_RATE : rate.name}</RowHeader>
                <Td className={NUMBER}>{formatRate(rate.rate)}</Td>
                <Td className={NUMBER}>{formatValue(rate.base, 'money', currency)}</Td>
                <Td className={NUMBER}>{formatValue(rate.tax, 'money', currency)}</Td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-semibold">
            <tr>
              <RowHeader>Total</RowHeader>
              <Td />
              <Td className={NUMBER}>{formatValue(answer.totals.base, 'money', currency)}</Td>
              <Td className={NUMBER}>{formatValue(answer.totals.tax, 'money', currency)}</Td>
            </tr>
          </tfoot>
        </Table>
      )}
    </ReportSection>
  );
}
