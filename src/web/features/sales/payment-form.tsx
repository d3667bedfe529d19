import type { FormEvent, ReactNode, Ref } from 'react';
import { useId } from 'react';
import { PAYMENT_LABEL, PAYMENT_METHODS, type PaymentMethod } from '../../../shared/sales';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { formatMoney } from '../../lib/format';
import { SHORTCUT_KEYS } from './counter-shortcuts';

/**
 * The counter's payment: one method (and the cash tendered, with the change) or a split of
 * several, the sale's totals, why it cannot be completed yet, and the buttons that complete it.
 */
export function PaymentForm({
  formRef,
  payRef,
  completeRef,
  split,
  onSplit,
  splitEditor,
  method,
  onMethod,
  tendered,
  onTendered,
  tenderedError,
  change,
  totals,
  currency,
  total,
  blocked,
  busy,
  error,
  sellAnyway,
  onSubmit,
}: {
  formRef: Ref<HTMLFormElement>;
  /** Where the payment shortcut lands: the cash tendered, or the chosen method. */
  payRef: Ref<HTMLInputElement>;
  completeRef: Ref<HTMLButtonElement>;
  /** Paid in several payments (the split editor) rather than one. */
  split: boolean;
  onSplit: (split: boolean) => void;
  splitEditor: ReactNode;
  method: PaymentMethod;
  onMethod: (method: PaymentMethod) => void;
  tendered: string;
  onTendered: (tendered: string) => void;
  tenderedError: string | null;
  change: number | null;
  /** Items, subtotal, discounts, tax by rate and the total. */
  totals: ReactNode;
  currency: string;
  total: number;
  blocked: string | null;
  busy: boolean;
  error: string | null;
  /** Offered when only the stock stands in the way: a manager approves selling anyway. */
  sellAnyway: (() => void) | null;
  onSubmit: (event: FormEvent) => void;
}) {
  const id = useId();
  // The tendered field says its own problem; the other reasons are said by the button.
  const showBlocked = Boolean(blocked) && blocked !== tenderedError && !error;
  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={onSubmit}
      aria-labelledby={`${id}-title`}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id={`${id}-title`} className="sr-only">
        Payment
      </h2>
      <div className="flex items-center justify-between gap-2">
        <p aria-hidden="true" className="text-sm font-semibold text-slate-900">
          Payment
        </p>
        <button
          type="button"
          className={buttonClass(
            'secondary',
            'sm',
            'aria-pressed:border-indigo-600 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-800',
          )}
          aria-pressed={split}
          onClick={() => onSplit(!split)}
          disabled={busy}
        >
          Split payment
        </button>
      </div>
      {split ? (
        splitEditor
      ) : (
        <fieldset disabled={busy}>
          <legend className="sr-only">Payment</legend>
          <div className="grid grid-cols-3 gap-2">
            {PAYMENT_METHODS.filter((one) => one !== 'storeCredit').map((one) => (
              <label
                key={one}
                className="flex cursor-pointer items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 has-checked:border-indigo-600 has-checked:bg-indigo-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600"
              >
                <input
                  ref={method === one && method !== 'cash' ? payRef : undefined}
                  aria-keyshortcuts={method === one && method !== 'cash' ? SHORTCUT_KEYS.pay : undefined}
                  type="radio"
                  name={`${id}-method`}
                  value={one}
                  checked={method === one}
                  onChange={() => onMethod(one)}
                  className="sr-only"
                />
                {PAYMENT_LABEL[one]}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {!split && method === 'cash' ? (
        <div className="space-y-2">
          <TextField
            ref={payRef}
            aria-keyshortcuts={SHORTCUT_KEYS.pay}
            label="Cash tendered"
            inputMode="decimal"
            autoComplete="off"
            placeholder={total.toFixed(2)}
            value={tendered}
            onChange={(event) => onTendered(event.target.value)}
            error={tenderedError ?? undefined}
            hint="Leave empty when the customer pays the exact total."
            disabled={busy}
          />
          <p className="flex items-baseline justify-between text-sm text-slate-700">
            <span id={`${id}-change`}>Change</span>
            <output
              aria-labelledby={`${id}-change`}
              aria-live="polite"
              className="text-base font-semibold tabular-nums text-slate-900"
            >
              {change === null ? '—' : formatMoney(change, currency)}
            </output>
          </p>
        </div>
      ) : null}
      {totals}
      <FormError>{error}</FormError>
      {showBlocked ? (
        <p id={`${id}-blocked`} className="text-sm text-slate-600">
          {blocked}
        </p>
      ) : null}
      {sellAnyway ? (
        <button
          type="button"
          className={buttonClass('secondary', 'md', 'w-full')}
          onClick={sellAnyway}
          disabled={busy}
        >
          Sell anyway (manager approval)
        </button>
      ) : null}
      <button
        ref={completeRef}
        type="submit"
        className={buttonClass('primary', 'md', 'w-full')}
        disabled={Boolean(blocked) || busy}
        aria-keyshortcuts={SHORTCUT_KEYS.complete}
        aria-describedby={showBlocked ? `${id}-blocked` : undefined}
      >
        {busy ? 'Completing sale...' : 'Complete sale'}
      </button>
    </form>
  );
}
