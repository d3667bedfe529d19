import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { can } from '../../../shared/roles';
import { saleNumberLabel } from '../../../shared/sales';
import {
  type CREDIT_KINDS,
  CreditAdjustmentInput,
  type CreditEntry,
  refundNumberLabel,
} from '../../../shared/till';
import type { User } from '../../../shared/users';
import { buttonClass } from '../../components/button';
import { FormError, TextAreaField, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { Modal } from '../../components/modal';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { errorMessage } from '../../lib/api';
import { salePath } from '../../lib/area-paths';
import { formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useMoney } from '../../lib/store-settings';
import { usePageInRange } from '../../lib/use-paged-list';
import { CREDIT_PAGE_SIZE, creditQuery, useAdjustCredit } from './credit-api';

const KIND_LABEL: Record<(typeof CREDIT_KINDS)[number], string> = {
  refund: 'Refund',
  sale: 'Sale',
  adjustment: 'Adjustment',
};

const CARD = 'rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5';

/** On phones an entry is a small card: date and amount, kind and what it came from, who and the note. */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:px-3 max-sm:py-3';
const STACKED = 'max-sm:p-0 max-sm:text-xs max-sm:text-slate-600';

/**
 * A customer's store credit (DESIGN §13): the balance and its history, newest first, one page at a
 * time; admins give or take credit with a note. Refunds to store credit and sales paid with it
 * write the other entries.
 */
export function StoreCredit({
  customerId,
  customerName,
  me,
}: {
  customerId: string;
  customerName: string;
  me: User;
}) {
  const money = useMoney();
  const [asked, setPage] = useState(1);
  const [adjusting, setAdjusting] = useState(false);
  const credit = useQuery(creditQuery(customerId, asked));
  const page = serverPage(credit.data && { ...credit.data, rows: credit.data.entries }, {
    page: asked,
    pageSize: CREDIT_PAGE_SIZE,
  });
  usePageInRange(asked, page.pageCount, credit.isSuccess && !credit.isPlaceholderData, setPage);
  const balance = credit.data?.balance;

  return (
    <section aria-labelledby="customer-credit" className={`mb-6 ${CARD}`}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="customer-credit" className="text-base font-semibold text-slate-900">
          Store credit
        </h2>
        {can(me.role, 'till:manage') ? (
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            onClick={() => setAdjusting(true)}
            disabled={balance === undefined}
          >
            Adjust credit
          </button>
        ) : null}
      </div>
      {balance === undefined ? null : (
        <p className="mb-4 flex items-baseline gap-2">
          <span className="text-sm text-slate-500" id="customer-credit-balance">
            Balance
          </span>
          <output
            aria-labelledby="customer-credit-balance"
            className="text-2xl font-semibold text-slate-900 tabular-nums"
          >
            {money(balance)}
          </output>
        </p>
      )}
      <Table caption="Store credit history, newest first" busy={credit.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Date</Th>
            <Th>Kind</Th>
            <Th>From</Th>
            <Th>By</Th>
            <Th>Note</Th>
            <Th className="text-right">Amount</Th>
            <Th className="text-right">Balance after</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={credit}
            what="the store credit"
            loading="Loading store credit..."
            colSpan={7}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty="No store credit yet."
          >
            {() =>
              page.rows.map((entry) => <CreditRow key={entry._id} entry={entry} me={me} money={money} />)
            }
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Store credit" onPage={setPage} />
      {adjusting && balance !== undefined ? (
        <AdjustCreditDialog
          customerId={customerId}
          customerName={customerName}
          balance={balance}
          onClose={() => setAdjusting(false)}
          onAdjusted={() => setPage(1)}
        />
      ) : null}
    </section>
  );
}

function CreditRow({ entry, me, money }: { entry: CreditEntry; me: User; money: (value: number) => string }) {
  return (
    <tr className={`hover:bg-slate-50 ${STACKED_ROW}`}>
      <Td className="whitespace-nowrap text-slate-600 max-sm:p-0 max-sm:text-sm max-sm:text-slate-900">
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </Td>
      <Td className={`max-sm:col-start-1 ${STACKED}`}>{KIND_LABEL[entry.kind]}</Td>
      <Td className={`whitespace-nowrap max-sm:col-start-1 ${STACKED}`}>
        <Origin entry={entry} me={me} />
      </Td>
      <Td className={`max-sm:col-start-1 ${STACKED}`}>
        <span className="sm:hidden">By </span>
        {entry.user.name}
      </Td>
      <Td className={`break-words max-sm:col-span-2 max-sm:col-start-1 ${STACKED}`}>{entry.note}</Td>
      <Td className="whitespace-nowrap text-right font-medium tabular-nums max-sm:col-start-2 max-sm:row-start-1 max-sm:p-0">
        <span className={entry.amount < 0 ? 'text-red-700' : 'text-green-800'}>
          {entry.amount > 0 ? '+' : '−'}
          {money(Math.abs(entry.amount))}
        </span>
      </Td>
      <Td className="whitespace-nowrap text-right tabular-nums max-sm:col-start-2 max-sm:row-start-2 max-sm:p-0 max-sm:text-xs max-sm:text-slate-600">
        <span className="sm:hidden">Balance </span>
        {money(entry.balanceAfter)}
      </Td>
    </tr>
  );
}

/** The sale or refund an entry came from: a sale's receipt is a link for admins (who may open any). */
function Origin({ entry, me }: { entry: CreditEntry; me: User }) {
  if (entry.sale) {
    const label = saleNumberLabel(entry.sale.number);
    return me.role === 'admin' ? (
      <Link to={salePath(me.role, entry.sale._id)} className="text-indigo-700 hover:underline">
        {label}
      </Link>
    ) : (
      <span>{label}</span>
    );
  }
  if (entry.refund) return <span>{refundNumberLabel(entry.refund.number)}</span>;
  return <span className="text-slate-400">—</span>;
}

/**
 * Admins: gives (+) or takes (−) store credit, with a note saying why. Taking more than the
 * balance is refused by the server (409); its sentence is shown here and the dialog stays.
 */
function AdjustCreditDialog({
  customerId,
  customerName,
  balance,
  onClose,
  onAdjusted,
}: {
  customerId: string;
  customerName: string;
  balance: number;
  onClose: () => void;
  onAdjusted: () => void;
}) {
  const id = useId();
  const money = useMoney();
  const adjust = useAdjustCredit(customerId);
  const [direction, setDirection] = useState<'give' | 'take'>('give');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; note?: string }>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    if (adjust.isPending) return;
    const typed = amount.trim();
    const value = /^\d+(\.\d+)?$|^\.\d+$/.test(typed) ? Number(typed) : Number.NaN;
    const parsed = CreditAdjustmentInput.safeParse({
      amount: direction === 'take' ? -value : value,
      note,
    });
    if (!parsed.success) {
      const found: { amount?: string; note?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'note' ? 'note' : 'amount';
        found[field] ??=
          Number.isNaN(value) && field === 'amount' ? 'Enter the amount like 5 or 5.50.' : issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    adjust.mutate(parsed.data, {
      onSuccess: (answer) => {
        notify.success(`Store credit adjusted: ${customerName} now has ${money(answer.balance)}.`);
        onAdjusted();
        onClose();
      },
    });
  }

  return (
    <Modal title="Adjust store credit" onClose={() => !adjust.isPending && onClose()}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <p className="text-sm text-slate-600">
          {customerName}'s balance is {money(balance)}.
        </p>
        <fieldset disabled={adjust.isPending}>
          <legend className="mb-2 text-sm font-medium text-slate-700">Adjustment</legend>
          <div className="grid grid-cols-2 gap-2">
            {(
              [
                ['give', 'Give credit (+)'],
                ['take', 'Take credit (−)'],
              ] as const
            ).map(([value, label]) => (
              <label
                key={value}
                className="flex cursor-pointer items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 has-checked:border-indigo-600 has-checked:bg-indigo-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600"
              >
                <input
                  type="radio"
                  name={`${id}-direction`}
                  value={value}
                  checked={direction === value}
                  onChange={() => setDirection(value)}
                  className="sr-only"
                />
                {label}
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
          disabled={adjust.isPending}
        />
        <TextAreaField
          label="Note"
          hint="Why: a goodwill gesture, a correction."
          value={note}
          onChange={(event) => setNote(event.target.value)}
          error={errors.note}
          disabled={adjust.isPending}
        />
        <FormError>{adjust.isError ? errorMessage(adjust.error) : null}</FormError>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            className={buttonClass('secondary')}
            onClick={onClose}
            disabled={adjust.isPending}
          >
            Cancel
          </button>
          <button type="submit" className={buttonClass('primary')} disabled={adjust.isPending}>
            {adjust.isPending ? 'Adjusting...' : 'Adjust credit'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
