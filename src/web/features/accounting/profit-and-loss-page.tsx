import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ProfitAndLossResponse } from '../../../shared/accounting';
import { Options, SelectField } from '../../components/form-field';
import { ReportSection } from '../../components/report-section';
import { Table, Td, Th } from '../../components/table';
import { ledgerPath } from '../../lib/admin-paths';
import { oneOf } from '../../lib/list-address';
import { useMoney } from '../../lib/store-settings';
import { ReportChart } from '../reports/report-chart';
import { formatRange, periodLabel, periodTick } from '../reports/report-format';
import { accountingPaths, profitAndLossQuery } from './accounting-api';
import { AccountingPage } from './accounting-layout';
import { NUMBER } from './accounting-parts';
import { RangeFields, useRangeAddress } from './range-fields';

export const MONTH_FIGURES = ['netSales', 'costOfSales', 'netProfit'] as const;
type MonthFigure = (typeof MONTH_FIGURES)[number];
export const FIGURE_LABEL: Record<MonthFigure, string> = {
  netSales: 'Net sales',
  costOfSales: 'Cost of sales',
  netProfit: 'Net profit',
};

type Amounted = ProfitAndLossResponse['income'][number];
type Month = ProfitAndLossResponse['months'][number];

/**
 * Every month of the range, in order, each with its figures: the answer leaves out a month in
 * which nothing was posted (before the books began), and a chart by month shows it as 0.
 */
export function everyMonth(answer: Pick<ProfitAndLossResponse, 'from' | 'to' | 'months'>): Month[] {
  const known = new Map(answer.months.map((month) => [month.month, month]));
  const months: Month[] = [];
  let [year, month] = answer.from.slice(0, 7).split('-').map(Number) as [number, number];
  const last = answer.to.slice(0, 7);
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`;
    if (key > last || months.length >= 1200) break;
    months.push(known.get(key) ?? { month: key, netSales: 0, costOfSales: 0, netProfit: 0 });
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return months;
}

function AccountLine({ row }: { row: Amounted }) {
  const money = useMoney();
  return (
    <tr className="hover:bg-slate-50">
      <th scope="row" className="py-2 pr-3 pl-6 text-left font-normal text-slate-800 sm:pr-4 sm:pl-8">
        <Link to={ledgerPath(row.account._id)} className="hover:text-indigo-700 hover:underline">
          <span className="font-mono text-xs text-slate-600">{row.account.code}</span> {row.account.name}
        </Link>
      </th>
      <Td className={NUMBER}>{money(row.amount)}</Td>
    </tr>
  );
}

function Heading({ children }: { children: ReactNode }) {
  return (
    <tr className="bg-slate-50">
      <th
        scope="rowgroup"
        colSpan={2}
        className="px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase sm:px-4"
      >
        {children}
      </th>
    </tr>
  );
}

function Result({ label, amount, strong = false }: { label: string; amount: number; strong?: boolean }) {
  const money = useMoney();
  return (
    <tr className={strong ? 'border-t-2 border-slate-200 bg-slate-50 font-semibold' : 'font-medium'}>
      <th scope="row" className="px-3 py-2.5 text-left sm:px-4">
        {label}
      </th>
      <Td className={`${NUMBER} ${strong ? 'font-semibold' : ''}`}>{money(amount)}</Td>
    </tr>
  );
}

/** The statement: income, net sales, cost of sales, gross profit, the expenses and net profit. */
function Statement({ answer }: { answer: ProfitAndLossResponse }) {
  return (
    <Table caption={`Profit and loss, ${formatRange(answer)}`}>
      <thead className="sr-only">
        <tr>
          <Th>Line</Th>
          <Th className="text-right">Amount</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        <Heading>Income</Heading>
        {answer.income.map((row) => (
          <AccountLine key={row.account._id} row={row} />
        ))}
        <Result label="Net sales" amount={answer.netSales} />
        <Result label="Cost of sales" amount={answer.costOfSales} />
        <Result label="Gross profit" amount={answer.grossProfit} strong />
        <Heading>Expenses</Heading>
        {answer.expenses.length === 0 ? (
          <tr>
            <td colSpan={2} className="py-2 pl-6 text-sm text-slate-500 sm:pl-8">
              No other expenses.
            </td>
          </tr>
        ) : (
          answer.expenses.map((row) => <AccountLine key={row.account._id} row={row} />)
        )}
      </tbody>
      <tfoot>
        <Result label="Net profit" amount={answer.netProfit} strong />
      </tfoot>
    </Table>
  );
}

/** The months' four columns fit a phone: closer together, a little smaller. */
const PHONE_CELL = 'max-sm:px-1.5 max-sm:text-[13px]';

function Months({ answer, figure }: { answer: ProfitAndLossResponse; figure: MonthFigure }) {
  const money = useMoney();
  const months = everyMonth(answer);
  return (
    <>
      <figure className="mb-4 min-w-0 rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
        <figcaption className="mb-2 text-sm font-semibold text-slate-700">
          {FIGURE_LABEL[figure]} by month
        </figcaption>
        <ReportChart
          layout="columns"
          kind="money"
          title={`${FIGURE_LABEL[figure]} by month, ${formatRange(answer)}`}
          valueName={FIGURE_LABEL[figure]}
          points={months.map((month) => ({
            label: periodTick(`${month.month}-01`, 'month'),
            value: month[figure],
          }))}
        />
      </figure>
      <Table caption={`Profit and loss by month, ${formatRange(answer)}`}>
        <thead>
          <tr>
            <Th className="max-sm:px-1.5">Month</Th>
            {MONTH_FIGURES.map((one) => (
              <Th key={one} className="text-right max-sm:px-1.5 max-sm:whitespace-normal">
                {FIGURE_LABEL[one]}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {months.map((month) => (
            <tr key={month.month} className="hover:bg-slate-50">
              <th
                scope="row"
                className={`px-3 py-2.5 text-left font-medium whitespace-nowrap text-slate-900 sm:px-4 ${PHONE_CELL}`}
              >
                <span className="max-sm:hidden">{periodLabel(`${month.month}-01`, 'month')}</span>
                <span className="sm:hidden">{periodTick(`${month.month}-01`, 'month')}</span>
              </th>
              {MONTH_FIGURES.map((one) => (
                <Td key={one} className={`${NUMBER} ${PHONE_CELL}`}>
                  {money(month[one])}
                </Td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}

/**
 * Admin: profit and loss (DESIGN §19) over a range: income by account, net sales, cost of sales,
 * gross profit, the other expenses and net profit, as a statement; then one figure (chosen) as a
 * chart by month, with every month's figures in a table; and the statement as CSV.
 */
export function ProfitAndLossPage() {
  const address = useRangeAddress<'chart'>();
  const { range, rangeError } = address;
  const figure = oneOf(MONTH_FIGURES, address.params.get('chart')) ?? 'netProfit';
  const query = useQuery({ ...profitAndLossQuery(range), enabled: !rangeError });
  const shown = query.data;

  return (
    <AccountingPage title="Profit and loss" tab="profit-and-loss">
      <RangeFields
        range={range}
        shown={shown}
        rangeError={rangeError}
        onDay={address.setFilter}
        onClear={address.clearRange}
      />
      <ReportSection
        title="Profit and loss"
        covers={shown ? formatRange(shown) : 'The month to date'}
        csv={
          shown
            ? {
                path: accountingPaths.profitAndLoss(range),
                filename: `profit-and-loss-${shown.from}-to-${shown.to}.csv`,
              }
            : undefined
        }
        query={query}
        what="the profit and loss"
        isEmpty={(answer) =>
          answer.income.length === 0 && answer.expenses.length === 0 && answer.costOfSales === 0
        }
        empty="Nothing was sold or spent in these days."
      >
        {(answer) => (
          <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,28rem)_minmax(0,1fr)]">
            <Statement answer={answer} />
            <section aria-label="By month" className="min-w-0">
              <div className="mb-3 w-full sm:w-56">
                <SelectField
                  label="Chart"
                  value={figure}
                  onChange={(event) =>
                    address.setOption('chart', event.target.value === 'netProfit' ? '' : event.target.value)
                  }
                >
                  <Options values={MONTH_FIGURES} labels={FIGURE_LABEL} />
                </SelectField>
              </div>
              <Months answer={answer} figure={figure} />
            </section>
          </div>
        )}
      </ReportSection>
    </AccountingPage>
  );
}
