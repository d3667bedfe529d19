import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  type CartProblem,
  centsNumber,
  type Discount,
  isCartProblem,
  linesOverLimit,
  type PricedCart,
} from '../../../shared/money';
import type { Role } from '../../../shared/roles';
import { MAX_SALE_LINES } from '../../../shared/sales';
import { creditQuery } from '../customers/credit-api';
import {
  type Cart,
  changeFor,
  isAboveStock,
  priceOf,
  quantityOf,
  setLineDiscount,
  tenderedOf,
} from './cart-rules';
import { type CounterDraft, readDraft, writeDraft } from './counter-drafts';
import { splitProblem } from './payments-editor';
import type { CounterStore } from './sales-api';

/**
 * Why the sale cannot be completed yet, or null when it can. `overStock`: the lines above the
 * stock are sold anyway (with an approval), so they do not block.
 */
function blockedBy(
  cart: Cart,
  priced: PricedCart | CartProblem | null,
  tenderedError: string | null,
  overStock = false,
  rereading = false,
): string | null {
  if (cart.length === 0) return 'Add a product to start the sale.';
  if (rereading) return "Reading the store's prices and taxes again...";
  if (cart.length > MAX_SALE_LINES) return `A sale has at most ${MAX_SALE_LINES} lines.`;
  if (cart.some((line) => quantityOf(line.quantity) === null))
    return 'Every line needs a quantity of at least 1.';
  if (!priced) return "Waiting for the store's prices and taxes.";
  if (isCartProblem(priced))
    return priced.problem === 'cartDiscountAboveSubtotal'
      ? "The sale's discount is more than the lines' amount: lower it."
      : "A line's discount is more than its amount: lower it.";
  if (!overStock && cart.some(isAboveStock))
    return 'Some lines ask for more than the stock: lower or remove them.';
  return tenderedError;
}

/** The draft with new lines; the sale's discount goes with its last line (an empty cart has none). */
export function withLines(draft: CounterDraft, lines: Cart): CounterDraft {
  return { ...draft, lines, discount: lines.length > 0 ? draft.discount : null };
}

/**
 * The counter's sale in progress and its rules: the draft, kept in this browser for the user
 * (counter-drafts.ts); its sums by the one computation the server makes; what the payment lacks;
 * and why the sale cannot be completed yet (`blocked`), or can only with a manager's approval.
 */
export function useCounterDraft({
  userId,
  role,
  store,
  rereading,
}: {
  userId: string;
  role: Role;
  store: CounterStore | undefined;
  /** The store is being read again after the server said the total moved: the sale waits for it. */
  rereading: boolean;
}) {
  const [draft, setDraft] = useState<CounterDraft>(() => readDraft(userId));
  useEffect(() => writeDraft(userId, draft), [userId, draft]);
  const { lines: cart, customer, method, tendered, discount: cartDiscount, split, payments } = draft;
  // The customer's store credit, when split payments may spend it (the editor reads the same).
  const credit = useQuery({ ...creditQuery(customer?._id ?? ''), enabled: split && customer !== null });

  const currency = store?.currency ?? 'USD';
  // The one computation the server makes (src/shared/money.ts): the screen shows the receipt's sums.
  const priced = store ? priceOf(cart, cartDiscount, store.pricesIncludeTax) : null;
  const pricedCart = priced && !isCartProblem(priced) ? priced : null;
  const total = pricedCart ? centsNumber(pricedCart.total) : 0;
  const overLimit =
    pricedCart && store && role !== 'admin' ? linesOverLimit(pricedCart, store.maxDiscountPercent) : [];
  const cash = method === 'cash' ? tenderedOf(tendered) : null;
  const tenderedError =
    cash === null
      ? null
      : Number.isNaN(cash)
        ? 'Enter the cash tendered as an amount, like 20 or 20.50.'
        : cart.length > 0 && changeFor(cash, total) < 0
          ? 'Cash tendered is less than the total.'
          : null;
  // Split payments must cover the total by the shared rules (settlePayments); one payment, its cash.
  const paymentError = split
    ? splitProblem(total, payments, customer, credit.data?.balance ?? null, currency)
    : tenderedError;
  const blocked = blockedBy(cart, priced, paymentError, false, rereading);
  // Only the stock stands in the way: a manager may approve selling what the shelf holds.
  const canSellAnyway =
    blocked !== null && cart.some(isAboveStock) && !blockedBy(cart, priced, paymentError, true, rereading);

  /** Why a discount cannot be given (an amount above what it applies to), or null. */
  function checkLineDiscount(productId: string, discount: Discount): string | null {
    if (!store) return null;
    const next = priceOf(setLineDiscount(cart, productId, discount), null, store.pricesIncludeTax);
    return isCartProblem(next) ? "A discount can be at most the line's amount." : null;
  }
  function checkCartDiscount(discount: Discount): string | null {
    if (!store) return null;
    const next = priceOf(cart, discount, store.pricesIncludeTax);
    return isCartProblem(next) && next.problem === 'cartDiscountAboveSubtotal'
      ? "The sale's discount can be at most the lines' amount after their own discounts."
      : null;
  }

  return {
    draft,
    setDraft,
    currency,
    priced,
    pricedCart,
    total,
    overLimit,
    cash,
    tenderedError,
    blocked,
    canSellAnyway,
    checkLineDiscount,
    checkCartDiscount,
  };
}
