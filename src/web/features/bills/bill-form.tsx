import { type FormEvent, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Account } from '../../../shared/accounting';
import { type Bill, BillInput, billFigures } from '../../../shared/bills';
import { MAX } from '../../../shared/common';
import type { PurchaseOrder } from '../../../shared/purchasing';
import { type TaxRate, taxRateLabel } from '../../../shared/store';
import type { Supplier } from '../../../shared/suppliers';
import { buttonClass } from '../../components/button';
import { FormError, SelectField, TextAreaField, TextField } from '../../components/form-field';
import { BILLS_PATH, billPath, editBillPath, purchaseOrderPath } from '../../lib/admin-paths';
import { ApiRequestError, errorMessage, refusedAs } from '../../lib/api';
import { localToday } from '../../lib/date-range';
import { notify } from '../../lib/notify';
import { useMoney } from '../../lib/store-settings';
import { NUMBER } from './bill-status';
import { useBillAction, useKeys, useSaveBill } from './bills-api';

/** What the form hands the draft's editor when a post was refused after the save (Save and post). */
export type BillFormState = { refusal?: string } | null;

/** The purchase order line a bill line bills, as the form shows it. */
export type OrderLineRef = {
  _id: string;
  purchaseOrder: { _id: string; number: string };
  product: string;
  /** Units received and not billed yet, when known (a line prefilled from the order). */
  left: number | null;
};

/** One line as typed: the boxes' text, and the purchase order line it bills, if any. */
export type LineDraft = {
  key: number;
  orderLine?: OrderLineRef;
  description: string;
  quantity: string;
  unitPrice: string;
  /** A tax rate's id, or '' for none. */
  taxRate: string;
  /** An account's id ('' until chosen); a purchase order line takes none. */
  account: string;
};

/** Units of a purchase order line received and not billed yet. */
export const leftToBill = (line: { received: number; billed: number }) =>
  Math.max(0, line.received - line.billed);

/**
 * One line per line of the order with units received and not billed, at the order's unit cost,
 * with `taxRate` (the store's default rate's id, or '' for none).
 */
export function linesFromOrder(order: PurchaseOrder, taxRate = ''): Omit<LineDraft, 'key'>[] {
  return order.lines
    .filter((line) => leftToBill(line) > 0)
    .map((line) => ({
      orderLine: {
        _id: line._id,
        purchaseOrder: { _id: order._id, number: order.number },
        product: line.product.name,
        left: leftToBill(line),
      },
      description: line.product.name,
      quantity: String(leftToBill(line)),
      unitPrice: line.unitCost.toFixed(2),
      taxRate,
      account: '',
    }));
}

function linesFromBill(bill: Bill): Omit<LineDraft, 'key'>[] {
  return bill.lines.map((line) => {
    const on = line.purchaseOrderLine;
    return {
      ...(on
        ? {
            orderLine: {
              _id: on._id,
              purchaseOrder: on.purchaseOrder,
              product: on.product.name,
              left: null,
            },
          }
        : {}),
      description: line.description,
      quantity: String(line.quantity),
      unitPrice: line.unitPrice.toFixed(2),
      taxRate: line.taxRate?._id ?? '',
      account: on ? '' : line.account._id,
    };
  });
}

/** A line of its own, taxed at `taxRate` (the store's default rate's id, or '' for none). */
const blankLine = (taxRate = ''): Omit<LineDraft, 'key'> => ({
  description: '',
  quantity: '1',
  unitPrice: '',
  taxRate,
  account: '',
});

/** A box's number; NaN when empty, so the shared schema says what is missing. */
const numberIn = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));
const PRICE = /^\d{1,8}(?:\.\d{1,2})?$/;
const COUNT = /^\d{1,7}$/;

export type BillFields = {
  supplier: string;
  reference: string;
  date: string;
  dueDate: string;
  note: string;
  lines: readonly LineDraft[];
};

/** What the form would send, before the shared schema checks it. */
export function inputOf(fields: BillFields): BillInput {
  return {
    supplier: fields.supplier,
    reference: fields.reference,
    date: fields.date,
    ...(fields.dueDate ? { dueDate: fields.dueDate } : {}),
    note: fields.note.trim(),
    lines: fields.lines.map((line) => ({
      ...(line.orderLine ? { purchaseOrderLine: line.orderLine._id } : {}),
      ...(line.description.trim() ? { description: line.description.trim() } : {}),
      quantity: numberIn(line.quantity),
      unitPrice: numberIn(line.unitPrice),
      ...(line.taxRate ? { taxRate: line.taxRate } : {}),
      ...(!line.orderLine && line.account ? { account: line.account } : {}),
    })),
  };
}

/**
 * The bill's figures as typed (billFigures, the server's own rounding): each line's net, tax and
 * total, and the bill's; a line whose quantity or price is not a number yet counts as nothing.
 */
export function figuresOf(lines: readonly LineDraft[], rates: readonly TaxRate[]) {
  const priced = lines.map((line) => {
    const readable = COUNT.test(line.quantity.trim()) && PRICE.test(line.unitPrice.trim());
    const rate = rates.find((one) => one._id === line.taxRate);
    return readable
      ? {
          quantity: Number(line.quantity.trim()),
          unitPrice: Number(line.unitPrice.trim()),
          taxRate: rate ? { name: rate.name, rate: rate.rate } : null,
        }
      : { quantity: 0, unitPrice: 0, taxRate: null };
  });
  return { lines: priced.map((line) => billFigures([line])), ...billFigures(priced) };
}

/** "lines.0.quantity" for an issue at ['lines', 0, 'quantity'] (or a server detail "body/lines/0/…"). */
const fieldOf = (path: readonly PropertyKey[] | string) =>
  (typeof path === 'string' ? path.split(/[./]/) : path.map(String))
    .filter((part) => part !== '' && part !== 'body')
    .join('.');

/** The accounts a line not on a purchase order may go to: the active expense and asset accounts. */
function AccountOptions({ accounts }: { accounts: readonly Account[] }) {
  const groups = [
    { label: 'Expenses', type: 'expense' },
    { label: 'Assets', type: 'asset' },
  ] as const;
  return groups.map((group) => (
    <optgroup key={group.type} label={group.label}>
      {accounts
        .filter((account) => account.active && account.type === group.type)
        .map((account) => (
          <option key={account._id} value={account._id}>
            {account.code} {account.name}
          </option>
        ))}
    </optgroup>
  ));
}

function LineFields({
  line,
  index,
  accounts,
  rates,
  net,
  errors,
  onChange,
  onRemove,
}: {
  line: LineDraft;
  index: number;
  accounts: readonly Account[];
  rates: readonly TaxRate[];
  net: number;
  errors: Record<string, string>;
  onChange: (change: Partial<LineDraft>) => void;
  onRemove?: () => void;
}) {
  const money = useMoney();
  const at = (field: string) => errors[`lines.${index}.${field}`];
  const on = line.orderLine;
  const name = on ? on.product : line.description.trim() || `line ${index + 1}`;
  return (
    <fieldset className="min-w-0 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-xs font-semibold text-slate-600">
        Line {index + 1}
        {on ? (
          <>
            {' '}
            · {on.product} on{' '}
            <Link to={purchaseOrderPath(on.purchaseOrder._id)} className="text-indigo-700 hover:underline">
              {on.purchaseOrder.number}
            </Link>
          </>
        ) : null}
      </legend>
      {/* Every column may shrink below its box's own width (minmax(0,…), min-w-0 on each cell): a
          select is as wide as its longest option unless told otherwise, and one with a long
          account's name pushed the grid past the line's border. */}
      <div className="grid grid-cols-2 items-start gap-3 *:min-w-0 lg:grid-cols-[minmax(0,2fr)_minmax(0,6rem)_minmax(0,8rem)_minmax(0,1.3fr)_minmax(0,1.5fr)]">
        <div className="col-span-2 lg:col-span-1">
          <TextField
            label="Description"
            value={line.description}
            maxLength={MAX.name}
            placeholder={on ? on.product : 'Freight, a service…'}
            error={at('description')}
            onChange={(event) => onChange({ description: event.target.value })}
          />
        </div>
        <TextField
          label="Quantity"
          inputMode="numeric"
          autoComplete="off"
          value={line.quantity}
          error={at('quantity')}
          hint={on?.left != null ? `${on.left} received, not billed` : undefined}
          aria-label={`Quantity of ${name}`}
          onChange={(event) => onChange({ quantity: event.target.value })}
        />
        <TextField
          label="Unit price"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={line.unitPrice}
          error={at('unitPrice')}
          hint="Without tax"
          aria-label={`Unit price of ${name}`}
          onChange={(event) => onChange({ unitPrice: event.target.value })}
        />
        <SelectField
          label="Tax"
          value={line.taxRate}
          error={at('taxRate')}
          onChange={(event) => onChange({ taxRate: event.target.value })}
        >
          <option value="">No tax</option>
          {rates.map((rate) => (
            <option key={rate._id} value={rate._id}>
              {taxRateLabel(rate)}
            </option>
          ))}
        </SelectField>
        {on ? (
          <div className="col-span-2 text-sm text-slate-600 lg:col-span-1 lg:pt-7">
            Goods received not billed
          </div>
        ) : (
          <div className="col-span-2 lg:col-span-1">
            <SelectField
              label="Account"
              value={line.account}
              error={at('account')}
              onChange={(event) => onChange({ account: event.target.value })}
            >
              <option value="">Choose an account</option>
              <AccountOptions accounts={accounts} />
            </SelectField>
          </div>
        )}
      </div>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          Net <span className={`font-medium ${NUMBER}`}>{money(net)}</span>
        </p>
        {onRemove ? (
          <button
            type="button"
            className={buttonClass('ghost', 'sm')}
            aria-label={`Remove line ${index + 1}`}
            onClick={onRemove}
          >
            Remove
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}

/**
 * A new bill or a draft (DESIGN §20): the supplier, their invoice's reference, its date and due
 * date, a note, and its lines — each a purchase order line (billed to goods received, at most what
 * was received and not billed) or a line of its own (freight, a service) on an expense or asset
 * account; each with a tax rate or none (a new line, filled from the order or added, starts at the
 * store's default rate). The totals follow the typing with the server's rounding. Save draft keeps
 * it for later; Save and post saves, then posts.
 */
export function BillForm({
  bill,
  order,
  suppliers,
  accounts,
  rates,
  defaultTaxRate = null,
  refusal = null,
}: {
  /** The draft being changed, or null for a new bill. */
  bill: Bill | null;
  /** The purchase order a new bill is filled from. */
  order?: PurchaseOrder;
  suppliers: readonly Supplier[];
  accounts: readonly Account[];
  rates: readonly TaxRate[];
  /** The store's default tax rate (its settings), which new lines start at; null: no tax. */
  defaultTaxRate?: Pick<TaxRate, '_id'> | null;
  /** What the page that led here had to say (a post refused after the save). */
  refusal?: string | null;
}) {
  const navigate = useNavigate();
  const money = useMoney();
  const save = useSaveBill();
  const post = useBillAction('post');
  const saveKeys = useKeys();
  const postKeys = useKeys();
  const nextKey = useRef(0);
  const keyed = (lines: Omit<LineDraft, 'key'>[]) =>
    lines.map((line) => ({ ...line, key: nextKey.current++ }));
  // A default rate no longer among the rates offered (deleted since) is no default: no tax.
  const newLineRate = rates.find((rate) => rate._id === defaultTaxRate?._id)?._id ?? '';
  const [supplier, setSupplier] = useState(bill?.supplier._id ?? order?.supplier._id ?? '');
  const [reference, setReference] = useState(bill?.reference ?? '');
  const [date, setDate] = useState(bill?.date ?? localToday());
  // A bill without a due date answers its date as the due date: shown empty, it stays so.
  const [dueDate, setDueDate] = useState(bill && bill.dueDate !== bill.date ? bill.dueDate : '');
  const [note, setNote] = useState(bill?.note ?? '');
  const [lines, setLines] = useState<LineDraft[]>(() =>
    keyed(bill ? linesFromBill(bill) : order ? linesFromOrder(order, newLineRate) : [blankLine(newLineRate)]),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(refusal);
  const busy = save.isPending || post.isPending;
  const figures = figuresOf(lines, rates);
  const fromOrder = lines.some((line) => line.orderLine);
  const knownSupplier = suppliers.some((one) => one._id === supplier);
  const fields: BillFields = { supplier, reference, date, dueDate, note, lines };

  function change(key: number, patch: Partial<LineDraft>) {
    setLines((now) => now.map((line) => (line.key === key ? { ...line, ...patch } : line)));
  }

  /** The shared schema's verdict, and a purchase order line asked for more than is left to bill. */
  function problems(input: BillInput): Record<string, string> {
    const found: Record<string, string> = {};
    const parsed = BillInput.safeParse(input);
    if (!parsed.success)
      for (const issue of parsed.error.issues) found[fieldOf(issue.path)] ??= issue.message;
    if (found.supplier) found.supplier = 'Choose a supplier.';
    lines.forEach((line, index) => {
      const left = line.orderLine?.left;
      const asked = Number(line.quantity);
      if (left != null && Number.isInteger(asked) && asked > left)
        found[`lines.${index}.quantity`] ??= `Only ${left} received and not billed.`;
    });
    return found;
  }

  function failed(error: unknown) {
    const found: Record<string, string> = {};
    if (error instanceof ApiRequestError)
      for (const detail of error.details) found[fieldOf(detail.path)] ??= detail.message;
    if (refusedAs(error, 'BILL_REFERENCE_TAKEN')) found.reference = errorMessage(error);
    setErrors(found);
    setFormError(errorMessage(error));
  }

  /** Saves the form; answers the bill as saved, or null when it was not. */
  async function saved(): Promise<Bill | null> {
    const input = inputOf(fields);
    const found = problems(input);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFormError('Check the fields marked.');
      return null;
    }
    setFormError(null);
    const body = BillInput.parse(input) as BillInput;
    const key = saveKeys.keyFor(body);
    try {
      const answer = await save.mutateAsync({ id: bill?._id ?? null, input: body, key });
      saveKeys.settled();
      return answer.bill;
    } catch (error) {
      saveKeys.settled(error);
      failed(error);
      return null;
    }
  }

  async function saveDraft(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const result = await saved();
    if (!result) return;
    notify.success(`${result.number} saved as a draft.`);
    navigate(billPath(result._id), { replace: !bill });
  }

  async function saveAndPost() {
    if (busy) return;
    const result = await saved();
    if (!result) return;
    const key = postKeys.keyFor({ post: result._id });
    try {
      const answer = await post.mutateAsync({ id: result._id, key });
      postKeys.settled();
      notify.success(`${answer.bill.number} is posted: ${answer.bill.supplier.name} is owed it.`);
      navigate(billPath(answer.bill._id), { replace: !bill });
    } catch (error) {
      postKeys.settled(error);
      const sentence = `${result.number} was saved as a draft but not posted: ${errorMessage(error)}`;
      // A new bill is a draft now: its editor takes over, with the refusal beside the form.
      if (!bill) {
        const state: BillFormState = { refusal: sentence };
        navigate(editBillPath(result._id), { replace: true, state });
      } else failed(new ApiRequestError(sentence, error instanceof ApiRequestError ? error.status : 0));
    }
  }

  return (
    <form noValidate onSubmit={(event) => void saveDraft(event)} className="space-y-6">
      <div className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 sm:p-5 lg:grid-cols-4">
        <SelectField
          label="Supplier"
          required
          value={supplier}
          disabled={fromOrder}
          hint={fromOrder ? 'The purchase order’s supplier.' : undefined}
          error={errors.supplier}
          onChange={(event) => setSupplier(event.target.value)}
        >
          <option value="">Choose a supplier</option>
          {supplier && !knownSupplier ? (
            <option value={supplier}>
              {bill?.supplier.name ?? order?.supplier.name ?? 'Unknown supplier'}
            </option>
          ) : null}
          {suppliers.map((one) => (
            <option key={one._id} value={one._id}>
              {one.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Supplier’s reference"
          required
          maxLength={100}
          autoComplete="off"
          value={reference}
          hint="The number on their invoice."
          error={errors.reference}
          onChange={(event) => setReference(event.target.value)}
        />
        <TextField
          label="Bill date"
          type="date"
          required
          value={date}
          error={errors.date}
          onChange={(event) => setDate(event.target.value)}
        />
        <TextField
          label="Due date"
          type="date"
          value={dueDate}
          min={date || undefined}
          hint="Left empty: due on the bill date."
          error={errors.dueDate}
          onChange={(event) => setDueDate(event.target.value)}
        />
        <div className="sm:col-span-2 lg:col-span-4">
          <TextAreaField
            label="Note"
            rows={2}
            maxLength={MAX.note}
            value={note}
            error={errors.note}
            onChange={(event) => setNote(event.target.value)}
          />
        </div>
      </div>
      <section aria-labelledby="bill-lines" className="space-y-3">
        <h2 id="bill-lines" className="text-lg font-semibold text-slate-900">
          Lines
        </h2>
        {order && !bill && !fromOrder ? (
          <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
            Nothing received on {order.number} is left to bill. Add a line of its own, or bill another
            purchase order.
          </p>
        ) : null}
        {lines.map((line, index) => (
          <LineFields
            key={line.key}
            line={line}
            index={index}
            accounts={accounts}
            rates={rates}
            net={figures.lines[index]?.net ?? 0}
            errors={errors}
            onChange={(patch) => change(line.key, patch)}
            onRemove={
              lines.length > 1
                ? () => setLines((now) => now.filter((one) => one.key !== line.key))
                : undefined
            }
          />
        ))}
        {errors.lines ? <p className="text-sm text-red-600">{errors.lines}</p> : null}
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          disabled={lines.length >= 200}
          onClick={() => setLines((now) => [...now, ...keyed([blankLine(newLineRate)])])}
        >
          Add a line
        </button>
        <p className="text-xs text-slate-500">
          A line of its own (freight, a service) goes to the account chosen; a purchase order line to goods
          received not billed.
        </p>
      </section>
      <dl
        aria-label="Totals"
        aria-live="polite"
        className="grid grid-cols-3 gap-3 rounded-md bg-slate-50 p-3 text-sm sm:max-w-md sm:justify-self-end"
      >
        <div>
          <dt className="text-slate-600">Net</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{money(figures.net)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Tax</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{money(figures.tax)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Total</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{money(figures.total)}</dd>
        </div>
      </dl>
      <FormError>{formError}</FormError>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Link to={bill ? billPath(bill._id) : BILLS_PATH} className={buttonClass('secondary')}>
          {bill ? 'Back to the bill' : 'Discard'}
        </Link>
        <button type="submit" className={buttonClass('secondary')} disabled={busy}>
          {save.isPending && !post.isPending ? 'Saving...' : 'Save draft'}
        </button>
        <button
          type="button"
          className={buttonClass('primary')}
          disabled={busy}
          onClick={() => void saveAndPost()}
        >
          {post.isPending ? 'Posting...' : 'Save and post'}
        </button>
      </div>
    </form>
  );
}
