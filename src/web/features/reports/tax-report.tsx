import { useQuery } from '@tanstack/react-query';
import { Td } from '../../components/table';
import { formatRange } from './report-format';
import { Figures, NUMBER, RangeReport, RowHeader, RowsTable } from './report-parts';
import type { DateRange } from './report-range';
import { taxReportQuery } from './reports-api';

/** The lines sold without a rate, and every sale made before taxes, come under this name. */
export const NO_TAX_RATE = 'No tax rate';

const RATE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/** A rate as a percent with up to 3 decimals: "8.875%". */
export function formatRate(rate: number): string {
  return `${RATE.format(rate)}%`;
}

/** The tax of the range by rate (DESIGN §12): what was sold under each rate, net, and its tax. */
export function TaxReport({ range }: { range: DateRange }) {
  const query = useQuery(taxReportQuery(range));
  return (
    <RangeReport report="tax" range={range} query={query} rows={(answer) => answer.rates}>
      {(answer) => (
        <RowsTable
          caption={`Tax by rate, ${formatRange(answer)}`}
          words={['Tax rate']}
          figures={['Rate', 'Net sales', 'Tax']}
          rows={answer.rates}
          rowKey={(rate) => `${rate.name}\u0000${rate.rate}`}
          total={
            <>
              <Td />
              <Figures money={[answer.totals.base, answer.totals.tax]} />
            </>
          }
        >
          {(rate) => (
            <>
              <RowHeader>{rate.name === '' ? NO_TAX_RATE : rate.name}</RowHeader>
              <Td className={NUMBER}>{formatRate(rate.rate)}</Td>
              <Figures money={[rate.base, rate.tax]} />
            </>
          )}
        </RowsTable>
      )}
    </RangeReport>
  );
}
