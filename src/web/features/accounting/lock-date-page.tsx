import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { DateOnly } from '../../../shared/common';
import { addDays } from '../../../shared/lots';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { errorMessage } from '../../lib/api';
import { localToday } from '../../lib/date-range';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { settingsQuery, useSetLockDate } from './accounting-api';
import { AccountingPage } from './accounting-layout';

/** The form: a later day than the lock date now, earlier than today; the server has the last word. */
function LockDateForm({ current }: { current: string | null }) {
  const save = useSetLockDate();
  const [day, setDay] = useState(current ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  // The latest day the server may take (it decides by the store's calendar).
  const yesterday = addDays(localToday(), -1);

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!DateOnly.safeParse(day).success) {
      setProblem('Choose a day.');
      return;
    }
    save.mutate(day, {
      onSuccess: ({ settings }) =>
        notify.success(
          settings.lockDate
            ? `The books are locked up to ${formatDate(settings.lockDate)}.`
            : 'Lock date saved.',
        ),
    });
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <div className="max-w-xs">
        <TextField
          label={current ? 'Move the lock date to' : 'Lock the books up to'}
          type="date"
          value={day}
          min={current ?? undefined}
          max={yesterday}
          error={problem ?? undefined}
          onChange={(event) => setDay(event.target.value)}
        />
      </div>
      <FormError>{save.isError ? errorMessage(save.error) : null}</FormError>
      <button type="submit" className={buttonClass('primary')} disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save lock date'}
      </button>
    </form>
  );
}

/**
 * Admin: the lock date (DESIGN §19). No entry may be dated on or before it, so the books of the
 * days before it stay as they were reported. It is earlier than today, and it only moves forward.
 */
export function LockDatePage() {
  const query = useQuery(settingsQuery);
  return (
    <AccountingPage title="Lock date" tab="lock-date">
      <div className="max-w-2xl space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <LoadState query={query} what="the lock date" loading="Loading the lock date...">
          {({ settings }) => (
            <>
              <p role="status" className="text-base font-medium text-slate-900">
                {settings.lockDate
                  ? `The books are locked up to ${formatDate(settings.lockDate)}.`
                  : 'No lock date: every day is open.'}
              </p>
              <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
                <li>
                  No entry can be dated on or before it: a manual entry or a reversal dated that early is
                  refused.
                </li>
                <li>The lock date must be earlier than today.</li>
                <li>It only moves forward: once set it cannot be moved back or removed.</li>
              </ul>
              <LockDateForm key={settings.lockDate ?? ''} current={settings.lockDate} />
            </>
          )}
        </LoadState>
      </div>
    </AccountingPage>
  );
}
