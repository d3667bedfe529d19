import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import {
  type Bill,
  PAYMENT_METHODS,
  type SupplierPayment,
  SupplierPaymentInput,
  type SupplierPaymentMethod,
} from '../../../shared/bills';
import { centsNumber, toCents } from '../../../shared/money';
import type { Supplier } from '../../../shared/suppliers';
import { sessionNumberLabel } from '../../../shared/till';
import { buttonClass } from '../../components/button';
import { FormError, Options, SelectField, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { Modal } from '../../components/modal';
import { PageHeader } from '../../components/page-header';
import { Table, Td, Th } from '../../components/table';
import { BILLS_PATH } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
import { localToday } from '../../lib/date-range';
import { formatDate } from '../../lib/format';
import { useListAddress } from '../../lib/list-address';
import { notify } from '../../lib/notify';
import { useMoney } from '../../lib/store-settings';
import { AllocationTable, amountCents, type Chosen, checkAllocations } from './allocation-table';
import { METHOD_LABEL, NUMBER } from './bill-status';
import {
  creditPaymentsQuery,
  openSessionsQuery,
  payableBillsQuery,
  suppliersQuery,
  useAllocate,
  useKeys,
  usePaySupplier,
} from './bills-api';

/** Ticks a bill with its open amount, or unticks it. */
function toggled(chosen: Chosen, bill: Bill, on: boolean, amount = bill.open): Chosen {
  const next = { ...chosen };
  if (on) next[bill._id] = amount.toFixed(2);
  else delete next[bill._id];
  return next;
}

/** Cash for a supplier from a till open now (its report counts it as cash out), or from the safe. */
function SessionPicker({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const sessions = useQuery(openSessionsQuery);
  return (
    <LoadState query={sessions} what="the open tills" loading="Loading the open tills...">
      {(answer) => (
        <SelectField
          label="Cash from"
          value={value}
          hint={value ? 'Cash from a till is paid today.' : 'Without a till, the cash comes from the safe.'}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">The safe</option>
          {answer.sessions.map((session) => (
            <option key={session._id} value={session._id}>
              {session.register.name} {sessionNumberLabel(session.number)} (opened by {session.openedBy.name})
            </option>
          ))}
        </SelectField>
      )}
    </LoadState>
  );
}

/**
 * A payment to the supplier: the bills ticked and what goes on each, its date, method and (cash)
 * till, and its amount — the sum put on the bills unless changed; more stays as their credit.
 */
function PaymentForm({ supplier, bills }: { supplier: Supplier; bills: readonly Bill[] }) {
  const money = useMoney();
  const pay = usePaySupplier();
  const keys = useKeys();
  const [chosen, setChosen] = useState<Chosen>({});
  const [date, setDate] = useState(localToday);
  const [method, setMethod] = useState<SupplierPaymentMethod>('bank');
  const [session, setSession] = useState('');
  // null: the amount follows the sum put on the bills.
  const [typed, setTyped] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const checked = checkAllocations(bills, chosen);
  const amountText = typed ?? (checked.sum > 0n ? centsNumber(checked.sum).toFixed(2) : '');
  const amount = amountCents(amountText);
  const credit = amount !== null && amount > checked.sum ? amount - checked.sum : 0n;
  let amountError: string | undefined;
  if (amountText.trim() === '') amountError = tried ? 'Tick a bill, or write the amount paid.' : undefined;
  else if (amount === null) amountError = 'Write an amount like 12.50.';
  else if (amount <= 0n) amountError = 'The amount must be above 0.';
  else if (amount < checked.sum)
    amountError = `Less than the ${money(centsNumber(checked.sum))} put on the bills.`;
  const ready =
    amount !== null && amount > 0n && amount >= checked.sum && Object.keys(checked.errors).length === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!ready || amount === null || pay.isPending) return;
    const input: SupplierPaymentInput = {
      supplier: supplier._id,
      date,
      amount: centsNumber(amount),
      method,
      ...(method === 'cash' && session ? { session } : {}),
      allocations: checked.allocations,
    };
    const parsed = SupplierPaymentInput.safeParse(input);
    if (!parsed.success) {
      setRefusal(parsed.error.issues[0]?.message ?? 'Check the payment.');
      return;
    }
    setRefusal(null);
    const key = keys.keyFor(input);
    pay.mutate(
      { input, key },
      {
        onSuccess: ({ payment }) => {
          keys.settled();
          const left = payment.unallocated > 0 ? ` ${money(payment.unallocated)} stays as credit.` : '';
          notify.success(`${payment.number}: ${money(payment.amount)} paid to ${supplier.name}.${left}`);
          setChosen({});
          setTyped(null);
          setTried(false);
        },
        onError: (error) => {
          keys.settled(error);
          setRefusal(errorMessage(error));
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} aria-label={`Pay ${supplier.name}`} className="space-y-4">
      {bills.length > 0 ? (
        <AllocationTable
          caption={`Open bills of ${supplier.name}, most overdue first`}
          bills={bills}
          chosen={chosen}
          errors={checked.errors}
          verb="Pay"
          onToggle={(bill, on) => setChosen((now) => toggled(now, bill, on))}
          onAmount={(bill, text) => setChosen((now) => ({ ...now, [bill._id]: text }))}
        />
      ) : (
        <p className="rounded-lg border border-slate-200 bg-white px-4 py-6 text-sm text-slate-600">
          Nothing is owed to {supplier.name}: no posted bill is open. A payment now stays as their credit.
        </p>
      )}
      <fieldset className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <legend className="px-1 text-sm font-semibold text-slate-900">Payment</legend>
        <div className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <TextField
            label="Payment date"
            type="date"
            required
            value={date}
            onChange={(event) => setDate(event.target.value)}
          />
          <SelectField
            label="Method"
            value={method}
            onChange={(event) => setMethod(event.target.value as SupplierPaymentMethod)}
          >
            <Options values={PAYMENT_METHODS} labels={METHOD_LABEL} />
          </SelectField>
          {method === 'cash' ? <SessionPicker value={session} onChange={setSession} /> : null}
          <TextField
            label="Amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0.00"
            value={amountText}
            error={amountError}
            hint={typed === null ? 'The sum put on the bills, unless changed.' : undefined}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        <p aria-live="polite" className="mt-3 text-sm text-slate-700">
          Put on bills: <span className="font-semibold tabular-nums">{money(centsNumber(checked.sum))}</span>
          {credit > 0n ? (
            <>
              {' '}
              · <span className="font-semibold tabular-nums">{money(centsNumber(credit))}</span> more stays
              with {supplier.name} as credit, to allocate to a later bill.
            </>
          ) : null}
        </p>
        <div className="mt-4">
          <FormError>{refusal}</FormError>
        </div>
        <div className="mt-4 flex justify-end">
          <button type="submit" className={buttonClass('primary')} disabled={pay.isPending}>
            {pay.isPending
              ? 'Paying...'
              : amount !== null && amount > 0n
                ? `Pay ${money(centsNumber(amount))}`
                : 'Pay'}
          </button>
        </div>
      </fieldset>
    </form>
  );
}

/** A payment's credit spread over open bills of its supplier. */
function AllocateDialog({
  payment,
  bills,
  onClose,
}: {
  payment: SupplierPayment;
  bills: readonly Bill[];
  onClose: () => void;
}) {
  const money = useMoney();
  const allocate = useAllocate();
  const keys = useKeys();
  const [chosen, setChosen] = useState<Chosen>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const checked = checkAllocations(bills, chosen);
  const credit = toCents(payment.unallocated);
  const over = checked.sum > credit;
  const ready = checked.allocations.length > 0 && !over && Object.keys(checked.errors).length === 0;

  /** A bill ticked takes its open amount, or what is left of the credit when that is less. */
  function toggle(bill: Bill, on: boolean) {
    setChosen((now) => {
      const { sum } = checkAllocations(bills, now);
      const left = credit - sum > 0n ? credit - sum : 0n;
      const open = toCents(bill.open);
      return toggled(now, bill, on, centsNumber(open < left ? open : left));
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || allocate.isPending) return;
    const input = { allocations: checked.allocations };
    const key = keys.keyFor({ id: payment._id, ...input });
    setRefusal(null);
    allocate.mutate(
      { id: payment._id, input, key },
      {
        onSuccess: ({ payment: done }) => {
          keys.settled();
          notify.success(
            `${done.number}: ${money(centsNumber(checked.sum))} allocated${done.unallocated > 0 ? `, ${money(done.unallocated)} still credit` : ''}.`,
          );
          onClose();
        },
        onError: (error) => {
          keys.settled(error);
          setRefusal(errorMessage(error));
        },
      },
    );
  }

  return (
    <Modal title={`Allocate ${payment.number}`} onClose={() => !allocate.isPending && onClose()} size="lg">
      <form noValidate onSubmit={submit} className="space-y-4">
        <p className="text-sm text-slate-700">
          {money(payment.unallocated)} of {payment.number} is not on a bill yet. Tick the bills it pays.
        </p>
        <AllocationTable
          caption={`Open bills to allocate ${payment.number} to`}
          bills={bills}
          chosen={chosen}
          errors={checked.errors}
          verb="Allocate to"
          onToggle={toggle}
          onAmount={(bill, text) => setChosen((now) => ({ ...now, [bill._id]: text }))}
        />
        <p aria-live="polite" className={`text-sm ${over ? 'text-red-700' : 'text-slate-700'}`}>
          Allocated {money(centsNumber(checked.sum))} of {money(payment.unallocated)}
          {over ? ': more than the credit.' : '.'}
        </p>
        <FormError>{refusal}</FormError>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            className={buttonClass('secondary')}
            onClick={onClose}
            disabled={allocate.isPending}
          >
            Cancel
          </button>
          <button type="submit" className={buttonClass('primary')} disabled={!ready || allocate.isPending}>
            {allocate.isPending ? 'Allocating...' : 'Allocate'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The supplier's payments with credit left, each of which can be allocated to open bills. */
function Credits({ supplier, bills }: { supplier: Supplier; bills: readonly Bill[] }) {
  const money = useMoney();
  const payments = useQuery(creditPaymentsQuery(supplier._id));
  const [allocating, setAllocating] = useState<SupplierPayment | null>(null);
  return (
    <section aria-labelledby="supplier-credit" className="mt-8">
      <h2 id="supplier-credit" className="mb-1 text-lg font-semibold text-slate-900">
        Credit with {supplier.name}
      </h2>
      <p className="mb-3 text-sm text-slate-600">Payments not yet put on a bill in full.</p>
      <LoadState
        query={payments}
        what="the payments with credit"
        loading="Loading payments..."
        isEmpty={(answer) => answer.payments.every((payment) => payment.unallocated <= 0)}
        empty={`No credit with ${supplier.name}: every payment is on a bill.`}
      >
        {(answer) => (
          <Table caption={`Payments to ${supplier.name} with credit left`}>
            <thead>
              <tr>
                <Th>Payment</Th>
                <Th>Date</Th>
                <Th className="max-sm:hidden">Method</Th>
                <Th className="text-right max-sm:hidden">Amount</Th>
                <Th className="text-right">Credit left</Th>
                <Th>
                  <span className="sr-only">Action</span>
                </Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {answer.payments
                .filter((payment) => payment.unallocated > 0)
                .map((payment) => (
                  <tr key={payment._id}>
                    <th scope="row" className="px-3 py-2.5 text-left font-medium whitespace-nowrap sm:px-4">
                      {payment.number}
                    </th>
                    <Td className="whitespace-nowrap">
                      <time dateTime={payment.date}>{formatDate(payment.date)}</time>
                    </Td>
                    <Td className="max-sm:hidden">{METHOD_LABEL[payment.method]}</Td>
                    <Td className={`${NUMBER} max-sm:hidden`}>{money(payment.amount)}</Td>
                    <Td className={`${NUMBER} font-medium`}>{money(payment.unallocated)}</Td>
                    <Td className="text-right">
                      <button
                        type="button"
                        className={buttonClass('secondary', 'sm')}
                        aria-label={`Allocate ${payment.number}`}
                        disabled={bills.length === 0}
                        title={bills.length === 0 ? 'No open bill to allocate to.' : undefined}
                        onClick={() => setAllocating(payment)}
                      >
                        Allocate
                      </button>
                    </Td>
                  </tr>
                ))}
            </tbody>
          </Table>
        )}
      </LoadState>
      {allocating ? (
        <AllocateDialog payment={allocating} bills={bills} onClose={() => setAllocating(null)} />
      ) : null}
    </section>
  );
}

function SupplierBills({ supplier }: { supplier: Supplier }) {
  const bills = useQuery(payableBillsQuery(supplier._id));
  return (
    <>
      <LoadState query={bills} what="the open bills" loading="Loading the open bills...">
        {(answer) => (
          <>
            {answer.total > answer.bills.length ? (
              <p className="mb-3 text-sm text-slate-600">
                Showing the {answer.bills.length} most overdue of {answer.total} open bills.
              </p>
            ) : null}
            <PaymentForm supplier={supplier} bills={answer.bills} />
          </>
        )}
      </LoadState>
      <Credits supplier={supplier} bills={bills.data?.bills ?? []} />
    </>
  );
}

/**
 * Admin: Pay bills (DESIGN §20). A supplier chosen (kept in the address), their open bills — posted
 * or part paid, most overdue first — to tick, each with what to pay on it; the payment's date,
 * method and, for cash, the till it comes from; and the payments holding credit, to allocate.
 */
export function PayBillsPage() {
  const { params, setFilter } = useListAddress<'supplier'>();
  const chosen = params.get('supplier') ?? '';
  const suppliers = useQuery(suppliersQuery);
  const supplier = suppliers.data?.suppliers.find((one) => one._id === chosen);
  return (
    <>
      <PageHeader title="Pay bills">
        <Link to={BILLS_PATH} className={buttonClass('secondary')}>
          Back to Bills
        </Link>
      </PageHeader>
      <LoadState
        query={suppliers}
        what="the suppliers"
        loading="Loading suppliers..."
        isEmpty={(answer) => answer.suppliers.length === 0}
        empty="No suppliers yet: add one under Suppliers first."
      >
        {(answer) => (
          <>
            <div className="mb-5 max-w-sm">
              <SelectField
                label="Supplier"
                value={supplier ? chosen : ''}
                onChange={(event) => setFilter('supplier', event.target.value)}
              >
                <option value="">Choose a supplier</option>
                {answer.suppliers.map((one) => (
                  <option key={one._id} value={one._id}>
                    {one.name}
                  </option>
                ))}
              </SelectField>
            </div>
            {supplier ? (
              <SupplierBills key={supplier._id} supplier={supplier} />
            ) : (
              <p className="rounded-lg border border-slate-200 bg-white px-4 py-8 text-center text-sm text-slate-600">
                {chosen
                  ? 'That supplier is not in the list any more. Choose another.'
                  : 'Choose a supplier to see the bills you owe them.'}
              </p>
            )}
          </>
        )}
      </LoadState>
    </>
  );
}
