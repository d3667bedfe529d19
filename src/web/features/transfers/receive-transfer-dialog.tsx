import { type FormEvent, useState } from 'react';
import { ReceiveTransferInput, type Transfer, type TransferLine } from '../../../shared/transfers';
import { buttonClass } from '../../components/button';
import { FormError } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { Table, Td, Th } from '../../components/table';
import { notify } from '../../lib/notify';
import { inTransitOf, units } from './transfer-status';
import { refusalText, useKeys, useReceiveTransfer } from './transfers-api';

type Counts = { received: string; lost: string };

/** A box's count as a whole number of at least 0 (empty is 0), or null. */
function countIn(text: string): number | null {
  const value = text.trim() === '' ? 0 : Number(text);
  return Number.isInteger(value) && value >= 0 ? value : null;
}

/** Why a line's counts cannot be taken, or null: each whole and ≥ 0, together at most what is on the road. */
export function countsProblem(counts: Counts, inTransit: number): string | null {
  const received = countIn(counts.received);
  const lost = countIn(counts.lost);
  if (received === null || lost === null) return 'Received and lost must be whole numbers, 0 or more.';
  if (received + lost > inTransit)
    return `Received and lost add up to ${received + lost}; only ${inTransit} ${inTransit === 1 ? 'is' : 'are'} in transit.`;
  return null;
}

const BOX = 'w-20 rounded-md border bg-white px-2 py-1.5 text-right text-sm tabular-nums shadow-sm';

/**
 * Receive a transfer at `to`: per line what arrived (all that is in transit, unless changed) and
 * what was lost on the way (written off). A line left at 0 and 0 stays in transit.
 */
export function ReceiveTransferDialog({ transfer, onClose }: { transfer: Transfer; onClose: () => void }) {
  const keys = useKeys();
  const receive = useReceiveTransfer();
  const open = transfer.lines.filter((line) => inTransitOf(line) > 0);
  const [counts, setCounts] = useState<Record<string, Counts>>(() =>
    Object.fromEntries(open.map((line) => [line._id, { received: String(inTransitOf(line)), lost: '0' }])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const countsOf = (line: TransferLine) => counts[line._id] ?? { received: '0', lost: '0' };
  const set = (line: TransferLine, patch: Partial<Counts>) => {
    setCounts((now) => ({ ...now, [line._id]: { ...countsOf(line), ...patch } }));
    setErrors(({ [line._id]: _gone, ...rest }) => rest);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    for (const line of open) {
      const problem = countsProblem(countsOf(line), inTransitOf(line));
      if (problem) found[line._id] = problem;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFormError(null);
      return;
    }
    const lines = open
      .map((line) => ({
        line: line._id,
        received: countIn(countsOf(line).received) ?? 0,
        lost: countIn(countsOf(line).lost) ?? 0,
      }))
      .filter((line) => line.received + line.lost > 0);
    const parsed = ReceiveTransferInput.safeParse({ lines });
    if (!parsed.success) {
      setFormError(
        lines.length === 0
          ? 'Enter what arrived or was lost on at least one line.'
          : (parsed.error.issues[0]?.message ?? null),
      );
      return;
    }
    setFormError(null);
    const received = lines.reduce((sum, line) => sum + line.received, 0);
    const lost = lines.reduce((sum, line) => sum + line.lost, 0);
    receive.mutate(
      { id: transfer._id, body: parsed.data, key: keys.keyFor({ transfer: transfer._id, ...parsed.data }) },
      {
        onSuccess: (answer) => {
          keys.settled();
          notify.success(
            `${units(received)} received at ${answer.transfer.to.name}${lost ? `, ${units(lost)} lost` : ''} (${answer.transfer.number}).`,
          );
          onClose();
        },
        onError: (error) => {
          keys.settled(error);
          setFormError(refusalText(error));
        },
      },
    );
  }

  return (
    <Modal
      title={`Receive ${transfer.number} at ${transfer.to.name}`}
      size="lg"
      onClose={() => !receive.isPending && onClose()}
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <p className="text-sm text-slate-600">
          Count what arrived; units lost on the way are written off. A line at 0 and 0 stays in transit.
        </p>
        <Table caption={`Lines in transit on ${transfer.number}`}>
          <thead className="max-sm:sr-only">
            <tr>
              <Th>Product</Th>
              <Th className="text-right">In transit</Th>
              <Th className="text-right">Received</Th>
              <Th className="text-right">Lost</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {open.map((line) => {
              const id = `receive-${line._id}`;
              const error = errors[line._id];
              const { received, lost } = countsOf(line);
              return (
                <tr
                  key={line._id}
                  className="align-top max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3"
                >
                  <Td className="font-medium max-sm:col-span-2 max-sm:p-0 sm:pt-4">
                    {line.product.name}
                    {error ? (
                      <span id={`${id}-error`} className="mt-1 block text-xs font-normal text-red-600">
                        {error}
                      </span>
                    ) : null}
                  </Td>
                  <Td className="text-right tabular-nums max-sm:col-span-2 max-sm:p-0 max-sm:text-left max-sm:text-xs sm:pt-4">
                    <span className="sm:hidden">In transit </span>
                    {inTransitOf(line)}
                  </Td>
                  {(
                    [
                      ['received', 'Received', received],
                      ['lost', 'Lost', lost],
                    ] as const
                  ).map(([field, word, value]) => (
                    <Td key={field} className="text-right max-sm:p-0 max-sm:text-left">
                      <span aria-hidden="true" className="mb-1 block text-xs text-slate-500 sm:hidden">
                        {word}
                      </span>
                      <input
                        type="number"
                        inputMode="numeric"
                        min={0}
                        max={inTransitOf(line)}
                        step={1}
                        aria-label={`${word}: ${line.product.name}`}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={error ? `${id}-error` : undefined}
                        value={value}
                        onChange={(event) => set(line, { [field]: event.target.value })}
                        className={`${BOX} ${error ? 'border-red-500' : 'border-slate-300'}`}
                      />
                    </Td>
                  ))}
                </tr>
              );
            })}
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
          <button type="submit" className={buttonClass('primary')} disabled={receive.isPending}>
            {receive.isPending ? 'Receiving...' : 'Receive'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
