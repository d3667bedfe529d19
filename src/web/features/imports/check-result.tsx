import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import {
  IMPORT_FIELD_HEADER,
  IMPORT_RESULTS,
  type Import,
  type ImportChange,
  type ImportError,
  type ImportResult,
  type ImportRow,
  type ImportSummary,
} from '../../../shared/imports';
import { buttonClass } from '../../components/button';
import { FormError, SelectField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { stockPath } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
import { formatCount } from '../../lib/format';
import { oneOf, useListAddress } from '../../lib/list-address';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useMoney } from '../../lib/store-settings';
import { usePageInRange } from '../../lib/use-paged-list';
import { counted, FailedRowsButton, NewNames, StepHeading, SummaryFigures } from './import-parts';
import { IMPORT_ROWS_PAGE_SIZE, importRowsQuery, useApplyImport } from './imports-api';

const RESULT_LABEL: Record<ImportResult, string> = {
  create: 'Create',
  update: 'Update',
  unchanged: 'Unchanged',
  error: 'Error',
  skipped: 'Skipped',
};
const RESULT_TONE: Record<ImportResult, string> = {
  create: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  update: 'bg-indigo-50 text-indigo-800 ring-indigo-200',
  unchanged: 'bg-slate-100 text-slate-700 ring-slate-200',
  error: 'bg-red-50 text-red-800 ring-red-200',
  skipped: 'bg-slate-50 text-slate-500 ring-slate-200',
};

/** The filter's choices, each with how many rows it shows. */
function filterLabel(result: ImportResult | undefined, summary: ImportSummary): string {
  const all = summary.create + summary.update + summary.unchanged + summary.errors + summary.skipped;
  switch (result) {
    case undefined:
      return `All rows (${formatCount(all)})`;
    case 'create':
      return `To create (${formatCount(summary.create)})`;
    case 'update':
      return `To update (${formatCount(summary.update)})`;
    case 'unchanged':
      return `Unchanged (${formatCount(summary.unchanged)})`;
    case 'error':
      return `With errors (${formatCount(summary.errors)})`;
    case 'skipped':
      return `Skipped (${formatCount(summary.skipped)})`;
  }
}

export function ResultBadge({ result }: { result: ImportResult }) {
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${RESULT_TONE[result]}`}
    >
      {RESULT_LABEL[result]}
    </span>
  );
}

function ChangeValue({ change, value }: { change: ImportChange; value: ImportChange['from'] }) {
  const money = useMoney();
  if (value === null || value === '') return <span className="text-slate-400 italic">empty</span>;
  if (typeof value === 'number' && (change.field === 'price' || change.field === 'cost'))
    return <>{money(value)}</>;
  if (typeof value === 'boolean') return <>{value ? 'yes' : 'no'}</>;
  return <>{typeof value === 'number' ? formatCount(value) : value}</>;
}

const MATCH_LABEL = { sku: 'SKU', barcode: 'barcode', name: 'name' } as const;
const STOCK_LABEL = {
  set: "stock set to the file's numbers",
  add: "the file's numbers added to the stock",
  ignore: 'stock left as it is',
} as const;

/** How the file was checked, in one sentence: "Matched by SKU; stock set to …; missing categories created." */
export function optionsText(options: NonNullable<Import['options']>): string {
  const created = (['categories', 'suppliers'] as const).filter((kind) => options.createMissing[kind]);
  const missing =
    created.length > 0
      ? `missing ${created.join(' and ')} created`
      : 'missing categories and suppliers are errors';
  return `Matched by ${MATCH_LABEL[options.matchBy]}; ${STOCK_LABEL[options.stock]}; ${missing}.`;
}

/** The row's product: the one it matched, or the name it would create. */
function rowProduct(row: ImportRow, nameIndex: number): string {
  if (row.product) return row.product.name;
  return nameIndex >= 0 ? (row.cells[nameIndex] ?? '').trim() : '';
}

/** Step 3: the dry run's summary, its rows filtered and paged, and the way on to the import. */
export function CheckResult({
  item,
  focus,
  onChangeMapping,
}: {
  item: Import;
  focus: boolean;
  onChangeMapping: () => void;
}) {
  const ids = useId();
  const address = useListAddress<'result'>();
  const result = oneOf(IMPORT_RESULTS, address.params.get('result'));
  const asked = { page: address.page, pageSize: IMPORT_ROWS_PAGE_SIZE };
  const rows = useQuery(importRowsQuery(item._id, { result, ...asked }));
  const apply = useApplyImport(item._id);
  const summary: ImportSummary = item.summary ?? {
    create: 0,
    update: 0,
    unchanged: 0,
    skipped: 0,
    errors: 0,
    newCategories: [],
    newSuppliers: [],
  };
  const writes = summary.create + summary.update;

  const page = serverPage(rows.data, asked);
  usePageInRange(address.page, page.pageCount, rows.isSuccess && !rows.isPlaceholderData, address.setPage);

  // The file's columns the rows show: those imported, and any a row on this page has a problem in.
  const mapped = new Set(Object.values(item.mapping));
  const named = new Set(page.rows.flatMap((row) => row.errors.map((error) => error.column)));
  const shown = item.columns.flatMap((column, index) =>
    mapped.has(column) || named.has(column) ? [{ column, index }] : [],
  );
  const nameIndex = item.mapping.name === undefined ? -1 : item.columns.indexOf(item.mapping.name);
  const columnCount = 5 + shown.length;

  return (
    <section aria-labelledby={`${ids}-heading`} className="space-y-6">
      <div className="space-y-1">
        <StepHeading id={`${ids}-heading`} focus={focus}>
          Check the result
        </StepHeading>
        <p className="text-sm text-slate-600">
          Nothing has been written yet. Rows with errors are left out of the import: download them, fix them
          and import that file afterwards.
        </p>
        {item.options ? <p className="text-sm text-slate-600">{optionsText(item.options)}</p> : null}
      </div>

      <SummaryFigures summary={summary} />
      <NewNames summary={summary} />

      <div className="space-y-2">
        {apply.isError ? (
          <FormError>The import could not start: {errorMessage(apply.error)}</FormError>
        ) : null}
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            className={buttonClass('primary')}
            disabled={writes === 0 || apply.isPending}
            aria-describedby={writes === 0 ? `${ids}-nothing` : undefined}
            onClick={() => apply.mutate()}
          >
            {apply.isPending ? 'Starting...' : `Import ${counted(writes, 'product')}`}
          </button>
          <button type="button" className={buttonClass('secondary')} onClick={onChangeMapping}>
            Change mapping
          </button>
          {summary.errors > 0 ? <FailedRowsButton item={item} /> : null}
        </div>
        {writes === 0 ? (
          <p id={`${ids}-nothing`} className="text-sm text-slate-600">
            Nothing to import: no row creates or updates a product.
          </p>
        ) : null}
      </div>

      <section aria-labelledby={`${ids}-rows`} className="space-y-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <h3 id={`${ids}-rows`} className="text-base font-semibold text-slate-900">
            Rows
          </h3>
          <div className="sm:w-64">
            <SelectField
              label="Show"
              value={result ?? ''}
              onChange={(event) => address.setFilter('result', event.target.value)}
            >
              {[undefined, ...IMPORT_RESULTS].map((value) => (
                <option key={value ?? 'all'} value={value ?? ''}>
                  {filterLabel(value, summary)}
                </option>
              ))}
            </SelectField>
          </div>
        </div>
        <Table caption="Checked rows of the file" busy={rows.isPlaceholderData}>
          <thead>
            <tr>
              <Th>Line</Th>
              <Th>Result</Th>
              <Th>Product</Th>
              <Th>Changes</Th>
              <Th>Errors and warnings</Th>
              {shown.map(({ column, index }) => (
                <Th key={index}>
                  <span className="block max-w-64 truncate normal-case" title={column}>
                    {column}
                  </span>
                </Th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            <LoadState
              query={rows}
              what="the checked rows"
              colSpan={columnCount}
              waiting={isPastEnd(page)}
              isEmpty={() => page.total === 0}
              empty={result ? 'No rows with this result.' : 'The file has no rows.'}
            >
              {() =>
                page.rows.map((row) => (
                  <CheckedRow key={row.row} row={row} shown={shown} product={rowProduct(row, nameIndex)} />
                ))
              }
            </LoadState>
          </tbody>
        </Table>
        <Pager page={page} label="Checked rows" onPage={address.setPage} />
      </section>
    </section>
  );
}

/** A row's errors (red) or warnings (amber, said as such to a screen reader), each naming its column. */
function RowProblems({ problems, kind }: { problems: readonly ImportError[]; kind: 'error' | 'warning' }) {
  if (problems.length === 0) return null;
  const warning = kind === 'warning';
  return (
    <ul className={`space-y-0.5 ${warning ? 'text-amber-800' : 'text-red-800'}`}>
      {problems.map((problem, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: a row's problems in the server's order
          key={index}
          className={
            warning ? 'rounded bg-amber-50 px-1.5 py-0.5 ring-1 ring-amber-200 ring-inset' : undefined
          }
        >
          {warning ? <span className="sr-only">Warning: </span> : null}
          {problem.column === 'Row' ? null : <span className="font-medium">{problem.column}: </span>}
          {problem.message}
        </li>
      ))}
    </ul>
  );
}

function CheckedRow({
  row,
  shown,
  product,
}: {
  row: ImportRow;
  shown: { column: string; index: number }[];
  product: string;
}) {
  const problemsOf = (column: string) => row.errors.filter((error) => error.column === column);
  return (
    <tr className={row.result === 'error' ? 'bg-red-50/40' : undefined}>
      <th
        scope="row"
        className="relative px-3 py-2.5 text-left font-medium tabular-nums text-slate-700 sm:px-4"
      >
        <span className="sr-only">Line </span>
        {row.row}
      </th>
      <Td>
        <ResultBadge result={row.result} />
      </Td>
      <Td className="min-w-40 font-medium">
        {row.product ? (
          <Link to={stockPath(row.product._id)} className="text-indigo-700 underline hover:text-indigo-900">
            {product}
          </Link>
        ) : (
          product || <span className="text-slate-400">—</span>
        )}
      </Td>
      <Td className="min-w-48">
        {row.changes && row.changes.length > 0 ? (
          <ul className="space-y-0.5">
            {row.changes.map((change) => (
              <li key={`${change.field} ${change.location ?? ''}`} className="whitespace-nowrap">
                <span className="text-slate-500">
                  {IMPORT_FIELD_HEADER[change.field]}
                  {change.location ? ` at ${change.location}` : ''}:
                </span>{' '}
                <ChangeValue change={change} value={change.from} /> →{' '}
                <ChangeValue change={change} value={change.to} />
              </li>
            ))}
          </ul>
        ) : null}
      </Td>
      <Td className="min-w-56">
        <RowProblems problems={row.warnings ?? []} kind="warning" />
        <RowProblems problems={row.errors} kind="error" />
      </Td>
      {shown.map(({ column, index }) => {
        const problems = problemsOf(column);
        const text = row.cells[index] ?? '';
        if (problems.length === 0)
          return (
            <Td key={index} className="max-w-64 truncate whitespace-nowrap">
              {text}
            </Td>
          );
        return (
          <Td
            key={index}
            // relative: the message hidden for the eye stays inside the table's scrolling box (it
            // would otherwise widen the whole page on a phone).
            className="relative max-w-64 whitespace-nowrap bg-red-100 font-medium text-red-900 ring-2 ring-red-400 ring-inset"
          >
            <span data-cell-error="" title={problems.map((problem) => problem.message).join(' ')}>
              <span aria-hidden="true" className="mr-1 font-bold">
                !
              </span>
              {text || <span className="italic">empty</span>}
              <span className="sr-only">
                {' '}
                (error: {problems.map((problem) => problem.message).join(' ')})
              </span>
            </span>
          </Td>
        );
      })}
    </tr>
  );
}
