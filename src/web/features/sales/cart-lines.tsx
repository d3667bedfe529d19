import { type KeyboardEvent, type Ref, type RefObject, useRef } from 'react';
import { centsNumber, type Discount, type PricedLine } from '../../../shared/money';
import { PathIcon } from '../../components/icon';
import { formatMoney } from '../../lib/format';
import { LotPlanText, useLotPlan } from './cart-lots';
import { type Cart, type CartLine, isAboveStock, quantityOf } from './cart-rules';
import { SHORTCUT_KEYS } from './counter-shortcuts';
import { DiscountEditor, discountLabel } from './discount-editor';

const STEP =
  'inline-flex size-9 shrink-0 items-center justify-center border border-slate-300 bg-white text-lg leading-none text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50';

type Actions = {
  onQuantity: (productId: string, quantity: string) => void;
  onStep: (productId: string, step: 1 | -1) => void;
  onRemove: (productId: string) => void;
  onDiscount: (productId: string, discount: Discount | null) => void;
  /** Why this discount cannot be given on the line, or null. */
  checkDiscount: (productId: string, discount: Discount) => string | null;
};

/** The cart as priced (one entry per line), or null while it cannot be (no settings yet). */
type Pricing = {
  lines: readonly PricedLine[] | null;
  /** The line whose amount discount is above its amount, if any. */
  overLine: number | null;
  currency: string;
};

/**
 * The cart, one line per product. Tab stops at two controls per line, the quantity box and Remove,
 * so the customer and the payment stay a few keys away (− and + are for the mouse and touch; the
 * keyboard has + and − in the box). A line answers + and − and, once focus is on the line itself
 * (after a removal), Delete (removes it; focus moves to the next line, or back to the search box
 * when none is left) and the arrow keys (move between lines).
 */
export function CartLines({
  cart,
  pricing,
  disabled,
  searchRef,
  lastQuantityRef,
  ...actions
}: Actions & {
  cart: Cart;
  pricing: Pricing;
  disabled: boolean;
  searchRef: RefObject<HTMLInputElement | null>;
  /** The last line's quantity box, for the quantity shortcut. */
  lastQuantityRef: Ref<HTMLInputElement>;
}) {
  const rows = useRef(new Map<string, HTMLLIElement>());

  if (cart.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-10 text-center text-sm text-slate-500">
        <p className="font-medium text-slate-700">The cart is empty.</p>
        <p className="mt-1">Scan a barcode or search for a product to start the sale.</p>
      </div>
    );
  }

  function remove(productId: string) {
    const at = cart.findIndex((line) => line.product._id === productId);
    const next = cart[at + 1] ?? cart[at - 1];
    actions.onRemove(productId);
    if (next) rows.current.get(next.product._id)?.focus();
    else searchRef.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLLIElement>, line: CartLine) {
    if (disabled) return;
    if (event.target instanceof Element && event.target.closest('[data-discount-editor]')) return;
    const id = line.product._id;
    if (event.key === '+' || event.key === '-') {
      event.preventDefault();
      actions.onStep(id, event.key === '+' ? 1 : -1);
      return;
    }
    // In the quantity box, Delete and the arrows edit the number.
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      remove(id);
    } else if (
      (event.key === 'ArrowDown' || event.key === 'ArrowUp') &&
      event.target === event.currentTarget
    ) {
      event.preventDefault();
      const at = cart.indexOf(line) + (event.key === 'ArrowDown' ? 1 : -1);
      const to = cart[at];
      if (to) rows.current.get(to.product._id)?.focus();
    }
  }

  return (
    <>
      <ul
        aria-label="Cart"
        className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
      >
        {cart.map((line, at) => (
          <CartRow
            key={line.product._id}
            line={line}
            priced={pricing.lines?.[at] ?? null}
            discountTooLarge={pricing.overLine === at}
            currency={pricing.currency}
            disabled={disabled}
            quantityRef={at === cart.length - 1 ? lastQuantityRef : undefined}
            rowRef={(node) => {
              if (node) rows.current.set(line.product._id, node);
              else rows.current.delete(line.product._id);
            }}
            onKeyDown={(event) => onKeyDown(event, line)}
            onQuantity={actions.onQuantity}
            onStep={actions.onStep}
            onRemove={remove}
            onDiscount={actions.onDiscount}
            checkDiscount={actions.checkDiscount}
          />
        ))}
      </ul>
      <p className="mt-2 hidden text-xs text-slate-500 sm:block">
        In a quantity box: <kbd className="font-sans font-semibold">+</kbd> and{' '}
        <kbd className="font-sans font-semibold">−</kbd> change it by one; Tab goes on to Remove and Discount.
      </p>
    </>
  );
}

function CartRow({
  line,
  priced,
  discountTooLarge,
  currency,
  disabled,
  quantityRef,
  rowRef,
  onKeyDown,
  onQuantity,
  onStep,
  onRemove,
  onDiscount,
  checkDiscount,
}: Actions & {
  line: CartLine;
  priced: PricedLine | null;
  discountTooLarge: boolean;
  currency: string;
  disabled: boolean;
  quantityRef: Ref<HTMLInputElement> | undefined;
  rowRef: (node: HTMLLIElement | null) => void;
  onKeyDown: (event: KeyboardEvent<HTMLLIElement>) => void;
}) {
  const { product } = line;
  const quantity = quantityOf(line.quantity);
  const above = isAboveStock(line);
  // A lot-tracked product: the lots the line takes, and whether their unexpired units suffice.
  const lots = useLotPlan(product, quantity);
  const problem =
    quantity === null
      ? 'Enter a quantity of at least 1.'
      : above
        ? product.stock <= 0
          ? 'Out of stock.'
          : `Only ${product.stock} in stock.`
        : lots.state === 'ready' && lots.problem
          ? lots.problem
          : discountTooLarge
            ? "The discount is more than the line's amount."
            : null;
  const money = (value: number) => formatMoney(value, currency);
  // The line after its own discount; the sale's discount and the tax show in the totals.
  const shown = priced ? centsNumber(priced.gross - priced.lineDiscount) : null;
  // What can be sold: a lot-tracked product's unexpired units, its expired ones said apart.
  const sellable = lots.state === 'ready' ? lots.unexpired : product.stock;
  const expired = lots.state === 'ready' ? lots.expired : 0;

  return (
    <li
      ref={rowRef}
      // Focusable by script only (focus lands here after a removal), not a tab stop (see CartLines).
      tabIndex={-1}
      aria-label={`${product.name}, quantity ${line.quantity || 'none'}${lots.state === 'ready' && lots.label ? `, ${lots.label}` : ''}${problem ? `. ${problem}` : ''}`}
      data-above-stock={above || undefined}
      onKeyDown={onKeyDown}
      className={`grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-2 px-3 py-3 focus-visible:-outline-offset-2 sm:grid-cols-[minmax(0,1fr)_auto_6.5rem_auto] sm:px-4 ${
        problem ? 'bg-red-50' : ''
      }`}
    >
      <div className="order-1 min-w-0">
        <p className="font-medium break-words text-slate-900">{product.name}</p>
        <p className="text-xs text-slate-500">
          <span className="tabular-nums">{money(product.price)}</span> each ·{' '}
          <span className="tabular-nums">{sellable}</span> in stock
          {expired > 0 ? (
            <>
              {' '}
              (<span className="tabular-nums">{expired}</span> expired)
            </>
          ) : null}
          {product.taxRate ? ` · ${product.taxRate.name}` : ''}
        </p>
        <LotPlanText plan={lots} />
        {line.discount && priced && priced.lineDiscount > 0n ? (
          <p className="text-xs text-green-800">
            Discount {discountLabel(line.discount, currency)}:{' '}
            <span className="tabular-nums">−{money(centsNumber(priced.lineDiscount))}</span>
          </p>
        ) : null}
        {problem ? (
          <p className="mt-0.5 flex items-center gap-1 text-xs font-semibold text-red-700">
            <span aria-hidden="true">⚠</span>
            {problem}
          </p>
        ) : null}
      </div>
      <div className="order-3 flex items-center sm:order-2">
        <button
          type="button"
          className={`${STEP} rounded-l-md`}
          onClick={() => onStep(product._id, -1)}
          disabled={disabled || (quantity ?? 0) <= 1}
          tabIndex={-1}
          aria-label={`One less ${product.name}`}
        >
          −
        </button>
        <input
          ref={quantityRef}
          aria-keyshortcuts={quantityRef ? SHORTCUT_KEYS.quantity : undefined}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={line.quantity}
          onChange={(event) => onQuantity(product._id, event.target.value)}
          disabled={disabled}
          aria-label={`Quantity of ${product.name}`}
          aria-invalid={problem ? true : undefined}
          className={`h-9 w-16 border-y bg-white px-1 text-center text-sm tabular-nums text-slate-900 [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none ${
            problem ? 'border-red-500' : 'border-slate-300'
          }`}
        />
        <button
          type="button"
          className={`${STEP} rounded-r-md`}
          onClick={() => onStep(product._id, 1)}
          disabled={disabled}
          tabIndex={-1}
          aria-label={`One more ${product.name}`}
        >
          +
        </button>
      </div>
      <p className="order-4 text-right font-semibold tabular-nums text-slate-900 sm:order-3">
        <span className="sr-only">Line total </span>
        {shown === null ? '—' : money(shown)}
      </p>
      <button
        type="button"
        className="order-2 justify-self-end rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-red-700 disabled:opacity-50 sm:order-4"
        onClick={() => onRemove(product._id)}
        disabled={disabled}
        aria-label={`Remove ${product.name}`}
      >
        <PathIcon path="M6 6l12 12M18 6L6 18" />
      </button>
      <div className="order-5 col-span-full">
        <DiscountEditor
          what={product.name}
          discount={line.discount ?? null}
          currency={currency}
          disabled={disabled}
          check={(discount) => checkDiscount(product._id, discount)}
          onApply={(discount) => onDiscount(product._id, discount)}
        />
      </div>
    </li>
  );
}
