import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { type Order, OrderResponse } from '../../shared/orders';
import { ReturnInput } from '../../shared/stock';
import { api, errorMessage } from '../lib/api';
import { idempotencyKeys } from '../lib/idempotency';
import { notify } from '../lib/notify';
import { queryKeys } from '../lib/query-keys';
import { buttonClass } from './button';
import { FormError, TextField } from './form-field';
import { Modal } from './modal';

/**
 * What a return needs to know of an order: an order of the Orders list, or a line of a sale's
 * page (its order, the product and the seller).
 */
export type Returnable = Pick<Order, '_id' | 'quantity' | 'returnedQuantity'> & {
  product: { name: string };
  user: { name: string };
};

/** What of an order can still come back. */
export const remaining = (order: Returnable) => order.quantity - order.returnedQuantity;

/** The mark of a returned or partly returned order, or null for one with nothing returned. */
export function returnMark(order: Order): string | null {
  if (order.status === 'returned') return 'Returned';
  return order.returnedQuantity > 0 ? `${order.returnedQuantity} of ${order.quantity} returned` : null;
}

/**
 * Take back part or all of an order: the units go back to stock (DESIGN §8). Shared by the
 * Orders list and a sale's page, so both return by the same rules.
 */
export function ReturnDialog({ order, onClose }: { order: Returnable; onClose: () => void }) {
  const queryClient = useQueryClient();
  const keys = useRef(idempotencyKeys()).current;
  const [quantity, setQuantity] = useState(String(remaining(order)));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const give = useMutation({
    mutationFn: (input: ReturnInput) =>
      api(`/order/${encodeURIComponent(order._id)}/return`, {
        method: 'POST',
        body: input,
        schema: OrderResponse,
        idempotencyKey: keys.keyFor(input),
      }),
    meta: { inlineErrors: true },
    onSettled: (_answer, failure) => {
      keys.settled(failure);
      void queryClient.invalidateQueries({ queryKey: queryKeys.orders });
      void queryClient.invalidateQueries({ queryKey: queryKeys.sales });
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const count = quantity.trim() === '' ? Number.NaN : Number(quantity);
    const parsed = ReturnInput.safeParse({ quantity: count, ...(reason.trim() ? { reason } : {}) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter how many units came back.');
      return;
    }
    if (parsed.data.quantity > remaining(order)) {
      setError(`At most ${remaining(order)} can come back.`);
      return;
    }
    setError(undefined);
    give.mutate(parsed.data, {
      onSuccess: () => {
        notify.success(`${parsed.data.quantity} of ${order.product.name} returned to stock.`);
        onClose();
      },
    });
  }

  return (
    <Modal title={`Return: ${order.product.name}`} onClose={() => !give.isPending && onClose()}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <p className="text-sm text-slate-600">
          Ordered {order.quantity} by {order.user.name}; {remaining(order)} can still come back.
        </p>
        <TextField
          label="Quantity"
          type="number"
          inputMode="numeric"
          min={1}
          max={remaining(order)}
          step={1}
          required
          value={quantity}
          onChange={(event) => setQuantity(event.target.value)}
          error={error}
        />
        <TextField label="Reason" value={reason} onChange={(event) => setReason(event.target.value)} />
        <FormError>{give.error ? errorMessage(give.error) : null}</FormError>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            className={buttonClass('secondary')}
            onClick={onClose}
            disabled={give.isPending}
          >
            Cancel
          </button>
          <button type="submit" className={buttonClass('primary')} disabled={give.isPending}>
            {give.isPending ? 'Returning...' : 'Return to stock'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
