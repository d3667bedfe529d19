import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { centsNumber } from '../../../shared/money';
import { type RegisterSession, sessionNumberLabel, TILL_MAX } from '../../../shared/till';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { errorMessage } from '../../lib/api';
import { useMoney } from '../../lib/store-settings';
import { typedCents } from './denominations';
import { sessionQuery, useCashMovement } from './till-api';

type Direction = 'in' | 'out';

/**
 * Cash put into or taken out of the drawer, with why (DESIGN §13): sent as a signed amount,
 * + in and − out. Taking out more than the drawer holds is refused by the server (409), and its
 * sentence is shown here; the drawer's expected cash is shown to help.
 */
export function CashDialog({ session, onClose }: { session: RegisterSession; onClose: () => void }) {
  const id = useId();
  const money = useMoney();
  const report = useQuery(sessionQuery(session._id));
  const move = useCashMovement(session._id);
  const [direction, setDirection] = useState<Direction>('in');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const expected = report.data?.report.expectedCash;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (move.isPending) return;
    const cents = typedCents(amount);
    const next = {
      amount: cents === null || cents === 0n ? 'Enter an amount above 0, like 20 or 20.50.' : undefined,
      reason: reason.trim() === '' ? 'Say why the cash moves.' : undefined,
    };
    setErrors(next);
    if (next.amount || next.reason || cents === null) return;
    const signed = direction === 'in' ? cents : -cents;
    move.mutate({ amount: centsNumber(signed), reason: reason.trim() }, { onSuccess: onClose });
  }

  return (
    <Modal
      title={`Cash in or out · ${session.register.name} ${sessionNumberLabel(session.number)}`}
      onClose={onClose}
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <fieldset disabled={move.isPending}>
          <legend className="mb-2 text-sm font-medium text-slate-700">Direction</legend>
          <div className="grid grid-cols-2 gap-2">
            {(['in', 'out'] as const).map((one) => (
              <label
                key={one}
                className="flex cursor-pointer items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 has-checked:border-indigo-600 has-checked:bg-indigo-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600"
              >
                <input
                  type="radio"
                  name={`${id}-direction`}
                  value={one}
                  checked={direction === one}
                  onChange={() => setDirection(one)}
                  className="sr-only"
                />
                {one === 'in' ? 'Cash in' : 'Cash out'}
              </label>
            ))}
          </div>
        </fieldset>
        <TextField
          label="Amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          error={errors.amount}
          hint={expected === undefined ? undefined : `The drawer should hold ${money(expected)}.`}
          disabled={move.isPending}
        />
        <TextField
          label="Reason"
          autoComplete="off"
          maxLength={TILL_MAX.reason}
          placeholder={direction === 'in' ? 'e.g. More change from the safe' : 'e.g. Cash to the bank'}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          error={errors.reason}
          disabled={move.isPending}
        />
        <FormError>{move.error ? errorMessage(move.error) : null}</FormError>
        <div className="flex flex-wrap justify-end gap-2">
          <button
            type="button"
            className={buttonClass('secondary')}
            onClick={onClose}
            disabled={move.isPending}
          >
            Cancel
          </button>
          <button type="submit" className={buttonClass('primary')} disabled={move.isPending}>
            {move.isPending ? 'Saving...' : direction === 'in' ? 'Put cash in' : 'Take cash out'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
