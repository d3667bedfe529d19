import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { Discount } from '../../../shared/money';
import { formatMoney } from '../../lib/format';
import { discountFrom, formatPercent } from './cart-rules';

const TOGGLE =
  'flex cursor-pointer items-center justify-center border border-slate-300 bg-white px-2.5 py-1.5 text-xs font-medium text-slate-700 first:rounded-l-md last:rounded-r-md has-checked:border-indigo-600 has-checked:bg-indigo-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600';
const SMALL =
  'rounded-md px-2.5 py-1.5 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50';

/** How a discount reads: "10%" or "$2.00". */
export function discountLabel(discount: Discount, currency: string): string {
  return discount.type === 'percent' ? formatPercent(discount.value) : formatMoney(discount.value, currency);
}

/**
 * A discount on a line or on the whole sale (DESIGN §12): a small button that opens an editor in
 * place — percent or amount, and the value. Enter applies, Escape cancels; either way the focus
 * goes back to the button. An empty value or 0 removes the discount. `check` says why a discount
 * cannot be given here (an amount above what it applies to), judged by the shared computation.
 */
export function DiscountEditor({
  what,
  discount,
  currency,
  disabled,
  check,
  onApply,
  buttonText = 'Discount',
  showValue = false,
}: {
  /** What the discount is on, for the labels: "Salted Crisps", "the sale". */
  what: string;
  buttonText?: string;
  /** The button also says the discount given (where nothing else on screen does). */
  showValue?: boolean;
  discount: Discount | null;
  currency: string;
  disabled: boolean;
  check: (discount: Discount) => string | null;
  onApply: (discount: Discount | null) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<Discount['type']>('percent');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const valueRef = useRef<HTMLInputElement>(null);
  const focusButton = useRef(false);

  useEffect(() => {
    if (open) valueRef.current?.select();
    else if (focusButton.current) {
      focusButton.current = false;
      buttonRef.current?.focus();
    }
  }, [open]);

  function start() {
    setType(discount?.type ?? 'percent');
    setText(discount ? String(discount.value) : '');
    setError(null);
    setOpen(true);
  }

  function close() {
    focusButton.current = true;
    setOpen(false);
  }

  function apply() {
    const read = discountFrom(type, text);
    if ('error' in read) return setError(read.error);
    const problem = read.discount ? check(read.discount) : null;
    if (problem) return setError(problem);
    onApply(read.discount);
    close();
  }

  function onKeyDown(event: KeyboardEvent<HTMLFieldSetElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      // Inside the payment form too: Enter applies the discount, it does not complete the sale.
      event.preventDefault();
      apply();
    }
  }

  if (!open) {
    return (
      <div className="flex flex-wrap items-center gap-x-2 text-xs">
        <button
          ref={buttonRef}
          type="button"
          onClick={start}
          disabled={disabled}
          aria-label={`Discount on ${what}${discount ? `: ${discountLabel(discount, currency)}` : ''}`}
          className={`${SMALL} -ml-2.5 text-indigo-700 hover:bg-indigo-50`}
        >
          {/* A line says its discount beside its name; the sale's is said here. */}
          {showValue && discount ? `${buttonText}: ${discountLabel(discount, currency)}` : buttonText}
        </button>
      </div>
    );
  }

  const label = type === 'percent' ? `Discount percent on ${what}` : `Discount amount on ${what}`;
  return (
    // Keys typed here are the editor's: the cart line's + − Delete and arrows do not apply.
    <fieldset
      data-discount-editor
      onKeyDown={onKeyDown}
      className="space-y-2 rounded-md border border-indigo-200 bg-indigo-50/50 p-2"
    >
      <legend className="sr-only">Discount on {what}</legend>
      <div className="flex flex-wrap items-center gap-2">
        <fieldset className="flex">
          <legend className="sr-only">Discount type</legend>
          <label className={TOGGLE}>
            <input
              type="radio"
              name={`${id}-type`}
              checked={type === 'percent'}
              onChange={() => setType('percent')}
              className="sr-only"
            />
            Percent
          </label>
          <label className={TOGGLE}>
            <input
              type="radio"
              name={`${id}-type`}
              checked={type === 'amount'}
              onChange={() => setType('amount')}
              className="sr-only"
            />
            Amount
          </label>
        </fieldset>
        <div className="flex items-center gap-1">
          <input
            ref={valueRef}
            aria-label={label}
            inputMode="decimal"
            autoComplete="off"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            placeholder={type === 'percent' ? '10' : '2.50'}
            className={`h-8 w-20 rounded-md border bg-white px-2 text-right text-sm tabular-nums text-slate-900 ${
              error ? 'border-red-500' : 'border-slate-300'
            }`}
          />
          <span aria-hidden="true" className="text-sm text-slate-600">
            {type === 'percent' ? '%' : currency}
          </span>
        </div>
        <button
          type="button"
          onClick={apply}
          className={`${SMALL} bg-indigo-600 text-white hover:bg-indigo-500`}
        >
          Apply
        </button>
        <button type="button" onClick={close} className={`${SMALL} text-slate-700 hover:bg-slate-100`}>
          Cancel
        </button>
        {discount ? (
          <button
            type="button"
            onClick={() => {
              onApply(null);
              close();
            }}
            className={`${SMALL} text-red-700 hover:bg-red-50`}
          >
            Remove
          </button>
        ) : null}
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs font-semibold text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
