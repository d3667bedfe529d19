import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { OrderInput, OrderResponse } from '../../../shared/orders';
import type { Product } from '../../../shared/products';
import { saleNumberLabel } from '../../../shared/sales';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { ApiRequestError, api, errorMessage } from '../../lib/api';
import { salePath } from '../../lib/area-paths';
import { idempotencyKeys } from '../../lib/idempotency';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { getSession } from '../../lib/session';
import { useMoney } from '../../lib/store-settings';
import { stockProblem, totalFor } from './order-rules';

/** 'Place Order' for one product: quantity 1 to the stock, live total, server-checked stock. */
export function OrderModal({ product, onClose }: { product: Product; onClose: () => void }) {
  const money = useMoney();
  const queryClient = useQueryClient();
  const totalId = useId();
  const [quantity, setQuantity] = useState('1');
  const [fieldError, setFieldError] = useState<string | undefined>();

  // A retry of the same order (after a network error) is the same order: it carries the same key.
  const keys = useRef(idempotencyKeys()).current;
  const place = useMutation({
    mutationFn: (input: OrderInput) =>
      api('/order/add', {
        method: 'POST',
        body: input,
        schema: OrderResponse,
        idempotencyKey: keys.keyFor(input),
      }),
    meta: { inlineErrors: true },
    onSuccess: () => keys.settled(),
    onError: (error) => keys.settled(error),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.orders });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
      void queryClient.invalidateQueries({ queryKey: queryKeys.sales });
    },
  });

  function onQuantityChange(typed: string) {
    setQuantity(typed);
    setFieldError(undefined);
    if (place.isError) place.reset();
  }

  // Checked on every render, so the message and the disabled button follow the box as it changes.
  const stockError = stockProblem(quantity, product.stock);

  function submit(event: FormEvent) {
    event.preventDefault();
    // Enter in the box submits too: a quantity above the stock is never sent.
    if (stockError || place.isPending) return;
    const parsed = OrderInput.safeParse({
      productId: product._id,
      quantity: quantity.trim() === '' ? Number.NaN : Number(quantity),
    });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Enter a quantity of at least 1.');
      return;
    }
    place.mutate(parsed.data, {
      onSuccess: ({ order }) => {
        // The order is a one-line sale (DESIGN §16): the message offers its receipt, in the
        // signed-in buyer's own area.
        const role = getSession()?.user.role;
        notify.success(
          'order placed',
          order.sale && role
            ? {
                to: salePath(role, order.sale._id),
                label: `Receipt ${saleNumberLabel(order.sale.number)}`,
              }
            : undefined,
        );
        onClose();
      },
    });
  }

  const serverError =
    place.error instanceof ApiRequestError && place.error.status === 401 ? null : place.error;

  return (
    <Modal title="Place Order" onClose={() => !place.isPending && onClose()}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md bg-slate-50 p-3 text-sm">
          <dt className="text-slate-500">Product</dt>
          <dd className="font-medium text-slate-900">{product.name}</dd>
          <dt className="text-slate-500">Unit price</dt>
          <dd className="tabular-nums">{money(product.price)}</dd>
          <dt className="text-slate-500">In stock</dt>
          <dd className="tabular-nums">{product.stock}</dd>
        </dl>
        <TextField
          label="Quantity"
          type="number"
          inputMode="numeric"
          min={1}
          max={product.stock}
          step={1}
          required
          value={quantity}
          onChange={(event) => onQuantityChange(event.target.value)}
          error={fieldError}
          aria-invalid={fieldError || stockError ? true : undefined}
          aria-describedby={totalId}
        />
        <p className="text-base text-slate-700">
          Total:{' '}
          <span id={totalId} aria-live="polite" className="font-semibold text-slate-900 tabular-nums">
            {money(totalFor(quantity, product.price))}
          </span>
        </p>
        <FormError>{stockError ?? (serverError ? errorMessage(serverError) : null)}</FormError>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            className={buttonClass('secondary')}
            onClick={onClose}
            disabled={place.isPending}
          >
            Cancel
          </button>
          <button
            type="submit"
            className={buttonClass('primary')}
            disabled={place.isPending || stockError !== null}
          >
            {place.isPending ? 'Placing order...' : 'Place Order'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
