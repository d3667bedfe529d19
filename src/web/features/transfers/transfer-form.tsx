import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Product } from '../../../shared/products';
import { type Transfer, TransferInput } from '../../../shared/transfers';
import { buttonClass } from '../../components/button';
import { FormError, TextAreaField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { LocationPicker } from '../../components/location-picker';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { TRANSFERS_PATH, transferPath } from '../../lib/admin-paths';
import { ApiRequestError } from '../../lib/api';
import { useLocations } from '../../lib/locations';
import { notify } from '../../lib/notify';
import { ProductPicker } from './product-picker';
import { productQuery, refusalText, useKeys, useSaveTransfer } from './transfers-api';

type LotDraft = { key: number; number: string; quantity: string };
/** A line as the form holds it: the boxes' text, read as numbers when saved. */
export type LineDraft = {
  productId: string;
  /** Known once picked; a prefilled or saved line's name and tracking come from its product. */
  name: string;
  tracked: boolean | undefined;
  quantity: string;
  lots: LotDraft[];
};

/** What the form starts with: a draft's content, or the address's `?from=&to=&product=&quantity=`. */
export type TransferStart = { from: string; to: string; note: string; lines: LineDraft[] };

let nextLotKey = 1;
const lotDraft = (number = '', quantity = ''): LotDraft => ({ key: nextLotKey++, number, quantity });

export function startOf(transfer: Transfer): TransferStart {
  return {
    from: transfer.from._id,
    to: transfer.to._id,
    note: transfer.note,
    lines: transfer.lines.map((line) => ({
      productId: line.product._id,
      name: line.product.name,
      tracked: line.requestedLots?.length ? true : undefined,
      quantity: String(line.quantity),
      lots: (line.requestedLots ?? []).map((lot) => lotDraft(lot.number, String(lot.quantity))),
    })),
  };
}

/** The start the address suggests (the reorder page links here); anything unreadable is left out. */
export function startFromAddress(params: URLSearchParams): TransferStart {
  const product = params.get('product')?.trim() ?? '';
  const quantity = Number(params.get('quantity'));
  return {
    from: params.get('from')?.trim() ?? '',
    to: params.get('to')?.trim() ?? '',
    note: '',
    lines: product
      ? [
          {
            productId: product,
            name: '',
            tracked: undefined,
            quantity: Number.isInteger(quantity) && quantity >= 1 ? String(quantity) : '1',
            lots: [],
          },
        ]
      : [],
  };
}

/** The number a box holds; NaN for an empty one, so the shared schema names the problem. */
const numberIn = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

function inputOf(from: string, to: string, note: string, lines: readonly LineDraft[]) {
  return {
    from,
    to,
    note: note.trim(),
    lines: lines.map((line) => ({
      product: line.productId,
      quantity: numberIn(line.quantity),
      ...(line.lots.length > 0
        ? { lots: line.lots.map((lot) => ({ number: lot.number.trim(), quantity: numberIn(lot.quantity) })) }
        : {}),
    })),
  };
}

/** "lines.0.quantity" for an issue at ['lines', 0, 'quantity'] (or a server detail "body/lines/0/…"). */
const fieldOf = (path: readonly PropertyKey[] | string) =>
  (typeof path === 'string' ? path.split(/[./]/) : path.map(String))
    .filter((part) => part !== '' && part !== 'body')
    .join('.');

/** Problems the shared schema cannot see: the same place twice, lots not adding up to their line. */
function relationProblems(input: ReturnType<typeof inputOf>): Record<string, string> {
  const found: Record<string, string> = {};
  if (!input.from) found.from = 'Choose where the goods leave from.';
  if (!input.to) found.to = 'Choose where the goods go.';
  if (input.from && input.from === input.to) found.to = 'The goods must go to another location.';
  input.lines.forEach((line, index) => {
    if (!line.lots || !Number.isInteger(line.quantity)) return;
    const sum = line.lots.reduce(
      (total, lot) => total + (Number.isFinite(lot.quantity) ? lot.quantity : 0),
      0,
    );
    if (sum !== line.quantity)
      found[`lines.${index}.lots`] = `The lots add up to ${sum}; the line sends ${line.quantity}.`;
  });
  return found;
}

const BOX =
  'block w-full min-w-0 rounded-md border bg-white px-2 py-1.5 text-sm shadow-sm sm:w-28 aria-invalid:border-red-500 border-slate-300';

/**
 * A new transfer or a draft: from, to, lines (a product, its quantity, and for a lot-tracked one
 * the lots to send, else the earliest expiry first at `from`) and a note; Save draft. Checked with
 * the shared schema, and from ≠ to, before sending.
 */
export function TransferForm({ transfer, start }: { transfer: Transfer | null; start: TransferStart }) {
  const formId = useId();
  const navigate = useNavigate();
  const save = useSaveTransfer();
  const locations = useLocations();
  const keys = useKeys();
  const [from, setFrom] = useState(start.from);
  const [to, setTo] = useState(start.to);
  const [note, setNote] = useState(start.note);
  const [lines, setLines] = useState<LineDraft[]>(start.lines);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const change = (index: number, patch: Partial<LineDraft>) =>
    setLines((now) => now.map((line, at) => (at === index ? { ...line, ...patch } : line)));

  function addProduct(product: Product) {
    const at = lines.findIndex((line) => line.productId === product._id);
    if (at >= 0) {
      document.getElementById(`${formId}-quantity-${product._id}`)?.focus();
      return;
    }
    setLines((now) => [
      ...now,
      {
        productId: product._id,
        name: product.name,
        tracked: product.tracking === 'lot',
        quantity: '1',
        lots: [],
      },
    ]);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const current = inputOf(from, to, note, lines);
    const parsed = TransferInput.safeParse(current);
    const found = relationProblems(current);
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = fieldOf(issue.path);
        if (field !== 'from' && field !== 'to') found[field] ??= issue.message;
      }
    if (!parsed.success || Object.keys(found).length > 0) {
      setErrors(found);
      setFormError(null);
      return;
    }
    setErrors({});
    setFormError(null);
    const key = keys.keyFor({ id: transfer?._id ?? null, ...parsed.data });
    try {
      const answer = await save.mutateAsync({ id: transfer?._id ?? null, input: parsed.data, key });
      keys.settled();
      notify.success(`${answer.transfer.number} saved as a draft.`);
      navigate(transferPath(answer.transfer._id), { replace: !transfer });
    } catch (error) {
      keys.settled(error);
      const fields: Record<string, string> = {};
      if (error instanceof ApiRequestError)
        for (const detail of error.details) fields[fieldOf(detail.path)] ??= detail.message;
      setErrors(fields);
      setFormError(refusalText(error));
    }
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-6">
      {/* Without the locations nothing can be drafted: say so, with Try again. */}
      <LoadState query={locations} what="the locations" loading="Loading locations...">
        {() => null}
      </LoadState>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div>
          <LocationPicker
            label="From"
            value={from}
            onChange={setFrom}
            allowAll={from === ''}
            allLabel="Choose a location"
          />
          {errors.from ? <p className="mt-1 text-sm text-red-600">{errors.from}</p> : null}
        </div>
        <div>
          <LocationPicker
            label="To"
            value={to}
            onChange={setTo}
            allowAll={to === ''}
            allLabel="Choose a location"
          />
          {errors.to ? <p className="mt-1 text-sm text-red-600">{errors.to}</p> : null}
        </div>
      </div>
      <section aria-label="Lines" className="space-y-3">
        <ProductPicker onPick={addProduct} isAdded={(id) => lines.some((line) => line.productId === id)} />
        <Table caption="Lines of the transfer">
          <thead className="max-sm:sr-only">
            <tr>
              <Th>Product</Th>
              <Th>Quantity</Th>
              <Th>Lots</Th>
              <Th>
                <span className="sr-only">Remove</span>
              </Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {lines.length === 0 ? (
              <TableMessage colSpan={4}>No lines yet: add a product above.</TableMessage>
            ) : (
              lines.map((line, index) => (
                <LineRow
                  key={line.productId}
                  formId={formId}
                  line={line}
                  index={index}
                  errors={errors}
                  onChange={(patch) => change(index, patch)}
                  onRemove={() => setLines((now) => now.filter((_, at) => at !== index))}
                />
              ))
            )}
          </tbody>
        </Table>
        {errors.lines ? <p className="text-sm text-red-600">{errors.lines}</p> : null}
      </section>
      <TextAreaField
        label="Note"
        value={note}
        onChange={(event) => setNote(event.target.value)}
        error={errors.note}
        hint="Printed on the packing list."
        rows={2}
      />
      <FormError>{formError}</FormError>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Link
          to={transfer ? transferPath(transfer._id) : TRANSFERS_PATH}
          className={buttonClass('secondary')}
        >
          {transfer ? 'Back to the transfer' : 'Discard'}
        </Link>
        <button type="submit" className={buttonClass('primary')} disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save draft'}
        </button>
      </div>
    </form>
  );
}

function LineRow({
  formId,
  line,
  index,
  errors,
  onChange,
  onRemove,
}: {
  formId: string;
  line: LineDraft;
  index: number;
  errors: Record<string, string>;
  onChange: (patch: Partial<LineDraft>) => void;
  onRemove: () => void;
}) {
  // A line that came from the address or a saved draft asks for its product's name and tracking.
  const product = useQuery({ ...productQuery(line.productId), enabled: line.tracked === undefined });
  const name = line.name || product.data?.product.name || '';
  const tracked = line.tracked ?? product.data?.product.tracking === 'lot';
  const label = name || 'the product';
  const quantityId = `${formId}-quantity-${line.productId}`;
  const quantityError = errors[`lines.${index}.quantity`] ?? errors[`lines.${index}.product`];
  const lotsError = errors[`lines.${index}.lots`];
  const setLot = (key: number, patch: Partial<LotDraft>) =>
    onChange({ lots: line.lots.map((lot) => (lot.key === key ? { ...lot, ...patch } : lot)) });

  return (
    <tr className="align-top max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:gap-x-3 max-sm:gap-y-2 max-sm:px-3 max-sm:py-3">
      <Td className="font-medium max-sm:p-0 sm:pt-4">
        {name ||
          (product.isError ? (
            <span className="text-red-700">This product could not be loaded.</span>
          ) : (
            <span className="text-slate-500">Loading…</span>
          ))}
      </Td>
      <Td className="max-sm:col-start-1 max-sm:p-0">
        <span aria-hidden="true" className="mb-1 block text-xs text-slate-500 sm:hidden">
          Quantity
        </span>
        <input
          id={quantityId}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          aria-label={`Quantity of ${label}`}
          aria-invalid={quantityError ? true : undefined}
          aria-describedby={quantityError ? `${quantityId}-error` : undefined}
          value={line.quantity}
          onChange={(event) => onChange({ quantity: event.target.value })}
          className={`${BOX} text-right tabular-nums`}
        />
        {quantityError ? (
          <span id={`${quantityId}-error`} className="mt-1 block text-xs text-red-600 sm:max-w-28">
            {quantityError}
          </span>
        ) : null}
      </Td>
      <Td className="max-sm:col-span-2 max-sm:p-0">
        {tracked || line.lots.length > 0 ? (
          <fieldset className="space-y-2">
            <legend className="text-xs text-slate-500">
              {line.lots.length === 0 ? 'Earliest expiry first, unless you name lots' : `Lots of ${label}`}
            </legend>
            {line.lots.map((lot, at) => (
              <div key={lot.key} className="flex flex-wrap items-start gap-2">
                <input
                  aria-label={`Lot number ${at + 1} of ${label}`}
                  aria-invalid={errors[`lines.${index}.lots.${at}.number`] ? true : undefined}
                  value={lot.number}
                  onChange={(event) => setLot(lot.key, { number: event.target.value })}
                  placeholder="Lot number"
                  className={BOX}
                />
                <input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  step={1}
                  aria-label={`Units of lot ${at + 1} of ${label}`}
                  aria-invalid={errors[`lines.${index}.lots.${at}.quantity`] ? true : undefined}
                  value={lot.quantity}
                  onChange={(event) => setLot(lot.key, { quantity: event.target.value })}
                  placeholder="Units"
                  className={`${BOX} text-right tabular-nums sm:w-20`}
                />
                <button
                  type="button"
                  className={buttonClass('ghost', 'sm', 'text-red-700')}
                  aria-label={`Remove lot ${at + 1} of ${label}`}
                  onClick={() => onChange({ lots: line.lots.filter((one) => one.key !== lot.key) })}
                >
                  Remove
                </button>
                {errors[`lines.${index}.lots.${at}.number`] ||
                errors[`lines.${index}.lots.${at}.quantity`] ? (
                  <span className="basis-full text-xs text-red-600">
                    {errors[`lines.${index}.lots.${at}.number`] ??
                      errors[`lines.${index}.lots.${at}.quantity`]}
                  </span>
                ) : null}
              </div>
            ))}
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              aria-label={`Name a lot of ${label}`}
              onClick={() =>
                onChange({ lots: [...line.lots, lotDraft('', line.lots.length === 0 ? line.quantity : '')] })
              }
            >
              Name a lot
            </button>
            {lotsError ? <p className="text-xs text-red-600">{lotsError}</p> : null}
          </fieldset>
        ) : (
          <span className="text-slate-400 max-sm:hidden">—</span>
        )}
      </Td>
      <Td className="max-sm:col-start-2 max-sm:row-start-1 max-sm:p-0 max-sm:text-right">
        <button
          type="button"
          className={buttonClass('ghost', 'sm', 'text-red-700')}
          aria-label={`Remove ${label}`}
          onClick={onRemove}
        >
          Remove
        </button>
      </Td>
    </tr>
  );
}
