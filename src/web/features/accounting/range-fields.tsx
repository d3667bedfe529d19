import { useSearchParams } from 'react-router';
import { DateOnly } from '../../../shared/common';
import { buttonClass } from '../../components/button';
import { TextField } from '../../components/form-field';
import { toDayError } from '../../lib/date-range';
import { useListAddress } from '../../lib/list-address';
import { formatRange } from '../reports/report-format';
import type { Range } from './accounting-api';

/** A day the address holds, or undefined when it holds none or not a day the server takes. */
export function dayIn(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name) ?? '';
  return DateOnly.safeParse(value).success ? value : undefined;
}

/**
 * The range a report covers, kept in the address (`?from=…&to=…`, STYLE: state in the URL), and
 * the page of a paged one. A day left out is the server's own: the month to date.
 */
export function useRangeAddress<Other extends string = never>() {
  const address = useListAddress<'from' | 'to' | Other>();
  const [, setParams] = useSearchParams();
  const range: Range = { from: dayIn(address.params, 'from'), to: dayIn(address.params, 'to') };
  const clearRange = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of ['from', 'to', 'page']) next.delete(name);
        return next;
      },
      { replace: true },
    );
  return { ...address, range, rangeError: toDayError(range.from, range.to), clearRange };
}

/**
 * The From and To boxes of a report, and the days it covers. Left empty, a box shows the day the
 * server chose (`shown`, from its answer); "Month to date" empties both again.
 */
export function RangeFields({
  range,
  shown,
  rangeError,
  onDay,
  onClear,
}: {
  range: Range;
  /** The days the answer covers, once it is in. */
  shown?: { from: string; to: string };
  rangeError?: string;
  onDay: (name: 'from' | 'to', value: string) => void;
  /** Both days back to the server's own. */
  onClear: () => void;
}) {
  const from = range.from ?? shown?.from ?? '';
  const to = range.to ?? shown?.to ?? '';
  const chosen = range.from !== undefined || range.to !== undefined;
  return (
    <search
      aria-label="Days covered"
      className="mb-5 block rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4"
    >
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid w-full grid-cols-2 gap-3 sm:w-auto sm:grid-cols-[11rem_11rem]">
          <TextField
            label="From"
            type="date"
            value={from}
            max={to || undefined}
            onChange={(event) => onDay('from', event.target.value)}
          />
          <TextField
            label="To"
            type="date"
            value={to}
            min={from || undefined}
            error={rangeError}
            onChange={(event) => onDay('to', event.target.value)}
          />
        </div>
        {chosen ? (
          <button type="button" className={buttonClass('ghost', 'sm', 'mb-1')} onClick={onClear}>
            Month to date
          </button>
        ) : null}
        {rangeError ? null : (
          <p className="mb-2 text-sm text-slate-600 sm:ml-2" aria-live="polite">
            {shown ? <span className="font-medium text-slate-900">{formatRange(shown)}</span> : null}
            {chosen ? null : <span>{shown ? ' (the month to date)' : 'The month to date'}</span>}
          </p>
        )}
      </div>
    </search>
  );
}
