import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Register, RegisterSession } from '../../../shared/till';
import { sessionNumberLabel } from '../../../shared/till';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { LoadFailed, Loading, LoadState } from '../../components/load-state';
import { errorMessage } from '../../lib/api';
import { sessionPath } from '../../lib/area-paths';
import { queryKeys } from '../../lib/query-keys';
import { useSignedInUser } from '../../lib/signed-in';
import { useCurrency } from '../../lib/store-settings';
import { useDocumentTitle } from '../../lib/use-document-title';
import { CashDialog } from './cash-dialog';
import { CloseTillDialog } from './close-till-dialog';
import { useCurrentSession, useDeviceRegister } from './current-session';
import { typedCents } from './denominations';
import { registersQuery, useOpenSession } from './till-api';

const PANEL = 'mx-auto max-w-md space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm';
const TIME = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

/** "9:02 AM" for today, the date and time otherwise. */
function openedAtLabel(at: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  const time = TIME.format(date).replace(/[\u202f\u00a0]/g, ' ');
  return date.toDateString() === new Date().toDateString()
    ? time
    : `${date.toLocaleDateString('en-US')} ${time}`;
}

/**
 * The counter always sells in a till session (DESIGN §13): this device's register is chosen once,
 * a session is opened on it with its float, and only then is the counter (`children`) shown, under
 * a bar that says which till and session it sells in and offers cash in/out, the X report,
 * closing the till and changing it.
 */
export function TillGate({
  children,
  offline = false,
  kept = null,
}: {
  children: (session: RegisterSession) => ReactNode;
  /** DESIGN §21: the server cannot be reached; the counter sells on, the till's own work waits for it. */
  offline?: boolean;
  /** The session the counter kept on this device, for a counter opened while offline (null: none). */
  kept?: RegisterSession | null;
}) {
  const [registerId, choose] = useDeviceRegister();
  const current = useCurrentSession();
  if (offline) {
    const session =
      current.session ?? (kept && (registerId === null || kept.register._id === registerId) ? kept : null);
    if (session)
      return (
        <>
          <OfflineTillBar session={session} />
          {children(session)}
        </>
      );
  }
  if (registerId === null) return <ChooseRegister onChoose={choose} />;
  if (current.session) {
    return (
      <>
        <TillBar session={current.session} onChangeTill={() => choose(null)} />
        {children(current.session)}
      </>
    );
  }
  if (current.isError)
    return (
      <LoadFailed
        message={`The till's session could not be loaded: ${errorMessage(current.error)}`}
        retry={current.refetch}
      />
    );
  if (current.isLoading) return <Loading label="Loading the till..." />;
  return <OpenTill registerId={registerId} choose={choose} />;
}

/** Which register this device sells on: one of the active ones. */
function ChooseRegister({ onChoose, notice }: { onChoose: (id: string) => void; notice?: string }) {
  const registers = useQuery(registersQuery);
  useDocumentTitle('Choose a till');
  // A store with one till has nothing to choose: this device sells on it.
  const only = registers.data?.registers.filter((one) => one.active);
  const single = only?.length === 1 ? only[0]?._id : undefined;
  useEffect(() => {
    if (single !== undefined) onChoose(single);
  }, [single, onChoose]);
  return (
    <section aria-labelledby="choose-till" className={PANEL}>
      <h1 id="choose-till" className="text-xl font-bold text-slate-900">
        Choose a till
      </h1>
      <p className="text-sm text-slate-600">
        {notice ?? 'Sales at this counter go into a till. Choose the one this device sells on.'}
      </p>
      <LoadState
        query={registers}
        what="the tills"
        loading="Loading tills..."
        isEmpty={(data) => data.registers.every((one) => !one.active)}
        empty="No till is active. An admin can add or activate one under Till sessions."
      >
        {(data) => (
          <ul className="space-y-2">
            {data.registers
              .filter((one) => one.active)
              .map((one) => (
                <li key={one._id}>
                  <button
                    type="button"
                    className={buttonClass('secondary', 'md', 'w-full')}
                    onClick={() => onChoose(one._id)}
                  >
                    {one.name}
                  </button>
                </li>
              ))}
          </ul>
        )}
      </LoadState>
    </section>
  );
}

/** The chosen register has no open session: count the float into the drawer and open it. */
function OpenTill({ registerId, choose }: { registerId: string; choose: (id: string | null) => void }) {
  const registers = useQuery(registersQuery);
  const register: Register | undefined = registers.data?.registers.find((one) => one._id === registerId);
  // A register deleted or deactivated since this device chose it cannot be opened: choose again.
  if (registers.data && !register?.active)
    return (
      <ChooseRegister
        onChoose={choose}
        notice="The till this device used is no longer active. Choose another."
      />
    );
  return (
    <LoadState query={registers} what="the tills" loading="Loading the till...">
      {() => (
        <OpenTillForm registerId={registerId} name={register?.name ?? ''} onChangeTill={() => choose(null)} />
      )}
    </LoadState>
  );
}

function OpenTillForm({
  registerId,
  name,
  onChangeTill,
}: {
  registerId: string;
  name: string;
  onChangeTill: () => void;
}) {
  const currency = useCurrency();
  const queryClient = useQueryClient();
  const open = useOpenSession(registerId);
  const [float, setFloat] = useState('');
  useDocumentTitle(`Open ${name || 'the till'}`);
  const [fieldError, setFieldError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (open.isPending) return;
    const cents = typedCents(float);
    if (cents === null) {
      setFieldError('Enter the opening float as an amount, like 100 or 150.50 (0 for an empty drawer).');
      return;
    }
    setFieldError(undefined);
    open.mutate(
      { openingFloat: Number(float.trim()) },
      {
        onSuccess: ({ session }) =>
          // The counter opens at once; the refresh after the write confirms it.
          queryClient.setQueryData(queryKeys.openSession(registerId), {
            success: true,
            sessions: [{ ...session, expectedCash: null, difference: null }],
            total: 1,
            page: 1,
            pageSize: 1,
          }),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} aria-labelledby="open-till" className={PANEL}>
      <h1 id="open-till" className="text-xl font-bold text-slate-900">
        Open {name || 'the till'}
      </h1>
      <p className="text-sm text-slate-600">
        Count the cash in the drawer before the first sale. Every sale here goes into this session until the
        till is closed.
      </p>
      <TextField
        label={`Opening float (${currency})`}
        inputMode="decimal"
        autoComplete="off"
        autoFocus
        placeholder="0.00"
        value={float}
        onChange={(event) => setFloat(event.target.value)}
        error={fieldError}
        hint="The cash in the drawer now, for change."
        disabled={open.isPending}
      />
      <FormError>{open.error ? errorMessage(open.error) : null}</FormError>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass('primary')} disabled={open.isPending}>
          {open.isPending ? 'Opening till...' : 'Open till'}
        </button>
        <button
          type="button"
          className={buttonClass('secondary')}
          onClick={onChangeTill}
          disabled={open.isPending}
        >
          Change till
        </button>
      </div>
    </form>
  );
}

/** Which till and session the counter sells in, and what can be done with the drawer. */
/** The till's bar offline: which till and session; cash in/out, the report and closing wait for the server. */
function OfflineTillBar({ session }: { session: RegisterSession }) {
  return (
    <section
      aria-label="Till"
      className="mb-4 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-2 text-sm text-indigo-950"
    >
      <p>
        <span className="font-semibold">{session.register.name}</span> · session{' '}
        {sessionNumberLabel(session.number)} · opened{' '}
        <time dateTime={session.openedAt}>{openedAtLabel(session.openedAt)}</time> by {session.openedBy.name}
        <span className="text-indigo-800">
          {' '}
          · cash in/out, the X report and closing the till wait for the server.
        </span>
      </p>
    </section>
  );
}

function TillBar({ session, onChangeTill }: { session: RegisterSession; onChangeTill: () => void }) {
  const user = useSignedInUser();
  const [dialog, setDialog] = useState<'cash' | 'close' | null>(null);
  return (
    <section
      aria-label="Till"
      className="mb-4 flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-2 text-sm text-indigo-950"
    >
      <p>
        <span className="font-semibold">{session.register.name}</span> · session{' '}
        {sessionNumberLabel(session.number)} · opened{' '}
        <time dateTime={session.openedAt}>{openedAtLabel(session.openedAt)}</time> by {session.openedBy.name}
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => setDialog('cash')}>
          Cash in/out
        </button>
        <Link to={sessionPath(user.role, session._id)} className={buttonClass('secondary', 'sm')}>
          X report
        </Link>
        <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => setDialog('close')}>
          Close till
        </button>
        <button type="button" className={buttonClass('ghost', 'sm')} onClick={onChangeTill}>
          Change till
        </button>
      </div>
      {dialog === 'cash' ? <CashDialog session={session} onClose={() => setDialog(null)} /> : null}
      {dialog === 'close' ? <CloseTillDialog session={session} onClose={() => setDialog(null)} /> : null}
    </section>
  );
}
