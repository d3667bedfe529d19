import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Account, ManualEntryInput } from '../../../shared/accounting';
import { centsNumber, toCents } from '../../../shared/money';
import { buttonClass } from '../../components/button';
import { FormError, SelectField, TextAreaField, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { journalEntryPath } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
import { localToday } from '../../lib/date-range';
import { notify } from '../../lib/notify';
import { useMoney } from '../../lib/store-settings';
import { accountsQuery, useKeys, usePostEntry } from './accounting-api';
import { AccountingPage } from './accounting-layout';

type Line = { key: number; account: string; debit: string; credit: string };

const AMOUNT = /^\d{1,12}(?:\.\d{1,2})?$/;

/** Cents of an amount box: 0 when empty, null when it is not an amount of money. */
export function amountCents(text: string): bigint | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0n;
  return AMOUNT.test(trimmed) ? toCents(trimmed) : null;
}

/** The entry as it stands: its totals in cents, and why it cannot be posted yet (null when it can). */
export function entryState(entry: { date: string; memo: string; lines: readonly Line[] }) {
  let debit = 0n;
  let credit = 0n;
  let unreadable = false;
  let oneSided = true;
  for (const line of entry.lines) {
    const d = amountCents(line.debit);
    const c = amountCents(line.credit);
    if (d === null || c === null) {
      unreadable = true;
      continue;
    }
    debit += d;
    credit += c;
    if (d > 0n === c > 0n) oneSided = false;
  }
  const money = (cents: bigint) => centsNumber(cents);
  let reason: string | null = null;
  if (entry.lines.length < 2) reason = 'An entry needs at least two lines.';
  else if (unreadable) reason = 'Write each amount like 12.50.';
  else if (entry.lines.some((line) => !line.account)) reason = 'Choose an account on every line.';
  else if (!oneSided) reason = 'Give each line a debit or a credit above 0, not both.';
  else if (debit !== credit) reason = 'The debits and the credits must be equal.';
  else if (!entry.memo.trim()) reason = 'Write a memo: what the entry is for.';
  else if (!entry.date) reason = 'Choose the entry’s date.';
  return { debit: money(debit), credit: money(credit), difference: money(debit - credit), reason };
}

/** The body the server takes: each line's one side, as a number. */
function inputOf(entry: { date: string; memo: string; lines: readonly Line[] }): ManualEntryInput {
  return {
    date: entry.date,
    memo: entry.memo.trim(),
    lines: entry.lines.map((line) => {
      const debit = amountCents(line.debit) ?? 0n;
      const credit = amountCents(line.credit) ?? 0n;
      return {
        account: line.account,
        ...(debit > 0n ? { debit: centsNumber(debit) } : {}),
        ...(credit > 0n ? { credit: centsNumber(credit) } : {}),
      };
    }),
  };
}

function LineFields({
  line,
  index,
  accounts,
  onChange,
  onRemove,
}: {
  line: Line;
  index: number;
  accounts: readonly Account[];
  onChange: (line: Line) => void;
  onRemove?: () => void;
}) {
  const amountError = (text: string) =>
    amountCents(text) === null ? 'Write an amount like 12.50.' : undefined;
  return (
    <fieldset className="min-w-0 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-xs font-semibold text-slate-600">Line {index + 1}</legend>
      <div className="grid grid-cols-2 items-start gap-3 sm:grid-cols-[minmax(0,1fr)_8rem_8rem_auto]">
        <div className="col-span-2 sm:col-span-1">
          <SelectField
            label="Account"
            value={line.account}
            onChange={(event) => onChange({ ...line, account: event.target.value })}
          >
            <option value="">Choose an account</option>
            {accounts.map((account) => (
              <option key={account._id} value={account._id}>
                {account.code} {account.name}
              </option>
            ))}
          </SelectField>
        </div>
        <TextField
          label="Debit"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={line.debit}
          error={amountError(line.debit)}
          onChange={(event) => onChange({ ...line, debit: event.target.value })}
        />
        <TextField
          label="Credit"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={line.credit}
          error={amountError(line.credit)}
          onChange={(event) => onChange({ ...line, credit: event.target.value })}
        />
        {onRemove ? (
          <button
            type="button"
            className={buttonClass('ghost', 'sm', 'col-span-2 justify-self-start sm:col-span-1 sm:mt-6')}
            aria-label={`Remove line ${index + 1}`}
            onClick={onRemove}
          >
            Remove
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}

function EntryForm({ accounts }: { accounts: readonly Account[] }) {
  const money = useMoney();
  const navigate = useNavigate();
  const post = usePostEntry();
  const keys = useKeys();
  const reasonId = useId();
  const nextKey = useRef(2);
  const [date, setDate] = useState(localToday);
  const [memo, setMemo] = useState('');
  const [lines, setLines] = useState<Line[]>([
    { key: 0, account: '', debit: '', credit: '' },
    { key: 1, account: '', debit: '', credit: '' },
  ]);
  const state = entryState({ date, memo, lines });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (state.reason || post.isPending) return;
    const input = inputOf({ date, memo, lines });
    const key = keys.keyFor(input);
    post.mutate(
      { input, key },
      {
        onSuccess: ({ entry }) => {
          keys.settled();
          notify.success(`${entry.number} posted.`);
          navigate(journalEntryPath(entry._id));
        },
        onError: (error) => keys.settled(error),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-[11rem_minmax(0,1fr)]">
        <TextField label="Date" type="date" value={date} onChange={(event) => setDate(event.target.value)} />
        <TextAreaField
          label="Memo"
          rows={2}
          maxLength={500}
          value={memo}
          onChange={(event) => setMemo(event.target.value)}
        />
      </div>
      <div className="space-y-3">
        {lines.map((line, index) => (
          <LineFields
            key={line.key}
            line={line}
            index={index}
            accounts={accounts}
            onChange={(changed) =>
              setLines((all) => all.map((one) => (one.key === line.key ? changed : one)))
            }
            onRemove={
              lines.length > 2
                ? () => setLines((all) => all.filter((one) => one.key !== line.key))
                : undefined
            }
          />
        ))}
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          disabled={lines.length >= 100}
          onClick={() => {
            const key = nextKey.current++;
            setLines((all) => [...all, { key, account: '', debit: '', credit: '' }]);
          }}
        >
          Add line
        </button>
      </div>
      <dl
        aria-label="Totals"
        aria-live="polite"
        className="grid grid-cols-3 gap-3 rounded-md bg-slate-50 p-3 text-sm"
      >
        <div>
          <dt className="text-slate-600">Debits</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{money(state.debit)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Credits</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{money(state.credit)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Difference</dt>
          <dd
            className={`font-semibold tabular-nums ${state.difference === 0 ? 'text-emerald-700' : 'text-red-700'}`}
          >
            {money(state.difference)}
          </dd>
        </div>
      </dl>
      <FormError>{post.isError ? errorMessage(post.error) : null}</FormError>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          className={buttonClass('primary')}
          disabled={state.reason !== null || post.isPending}
          aria-describedby={state.reason ? reasonId : undefined}
        >
          {post.isPending ? 'Posting...' : 'Post entry'}
        </button>
        {state.reason ? (
          <p id={reasonId} className="text-sm text-slate-600">
            {state.reason}
          </p>
        ) : null}
      </div>
    </form>
  );
}

/**
 * Admin: a manual entry (DESIGN §19): its date, memo and lines, each an active account with a
 * debit or a credit; the totals follow the typing, and Post waits, saying why, until the entry has
 * two lines or more and balances. Once posted, its screen in the journal opens.
 */
export function ManualEntryPage() {
  const query = useQuery(accountsQuery);
  return (
    <AccountingPage title="Manual entry" tab="manual-entry">
      <div className="max-w-4xl rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <LoadState query={query} what="the accounts" loading="Loading the accounts...">
          {(data) => <EntryForm accounts={data.accounts.filter((account) => account.active)} />}
        </LoadState>
      </div>
    </AccountingPage>
  );
}
