import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { COUNT_SHEET_HEADER, type Stocktake, type StocktakeLine } from '../../../shared/stocktakes';
import { buttonClass } from '../../components/button';
import { DownloadCsvButton } from '../../components/download-csv';
import { LoadFailed, Loading, LoadState } from '../../components/load-state';
import { expiryLabel } from '../../components/lot-expiry';
import { stocktakePath } from '../../lib/admin-paths';
import { ApiRequestError, errorMessage, refusedAs } from '../../lib/api';
import { countPath } from '../../lib/area-paths';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { useSignedInUser } from '../../lib/signed-in';
import { useStoreSettings } from '../../lib/store-settings';
import { useDocumentTitle } from '../../lib/use-document-title';
import { linesText } from './stocktake-status';
import { sheetCsvPath, stocktakeQuery, stocktakeSheetQuery, useCount } from './stocktakes-api';

const CELL = 'border-b border-slate-300 px-2 py-2 align-top';

/**
 * `/stocktakes/:id/sheet`: the count sheet to print (every line with a blank Counted box), the same
 * sheet as CSV, and a filled sheet sent back as counts (a bad row refuses the whole file, by line).
 * The print stylesheet drops the sidebar and the buttons.
 */
export function CountSheetPage() {
  const { id = '' } = useParams();
  const { role } = useSignedInUser();
  const answer = useQuery(stocktakeQuery(id));
  const lines = useQuery(stocktakeSheetQuery(id));
  const stocktake = answer.data?.stocktake;
  useDocumentTitle(stocktake ? `${stocktake.number} count sheet` : 'Count sheet');
  return (
    <>
      <div className="mb-6 flex flex-wrap gap-2 print:hidden">
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => window.print()}
          disabled={!stocktake || !lines.data}
        >
          Print
        </button>
        <DownloadCsvButton
          path={sheetCsvPath(id)}
          filename={`${stocktake?.number ?? 'stocktake'}-count-sheet.csv`}
          label="Download sheet (CSV)"
        />
        {stocktake?.status === 'counting' ? <UploadSheet stocktake={stocktake} /> : null}
        {stocktake?.status === 'counting' ? (
          <Link to={countPath(role, id)} className={buttonClass('secondary')}>
            Count on screen
          </Link>
        ) : null}
        {role === 'admin' ? (
          <Link to={stocktakePath(id)} className={buttonClass('secondary')}>
            Back to the stocktake
          </Link>
        ) : null}
      </div>
      <div className="print:hidden">
        <LoadState
          query={answer}
          what="the stocktake"
          loading="Loading the stocktake..."
          missing="This stocktake does not exist."
          retry={() => {
            void answer.refetch();
            if (lines.isError) void lines.refetch();
          }}
        >
          {() => null}
        </LoadState>
      </div>
      {stocktake ? <Sheet stocktake={stocktake} lines={lines} /> : null}
    </>
  );
}

/** "Upload filled sheet": the CSV as it is, as counts; a refused sheet lists its bad rows. */
function UploadSheet({ stocktake }: { stocktake: Stocktake }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const count = useCount(stocktake._id);
  const [failure, setFailure] = useState<{
    sentence: string;
    rows: { path: string; message: string }[];
  } | null>(null);

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setFailure(null);
    try {
      const answer = await count.mutateAsync({ sheet: file, key: crypto.randomUUID() });
      notify.success(`${file.name}: ${linesText(answer.counted.length)} counted in ${stocktake.number}.`);
    } catch (error) {
      setFailure({
        sentence: errorMessage(error),
        // A refused sheet names each bad row; any other refusal may name fields the same way.
        rows:
          refusedAs(error, 'STOCKTAKE_SHEET_INVALID') || error instanceof ApiRequestError
            ? error.details
            : [],
      });
    }
  }

  return (
    <>
      <input
        ref={input}
        id={id}
        type="file"
        accept=".csv,text/csv"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => void upload(event)}
      />
      <button
        type="button"
        className={buttonClass('secondary')}
        disabled={count.isPending}
        onClick={() => input.current?.click()}
      >
        {count.isPending ? 'Uploading...' : 'Upload filled sheet'}
      </button>
      {failure ? (
        <div
          role="alert"
          className="basis-full rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          <p>{failure.sentence}</p>
          {failure.rows.length > 0 ? (
            <ul aria-label="Rows that cannot be counted" className="mt-2 list-disc space-y-0.5 pl-5">
              {failure.rows.map((row) => (
                <li key={`${row.path}-${row.message}`}>
                  {rowLabel(row.path)}: {row.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** A detail's path as a reader names the row: "Line 4" for "4" or "line 4", else as it is. */
function rowLabel(path: string): string {
  const number = /(\d+)\D*$/.exec(path)?.[1];
  return number ? `Line ${number}` : path;
}

function Sheet({ stocktake, lines }: { stocktake: Stocktake; lines: UseQueryResult<StocktakeLine[]> }) {
  const store = useStoreSettings().data?.store;
  return (
    <article className="mx-auto max-w-4xl bg-white p-4 text-sm text-slate-900 shadow-sm ring-1 ring-slate-200 sm:p-6 print:max-w-none print:p-0 print:shadow-none print:ring-0">
      <header className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Count sheet {stocktake.number}</h1>
          <p className="mt-1 text-slate-600">
            {stocktake.location.name} · started{' '}
            <time dateTime={stocktake.createdAt}>{formatDate(stocktake.createdAt)}</time> ·{' '}
            {linesText(stocktake.lines)}
          </p>
        </div>
        <p className="font-semibold">{store?.name ?? ''}</p>
      </header>
      {lines.data === undefined ? (
        <div className="print:hidden">
          {lines.isError && !lines.isFetching ? (
            <LoadFailed
              message={`The lines could not be loaded: ${errorMessage(lines.error)}`}
              retry={() => void lines.refetch()}
            />
          ) : (
            <Loading label="Loading lines..." />
          )}
        </div>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left">
            <caption className="sr-only">Lines of {stocktake.number} to count</caption>
            <thead>
              <tr className="text-xs tracking-wide text-slate-600 uppercase">
                {COUNT_SHEET_HEADER.map((column) => (
                  <th
                    key={column}
                    scope="col"
                    className={`${CELL} ${column === 'Counted' ? 'w-24 border-l' : ''}`}
                  >
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {lines.data.map((line) => (
                <tr key={line._id} className="break-inside-avoid">
                  <td className={CELL}>{line.product.name}</td>
                  <td className={`${CELL} whitespace-nowrap`}>{line.product.sku}</td>
                  <td className={`${CELL} whitespace-nowrap`}>{line.product.barcode}</td>
                  <td className={`${CELL} whitespace-nowrap`}>{line.lot?.number ?? ''}</td>
                  <td className={`${CELL} whitespace-nowrap`}>
                    {line.lot ? expiryLabel(line.lot.expiresOn) : ''}
                  </td>
                  <td className={`${CELL} h-9 border-l`} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section aria-label="Signature" className="mt-12 grid grid-cols-2 gap-8 break-inside-avoid">
        {['Counted by', 'Checked by'].map((label) => (
          <div key={label}>
            <div className="h-12 border-b border-slate-400" />
            <p className="mt-1 text-xs text-slate-600">{label} (name, signature, date)</p>
          </div>
        ))}
      </section>
    </article>
  );
}
