import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { centsNumber, toCents } from '../../../shared/money';
import { type RegisterSession, sessionNumberLabel, TILL_MAX } from '../../../shared/till';
import { buttonClass } from '../../components/button';
import { FormError, TextAreaField, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { Modal } from '../../components/modal';
import { errorMessage } from '../../lib/api';
import { sessionPath } from '../../lib/area-paths';
import { useSignedInUser } from '../../lib/signed-in';
import { useCurrency, useMoney } from '../../lib/store-settings';
import { countedCents, countOf, denominationsOf, typedCents } from './denominations';
import { DifferenceText } from './difference';
import { sessionQuery, useCloseSession } from './till-api';

/**
 * Closing the till (DESIGN §13): the cash in the drawer is counted, by notes and coins (count ×
 * value, in cents, exact) or typed as a total; the expected cash (the X report's), the count and
 * over/short are shown as they change. A count that differs is accepted and recorded. Once closed,
 * the session's Z report is shown.
 */
export function CloseTillDialog({ session, onClose }: { session: RegisterSession; onClose: () => void }) {
  const id = useId();
  const user = useSignedInUser();
  const navigate = useNavigate();
  const currency = useCurrency();
  const money = useMoney();
  const report = useQuery(sessionQuery(session._id));
  const close = useCloseSession(session._id);
  const denominations = denominationsOf(currency);
  const [byCoins, setByCoins] = useState(denominations.length > 0);
  const [counts, setCounts] = useState<string[]>(() => denominations.map(() => ''));
  const [total, setTotal] = useState('');
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);

  const counted = byCoins ? countedCents(denominations, counts) : typedCents(total);
  const countError =
    counted !== null
      ? undefined
      : byCoins
        ? 'Each count is a whole number of notes or coins.'
        : 'Enter the counted cash as an amount, like 250 or 250.75.';
  const expected = report.data ? toCents(report.data.report.expectedCash) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (close.isPending || counted === null) return;
    close.mutate(
      { countedCash: centsNumber(counted), ...(note.trim() ? { note: note.trim() } : {}) },
      { onSuccess: ({ session: closed }) => navigate(sessionPath(user.role, closed._id)) },
    );
  }

  return (
    <Modal
      title={`Close ${session.register.name} · session ${sessionNumberLabel(session.number)}`}
      onClose={onClose}
      size="lg"
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        {denominations.length > 0 ? (
          <fieldset disabled={close.isPending}>
            <legend className="mb-2 text-sm font-medium text-slate-700">Count the drawer</legend>
            <div className="grid grid-cols-2 gap-2">
              {[true, false].map((one) => (
                <label
                  key={String(one)}
                  className="flex cursor-pointer items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 has-checked:border-indigo-600 has-checked:bg-indigo-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600"
                >
                  <input
                    type="radio"
                    name={`${id}-how`}
                    checked={byCoins === one}
                    onChange={() => setByCoins(one)}
                    className="sr-only"
                  />
                  {one ? 'Notes and coins' : 'Type the total'}
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
        {byCoins ? (
          <table className="w-full text-sm">
            <caption className="sr-only">Notes and coins in the drawer</caption>
            <thead>
              <tr className="text-left text-xs text-slate-600">
                <th scope="col" className="py-1 font-semibold">
                  Note or coin
                </th>
                <th scope="col" className="py-1 font-semibold">
                  Count
                </th>
                <th scope="col" className="py-1 text-right font-semibold">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {denominations.map((value, at) => {
                const label = money(centsNumber(value));
                const count = countOf(counts[at] ?? '');
                return (
                  <tr key={String(value)}>
                    <th scope="row" className="py-1 pr-3 text-left font-medium tabular-nums">
                      {label}
                    </th>
                    <td className="py-1 pr-3">
                      <input
                        aria-label={`Count of ${label}`}
                        aria-invalid={count === null ? true : undefined}
                        inputMode="numeric"
                        autoComplete="off"
                        value={counts[at] ?? ''}
                        disabled={close.isPending}
                        onChange={(event) =>
                          setCounts((now) =>
                            now.map((old, index) => (index === at ? event.target.value : old)),
                          )
                        }
                        className={`block w-24 rounded-md border bg-white px-2 py-1 text-sm tabular-nums ${count === null ? 'border-red-500' : 'border-slate-300'}`}
                      />
                    </td>
                    <td className="py-1 text-right tabular-nums text-slate-700">
                      {count === null ? '—' : money(centsNumber(value * BigInt(count)))}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ) : (
          <TextField
            label={`Counted cash (${currency})`}
            inputMode="decimal"
            autoComplete="off"
            value={total}
            onChange={(event) => setTotal(event.target.value)}
            error={tried || total.trim() !== '' ? countError : undefined}
            disabled={close.isPending}
          />
        )}
        {byCoins && countError ? (
          <p role="alert" className="text-sm text-red-700">
            {countError}
          </p>
        ) : null}
        <LoadState query={report} what="the expected cash" loading="Loading the expected cash...">
          {() => (
            <dl
              aria-label="Drawer count"
              aria-live="polite"
              className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-md bg-slate-50 p-3 text-sm"
            >
              <dt>Expected</dt>
              <dd className="text-right tabular-nums">
                {expected === null ? '—' : money(centsNumber(expected))}
              </dd>
              <dt>Counted</dt>
              <dd className="text-right font-semibold tabular-nums">
                {counted === null ? '—' : money(centsNumber(counted))}
              </dd>
              <dt>Over / short</dt>
              <dd className="text-right">
                {counted === null || expected === null ? (
                  '—'
                ) : (
                  <DifferenceText difference={centsNumber(counted - expected)} />
                )}
              </dd>
            </dl>
          )}
        </LoadState>
        <TextAreaField
          label="Note (optional)"
          maxLength={TILL_MAX.note}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          hint="Why the count differs, who counted, anything the next person should know."
          disabled={close.isPending}
        />
        <FormError>{close.error ? errorMessage(close.error) : null}</FormError>
        <div className="flex flex-wrap justify-end gap-2">
          <button
            type="button"
            className={buttonClass('secondary')}
            onClick={onClose}
            disabled={close.isPending}
          >
            Cancel
          </button>
          <button type="submit" className={buttonClass('primary')} disabled={close.isPending}>
            {close.isPending ? 'Closing till...' : 'Close till'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
