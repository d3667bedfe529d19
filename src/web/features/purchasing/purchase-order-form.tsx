import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Product } from '../../../shared/products';
import { type PurchaseOrder, PurchaseOrderInput } from '../../../shared/purchasing';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormError, SelectField, TextAreaField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { LocationPicker } from '../../components/location-picker';
import { PURCHASE_ORDERS_PATH, purchaseOrderPath } from '../../lib/admin-paths';
import { ApiRequestError, errorMessage } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useProductChoices } from '../../lib/product-choices';
import { DraftLines, type LineDraft, numberIn, quantityBoxId } from './draft-lines';
import { ProductPicker } from './product-picker';
import { OrderFacts } from './purchase-order-view';
import { useChangeStatus, useKeys, useSavePurchaseOrder } from './purchasing-api';

/** A product's cost as the unit cost box shows it; 0 when the product has none yet. */
export const costText = (cost: number | null) => (cost ?? 0).toFixed(2);

function linesOf(order: PurchaseOrder | null): LineDraft[] {
  return (order?.lines ?? []).map((line) => ({
    product: line.product,
    quantity: String(line.quantity),
    unitCost: costText(line.unitCost),
  }));
}

/**
 * What the form would send, before the shared schema checks it. An empty location sends none:
 * the server delivers to the default location.
 */
function inputOf(supplier: string, note: string, lines: readonly LineDraft[], location = '') {
  return {
    supplier,
    note: note.trim(),
    ...(location ? { location } : {}),
    lines: lines.map((line) => ({
      product: line.product._id,
      quantity: numberIn(line.quantity),
      unitCost: numberIn(line.unitCost),
    })),
  };
}

/** "lines.0.quantity" for an issue at ['lines', 0, 'quantity'] (or a server detail "body/lines/0/…"). */
const fieldOf = (path: readonly PropertyKey[] | string) =>
  (typeof path === 'string' ? path.split(/[./]/) : path.map(String))
    .filter((part) => part !== '' && part !== 'body')
    .join('.');

/**
 * A new purchase order or a draft: supplier, note and lines, with Save draft, Mark ordered (which
 * saves first when something changed) and Cancel. Checked with the shared schema before sending.
 */
export function PurchaseOrderForm({ order }: { order: PurchaseOrder | null }) {
  const formId = useId();
  const navigate = useNavigate();
  const choices = useProductChoices();
  const save = useSavePurchaseOrder();
  const markOrdered = useChangeStatus('order');
  const cancel = useChangeStatus('cancel');
  const saveKeys = useKeys();
  const statusKeys = useKeys();
  const [supplier, setSupplier] = useState(order?.supplier._id ?? '');
  const [note, setNote] = useState(order?.note ?? '');
  const [location, setLocation] = useState(order?.location._id ?? '');
  const [lines, setLines] = useState<LineDraft[]>(() => linesOf(order));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const busy = save.isPending || markOrdered.isPending || cancel.isPending;

  const current = inputOf(supplier, note, lines, location);
  const dirty =
    !order ||
    JSON.stringify(current) !==
      JSON.stringify(inputOf(order.supplier._id, order.note, linesOf(order), order.location._id));
  const suppliers = choices.data?.suppliers ?? [];
  const knownSupplier = suppliers.some((one) => one._id === supplier);

  function addProduct(product: Product) {
    if (lines.some((line) => line.product._id === product._id)) {
      document.getElementById(quantityBoxId(formId, product._id))?.focus();
      return;
    }
    setLines((now) => [
      ...now,
      {
        product: { _id: product._id, name: product.name },
        quantity: '1',
        unitCost: costText(product.cost ?? null),
      },
    ]);
    if (!supplier) setSupplier(product.supplier._id);
  }

  function failed(error: unknown) {
    const fields: Record<string, string> = {};
    if (error instanceof ApiRequestError)
      for (const detail of error.details) fields[fieldOf(detail.path)] ??= detail.message;
    setErrors(fields);
    setFormError(errorMessage(error));
    // A 409 refreshes the order; once it is no longer a draft this form gives way to its view.
    if (error instanceof ApiRequestError && error.status === 409) notify.error(errorMessage(error));
  }

  /** Saves when needed; answers the purchase order as saved, or null when it was not. */
  async function saved(): Promise<PurchaseOrder | null> {
    if (order && !dirty) return order;
    const parsed = PurchaseOrderInput.safeParse(current);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[fieldOf(issue.path)] ??= issue.message;
      if (found.supplier) found.supplier = 'Choose a supplier.';
      setErrors(found);
      setFormError(null);
      return null;
    }
    setErrors({});
    setFormError(null);
    const key = saveKeys.keyFor(parsed.data);
    try {
      const answer = await save.mutateAsync({ id: order?._id ?? null, input: parsed.data, key });
      saveKeys.settled();
      return answer.purchaseOrder;
    } catch (error) {
      saveKeys.settled(error);
      failed(error);
      return null;
    }
  }

  async function saveDraft(event: FormEvent) {
    event.preventDefault();
    if (order && !dirty) {
      notify.success(`${order.number} has no unsaved changes.`);
      return;
    }
    const result = await saved();
    if (!result) return;
    notify.success(`${result.number} saved as a draft.`);
    if (!order) navigate(purchaseOrderPath(result._id), { replace: true });
  }

  async function placeOrder() {
    const result = await saved();
    if (!result) return;
    const key = statusKeys.keyFor({ order: result._id });
    try {
      const answer = await markOrdered.mutateAsync({ id: result._id, key });
      statusKeys.settled();
      notify.success(`${answer.purchaseOrder.number} is ordered from ${answer.purchaseOrder.supplier.name}.`);
    } catch (error) {
      statusKeys.settled(error);
      // A new order was saved as a draft already: its own page says so and offers Mark ordered again.
      if (!order)
        notify.error(`${result.number} was saved as a draft but not ordered: ${errorMessage(error)}`);
      else failed(error);
    }
    if (!order) navigate(purchaseOrderPath(result._id), { replace: true });
  }

  function cancelDraft() {
    if (!order) return;
    const key = statusKeys.keyFor({ cancel: order._id });
    cancel.mutate(
      { id: order._id, key },
      {
        onSuccess: (answer) => {
          statusKeys.settled();
          notify.success(`${answer.purchaseOrder.number} is cancelled.`);
        },
        onError: (error) => {
          statusKeys.settled(error);
          failed(error);
        },
        onSettled: () => setConfirming(false),
      },
    );
  }

  return (
    <form noValidate onSubmit={saveDraft} className="space-y-6">
      {order ? <OrderFacts order={order} /> : null}
      {/* Without the suppliers nothing can be drafted: say so, with Try again. */}
      <LoadState query={choices} what="the suppliers" loading="Loading suppliers...">
        {() => null}
      </LoadState>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Supplier"
          required
          value={supplier}
          onChange={(event) => setSupplier(event.target.value)}
          error={errors.supplier}
        >
          <option value="">{choices.isPending ? 'Loading suppliers…' : 'Choose a supplier'}</option>
          {supplier && !knownSupplier && order ? (
            <option value={supplier}>{order.supplier.name}</option>
          ) : null}
          {suppliers.map((one) => (
            <option key={one._id} value={one._id}>
              {one.name}
            </option>
          ))}
        </SelectField>
        <div>
          {/* A new purchase order goes to the default location unless another is chosen (DESIGN §17). */}
          <LocationPicker
            label="Deliver to"
            value={location}
            onChange={setLocation}
            allowAll={!order}
            allLabel="The default location"
          />
          {errors.location ? <p className="mt-1 text-sm text-red-600">{errors.location}</p> : null}
        </div>
        <TextAreaField
          label="Note"
          value={note}
          onChange={(event) => setNote(event.target.value)}
          error={errors.note}
          hint="Printed on the purchase order."
          rows={2}
        />
      </div>
      <section aria-label="Lines" className="space-y-3">
        <ProductPicker
          onPick={addProduct}
          isAdded={(productId) => lines.some((line) => line.product._id === productId)}
        />
        <DraftLines
          formId={formId}
          lines={lines}
          errors={errors}
          onChange={(index, change) =>
            setLines((now) => now.map((line, at) => (at === index ? { ...line, ...change } : line)))
          }
          onRemove={(index) => setLines((now) => now.filter((_, at) => at !== index))}
        />
        {errors.lines ? <p className="text-sm text-red-600">{errors.lines}</p> : null}
      </section>
      <FormError>{formError}</FormError>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {order ? (
          <button
            type="button"
            className={buttonClass('secondary')}
            onClick={() => setConfirming(true)}
            disabled={busy}
          >
            Cancel purchase order
          </button>
        ) : (
          <Link to={PURCHASE_ORDERS_PATH} className={buttonClass('secondary')}>
            Discard
          </Link>
        )}
        <button type="submit" className={buttonClass('secondary')} disabled={busy}>
          {save.isPending && !markOrdered.isPending ? 'Saving...' : 'Save draft'}
        </button>
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => void placeOrder()}
          disabled={busy}
        >
          {markOrdered.isPending ? 'Ordering...' : 'Mark ordered'}
        </button>
      </div>
      {confirming && order ? (
        <ConfirmDialog
          title={`Cancel ${order.number}?`}
          message="The draft stays in the list as cancelled and can no longer be changed or ordered."
          confirmLabel="Cancel purchase order"
          busyLabel="Cancelling..."
          cancelLabel="Keep the draft"
          busy={cancel.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={cancelDraft}
        />
      ) : null}
    </form>
  );
}
