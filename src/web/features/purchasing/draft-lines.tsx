import { Link } from 'react-router';
import type { Named } from '../../../shared/common';
import { linesTotal } from '../../../shared/purchasing';
import { buttonClass } from '../../components/button';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { stockPath } from '../../lib/admin-paths';
import { useMoney } from '../../lib/store-settings';

/** A line as the form holds it: the boxes' text, read as numbers when saved. */
export type LineDraft = { product: Named; quantity: string; unitCost: string };

/** The number a box holds; NaN for an empty one, so the shared schema names the problem. */
export const numberIn = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** quantity × unit cost of the lines whose boxes hold numbers, exact to the cent. */
export function draftTotal(lines: readonly LineDraft[]): number {
  return linesTotal(
    lines
      .map((line) => ({ quantity: numberIn(line.quantity), unitCost: numberIn(line.unitCost) }))
      .filter((line) => Number.isFinite(line.quantity) && Number.isFinite(line.unitCost)),
  );
}

/** The id of a line's quantity box, so picking a product already there can move to it. */
export const quantityBoxId = (formId: string, productId: string) => `${formId}-quantity-${productId}`;

const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-2 max-sm:items-end max-sm:gap-x-3 max-sm:gap-y-2 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';
const BOX =
  'block w-full min-w-0 rounded-md border bg-white px-2 py-1.5 text-right text-sm tabular-nums shadow-sm sm:w-28';

function LineBox({
  id,
  label,
  visibleLabel,
  value,
  error,
  onChange,
  ...number
}: {
  id: string;
  label: string;
  visibleLabel: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  min: number;
  step: number | string;
  inputMode: 'numeric' | 'decimal';
}) {
  return (
    <>
      <span aria-hidden="true" className="mb-1 block text-xs text-slate-500 sm:hidden">
        {visibleLabel}
      </span>
      <input
        id={id}
        type="number"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={`${BOX} ${error ? 'border-red-500' : 'border-slate-300'}`}
        {...number}
      />
      {error ? (
        <span id={`${id}-error`} className="mt-1 block text-xs text-red-600 sm:max-w-28">
          {error}
        </span>
      ) : null}
    </>
  );
}

/** The lines of a draft: quantity and unit cost in boxes, each line's total, and the grand total. */
export function DraftLines({
  formId,
  lines,
  errors,
  onChange,
  onRemove,
}: {
  formId: string;
  lines: readonly LineDraft[];
  errors: Record<string, string>;
  onChange: (index: number, change: Partial<LineDraft>) => void;
  onRemove: (index: number) => void;
}) {
  const money = useMoney();
  return (
    <Table caption="Lines of the purchase order">
      <thead className="max-sm:sr-only">
        <tr>
          <Th>Product</Th>
          <Th className="text-right">Quantity</Th>
          <Th className="text-right">Unit cost</Th>
          <Th className="text-right">Line total</Th>
          <Th>
            <span className="sr-only">Remove</span>
          </Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {lines.length === 0 ? (
          <TableMessage colSpan={5}>No lines yet: add a product above.</TableMessage>
        ) : (
          lines.map((line, index) => {
            const quantity = numberIn(line.quantity);
            const unitCost = numberIn(line.unitCost);
            const known = Number.isFinite(quantity) && Number.isFinite(unitCost);
            return (
              <tr key={line.product._id} className={`align-top ${STACKED_ROW}`}>
                <Td className={`font-medium max-sm:col-span-2 sm:pt-4 ${STACKED_CELL}`}>
                  <Link to={stockPath(line.product._id)} className="hover:underline">
                    {line.product.name}
                  </Link>
                </Td>
                <Td className={`sm:text-right ${STACKED_CELL}`}>
                  <LineBox
                    id={quantityBoxId(formId, line.product._id)}
                    label={`Quantity of ${line.product.name}`}
                    visibleLabel="Quantity"
                    value={line.quantity}
                    error={errors[`lines.${index}.quantity`]}
                    onChange={(value) => onChange(index, { quantity: value })}
                    min={1}
                    step={1}
                    inputMode="numeric"
                  />
                </Td>
                <Td className={`sm:text-right ${STACKED_CELL}`}>
                  <LineBox
                    id={`${formId}-cost-${line.product._id}`}
                    label={`Unit cost of ${line.product.name}`}
                    visibleLabel="Unit cost"
                    value={line.unitCost}
                    error={errors[`lines.${index}.unitCost`]}
                    onChange={(value) => onChange(index, { unitCost: value })}
                    min={0}
                    step="0.01"
                    inputMode="decimal"
                  />
                </Td>
                <Td
                  className={`whitespace-nowrap text-right tabular-nums max-sm:self-center max-sm:text-left sm:pt-4 ${STACKED_CELL}`}
                >
                  <span className="sm:hidden">Line total </span>
                  {known ? money(linesTotal([{ quantity, unitCost }])) : '—'}
                </Td>
                <Td className={`max-sm:text-right ${STACKED_CELL}`}>
                  <button
                    type="button"
                    className={buttonClass('ghost', 'sm', 'text-red-700')}
                    aria-label={`Remove ${line.product.name}`}
                    onClick={() => onRemove(index)}
                  >
                    Remove
                  </button>
                </Td>
              </tr>
            );
          })
        )}
      </tbody>
      <tfoot className="border-t border-slate-200 bg-slate-50">
        <tr className="max-sm:flex max-sm:justify-between max-sm:px-3 max-sm:py-3">
          <th
            scope="row"
            colSpan={3}
            className="px-3 py-3 text-left font-semibold sm:px-4 sm:text-right max-sm:p-0"
          >
            Total
          </th>
          <td className="whitespace-nowrap px-3 py-3 text-right font-semibold tabular-nums sm:px-4 max-sm:p-0">
            {money(draftTotal(lines))}
          </td>
          <td className="max-sm:hidden" />
        </tr>
      </tfoot>
    </Table>
  );
}
