import { type FormEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Customer } from '../../../shared/customers';
import type { Product } from '../../../shared/products';
import {
  MAX_SALE_LINES,
  PAYMENT_LABEL,
  PAYMENT_METHODS,
  type PaymentMethod,
  SaleInput,
} from '../../../shared/sales';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { PageHeader } from '../../components/page-header';
import { ApiRequestError, errorMessage } from '../../lib/api';
import { salePath } from '../../lib/area-paths';
import { formatMoney } from '../../lib/format';
import { useSignedInUser } from '../../lib/signed-in';
import { CartLines } from './cart-lines';
import {
  addToCart,
  type Cart,
  cartTotal,
  changeFor,
  isAboveStock,
  itemCount,
  quantityOf,
  refreshProducts,
  removeLine,
  setQuantity,
  stepQuantity,
  tenderedOf,
} from './cart-rules';
import { CustomerPicker } from './customer-picker';
import { ProductSearch } from './product-search';
import { readProducts, useCompleteSale } from './sales-api';

/** Why the sale cannot be completed yet, or null when it can. */
function blockedBy(cart: Cart, tenderedError: string | null): string | null {
  if (cart.length === 0) return 'Add a product to start the sale.';
  if (cart.length > MAX_SALE_LINES) return `A sale has at most ${MAX_SALE_LINES} lines.`;
  if (cart.some((line) => quantityOf(line.quantity) === null))
    return 'Every line needs a quantity of at least 1.';
  if (cart.some(isAboveStock)) return 'Some lines ask for more than the stock: lower or remove them.';
  return tenderedError;
}

/**
 * The sale counter (DESIGN §11): scan or find products into a cart, optionally name the customer,
 * take the payment and complete the sale, then show its receipt.
 */
export function CounterPage() {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const searchRef = useRef<HTMLInputElement>(null);
  const [cart, setCart] = useState<Cart>([]);
  const [customer, setCustomer] = useState<Customer | null>(null);
  const [method, setMethod] = useState<PaymentMethod>('cash');
  const [tendered, setTendered] = useState('');
  const complete = useCompleteSale();
  const busy = complete.isPending;

  const total = cartTotal(cart);
  const cash = method === 'cash' ? tenderedOf(tendered) : null;
  const tenderedError =
    cash === null
      ? null
      : Number.isNaN(cash)
        ? 'Enter the cash tendered as an amount, like 20 or 20.50.'
        : cart.length > 0 && changeFor(cash, total) < 0
          ? 'Cash tendered is less than the total.'
          : null;
  const blocked = blockedBy(cart, tenderedError);

  /** A change made by the cashier: the last refusal no longer describes the sale. */
  function edit(change: (cart: Cart) => Cart) {
    if (busy) return;
    setCart(change);
    if (complete.isError) complete.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (blocked || busy) return;
    const input = SaleInput.safeParse({
      lines: cart.map((line) => ({ productId: line.product._id, quantity: quantityOf(line.quantity) })),
      customer: customer?._id,
      payment: { method, tendered: cash ?? undefined },
    });
    if (!input.success) return;
    complete.mutate(input.data, {
      onSuccess: ({ sale }) => navigate(salePath(user.role, sale._id)),
      onError: (error) => {
        // Someone else sold some meanwhile: the lines show the stock as it is now.
        if (error instanceof ApiRequestError && error.status === 409)
          void readProducts(cart.map((line) => line.product._id)).then((products) =>
            setCart((now) => refreshProducts(now, products)),
          );
      },
    });
  }

  const serverError =
    complete.error instanceof ApiRequestError && complete.error.status === 401 ? null : complete.error;

  return (
    <>
      <PageHeader title="New sale" />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <section aria-label="Products of the sale" className="min-w-0 space-y-4">
          <ProductSearch
            inputRef={searchRef}
            onAdd={(product: Product) => edit((now) => addToCart(now, product))}
          />
          <CartLines
            cart={cart}
            disabled={busy}
            searchRef={searchRef}
            onQuantity={(id, quantity) => edit((now) => setQuantity(now, id, quantity))}
            onStep={(id, step) => edit((now) => stepQuantity(now, id, step))}
            onRemove={(id) => edit((now) => removeLine(now, id))}
          />
        </section>
        <div className="space-y-4 lg:sticky lg:top-8">
          <section
            aria-labelledby="sale-customer"
            className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
          >
            <h2 id="sale-customer" className="mb-3 text-sm font-semibold text-slate-900">
              Customer <span className="font-normal text-slate-500">(optional)</span>
            </h2>
            <CustomerPicker customer={customer} onChange={setCustomer} disabled={busy} />
          </section>
          <PaymentForm
            method={method}
            onMethod={setMethod}
            tendered={tendered}
            onTendered={setTendered}
            tenderedError={tenderedError}
            change={cash !== null && !Number.isNaN(cash) && !tenderedError ? changeFor(cash, total) : null}
            total={total}
            items={itemCount(cart)}
            blocked={blocked}
            busy={busy}
            error={serverError ? errorMessage(serverError) : null}
            onSubmit={submit}
          />
        </div>
      </div>
    </>
  );
}

function PaymentForm({
  method,
  onMethod,
  tendered,
  onTendered,
  tenderedError,
  change,
  total,
  items,
  blocked,
  busy,
  error,
  onSubmit,
}: {
  method: PaymentMethod;
  onMethod: (method: PaymentMethod) => void;
  tendered: string;
  onTendered: (tendered: string) => void;
  tenderedError: string | null;
  change: number | null;
  total: number;
  items: number;
  blocked: string | null;
  busy: boolean;
  error: string | null;
  onSubmit: (event: FormEvent) => void;
}) {
  const id = useId();
  // The tendered field says its own problem; the other reasons are said by the button.
  const showBlocked = Boolean(blocked) && blocked !== tenderedError && !error;
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-labelledby={`${id}-title`}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id={`${id}-title`} className="sr-only">
        Payment
      </h2>
      <fieldset disabled={busy}>
        <legend className="mb-2 text-sm font-semibold text-slate-900">Payment</legend>
        <div className="grid grid-cols-3 gap-2">
          {PAYMENT_METHODS.map((one) => (
            <label
              key={one}
              className="flex cursor-pointer items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 has-checked:border-indigo-600 has-checked:bg-indigo-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600"
            >
              <input
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
      {method === 'cash' ? (
        <div className="space-y-2">
          <TextField
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
              {change === null ? '—' : formatMoney(change)}
            </output>
          </p>
        </div>
      ) : null}
      <dl className="space-y-1 border-t border-slate-200 pt-3">
        <div className="flex items-baseline justify-between text-sm text-slate-600">
          <dt>Items</dt>
          <dd className="tabular-nums">{items}</dd>
        </div>
        <div className="flex items-baseline justify-between">
          <dt className="text-base font-semibold text-slate-900">Total</dt>
          <dd className="text-2xl font-bold tabular-nums text-slate-900" aria-live="polite">
            {formatMoney(total)}
          </dd>
        </div>
      </dl>
      <FormError>{error}</FormError>
      {showBlocked ? (
        <p id={`${id}-blocked`} className="text-sm text-slate-600">
          {blocked}
        </p>
      ) : null}
      <button
        type="submit"
        className={buttonClass('primary', 'md', 'w-full')}
        disabled={Boolean(blocked) || busy}
        aria-describedby={showBlocked ? `${id}-blocked` : undefined}
      >
        {busy ? 'Completing sale...' : 'Complete sale'}
      </button>
    </form>
  );
}
