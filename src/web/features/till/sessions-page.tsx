import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { can } from '../../../shared/roles';
import {
  SESSION_STATUSES,
  type SessionQuery,
  type SessionSummary,
  sessionNumberLabel,
} from '../../../shared/till';
import { buttonClass } from '../../components/button';
import { SelectField, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { sessionPath } from '../../lib/area-paths';
import { BACKWARDS_RANGE, toDayError } from '../../lib/date-range';
import { formatDateTime } from '../../lib/format';
import { oneOf, useListAddress } from '../../lib/list-address';
import { isPastEnd, PAGE_SIZE, serverPage } from '../../lib/paging';
import { homePathFor } from '../../lib/role-home';
import { useSignedInUser } from '../../lib/signed-in';
import { useMoney } from '../../lib/store-settings';
import { usePageInRange } from '../../lib/use-paged-list';
import { DifferenceText } from './difference';
import { RegistersPanel } from './registers-panel';
import { registersQuery, sessionsPageQuery } from './till-api';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const STATUS_LABEL = { open: 'Open', closed: 'Closed' } as const;
const COLUMNS = 8;

/** On phones a row is a small card: the session and its status, then when, who and the drawer. */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0 max-sm:text-xs max-sm:text-slate-600';

function SessionRow({ session, href }: { session: SessionSummary; href: string }) {
  const money = useMoney();
  return (
    <tr className={`hover:bg-slate-50 ${STACKED_ROW}`}>
      <Td className="whitespace-nowrap font-medium max-sm:p-0">
        <Link to={href} className="text-indigo-700 hover:underline">
          {session.register.name} {sessionNumberLabel(session.number)}
        </Link>
      </Td>
      <Td className="max-sm:col-start-2 max-sm:row-start-1 max-sm:p-0">
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${session.status === 'open' ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-700'}`}
        >
          {STATUS_LABEL[session.status]}
        </span>
      </Td>
      <Td className={`max-sm:col-start-1 ${STACKED_CELL}`}>
        <span className="sm:hidden">Opened </span>
        <time dateTime={session.openedAt}>{formatDateTime(session.openedAt)}</time>
        <span className="block text-xs text-slate-500">by {session.openedBy.name}</span>
      </Td>
      <Td className={`max-sm:col-start-1 ${STACKED_CELL}`}>
        {session.closedAt ? (
          <>
            <span className="sm:hidden">Closed </span>
            <time dateTime={session.closedAt}>{formatDateTime(session.closedAt)}</time>
            <span className="block text-xs text-slate-500">by {session.closedBy?.name ?? '—'}</span>
          </>
        ) : (
          <span className="text-slate-500 max-sm:hidden">—</span>
        )}
      </Td>
      <Td className={`text-right tabular-nums max-sm:col-start-1 max-sm:text-left ${STACKED_CELL}`}>
        <span className="sm:hidden">Float </span>
        {money(session.openingFloat)}
      </Td>
      <Td className={`text-right tabular-nums max-sm:col-start-1 max-sm:text-left ${STACKED_CELL}`}>
        <span className="sm:hidden">Expected </span>
        {session.expectedCash === null ? '—' : money(session.expectedCash)}
      </Td>
      <Td className={`text-right tabular-nums max-sm:col-start-1 max-sm:text-left ${STACKED_CELL}`}>
        <span className="sm:hidden">Counted </span>
        {session.countedCash === null ? '—' : money(session.countedCash)}
      </Td>
      <Td className="text-right whitespace-nowrap max-sm:col-start-2 max-sm:row-start-2 max-sm:p-0 max-sm:text-xs">
        {session.difference === null ? (
          <span className="text-slate-500">—</span>
        ) : (
          <DifferenceText difference={session.difference} />
        )}
      </Td>
    </tr>
  );
}

/**
 * The till sessions (DESIGN §13), newest first: every session for an admin, one's own for the
 * other selling roles; by register, status and the days opened, each linked to its X or Z report.
 * The view lives in the address (?register=…&status=…&from=…&to=…&page=…). Admins manage the
 * registers below the list.
 */
export function SessionsPage() {
  const me = useSignedInUser();
  const address = useListAddress<'register' | 'status' | 'from' | 'to'>();
  const day = (name: 'from' | 'to') => {
    const value = address.params.get(name) ?? '';
    return DAY.test(value) ? value : undefined;
  };
  const [from, to] = [day('from'), day('to')];
  const registerParam = address.params.get('register') ?? '';
  const register = registerParam && registerParam.length <= 100 ? registerParam : undefined;
  const status = oneOf(SESSION_STATUSES, address.params.get('status'));
  const rangeError = toDayError(from, to);
  const filtered = Boolean(register || status || from || to);
  const asked = { page: address.page, pageSize: PAGE_SIZE };
  const query: SessionQuery = { register, status, from, to, ...asked };
  const list = useQuery({ ...sessionsPageQuery(query), enabled: !rangeError });
  const registers = useQuery(registersQuery);
  const page = serverPage(list.data && { ...list.data, rows: list.data.sessions }, asked);
  usePageInRange(address.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, address.setPage);

  return (
    <>
      <PageHeader title="Till sessions">
        {can(me.role, 'till:use') ? (
          <Link to={`${homePathFor(me.role)}/sales/new`} className={buttonClass('primary')}>
            Counter
          </Link>
        ) : null}
      </PageHeader>
      <search aria-label="Find till sessions" className="mb-4 block">
        <div className="grid grid-cols-2 items-start gap-3 sm:grid-cols-[12rem_12rem_10rem_10rem]">
          <SelectField
            label="Register"
            value={register ?? ''}
            onChange={(event) => address.setFilter('register', event.target.value)}
          >
            <option value="">All registers</option>
            {registers.data?.registers.map((one) => (
              <option key={one._id} value={one._id}>
                {one.name}
                {one.active ? '' : ' (inactive)'}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Status"
            value={status ?? ''}
            onChange={(event) => address.setFilter('status', event.target.value)}
          >
            <option value="">Open and closed</option>
            {SESSION_STATUSES.map((one) => (
              <option key={one} value={one}>
                {STATUS_LABEL[one]}
              </option>
            ))}
          </SelectField>
          <TextField
            label="From"
            type="date"
            value={from ?? ''}
            max={to}
            onChange={(event) => address.setFilter('from', event.target.value)}
          />
          <TextField
            label="To"
            type="date"
            value={to ?? ''}
            min={from}
            error={rangeError}
            onChange={(event) => address.setFilter('to', event.target.value)}
          />
        </div>
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
      <Table caption="Till sessions, newest first" busy={list.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Session</Th>
            <Th>Status</Th>
            <Th>Opened</Th>
            <Th>Closed</Th>
            <Th className="text-right">Float</Th>
            <Th className="text-right">Expected</Th>
            <Th className="text-right">Counted</Th>
            <Th className="text-right">Over / short</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rangeError ? (
            <TableMessage colSpan={COLUMNS}>{BACKWARDS_RANGE}</TableMessage>
          ) : (
            <LoadState
              query={list}
              what="the till sessions"
              loading="Loading till sessions..."
              colSpan={COLUMNS}
              waiting={isPastEnd(page)}
              isEmpty={() => page.total === 0}
              empty={filtered ? 'No till sessions match these filters.' : 'No till sessions yet.'}
            >
              {() =>
                page.rows.map((session) => (
                  <SessionRow key={session._id} session={session} href={sessionPath(me.role, session._id)} />
                ))
              }
            </LoadState>
          )}
        </tbody>
      </Table>
      <Pager page={page} label="Till sessions" onPage={address.setPage} />
      {can(me.role, 'till:manage') ? <RegistersPanel /> : null}
    </>
  );
}
