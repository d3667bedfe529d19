import { useQuery } from '@tanstack/react-query';
import type { TaxReturnResponse } from '../../../shared/bills';
import { centsNumber, toCents } from '../../../shared/money';
import { taxRateLabel } from '../../../shared/store';
import { ReportSection } from '../../components/report-section';
import { Table, Td, Th } from '../../components/table';
import { useMoney } from '../../lib/store-settings';
import { formatRange } from '../reports/report-format';
import { accountingPaths, taxReturnQuery } from './accounting-api';
import { AccountingPage } from './accounting-layout';
import { NUMBER } from './accounting-parts';
import { RangeFields, useRangeAddress } from './range-fields';

type Rate = TaxReturnResponse['output'][number];

/** A rate in words: its name and percent, or "No tax rate" for the lines sold without one. */
export const rateName = (row: Pick<Rate, 'name' | 'rate'>) =>
  row.name === '' ? 'No tax rate' : taxRateLabel(row);

/** One side of the return: its rates, each with its base and tax, and their totals. */
function Side({ caption, title, rows, tax }: { caption: string; title: string; rows: Rate[]; tax: number }) {
  const money = useMoney();
  const base = centsNumber(rows.reduce((sum, row) => sum + toCents(row.base), 0n));
  return (
    <section aria-label={title}>
      <h3 className="mb-2 text-base font-semibold text-slate-900">{title}</h3>
      <Table caption={caption}>
        <thead>
          <tr>
            <Th>Rate</Th>
            <Th className="text-right">Base</Th>
            <Th className="text-right">Tax</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={3} className="px-3 py-2.5 text-sm text-slate-500 sm:px-4">
                None.
              </td>
            </tr>
          ) : null}
          {rows.map((row) => (
            <tr key={`${row.name}\u0000${row.rate}`} className="hover:bg-slate-50">
              <th scope="row" className="px-3 py-2.5 text-left font-normal text-slate-900 sm:px-4">
                {rateName(row)}
              </th>
              <Td className={NUMBER}>{money(row.base)}</Td>
              <Td className={NUMBER}>{money(row.tax)}</Td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-semibold">
          <tr>
            <th scope="row" className="px-3 py-2.5 text-left sm:px-4">
              Total
            </th>
            <Td className={NUMBER}>{money(base)}</Td>
            <Td className={NUMBER}>{money(tax)}</Td>
          </tr>
        </tfoot>
      </Table>
    </section>
  );
}

function TaxReturn({ answer }: { answer: TaxReturnResponse }) {
  const money = useMoney();
  const range = formatRange(answer);
  return (
    <>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Side
          title="Output tax: sales"
          caption={`Output tax by rate, ${range}`}
          rows={answer.output}
          tax={answer.outputTax}
        />
        <Side
          title="Input tax: bills"
          caption={`Input tax by rate, ${range}`}
          rows={answer.input}
          tax={answer.inputTax}
        />
      </div>
      <dl className="mt-6 grid max-w-md grid-cols-[1fr_auto] gap-x-6 gap-y-1 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm">
        <dt className="text-slate-600">Output tax</dt>
        <dd className={NUMBER}>{money(answer.outputTax)}</dd>
        <dt className="text-slate-600">Less input tax</dt>
        <dd className={NUMBER}>{money(answer.inputTax)}</dd>
        <dt className="border-t border-slate-200 pt-1 font-semibold text-slate-900">
          {answer.net < 0 ? 'Net: to reclaim' : 'Net: to pay'}
        </dt>
        <dd className={`border-t border-slate-200 pt-1 font-semibold ${NUMBER}`}>{money(answer.net)}</dd>
      </dl>
      <p className="mt-3 text-sm text-slate-600">
        Output tax is the tax of sales less refunds and returns; input tax is the tax of posted bills less
        those voided. The net is the change of 2200 Tax payable less 1400 Input tax over these days.
      </p>
    </>
  );
}

/**
 * Admin: the tax return (DESIGN §20) over a range: output tax by rate (sales less refunds), input
 * tax by rate (posted bills), each with its base, and the net to pay or reclaim; as CSV.
 */
export function TaxReturnPage() {
  const address = useRangeAddress();
  const { range, rangeError } = address;
  const query = useQuery({ ...taxReturnQuery(range), enabled: !rangeError });
  const shown = query.data;
  return (
    <AccountingPage title="Tax return" tab="tax-return">
      <RangeFields
        range={range}
        shown={shown}
        rangeError={rangeError}
        onDay={address.setFilter}
        onClear={address.clearRange}
      />
      <ReportSection
        title="Tax return"
        covers={shown ? formatRange(shown) : 'The month to date'}
        csv={
          shown
            ? {
                path: accountingPaths.taxReturn(range),
                filename: `tax-return-${shown.from}-to-${shown.to}.csv`,
              }
            : undefined
        }
        query={query}
        what="the tax return"
        isEmpty={(answer) => answer.output.length === 0 && answer.input.length === 0 && answer.net === 0}
        empty="No tax was charged on sales or paid on bills in these days."
      >
        {(answer) => <TaxReturn answer={answer} />}
      </ReportSection>
    </AccountingPage>
  );
}
