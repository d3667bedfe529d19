import { useId } from 'react';
import { Link } from 'react-router';
import type { Bill } from '../../../shared/bills';
import { centsNumber, toCents } from '../../../shared/money';
import { Table, Td, Th } from '../../components/table';
import { billPath } from '../../lib/admin-paths';
import { formatDate } from '../../lib/format';
import { useMoney } from '../../lib/store-settings';
import { NUMBER, OverdueMark } from './bill-status';

const AMOUNT = /^\d{1,10}(?:\.\d{1,2})?$/;

/** Cents of an amount box, or null when it is not an amount of money. */
export function amountCents(text: string): bigint | null {
  const trimmed = text.trim();
  return AMOUNT.test(trimmed) ? toCents(trimmed) : null;
}

/** The amounts chosen, by bill id, as typed. */
export type Chosen = Record<string, string>;

/** Each chosen bill's amount, checked: above 0, at most the bill's open amount; and their sum. */
export function checkAllocations(bills: readonly Bill[], chosen: Chosen) {
  const errors: Record<string, string> = {};
  let sum = 0n;
  const allocations: { bill: string; amount: number }[] = [];
  for (const bill of bills) {
    const text = chosen[bill._id];
    if (text === undefined) continue;
    const cents = amountCents(text);
    if (cents === null) errors[bill._id] = 'Write an amount like 12.50.';
    else if (cents <= 0n) errors[bill._id] = 'Above 0, or untick the bill.';
    else if (cents > toCents(bill.open)) errors[bill._id] = 'More than is open on this bill.';
    else {
      sum += cents;
      allocations.push({ bill: bill._id, amount: centsNumber(cents) });
    }
  }
  return { errors, sum, allocations };
}

/**
 * A supplier's open bills, each with a box to tick and the amount to put on it (its open amount
 * unless changed): how a payment, or a payment's credit, is spread over bills.
 */
export function AllocationTable({
  caption,
  bills,
  chosen,
  errors,
  verb,
  onToggle,
  onAmount,
}: {
  caption: string;
  bills: readonly Bill[];
  chosen: Chosen;
  errors: Record<string, string>;
  /** "Pay", "Allocate to": the tick box's name before the bill's number. */
  verb: string;
  onToggle: (bill: Bill, on: boolean) => void;
  onAmount: (bill: Bill, text: string) => void;
}) {
  const money = useMoney();
  const id = useId();
  return (
    <Table caption={caption}>
      <thead>
        <tr>
          <Th className="w-10">
            <span className="sr-only">Chosen</span>
          </Th>
          <Th>Bill</Th>
          <Th className="max-md:hidden">Reference</Th>
          <Th>Due</Th>
          <Th className="text-right max-sm:hidden">Total</Th>
          <Th className="text-right">Open</Th>
          <Th className="text-right">Amount</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {bills.map((bill) => {
          const on = chosen[bill._id] !== undefined;
          const box = `${id}-${bill._id}`;
          const error = errors[bill._id];
          return (
            <tr key={bill._id} className={on ? 'bg-indigo-50/40' : undefined}>
              <Td className="w-10">
                <input
                  type="checkbox"
                  className="size-5 rounded border-slate-300 text-indigo-600"
                  aria-label={`${verb} ${bill.number}`}
                  checked={on}
                  onChange={(event) => onToggle(bill, event.target.checked)}
                />
              </Td>
              <th scope="row" className="px-3 py-2.5 text-left font-medium whitespace-nowrap sm:px-4">
                <Link to={billPath(bill._id)} className="text-indigo-700 hover:underline">
                  {bill.number}
                </Link>
                <span className="block text-xs font-normal text-slate-500 md:hidden">{bill.reference}</span>
              </th>
              <Td className="whitespace-nowrap text-slate-700 max-md:hidden">{bill.reference}</Td>
              <Td className="whitespace-nowrap text-slate-700">
                <time dateTime={bill.dueDate}>{formatDate(bill.dueDate)}</time>
                <OverdueMark bill={bill} />
              </Td>
              <Td className={`${NUMBER} max-sm:hidden`}>{money(bill.total)}</Td>
              <Td className={`${NUMBER} font-medium`}>{money(bill.open)}</Td>
              <Td className="text-right">
                <label htmlFor={box} className="sr-only">
                  Amount on {bill.number}
                </label>
                <input
                  id={box}
                  inputMode="decimal"
                  autoComplete="off"
                  disabled={!on}
                  value={on ? chosen[bill._id] : ''}
                  placeholder={on ? '0.00' : ''}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${box}-error` : undefined}
                  onChange={(event) => onAmount(bill, event.target.value)}
                  className={`w-28 rounded-md border bg-white px-2 py-1.5 text-right text-sm tabular-nums shadow-sm disabled:bg-slate-100 ${error ? 'border-red-500' : 'border-slate-300'}`}
                />
                {error ? (
                  <p id={`${box}-error`} className="mt-1 text-xs text-red-600">
                    {error}
                  </p>
                ) : null}
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
