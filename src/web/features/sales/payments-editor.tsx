import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type Ref, type RefObject, useEffect, useId, useRef, useState } from 'react';
import type { Customer } from '../../../shared/customers';
import { centsNumber, toCents } from '../../../shared/money';
import {
  isPaymentProblem,
  MAX_PAYMENTS,
  PAYMENT_LABEL,
  PAYMENT_METHODS,
  PaymentInput,
  type PaymentMethod,
  settlePayments,
} from '../../../shared/till';
import { buttonClass } from '../../components/button';
import { TextField } from '../../components/form-field';
import { errorMessage } from '../../lib/api';
import { formatMoney } from '../../lib/format';
import { creditQuery } from '../customers/credit-api';
import { tenderedOf } from './cart-rules';
import { SHORTCUT_KEYS } from './counter-shortcuts';

/**
 * Split payments at the counter (DESIGN §13): the cashier adds payments (method and amount) until
 * the total is covered; what is left to pay and the change come from `settlePayments`, the one
 * computation the server makes. Store credit is offered only for a sale with a customer, and
 * never for more than their balance left or what is left to pay.
 */

/** Cents of a money number (amounts here have at most 2 decimals). */
const cents = (money: number) => toCents(money);

/** Σ of the store credit payments, in cents. */
function creditUsed(payments: readonly PaymentInput[]): bigint {
  return payments.reduce(
    (sum, payment) => (payment.method === 'storeCredit' ? sum + cents(payment.amount) : sum),
    0n,
  );
}

/**
 * Why split payments cannot complete the sale, or null when they can: they must cover the total,
 * non-cash may not exceed it, and store credit needs the customer and at most their balance
 * (`balance` null while it is not known: the server judges it then).
 */
export function splitProblem(
  total: number,
  payments: readonly PaymentInput[],
  customer: Customer | null,
  balance: number | null,
  currency: string,
): string | null {
  const money = (value: bigint) => formatMoney(centsNumber(value), currency);
  if (payments.length === 0) return 'Add a payment: the sale is paid in several.';
  const used = creditUsed(payments);
  if (used > 0n && !customer)
    return "Store credit needs the sale's customer: choose them, or remove the store credit payment.";
  if (used > 0n && balance !== null && used > cents(balance))
    return `Store credit payments are more than ${customer?.name ?? 'the customer'}'s balance (${money(cents(balance))}): lower them.`;
  const settled = settlePayments(cents(total), payments);
  if (!isPaymentProblem(settled)) return null;
  if (settled.problem === 'nonCashAboveTotal')
    return 'Card, other and store credit payments are more than the total: remove one.';
  return `${money(settled.missing)} is still to pay: add a payment.`;
}

/** Where focus goes once the payments changed: the amount box, Complete sale, or a Remove button. */
type FocusNext = { to: 'amount' } | { to: 'complete' } | { to: 'remove'; at: number } | null;

export function SplitPayments({
  total,
  payments,
  onChange,
  customer,
  currency,
  disabled,
  amountRef,
  completeRef,
}: {
  /** The sale's total (the server's computation of the cart). */
  total: number;
  payments: readonly PaymentInput[];
  onChange: (payments: PaymentInput[]) => void;
  customer: Customer | null;
  currency: string;
  disabled: boolean;
  /** Where the payment shortcut lands: the amount of the next payment. */
  amountRef: Ref<HTMLInputElement>;
  /** Complete sale: focused once the payments cover the total. */
  completeRef: RefObject<HTMLButtonElement | null>;
}) {
  const id = useId();
  const [method, setMethod] = useState<PaymentMethod>('cash');
  const [amount, setAmount] = useState('');
  const [focusNext, setFocusNext] = useState<FocusNext>(null);
  const ownAmountRef = useRef<HTMLInputElement | null>(null);
  const removeRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const credit = useQuery({ ...creditQuery(customer?._id ?? ''), enabled: customer !== null });
  const money = (value: bigint) => formatMoney(centsNumber(value), currency);

  const totalCents = cents(total);
  const settled = settlePayments(totalCents, payments);
  const given = payments.reduce((sum, payment) => sum + cents(payment.amount), 0n);
  const remaining = isPaymentProblem(settled) ? (settled.problem === 'short' ? settled.missing : 0n) : 0n;
  const change = isPaymentProblem(settled) ? null : settled.change;
  const nonCash = payments.reduce(
    (sum, payment) => (payment.method === 'cash' ? sum : sum + cents(payment.amount)),
    0n,
  );
  const balance = credit.data ? cents(credit.data.balance) : null;
  const creditLeft = balance === null ? null : balance - creditUsed(payments);
  // Store credit is a choice only for a customer whose balance is known to have some left.
  const creditOffered = customer !== null;
  const chosen: PaymentMethod = method === 'storeCredit' && !creditOffered ? 'cash' : method;

  /** The most the chosen method may add: non-cash never above the total, credit never above its balance. */
  const cap =
    chosen === 'cash'
      ? null
      : chosen === 'storeCredit'
        ? creditLeft === null
          ? 0n
          : [creditLeft, remaining].reduce((a, b) => (a < b ? a : b))
        : totalCents - nonCash;
  const suggested = cap === null ? remaining : remaining < cap ? remaining : cap;

  /** The payment the box describes (empty: the suggested amount), or why it cannot be added. */
  function candidate(): PaymentInput | string {
    if (payments.length >= MAX_PAYMENTS) return `A sale has at most ${MAX_PAYMENTS} payments.`;
    if (chosen === 'storeCredit') {
      if (credit.isError) return 'The balance could not be loaded: store credit cannot be used now.';
      if (creditLeft === null) return 'Loading the store credit balance...';
      if (creditLeft <= 0n) return `${customer?.name ?? 'The customer'} has no store credit left.`;
    }
    const typed = tenderedOf(amount);
    if (typed === null) {
      if (suggested <= 0n) return 'The total is covered.';
      return { method: chosen, amount: centsNumber(suggested) };
    }
    if (Number.isNaN(typed)) return 'Enter the amount like 20 or 20.50.';
    const parsed = PaymentInput.safeParse({ method: chosen, amount: typed });
    if (!parsed.success) return parsed.error.issues[0]?.message ?? 'This amount cannot be paid.';
    const asked = cents(typed);
    if (asked === 0n) return 'A payment must be more than 0.';
    if (chosen === 'storeCredit' && creditLeft !== null && asked > creditLeft)
      return `Store credit can be at most the balance left: ${money(creditLeft)}.`;
    if (chosen === 'storeCredit' && asked > remaining)
      return `Store credit can be at most what is left to pay: ${money(remaining)}.`;
    if (cap !== null && asked > cap)
      return `Card, other and store credit together can be at most the total (${money(totalCents)}): only cash gives change. At most ${money(cap < 0n ? 0n : cap)} more.`;
    return parsed.data;
  }
  const next = candidate();
  const problem = typeof next === 'string' ? next : null;
  // "Covered" or "Loading" are not mistakes of the cashier: they are said as a hint, not an error.
  const isMistake = problem !== null && amount.trim() !== '';

  function add() {
    if (disabled || typeof next === 'string') return;
    const payments_ = [...payments, next];
    onChange(payments_);
    setAmount('');
    const covered = !isPaymentProblem(settlePayments(totalCents, payments_));
    setFocusNext({ to: covered ? 'complete' : 'amount' });
  }

  function remove(at: number) {
    if (disabled) return;
    const left = payments.filter((_, index) => index !== at);
    onChange(left);
    setFocusNext(left.length === 0 ? { to: 'amount' } : { to: 'remove', at: Math.min(at, left.length - 1) });
  }

  useEffect(() => {
    if (!focusNext) return;
    setFocusNext(null);
    if (focusNext.to === 'remove') removeRefs.current[focusNext.at]?.focus();
    else if (focusNext.to === 'complete' && completeRef.current && !completeRef.current.disabled)
      completeRef.current.focus();
    else ownAmountRef.current?.focus();
  }, [focusNext, completeRef]);

  function onAmountKey(event: KeyboardEvent<HTMLInputElement>) {
    // Enter adds the payment; Complete sale is its own button (or its shortcut).
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  }

  const setAmountRef = (node: HTMLInputElement | null) => {
    ownAmountRef.current = node;
    if (typeof amountRef === 'function') amountRef(node);
    else if (amountRef) (amountRef as { current: HTMLInputElement | null }).current = node;
  };

  const methods = PAYMENT_METHODS.filter((one) => one !== 'storeCredit' || creditOffered);
  return (
    <div className="space-y-3">
      {payments.length > 0 ? (
        <ul aria-label="Payments" className="divide-y divide-slate-100 rounded-md border border-slate-200">
          {payments.map((payment, at) => {
            const label = `${PAYMENT_LABEL[payment.method]} ${formatMoney(payment.amount, currency)}`;
            return (
              // Payments have no id; their place in the list is what the cashier sees and removes.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={at} className="flex items-center justify-between gap-2 px-3 py-1.5 text-sm">
                <span>
                  {PAYMENT_LABEL[payment.method]}
                  {payment.method === 'cash' ? <span className="text-slate-500"> tendered</span> : null}
                </span>
                <span className="ml-auto tabular-nums">{formatMoney(payment.amount, currency)}</span>
                <button
                  ref={(node) => {
                    removeRefs.current[at] = node;
                  }}
                  type="button"
                  className={buttonClass('ghost', 'sm')}
                  aria-label={`Remove payment ${at + 1}: ${label}`}
                  onClick={() => remove(at)}
                  disabled={disabled}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">No payment yet: add one for each way the customer pays.</p>
      )}
      <dl className="space-y-1 text-sm" aria-live="polite">
        <div className="flex items-baseline justify-between text-slate-700">
          <dt>Paid</dt>
          <dd className="tabular-nums">{money(given)}</dd>
        </div>
        {change === null ? (
          <div className="flex items-baseline justify-between text-slate-900">
            <dt>Remaining</dt>
            <dd className="text-base font-semibold tabular-nums">
              {isPaymentProblem(settled) && settled.problem === 'nonCashAboveTotal' ? '—' : money(remaining)}
            </dd>
          </div>
        ) : (
          <div className="flex items-baseline justify-between text-slate-900">
            <dt>Change</dt>
            <dd className="text-base font-semibold tabular-nums">{money(change)}</dd>
          </div>
        )}
      </dl>
      <fieldset disabled={disabled} className="space-y-2 border-t border-slate-200 pt-3">
        <legend className="sr-only">Next payment</legend>
        <div role="radiogroup" aria-label="Method of the next payment" className="grid grid-cols-2 gap-2">
          {methods.map((one) => (
            <label
              key={one}
              className="flex cursor-pointer items-center justify-center rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm font-medium text-slate-700 has-checked:border-indigo-600 has-checked:bg-indigo-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600"
            >
              <input
                type="radio"
                name={`${id}-next-method`}
                value={one}
                checked={chosen === one}
                onChange={() => setMethod(one)}
                className="sr-only"
              />
              {PAYMENT_LABEL[one]}
            </label>
          ))}
        </div>
        {customer ? (
          <p className="text-xs text-slate-600" aria-live="polite">
            {credit.isError ? (
              <>
                Store credit balance could not be loaded: {errorMessage(credit.error)}{' '}
                <button
                  type="button"
                  className="font-medium text-indigo-700 underline"
                  onClick={() => void credit.refetch()}
                >
                  Try again
                </button>
              </>
            ) : balance === null ? (
              'Loading the store credit balance...'
            ) : (
              <>
                {customer.name}'s store credit: {money(balance)}
                {creditLeft !== null && creditLeft !== balance ? `, ${money(creditLeft)} left` : ''}
              </>
            )}
          </p>
        ) : null}
        <TextField
          ref={setAmountRef}
          aria-keyshortcuts={SHORTCUT_KEYS.pay}
          label={chosen === 'cash' ? 'Cash tendered for this payment' : `Amount by ${PAYMENT_LABEL[chosen]}`}
          inputMode="decimal"
          autoComplete="off"
          placeholder={suggested > 0n ? centsNumber(suggested).toFixed(2) : undefined}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          onKeyDown={onAmountKey}
          error={isMistake ? (problem ?? undefined) : undefined}
          hint={
            problem && !isMistake
              ? problem
              : suggested > 0n
                ? `Enter adds it; empty adds ${money(suggested)}.`
                : undefined
          }
        />
        <button
          type="button"
          className={buttonClass('secondary', 'md', 'w-full')}
          onClick={add}
          disabled={disabled || problem !== null}
        >
          Add payment
        </button>
      </fieldset>
    </div>
  );
}
