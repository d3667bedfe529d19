import { type FormEvent, Fragment, useEffect, useRef, useState } from 'react';
import { type PurchaseOrder, type PurchaseOrderLine, ReceiveInput } from '../../../shared/purchasing';
import { buttonClass } from '../../components/button';
import { FormError } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { errorMessage } from '../../lib/api';
import { notify } from '../../lib/notify';
import { openQuantity } from './purchase-order-status';
import { useKeys, useReceive } from './purchasing-api';
import { blankLot, type LotRow, type LotRowErrors, ReceiveLots, receiveLotsOf } from './receive-lots';

/** Why a box's quantity cannot be received, or null when it can (0 included: that line waits). */
export function receiveProblem(text: string, open: number): string | null {
  const value = text.trim() === '' ? 0 : Number(text);
  if (!Number.isInteger(value)) return 'Quantity must be a whole number.';
  if (value < 0) return 'Quantity must be 0 or more.';
  if (value > open) return `At most ${open} ${open === 1 ? 'is' : 'are'} open.`;
  return null;
}

const units = (count: number) => `${count} ${count === 1 ? 'unit' : 'units'}`;

const tracked = (line: PurchaseOrderLine) => line.product.tracking === 'lot';

/** A box's quantity as a whole number of at least 0, or null. */
function wholeOrNull(text: string): number | null {
  const value = text.trim() === '' ? 0 : Number(text);
  return Number.isInteger(value) && value >= 0 ? value : null;
}

/**
 * Receive goods against the open lines: a quantity per line (0 leaves it waiting), or "Receive
 * all". A lot-tracked line also names the lots it is received into (DESIGN §15), split over as
 * many as arrived. One Idempotency-Key per submit, kept when the same receipt is retried after no
 * answer.
 */
export function ReceiveDialog({ order, onClose }: { order: PurchaseOrder; onClose: () => void }) {
  const keys = useKeys();
  const receive = useReceive(order._id);
  const open = order.lines.filter((line) => openQuantity(line) > 0);
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const quantityText = (line: PurchaseOrderLine) => quantities[line._id] ?? '0';
  const [lotRows, setLotRows] = useState<Record<string, LotRow[]>>({});
  const [lotErrors, setLotErrors] = useState<Record<string, Record<number, LotRowErrors>>>({});
  const [lotLineErrors, setLotLineErrors] = useState<Record<string, string>>({});
  const nextKey = useRef(1);
  // A new object each time, so asking for the same element twice focuses it twice.
  const [focusTarget, setFocusTarget] = useState<{ id: string } | null>(null);
  const rowsOf = (line: PurchaseOrderLine) => lotRows[line._id] ?? [blankLot(0, lotQuantity(line))];
  /** A lone lot takes the line's whole quantity, so the usual one-lot delivery is typed once. */
  function lotQuantity(line: PurchaseOrderLine, text = quantityText(line)) {
    return text.trim() === '0' ? '' : text;
  }

  useEffect(() => {
    if (focusTarget) document.getElementById(focusTarget.id)?.focus();
  }, [focusTarget]);

  function setQuantity(line: PurchaseOrderLine, text: string) {
    setQuantities((now) => ({ ...now, [line._id]: text }));
    const rows = rowsOf(line);
    if (tracked(line) && rows.length === 1 && rows[0])
      setLotRows((now) => ({
        ...now,
        [line._id]: [{ ...(rows[0] as LotRow), quantity: lotQuantity(line, text) }],
      }));
    setLotLineErrors(({ [line._id]: _gone, ...rest }) => rest);
  }

  function changeLot(line: PurchaseOrderLine, row: LotRow, field: keyof LotRowErrors) {
    setLotRows((now) => ({
      ...now,
      [line._id]: rowsOf(line).map((one) => (one.key === row.key ? row : one)),
    }));
    setLotErrors((now) => {
      const { [field]: _gone, ...rest } = now[line._id]?.[row.key] ?? {};
      return { ...now, [line._id]: { ...now[line._id], [row.key]: rest } };
    });
    if (field === 'quantity' || field === 'number')
      setLotLineErrors(({ [line._id]: _gone, ...rest }) => rest);
  }

  function addLot(line: PurchaseOrderLine) {
    const key = nextKey.current++;
    setLotRows((now) => ({ ...now, [line._id]: [...rowsOf(line), blankLot(key)] }));
    setFocusTarget({ id: `lot-${line._id}-${key}-number` });
  }

  function removeLot(line: PurchaseOrderLine, key: number) {
    setLotRows((now) => ({ ...now, [line._id]: rowsOf(line).filter((row) => row.key !== key) }));
    setLotLineErrors(({ [line._id]: _gone, ...rest }) => rest);
    // The row and its button are gone: the focus goes to the line's Add lot, not to the page.
    setFocusTarget({ id: `lots-${line._id}-add` });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    for (const line of open) {
      const problem = receiveProblem(quantityText(line), openQuantity(line));
      if (problem) found[line._id] = problem;
    }
    // The lots of each tracked line that receives units: each row whole, adding up to the line.
    const foundLots: Record<string, Record<number, LotRowErrors>> = {};
    const foundLines: Record<string, string> = {};
    const lotsOf: Record<string, ReturnType<typeof receiveLotsOf>['lots']> = {};
    for (const line of open) {
      const quantity = wholeOrNull(quantityText(line));
      if (!tracked(line) || found[line._id] || !quantity) continue;
      const checked = receiveLotsOf(rowsOf(line), quantity);
      if (checked.lots) lotsOf[line._id] = checked.lots;
      else {
        foundLots[line._id] = checked.rows;
        if (checked.line) foundLines[line._id] = checked.line;
      }
    }
    setErrors(found);
    setLotErrors(foundLots);
    setLotLineErrors(foundLines);
    if (Object.keys(found).length > 0 || Object.keys(foundLots).length > 0) {
      setFormError(null);
      return;
    }
    const lines = open
      .map((line) => ({
        line: line._id,
        quantity: Number(quantityText(line) || 0),
        ...(lotsOf[line._id] ? { lots: lotsOf[line._id] } : {}),
      }))
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
              for (const line of open) setQuantity(line, String(openQuantity(line)));
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
                  <Fragment key={line._id}>
                    <tr className="align-top max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:gap-x-3 max-sm:px-3 max-sm:py-3">
                      <Td className="font-medium max-sm:col-span-2 max-sm:p-0 sm:pt-4">
                        {line.product.name}
                      </Td>
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
                          onChange={(event) => setQuantity(line, event.target.value)}
                          className={`w-24 rounded-md border bg-white px-2 py-1.5 text-right text-sm tabular-nums shadow-sm ${error ? 'border-red-500' : 'border-slate-300'}`}
                        />
                        {error ? (
                          <span id={`${id}-error`} className="mt-1 block text-xs text-red-600">
                            {error}
                          </span>
                        ) : null}
                      </Td>
                    </tr>
                    {tracked(line) ? (
                      <tr>
                        <td colSpan={5} className="px-3 pb-4 sm:px-4">
                          <ReceiveLots
                            lineId={line._id}
                            productName={line.product.name}
                            quantity={wholeOrNull(quantityText(line))}
                            rows={rowsOf(line)}
                            errors={lotErrors[line._id] ?? {}}
                            lineError={lotLineErrors[line._id]}
                            onChange={(row, field) => changeLot(line, row, field)}
                            onAdd={() => addLot(line)}
                            onRemove={(key) => removeLot(line, key)}
                          />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
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
