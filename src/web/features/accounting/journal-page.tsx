import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { type JournalQuery, SOURCE_KINDS } from '../../../shared/accounting';
import { buttonClass } from '../../components/button';
import { Options, SelectField, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { Pager } from '../../components/pager';
import { NEW_ENTRY_PATH } from '../../lib/admin-paths';
import { BACKWARDS_RANGE } from '../../lib/date-range';
import { oneOf } from '../../lib/list-address';
import { isPastEnd, serverPage } from '../../lib/paging';
import { usePageInRange } from '../../lib/use-paged-list';
import { accountsQuery, JOURNAL_PAGE_SIZE, journalQuery } from './accounting-api';
import { AccountingPage } from './accounting-layout';
import { SOURCE_LABEL } from './accounting-words';
import { EntryCard } from './entry-card';
import { useRangeAddress } from './range-fields';

/** An id the address names (a document's, an account's), or undefined; the server takes up to 100 characters. */
function idIn(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name) ?? '';
  return value && value.length <= 100 ? value : undefined;
}

/**
 * Admin: the journal (DESIGN §19), newest first, a page at a time: by days, by what posted the
 * entries, by an account, or one document's entries (`?source=sale&sourceId=…`, the link each
 * document's screen has). Each entry shows its lines, links to its source, and can be reversed.
 */
export function JournalPage() {
  const address = useRangeAddress<'source' | 'sourceId' | 'account'>();
  const { params, range, rangeError } = address;
  const source = oneOf(SOURCE_KINDS, params.get('source'));
  const sourceId = idIn(params, 'sourceId');
  const account = idIn(params, 'account');
  const filtered = Boolean(range.from || range.to || source || sourceId || account);
  const asked = { page: address.page, pageSize: JOURNAL_PAGE_SIZE };
  const query: JournalQuery = { ...range, source, sourceId, account, ...asked };
  const list = useQuery({ ...journalQuery(query), enabled: !rangeError });
  const accounts = useQuery(accountsQuery);
  const page = serverPage(list.data && { ...list.data, rows: list.data.entries }, asked);
  usePageInRange(address.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, address.setPage);

  return (
    <AccountingPage
      title="Journal"
      tab="journal"
      actions={
        <Link to={NEW_ENTRY_PATH} className={buttonClass('primary')}>
          Manual entry
        </Link>
      }
    >
      <search aria-label="Filter the journal" className="mb-4 block">
        <div className="grid grid-cols-2 items-start gap-3 lg:grid-cols-[10rem_10rem_13rem_minmax(0,18rem)]">
          <TextField
            label="From"
            type="date"
            value={range.from ?? ''}
            max={range.to}
            onChange={(event) => address.setFilter('from', event.target.value)}
          />
          <TextField
            label="To"
            type="date"
            value={range.to ?? ''}
            min={range.from}
            error={rangeError}
            onChange={(event) => address.setFilter('to', event.target.value)}
          />
          <SelectField
            label="Source"
            value={source ?? ''}
            onChange={(event) => address.setFilter('source', event.target.value)}
          >
            <option value="">Any source</option>
            <Options values={SOURCE_KINDS} labels={SOURCE_LABEL} />
          </SelectField>
          <SelectField
            label="Account"
            value={account ?? ''}
            disabled={!accounts.data}
            onChange={(event) => address.setFilter('account', event.target.value)}
          >
            <option value="">Any account</option>
            {accounts.data?.accounts.map((one) => (
              <option key={one._id} value={one._id}>
                {one.code} {one.name}
                {one.active ? '' : ' (inactive)'}
              </option>
            ))}
          </SelectField>
        </div>
        {sourceId ? (
          <p className="mt-3 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            Showing the entries of one {source ? SOURCE_LABEL[source].toLowerCase() : 'document'}.
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              onClick={() => address.setFilter('sourceId', '')}
            >
              Show every document
            </button>
          </p>
        ) : null}
        {filtered ? (
          <button
            type="button"
            className={buttonClass('ghost', 'sm', 'mt-2 -ml-2.5')}
            onClick={address.clear}
          >
            Clear filters
          </button>
        ) : null}
      </search>
      {rangeError ? (
        <p className="rounded-lg border border-slate-200 bg-white px-4 py-8 text-center text-sm text-slate-600">
          {BACKWARDS_RANGE}
        </p>
      ) : (
        <div
          aria-busy={list.isPlaceholderData || undefined}
          className={list.isPlaceholderData ? 'opacity-60' : ''}
        >
          <LoadState
            query={list}
            what="the journal"
            loading="Loading the journal..."
            retry={() => {
              void list.refetch();
              if (accounts.isError) void accounts.refetch();
            }}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty={filtered ? 'No entries match these filters.' : 'No entries in the journal yet.'}
          >
            {() => (
              <ol aria-label="Journal entries, newest first" className="space-y-3">
                {page.rows.map((entry) => (
                  <li key={entry._id}>
                    <EntryCard entry={entry} />
                  </li>
                ))}
              </ol>
            )}
          </LoadState>
        </div>
      )}
      <Pager page={page} label="Journal" onPage={address.setPage} />
    </AccountingPage>
  );
}
