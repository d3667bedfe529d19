import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { addDays, EXPIRING_DAYS, type ExpiringLot } from '../../../shared/lots';
import { buttonClass } from '../../components/button';
import { DownloadCsvButton } from '../../components/download-csv';
import { TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { LocationPicker } from '../../components/location-picker';
import { Expiry } from '../../components/lot-expiry';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { lotTracePath, stockPath } from '../../lib/admin-paths';
import { formatCount } from '../../lib/format';
import { useListAddress } from '../../lib/list-address';
import { isPastEnd, PAGE_SIZE, serverPage, withQuery } from '../../lib/paging';
import { useMoney } from '../../lib/store-settings';
import { usePageInRange } from '../../lib/use-paged-list';
import { expiringQuery } from './lots-api';

/** The windows offered with one press; any other whole number of days from 1 to 365 can be typed. */
export const WINDOWS = [7, 30, 60, 90] as const;
const MAX_DAYS = 365;

/** The window the address holds (`?days=60`); anything unreadable there is the default, 30. */
function daysIn(params: URLSearchParams): number {
  const days = Number(params.get('days'));
  return Number.isInteger(days) && days >= 1 && days <= MAX_DAYS ? days : EXPIRING_DAYS;
}

const dayWord = (days: number) => `${formatCount(days)} ${days === 1 ? 'day' : 'days'}`;

/** On phones a row is a small card: product and value, lot and units, then the expiry. */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';

function LotRow({ row, today }: { row: ExpiringLot; today: string }) {
  const money = useMoney();
  return (
    <tr className={`align-top hover:bg-slate-50 ${STACKED_ROW}`}>
      <Td className={`font-medium max-sm:col-start-1 max-sm:row-start-1 ${STACKED_CELL}`}>
        <Link to={stockPath(row.product._id)} className="break-words text-indigo-700 hover:underline">
          {row.product.name}
        </Link>
      </Td>
      <Td className={`max-sm:col-start-1 max-sm:row-start-2 ${STACKED_CELL}`}>
        <Link
          to={lotTracePath(row.lot._id)}
          className="font-mono text-indigo-700 break-all hover:underline"
          aria-label={`Lot ${row.lot.number} of ${row.product.name}: its trace`}
        >
          <span className="sm:hidden font-sans">Lot </span>
          {row.lot.number}
        </Link>
      </Td>
      <Td className={`max-sm:col-span-2 max-sm:row-start-3 ${STACKED_CELL}`}>
        <Expiry expiresOn={row.lot.expiresOn} today={today} />
      </Td>
      <Td className={`text-right tabular-nums max-sm:col-start-2 max-sm:row-start-2 ${STACKED_CELL}`}>
        {formatCount(row.quantity)}
        <span className="sm:hidden"> units</span>
      </Td>
      <Td
        className={`whitespace-nowrap text-right tabular-nums max-sm:col-start-2 max-sm:row-start-1 max-sm:font-semibold ${STACKED_CELL}`}
      >
        {money(row.value)}
      </Td>
    </tr>
  );
}

/**
 * The window chosen with one press (7, 30, 60 or 90 days) or typed (1–365), kept in the address so
 * reload, Back and a shared link show the same list.
 */
function WindowChoice({ days, onDays }: { days: number; onDays: (days: number) => void }) {
  const [text, setText] = useState(String(days));
  const [error, setError] = useState<string | undefined>();
  // An address changed by Back or a link comes back into the box.
  useEffect(() => {
    setText(String(days));
    setError(undefined);
  }, [days]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const typed = text.trim();
    const value = /^\d+$/.test(typed) ? Number(typed) : Number.NaN;
    if (!(value >= 1 && value <= MAX_DAYS)) {
      setError(`Enter a whole number of days from 1 to ${MAX_DAYS}.`);
      return;
    }
    setError(undefined);
    onDays(value);
  }

  return (
    <search aria-label="Expiry window" className="mb-4 block">
      <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-x-4 gap-y-3">
        <fieldset>
          <legend className="mb-1 block text-sm font-medium text-slate-700">Expiring within</legend>
          <div className="grid grid-cols-4 gap-1 sm:flex">
            {WINDOWS.map((window) => (
              <button
                key={window}
                type="button"
                aria-pressed={days === window}
                onClick={() => onDays(window)}
                className={buttonClass(
                  days === window ? 'primary' : 'secondary',
                  'md',
                  `whitespace-nowrap max-sm:px-2 ${days === window ? 'border border-indigo-600' : ''}`,
                )}
              >
                {window} days
              </button>
            ))}
          </div>
        </fieldset>
        <div className="flex items-start gap-2">
          <div className="w-48">
            <TextField
              label="Or days ahead (1–365)"
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_DAYS}
              step={1}
              value={text}
              error={error}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
          <button type="submit" className={buttonClass('secondary', 'md', 'mt-6')}>
            Show
          </button>
        </div>
      </form>
    </search>
  );
}

/**
 * Admin: the lots holding units that expire within the window, expired ones included, soonest
 * first (DESIGN §15), with their value at cost and the totals over every page; each lot links to
 * its trace.
 */
export function ExpiringPage() {
  const { params, setFilter, setPage, page: askedPage } = useListAddress<'days' | 'location'>();
  const money = useMoney();
  const days = daysIn(params);
  // DESIGN §17: one location's lots and their units there (?location=), or every location's.
  const location = params.get('location') ?? '';
  const asked = { page: askedPage, pageSize: PAGE_SIZE };
  const list = useQuery(expiringQuery({ days, location: location || undefined, ...asked }));
  const page = serverPage(list.data && { ...list.data, rows: list.data.lots }, asked);
  usePageInRange(askedPage, page.pageCount, list.isSuccess && !list.isPlaceholderData, setPage);
  const shown = list.data;

  return (
    <>
      <PageHeader title="Expiring lots">
        <DownloadCsvButton
          path={withQuery('/lots/expiring', { days, location: location || undefined })}
          filename={`expiring-lots-${days}-days.csv`}
        />
      </PageHeader>
      <WindowChoice days={days} onDays={(chosen) => setFilter('days', String(chosen))} />
      <div className="mb-4">
        <LocationPicker value={location} onChange={(to) => setFilter('location', to)} />
      </div>
      {shown && shown.total > 0 && !list.isPlaceholderData ? (
        <section
          aria-label="Totals"
          className="mb-4 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm"
        >
          <p className="text-sm text-slate-600">
            Expired or expiring on or before{' '}
            <time dateTime={addDays(shown.today, days)}>{addDays(shown.today, days)}</time> (today is{' '}
            <time dateTime={shown.today}>{shown.today}</time>).
          </p>
          <dl className="mt-2 grid grid-cols-3 gap-3 text-sm sm:max-w-xl">
            <div>
              <dt className="text-slate-600">Lots</dt>
              <dd className="text-lg font-semibold tabular-nums">{formatCount(shown.total)}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Units</dt>
              <dd className="text-lg font-semibold tabular-nums">{formatCount(shown.quantity)}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Value at cost</dt>
              <dd className="text-lg font-semibold tabular-nums">{money(shown.value)}</dd>
            </div>
          </dl>
        </section>
      ) : null}
      <Table caption={`Lots expiring within ${dayWord(days)}, soonest first`} busy={list.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Product</Th>
            <Th>Lot</Th>
            <Th>Expires</Th>
            <Th className="text-right">Units</Th>
            <Th className="text-right">Value at cost</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={list}
            what="the expiring lots"
            loading="Loading the expiring lots..."
            colSpan={5}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty={`Nothing expires in the next ${dayWord(days)}.`}
          >
            {(data) => page.rows.map((row) => <LotRow key={row.lot._id} row={row} today={data.today} />)}
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Expiring lots" onPage={setPage} />
    </>
  );
}
