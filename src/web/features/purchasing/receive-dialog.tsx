import { type FormEvent, useState } from 'react';
import { type PurchaseOrder, type PurchaseOrderLine, ReceiveInput } from '../../../shared/purchasing';
import { buttonClass } from '../../components/button';
import { FormError } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { errorMessage } from '../../lib/api';
import { notify } from '../../lib/notify';
import { openQuantity } from './purchase-order-status';
import { useKeys, useReceive } from './purchasing-api';

/** Why a box's quantity cannot be received, or null when it can (0 included: that line waits). */
export function receiveProblem(text: string, open: number): string | null {
  const value = text.trim() === '' ? 0 : Number(text);
  if (!Number.isInteger(value)) return 'Quantity must be a whole number.';
  if (value < 0) return 'Quantity must be 0 or more.';
  if (value > open) return `At most ${open} ${open === 1 ? 'is' : 'are'} open.`;
  return null;
}

const units = (count: number) => `${count} ${count === 1 ? 'unit' : 'units'}`;

/**
 * Receive goods against the open lines: a quantity per line (0 leaves it waiting), or "Receive
 * all". One Idempotency-Key per submit, kept when the same receipt is retried after no answer.
 */
export function ReceiveDialog({ order, onClose }: { order: PurchaseOrder; onClose: () => void }) {
  const keys = useKeys();
  const receive = useReceive(order._id);
  const open = order.lines.filter((line) => openQuantity(line) > 0);
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const quantityText = (line: PurchaseOrderLine) => quantities[line._id] ?? '0';

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    for (const line of open) {
      const problem = receiveProblem(quantityText(line), openQuantity(line));
      if (problem) found[line._id] = problem;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFormError(null);
      return;
    }
    const lines = open
      .map((line) => ({ line: line._id, quantity: Number(quantityText(line) || 0) }))
      .filter((line) => line.quantity > 0);
    const parsed = ReceiveInput.safeParse({ lines });
    if (!parsed.success) {
      setFormError(parsed.error.issues[0]?.message ?? 'Receive at least one line.');
      return;
    }
    setFormError(null);
    const received = parsed.data.lines.reduce((sum, line) => sum + line.quantity, 0);
    receive.mutate(
      { input: parsed.data, key: keys.keyFor({ order: order._id, ...parsed.data }) },
      {
        onSuccess: (answer) => {
          keys.settled();
          notify.success(`${units(received)} received on ${answer.purchaseOrder.number}.`);
          onClose();
        },
        onError: (error) => {
          keys.settled(error);
          setFormError(errorMessage(error));
        },
      },
    );
  }

  return (
    <Modal title={`Receive: ${order.number}`} size="lg" onClose={() => !receive.isPending && onClose()}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-600">Enter what arrived; 0 leaves a line waiting.</p>
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            disabled={open.length === 0 || receive.isPending}
            onClick={() => {
              setQuantities(Object.fromEntries(open.map((line) => [line._id, String(openQuantity(line))])));
              setErrors({});
            }}
          >
            Receive all
          </button>
        </div>
        <Table caption={`Open lines of ${order.number}`}>
          <thead className="max-sm:sr-only">
            <tr>
              <Th>Product</Th>
              <Th className="text-right">Ordered</Th>
              <Th className="text-right">Received</Th>
              <Th className="text-right">Open</Th>
              <Th className="text-right">Receive now</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {open.length === 0 ? (
              <TableMessage colSpan={5}>Nothing is open on this purchase order any more.</TableMessage>
            ) : (
              open.map((line) => {
                const id = `receive-${line._id}`;
                const error = errors[line._id];
                return (
                  <tr
                    key={line._id}
                    className="align-top max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:gap-x-3 max-sm:px-3 max-sm:py-3"
                  >
                    <Td className="font-medium max-sm:col-span-2 max-sm:p-0 sm:pt-4">{line.product.name}</Td>
                    <Td className="text-right tabular-nums max-sm:hidden sm:pt-4">{line.quantity}</Td>
                    <Td className="text-right tabular-nums max-sm:hidden sm:pt-4">{line.received}</Td>
                    <Td className="text-right tabular-nums max-sm:p-0 max-sm:text-left max-sm:text-xs sm:pt-4">
                      <span className="sm:hidden">
                        Ordered {line.quantity}, received {line.received}, open{' '}
                      </span>
                      {openQuantity(line)}
                    </Td>
                    <Td className="text-right max-sm:row-span-2 max-sm:p-0">
                      <input
                        id={id}
                        type="number"
                        inputMode="numeric"
                        min={0}
                        max={openQuantity(line)}
                        step={1}
                        aria-label={`Receive now: ${line.product.name}`}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={error ? `${id}-error` : undefined}
                        value={quantityText(line)}
                        onChange={(event) =>
                          setQuantities((now) => ({ ...now, [line._id]: event.target.value }))
                        }
                        className={`w-24 rounded-md border bg-white px-2 py-1.5 text-right text-sm tabular-nums shadow-sm ${error ? 'border-red-500' : 'border-slate-300'}`}
                      />
                      {error ? (
                        <span id={`${id}-error`} className="mt-1 block text-xs text-red-600">
                          {error}
                        </span>
                      ) : null}
                    </Td>
                  </tr>
                );
              })
            )}
          </tbody>
        </Table>
        <FormError>{formError}</FormError>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            className={buttonClass('secondary')}
            onClick={onClose}
            disabled={receive.isPending}
          >
            Cancel
          </button>
          <button
            type="submit"
            className={buttonClass('primary')}
            disabled={receive.isPending || open.length === 0}
          >
            {receive.isPending ? 'Receiving...' : 'Receive'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
