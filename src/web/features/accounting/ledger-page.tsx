import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { DownloadCsvButton } from '../../components/download-csv';
import { LoadState } from '../../components/load-state';
import { Pager } from '../../components/pager';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { ACCOUNTING_PATH, journalEntryPath } from '../../lib/admin-paths';
import { BACKWARDS_RANGE } from '../../lib/date-range';
import { formatDate } from '../../lib/format';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useMoney } from '../../lib/store-settings';
import { usePageInRange } from '../../lib/use-paged-list';
import { accountingPaths, LEDGER_PAGE_SIZE, ledgerQuery } from './accounting-api';
import { AccountingPage } from './accounting-layout';
import { NUMBER, useSide } from './accounting-parts';
import { SOURCE_LABEL, TYPE_LABEL } from './accounting-words';
import { RangeFields, useRangeAddress } from './range-fields';

const COLUMNS = 6;

/**
 * On phones a line is a small card: the date, the entry and its memo down the left, the debit or
 * credit and the balance after it down the right.
 */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:px-3 max-sm:py-2.5';
const LEFT = 'max-sm:col-start-1 max-sm:p-0';
const RIGHT = 'max-sm:col-start-2 max-sm:p-0';
/** Shown only on phones, where the column's head is not. */
const PHONE_LABEL = 'text-xs text-slate-500 sm:hidden';

/** Whether the memo says no more than the source's name (a sale's entry is memo'd "Sale"). */
const sameWords = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Admin: one account's ledger (DESIGN §19) over a range (the month to date unless chosen): the
 * balance before it, then each line in date order with its entry, memo and source, debit or
 * credit and the running balance; a page at a time, and all of it as CSV.
 */
export function LedgerPage() {
  const { id = '' } = useParams();
  const address = useRangeAddress();
  const { range, rangeError } = address;
  const asked = { page: address.page, pageSize: LEDGER_PAGE_SIZE };
  const ledger = useQuery({ ...ledgerQuery(id, range, address.page), enabled: !rangeError });
  const money = useMoney();
  const side = useSide();
  const data = ledger.data;
  const page = serverPage(data && { ...data, rows: data.lines }, asked);
  usePageInRange(
    address.page,
    page.pageCount,
    ledger.isSuccess && !ledger.isPlaceholderData,
    address.setPage,
  );
  const title = data ? `${data.account.code} ${data.account.name}` : 'Ledger';
  const file = `ledger-${data?.account.code ?? 'account'}${range.from ? `-${range.from}` : ''}${range.to ? `-to-${range.to}` : ''}.csv`;

  return (
    <AccountingPage
      title={title}
      tab="accounts"
      actions={
        <>
          {data ? <DownloadCsvButton path={accountingPaths.ledger(id, range, 1)} filename={file} /> : null}
          <Link to={ACCOUNTING_PATH} className="text-sm font-medium text-indigo-700 hover:underline">
            Back to the chart of accounts
          </Link>
        </>
      }
    >
      {data ? (
        <p className="-mt-2 mb-4 text-sm text-slate-600">
          {TYPE_LABEL[data.account.type]} account · its ledger, oldest line first
        </p>
      ) : null}
      <RangeFields
        range={range}
        rangeError={rangeError}
        onDay={address.setFilter}
        onClear={address.clearRange}
      />
      <Table caption={`Ledger of ${title}`} busy={ledger.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Date</Th>
            <Th>Entry</Th>
            <Th>Memo and source</Th>
            <Th className="text-right">Debit</Th>
            <Th className="text-right">Credit</Th>
            <Th className="text-right">Balance</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rangeError ? (
            <TableMessage colSpan={COLUMNS}>{BACKWARDS_RANGE}</TableMessage>
          ) : (
            <LoadState
              query={ledger}
              what="the ledger"
              loading="Loading the ledger..."
              colSpan={COLUMNS}
              missing="This account does not exist."
              waiting={isPastEnd(page)}
            >
              {(answer) => (
                <>
                  {page.page === 1 ? (
                    <tr className={`bg-slate-50 ${STACKED_ROW}`}>
                      <Td className="max-sm:hidden" />
                      <th
                        scope="row"
                        colSpan={4}
                        className={`px-3 py-2.5 text-left font-medium text-slate-700 sm:px-4 ${LEFT}`}
                      >
                        Balance before these days
                      </th>
                      <Td className={`${NUMBER} font-medium ${RIGHT}`}>{money(answer.opening)}</Td>
                    </tr>
                  ) : null}
                  {answer.lines.length === 0 ? (
                    <TableMessage colSpan={COLUMNS}>No lines on this account in these days.</TableMessage>
                  ) : (
                    answer.lines.map((line, index) => {
                      const source = SOURCE_LABEL[line.entry.source.kind];
                      return (
                        // biome-ignore lint/suspicious/noArrayIndexKey: an entry may have two lines on one account; the page's order is fixed
                        <tr key={`${line.entry._id}-${index}`} className={`hover:bg-slate-50 ${STACKED_ROW}`}>
                          <Td className={`whitespace-nowrap max-sm:row-start-1 max-sm:text-xs ${LEFT}`}>
                            <time dateTime={line.entry.date}>{formatDate(line.entry.date)}</time>
                          </Td>
                          <Td className={`whitespace-nowrap max-sm:row-start-2 ${LEFT}`}>
                            <Link
                              to={journalEntryPath(line.entry._id)}
                              className="text-indigo-700 hover:underline"
                            >
                              {line.entry.number}
                            </Link>
                          </Td>
                          <Td className={`min-w-48 max-sm:row-start-3 max-sm:min-w-0 ${LEFT}`}>
                            {line.entry.memo}
                            {sameWords(line.entry.memo, source) ? null : (
                              <span className="block text-xs text-slate-500">{source}</span>
                            )}
                          </Td>
                          <Td
                            className={`${NUMBER} max-sm:row-start-1 ${line.debit === 0 ? 'max-sm:hidden' : ''} ${RIGHT}`}
                          >
                            <span className={PHONE_LABEL}>Debit </span>
                            {side(line.debit)}
                          </Td>
                          <Td
                            className={`${NUMBER} max-sm:row-start-1 ${line.credit === 0 ? 'max-sm:hidden' : ''} ${RIGHT}`}
                          >
                            <span className={PHONE_LABEL}>Credit </span>
                            {side(line.credit)}
                          </Td>
                          <Td className={`${NUMBER} max-sm:row-start-2 ${RIGHT}`}>
                            <span className={PHONE_LABEL}>Balance </span>
                            {money(line.balance)}
                          </Td>
                        </tr>
                      );
                    })
                  )}
                </>
              )}
            </LoadState>
          )}
        </tbody>
      </Table>
      <Pager page={page} label="Ledger" onPage={address.setPage} />
    </AccountingPage>
  );
}
