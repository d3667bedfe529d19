import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  type ClampedLine,
  type Stocktake,
  type StocktakeLine,
  type StocktakeSummary,
  UNCOUNTED_CHOICES,
  type VarianceFigures,
} from '../../../shared/stocktakes';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormError } from '../../components/form-field';
import { JournalLink } from '../../components/journal-link';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { STOCKTAKES_PATH } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
import { countPath, countSheetPath } from '../../lib/area-paths';
import { formatDateTime } from '../../lib/format';
import { useListAddress } from '../../lib/list-address';
import { notify } from '../../lib/notify';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useMoney } from '../../lib/store-settings';
import { useDocumentTitle } from '../../lib/use-document-title';
import { usePageInRange } from '../../lib/use-paged-list';
import { lineName, linesText, lotText, StocktakeStatusBadge } from './stocktake-status';
import {
  LINES_PAGE_SIZE,
  stocktakeLinesQuery,
  stocktakeQuery,
  useCancelStocktake,
  useKeys,
  usePostStocktake,
} from './stocktakes-api';

type Uncounted = (typeof UNCOUNTED_CHOICES)[number];

/** The uncounted choice in words: what happens to the lines nobody counted. */
const UNCOUNTED_WORDS: Record<Uncounted, { label: string; hint: string }> = {
  keep: {
    label: 'Keep their stock as it is',
    hint: 'Lines nobody counted are left alone: only what was counted changes.',
  },
  zero: {
    label: 'Write them down to 0',
    hint: 'Lines nobody counted are taken as not there: their stock goes to 0.',
  },
};

/** What the confirm says of the lines nobody counted. */
function notCountedFate(choice: Uncounted, count: number): string {
  if (choice === 'zero') return count === 1 ? 'goes down to 0' : 'go down to 0';
  return count === 1 ? 'keeps its stock' : 'keep their stock';
}

/** `/stocktakes/:id` (admin): the review — figures, differences by line and category, Post, Cancel. */
export function StocktakePage() {
  const { id = '' } = useParams();
  const answer = useQuery(stocktakeQuery(id));
  const stocktake = answer.data?.stocktake;
  useDocumentTitle(stocktake ? stocktake.number : 'Stocktake');
  return (
    <>
      <PageHeader title={stocktake ? stocktake.number : 'Stocktake'}>
        {stocktake?.status === 'counting' ? (
          <Link to={countPath('admin', id)} className={buttonClass('primary')}>
            Count
          </Link>
        ) : null}
        {stocktake ? (
          <Link to={countSheetPath('admin', id)} className={buttonClass('secondary')}>
            Count sheet
          </Link>
        ) : null}
        {stocktake?.status === 'posted' ? <JournalLink source="stocktake" sourceId={stocktake._id} /> : null}
        <Link to={STOCKTAKES_PATH} className={buttonClass('secondary')}>
          Back to Stocktakes
        </Link>
      </PageHeader>
      <LoadState
        query={answer}
        what="the stocktake"
        loading="Loading the stocktake..."
        missing="This stocktake does not exist."
      >
        {({ stocktake: loaded }) => <Review stocktake={loaded} />}
      </LoadState>
    </>
  );
}

function Facts({ stocktake }: { stocktake: Stocktake }) {
  const scope = [...stocktake.scope.categories, ...stocktake.scope.products].map((one) => one.name);
  const facts: [string, ReactNode][] = [
    ['Status', <StocktakeStatusBadge key="status" status={stocktake.status} />],
    ['Location', stocktake.location.name],
    ['Counts', scope.length > 0 ? scope.join(', ') : 'Every product with stock there'],
    [
      'Kind',
      stocktake.blind ? 'Blind: counters do not see what is expected' : 'Counters see what is expected',
    ],
    [
      'Created',
      `${formatDateTime(stocktake.createdAt)}${stocktake.createdBy ? ` by ${stocktake.createdBy.name}` : ''}`,
    ],
  ];
  if (stocktake.postedAt)
    facts.push([
      'Posted',
      `${formatDateTime(stocktake.postedAt)}${stocktake.postedBy ? ` by ${stocktake.postedBy.name}` : ''}${
        stocktake.uncounted
          ? ` · uncounted lines ${stocktake.uncounted === 'zero' ? 'written down to 0' : 'kept'}`
          : ''
      }`,
    ]);
  if (stocktake.cancelledAt) facts.push(['Cancelled', formatDateTime(stocktake.cancelledAt)]);
  if (stocktake.note) facts.push(['Note', stocktake.note]);
  return (
    <dl className="mb-6 grid gap-x-6 gap-y-3 rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-3">
      {facts.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-slate-500">{label}</dt>
          <dd className="mt-0.5 break-words whitespace-pre-line">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Units with their sign: +3, −2, 0. */
const signed = (value: number) => (value > 0 ? `+${value}` : value < 0 ? `−${-value}` : '0');

function Figures({ summary }: { summary: StocktakeSummary }) {
  const money = useMoney();
  const tiles: [string, string, string?][] = [
    ['Lines', summary.lines.toLocaleString('en-US')],
    ['Counted', summary.counted.toLocaleString('en-US')],
    ['Not counted', summary.uncounted.toLocaleString('en-US')],
    ['Units over', summary.unitsOver.toLocaleString('en-US'), 'text-green-800'],
    ['Units short', summary.unitsShort.toLocaleString('en-US'), 'text-red-800'],
    ['Value over (at cost)', money(summary.valueOver), 'text-green-800'],
    ['Value short (at cost)', money(summary.valueShort), 'text-red-800'],
    ['Net', money(summary.net), summary.net < 0 ? 'text-red-800' : summary.net > 0 ? 'text-green-800' : ''],
  ];
  return (
    <section aria-label="Summary" className="mb-6">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {tiles.map(([label, value, tone]) => (
          <div key={label} className="rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-200">
            <dt className="text-xs font-medium text-slate-500">{label}</dt>
            <dd className={`mt-1 text-lg font-semibold tabular-nums ${tone ?? 'text-slate-900'}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function ByCategory({ summary }: { summary: StocktakeSummary }) {
  const money = useMoney();
  if (summary.categories.length === 0) return null;
  const columns: [string, (row: VarianceFigures) => string][] = [
    ['Lines', (row) => row.lines.toLocaleString('en-US')],
    ['Counted', (row) => row.counted.toLocaleString('en-US')],
    ['Not counted', (row) => row.uncounted.toLocaleString('en-US')],
    ['Units over', (row) => row.unitsOver.toLocaleString('en-US')],
    ['Units short', (row) => row.unitsShort.toLocaleString('en-US')],
    ['Value over', (row) => money(row.valueOver)],
    ['Value short', (row) => money(row.valueShort)],
    ['Net', (row) => money(row.net)],
  ];
  return (
    <section aria-labelledby="by-category" className="mb-6 space-y-2">
      <h2 id="by-category" className="text-base font-semibold text-slate-900">
        By category
      </h2>
      <Table caption="Differences by category, value at cost">
        <thead>
          <tr>
            <Th>Category</Th>
            {columns.map(([label]) => (
              <Th key={label} className="text-right">
                {label}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {summary.categories.map((row) => (
            <tr key={row.category?._id ?? 'none'}>
              <Td className="font-medium">{row.category?.name ?? 'No category'}</Td>
              {columns.map(([label, value]) => (
                <Td key={label} className="whitespace-nowrap text-right tabular-nums">
                  {value(row)}
                </Td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}

/** A counted line's difference: counted − expected at its count. */
const differenceOf = (line: StocktakeLine) =>
  line.counted !== null && line.expectedAtCount !== null && line.expectedAtCount !== undefined
    ? line.counted - line.expectedAtCount
    : null;

const STACKED_ROW = 'max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0 max-sm:text-left';

function Differences({ stocktake }: { stocktake: Stocktake }) {
  const money = useMoney();
  const { page: asked, setPage } = useListAddress();
  const shown = { page: asked, pageSize: LINES_PAGE_SIZE };
  const lines = useQuery(stocktakeLinesQuery(stocktake._id, { differences: 'true', ...shown }));
  const page = serverPage(lines.data && { ...lines.data, rows: lines.data.lines }, shown);
  usePageInRange(asked, page.pageCount, lines.isSuccess && !lines.isPlaceholderData, setPage);
  const posted = stocktake.status === 'posted';
  const columns = posted ? 7 : 6;
  return (
    <section aria-labelledby="differences" className="mb-6 space-y-2">
      <h2 id="differences" className="text-base font-semibold text-slate-900">
        Differences
      </h2>
      <p className="text-sm text-slate-600">
        Each counted line whose count differs from the stock the records held when it was counted (sales and
        receipts after the count do not make a difference).
      </p>
      <Table caption="Lines that differ, value at cost" busy={lines.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Product</Th>
            <Th>Lot</Th>
            <Th className="text-right">Expected at count</Th>
            <Th className="text-right">Counted</Th>
            <Th className="text-right">Difference</Th>
            <Th className="text-right">Value</Th>
            {posted ? <Th className="text-right">Posted</Th> : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={lines}
            what="the differences"
            loading="Loading differences..."
            colSpan={columns}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty="No differences: every counted line matches the records."
          >
            {() =>
              page.rows.map((line) => {
                const difference = differenceOf(line);
                const cells: [string, string][] = [
                  ['Expected at count', String(line.expectedAtCount ?? '—')],
                  ['Counted', String(line.counted ?? '—')],
                  ['Difference', difference === null ? '—' : signed(difference)],
                  ['Value', line.value === null || line.value === undefined ? '—' : money(line.value)],
                ];
                if (posted)
                  cells.push([
                    'Posted',
                    line.posted === null || line.posted === undefined ? '—' : signed(line.posted),
                  ]);
                return (
                  <tr key={line._id} className={STACKED_ROW}>
                    <Td className={`font-medium max-sm:col-span-2 ${STACKED_CELL}`}>{line.product.name}</Td>
                    <Td
                      className={`text-slate-700 max-sm:col-span-2 ${STACKED_CELL} ${line.lot ? '' : 'max-sm:hidden'}`}
                    >
                      {line.lot ? lotText(line) : <span className="text-slate-400">—</span>}
                    </Td>
                    {cells.map(([label, value]) => (
                      <Td
                        key={label}
                        className={`whitespace-nowrap text-right tabular-nums ${STACKED_CELL} ${
                          label === 'Difference' && difference !== null
                            ? difference < 0
                              ? 'text-red-800'
                              : 'text-green-800'
                            : ''
                        }`}
                      >
                        <span className="text-xs text-slate-500 sm:hidden">{label} </span>
                        {value}
                      </Td>
                    ))}
                  </tr>
                );
              })
            }
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Differences" onPage={setPage} />
    </section>
  );
}

function Clamped({ lines }: { lines: ClampedLine[] }) {
  return (
    <section
      aria-labelledby="clamped"
      className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <h2 id="clamped" className="font-semibold">
        {lines.length === 1 ? 'One line was' : `${lines.length} lines were`} taken to 0, not below
      </h2>
      <p className="mt-1">
        Their stock had gone lower since the count than the difference, so the post stopped at 0.
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {lines.map((line) => (
          <li key={`${line.product._id}-${line.lot?._id ?? ''}`}>
            {lineName(line)}: difference {signed(line.difference)}, posted {signed(line.posted)}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Review({ stocktake }: { stocktake: Stocktake }) {
  const id = useId();
  const keys = useKeys();
  const post = usePostStocktake(stocktake._id);
  const cancel = useCancelStocktake(stocktake._id);
  const [uncounted, setUncounted] = useState<Uncounted>('keep');
  const [asking, setAsking] = useState<'post' | 'cancel' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [clamped, setClamped] = useState<ClampedLine[]>([]);
  const summary = stocktake.summary;
  const counting = stocktake.status === 'counting';

  function run(step: 'post' | 'cancel') {
    setFailure(null);
    const key = keys.keyFor({ [step]: stocktake._id, uncounted });
    const done = (error?: unknown) => {
      keys.settled(error);
      setAsking(null);
      if (error) setFailure(errorMessage(error));
    };
    if (step === 'post')
      post.mutate(
        { uncounted, key },
        {
          onSuccess: (answer) => {
            done();
            setClamped(answer.clamped);
            notify.success(`${answer.stocktake.number} is posted: the stock now says what was counted.`);
          },
          onError: done,
        },
      );
    else
      cancel.mutate(
        { key },
        {
          onSuccess: (answer) => {
            done();
            notify.success(`${answer.stocktake.number} is cancelled; nothing was written.`);
          },
          onError: done,
        },
      );
  }

  const uncountedCount = summary?.uncounted ?? 0;
  const countedCount = summary?.counted ?? 0;
  return (
    <>
      <Facts stocktake={stocktake} />
      {clamped.length > 0 ? <Clamped lines={clamped} /> : null}
      {summary ? <Figures summary={summary} /> : null}
      {counting ? (
        <section
          aria-labelledby={`${id}-post`}
          className="mb-6 space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
        >
          <h2 id={`${id}-post`} className="text-base font-semibold text-slate-900">
            Post the count
          </h2>
          <p className="text-sm text-slate-600">
            Posting writes each counted line’s difference into the stock, as counted at that moment, and ends
            the stocktake.
          </p>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">
              Lines not counted ({linesText(uncountedCount)})
            </legend>
            {UNCOUNTED_CHOICES.map((choice) => (
              <label key={choice} className="flex items-start gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  name={`${id}-uncounted`}
                  value={choice}
                  checked={uncounted === choice}
                  onChange={() => setUncounted(choice)}
                  className="mt-0.5 size-4"
                />
                <span>
                  <span className="font-medium">{UNCOUNTED_WORDS[choice].label}</span>
                  <span className="block text-slate-600">{UNCOUNTED_WORDS[choice].hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="flex flex-col gap-2 sm:flex-row">
            <button
              type="button"
              className={buttonClass('primary')}
              disabled={post.isPending || cancel.isPending}
              onClick={() => setAsking('post')}
            >
              Post stocktake
            </button>
            <button
              type="button"
              className={buttonClass('secondary')}
              disabled={post.isPending || cancel.isPending}
              onClick={() => setAsking('cancel')}
            >
              Cancel stocktake
            </button>
          </div>
        </section>
      ) : null}
      <div className="mb-4">
        <FormError>{failure}</FormError>
      </div>
      {summary ? <ByCategory summary={summary} /> : null}
      <Differences stocktake={stocktake} />
      {asking === 'post' ? (
        <ConfirmDialog
          title={`Post ${stocktake.number}?`}
          message={`${linesText(countedCount)} counted ${countedCount === 1 ? 'is' : 'are'} written into the stock at ${stocktake.location.name}; ${
            uncountedCount === 0
              ? 'every line was counted'
              : `the ${linesText(uncountedCount)} not counted ${notCountedFate(uncounted, uncountedCount)}`
          }. This cannot be undone.`}
          confirmLabel="Post"
          busyLabel="Posting..."
          cancelLabel="Not yet"
          busy={post.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={() => run('post')}
        />
      ) : null}
      {asking === 'cancel' ? (
        <ConfirmDialog
          title={`Cancel ${stocktake.number}?`}
          message="Nothing is written to the stock and the counts are set aside; its products can be counted again in another stocktake."
          confirmLabel="Cancel stocktake"
          busyLabel="Cancelling..."
          cancelLabel="Keep counting"
          busy={cancel.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={() => run('cancel')}
        />
      ) : null}
    </>
  );
}
