import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import type { Lot } from '../../../shared/lots';
import type { Product } from '../../../shared/products';
import { ADJUSTMENT_REASONS, AdjustInput, type AdjustmentReason, CountInput } from '../../../shared/stock';
import { buttonClass } from '../../components/button';
import { FormError, SelectField, TextField } from '../../components/form-field';
import { LocationPicker } from '../../components/location-picker';
import { Modal } from '../../components/modal';
import { errorMessage } from '../../lib/api';
import { idempotencyKeys } from '../../lib/idempotency';
import { notify } from '../../lib/notify';
import { chosenLot, LotChoice, type LotDraft, type LotErrors, lotRefOf, NEW_LOT, NO_LOT } from './lot-choice';
import { lotsQuery, productLocationsQuery, useStockChange } from './stock-api';

const REASON_LABEL: Record<AdjustmentReason, string> = {
  received: 'Received',
  damaged: 'Damaged',
  lost: 'Lost',
  found: 'Found',
  returned: 'Returned',
  correction: 'Correction',
  expired: 'Expired',
};

/** An adjustment reason as the admin chose it; any other reason (a return's own words) as it is. */
export function reasonLabel(reason: string): string {
  return (REASON_LABEL as Record<string, string>)[reason] ?? reason;
}

/** "+3" or "−3": a signed change as the movements table shows it. */
export function signed(quantity: number): string {
  return quantity > 0 ? `+${quantity}` : quantity < 0 ? `−${-quantity}` : '0';
}

/** What a count would record: counted − stock, or null while the box holds no count. */
export function countDifference(counted: string, stock: number): number | null {
  if (!/^\d+$/.test(counted.trim())) return null;
  return Number(counted) - stock;
}

/** The stock an adjustment would leave, or null while the box holds no whole number but 0. */
export function stockAfterAdjusting(quantity: string, stock: number): number | null {
  if (!/^[-+]?\d+$/.test(quantity.trim()) || Number(quantity) === 0) return null;
  return stock + Number(quantity);
}

/**
 * The location an adjustment or count is made at (DESIGN §17): '' for the store's default, or
 * one chosen; and the product's stock there when known (else its whole stock: with one location
 * they are the same).
 */
function useLocationChoice(product: Product) {
  const [location, setLocation] = useState('');
  const lines = useQuery(productLocationsQuery(product._id));
  const line = lines.data?.locations.find((entry) => entry.location._id === location);
  return { location, setLocation, stock: line ? line.stock : product.stock, named: line !== undefined };
}

function WhereField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return <LocationPicker value={value} onChange={onChange} allLabel="Default location" />;
}

/** A write that is retried after no answer keeps its key; see lib/idempotency.ts. */
function useKeys() {
  return useRef(idempotencyKeys()).current;
}

export function AdjustDialog({ product, onClose }: { product: Product; onClose: () => void }) {
  const keys = useKeys();
  const change = useStockChange(product._id, 'adjust');
  const [quantity, setQuantity] = useState('');
  const [reason, setReason] = useState<string>('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const where = useLocationChoice(product);
  const after = stockAfterAdjusting(quantity, where.stock);
  // DESIGN §15: a lot-tracked product's units go into a lot (a new one may be named) or come out
  // of one it has; an expired write-off takes them out.
  const tracked = product.tracking === 'lot';
  const [lotDraft, setLotDraft] = useState<LotDraft>(NO_LOT);
  const lots = useQuery({ ...lotsQuery(product._id), enabled: tracked });
  const allowNew = !(Number(quantity) < 0) && reason !== 'expired';
  const lot = chosenLot(lotDraft, lots.data?.lots);

  // A message about what was sent (the server's "Not enough stock", a field's own rule) no longer
  // holds once the field changes; it comes back on the next save if it still applies.
  function edited(field: string) {
    if (change.error) change.reset();
    setErrors(({ [field]: _gone, ...rest }) => rest);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const named = tracked ? lotRefOf(lotDraft, allowNew) : { errors: {} };
    const parsed = AdjustInput.safeParse({
      quantity: quantity.trim() === '' ? Number.NaN : Number(quantity),
      reason: reason || undefined,
      note,
      lot: named.lot,
      location: where.location || undefined,
    });
    if (!parsed.success || Object.keys(named.errors).length > 0) {
      const found: Record<string, string> = { ...named.errors };
      for (const issue of parsed.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
      if (found.reason) found.reason = 'Choose a reason.';
      setErrors(found);
      return;
    }
    setErrors({});
    change.mutate(
      { input: parsed.data, key: keys.keyFor(parsed.data) },
      {
        onSuccess: (answer) => {
          keys.settled();
          notify.success(`Stock is now ${answer.movement.stockAfter}.`);
          onClose();
        },
        onError: (error) => keys.settled(error),
      },
    );
  }

  return (
    <Modal title={`Adjust stock: ${product.name}`} onClose={() => !change.isPending && onClose()}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <p className="text-sm text-slate-600">
          A positive number adds units, a negative one takes them away (-2 for two damaged).
        </p>
        <WhereField
          value={where.location}
          onChange={(to) => {
            where.setLocation(to);
            edited('location');
          }}
        />
        {/* No numeric inputMode: a phone's digit pad has no minus sign. */}
        <TextField
          label="Quantity"
          type="number"
          step={1}
          required
          value={quantity}
          onChange={(event) => {
            setQuantity(event.target.value);
            edited('quantity');
          }}
          error={errors.quantity}
        />
        <p role="status" className="text-sm text-slate-700">
          {after === null ? (
            <>
              {where.named ? 'In stock there now' : 'In stock now'}:{' '}
              <span className="font-semibold tabular-nums">{where.stock}</span>
            </>
          ) : (
            <>
              Stock {where.stock} → <span className="font-semibold tabular-nums">{after}</span>
              {after < 0 ? ' (more than there is)' : ''}
              {lot ? <LotAfter lot={lot} change={after - where.stock} /> : null}
            </>
          )}
        </p>
        <SelectField
          label="Reason"
          required
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            edited('reason');
          }}
          error={errors.reason}
        >
          <option value="">Choose a reason</option>
          {ADJUSTMENT_REASONS.map((value) => (
            <option key={value} value={value}>
              {REASON_LABEL[value]}
            </option>
          ))}
        </SelectField>
        {tracked ? (
          <LotChoice
            productId={product._id}
            draft={lotDraft}
            allowNew={allowNew}
            errors={errors as LotErrors}
            onChange={(draft, field) => {
              setLotDraft(draft);
              edited(field);
            }}
          />
        ) : null}
        <TextField
          label="Note"
          value={note}
          onChange={(event) => {
            setNote(event.target.value);
            edited('note');
          }}
          error={errors.note}
        />
        <FormError>{change.error ? errorMessage(change.error) : null}</FormError>
        <DialogButtons pending={change.isPending} onClose={onClose} label="Save adjustment" />
      </form>
    </Modal>
  );
}

export function CountDialog({ product, onClose }: { product: Product; onClose: () => void }) {
  const keys = useKeys();
  const change = useStockChange(product._id, 'count');
  const [counted, setCounted] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const where = useLocationChoice(product);
  // DESIGN §15: a count of a lot-tracked product counts one lot, one it has or a new one.
  const tracked = product.tracking === 'lot';
  const [lotDraft, setLotDraft] = useState<LotDraft>(NO_LOT);
  const [lotErrors, setLotErrors] = useState<LotErrors>({});
  const lots = useQuery({ ...lotsQuery(product._id), enabled: tracked });
  const lot = chosenLot(lotDraft, lots.data?.lots);
  const newLot = tracked && lotDraft.choice === NEW_LOT;
  /** What the count is compared with: the stock, the lot's units (0 for a new lot), or nothing yet. */
  const before = !tracked ? where.stock : lot ? lot.quantity : newLot ? 0 : null;
  const difference = before === null ? null : countDifference(counted, before);

  function submit(event: FormEvent) {
    event.preventDefault();
    const named = tracked ? lotRefOf(lotDraft, true) : { errors: {} };
    const parsed = CountInput.safeParse({
      counted: counted.trim() === '' ? Number.NaN : Number(counted),
      note,
      lot: named.lot,
      location: where.location || undefined,
    });
    setLotErrors(named.errors);
    if (!parsed.success) setError(parsed.error.issues[0]?.message ?? 'Enter the number of units counted.');
    else setError(undefined);
    if (!parsed.success || Object.keys(named.errors).length > 0) return;
    change.mutate(
      { input: parsed.data, key: keys.keyFor(parsed.data) },
      {
        onSuccess: (answer) => {
          keys.settled();
          notify.success(`Count saved: stock is now ${answer.movement.stockAfter}.`);
          onClose();
        },
        onError: (failure) => keys.settled(failure),
      },
    );
  }

  return (
    <Modal title={`Count stock: ${product.name}`} onClose={() => !change.isPending && onClose()}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <WhereField
          value={where.location}
          onChange={(to) => {
            where.setLocation(to);
            if (change.error) change.reset();
          }}
        />
        {tracked ? (
          <LotChoice
            productId={product._id}
            draft={lotDraft}
            allowNew
            errors={lotErrors}
            onChange={(draft, field) => {
              setLotDraft(draft);
              if (change.error) change.reset();
              setLotErrors(({ [field]: _gone, ...rest }) => rest);
            }}
          />
        ) : null}
        <TextField
          label="Counted quantity"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          required
          hint={tracked ? 'The units of the chosen lot on the shelf.' : undefined}
          value={counted}
          onChange={(event) => {
            setCounted(event.target.value);
            // As in Adjust: the last answer was about the count sent, not the one typed now.
            if (change.error) change.reset();
            setError(undefined);
          }}
          error={error}
        />
        <p role="status" className="text-sm text-slate-700">
          <CountStatus
            counted={counted.trim()}
            difference={difference}
            stock={where.stock}
            tracked={tracked}
            lot={lot}
            newLot={newLot}
          />
        </p>
        <TextField label="Note" value={note} onChange={(event) => setNote(event.target.value)} />
        <FormError>{change.error ? errorMessage(change.error) : null}</FormError>
        <DialogButtons pending={change.isPending} onClose={onClose} label="Save count" />
      </form>
    </Modal>
  );
}

/** What the count dialog says it would record, before it is saved. */
function CountStatus({
  counted,
  difference,
  stock,
  tracked,
  lot,
  newLot,
}: {
  counted: string;
  difference: number | null;
  stock: number;
  tracked: boolean;
  lot: Lot | undefined;
  newLot: boolean;
}) {
  const where = lot ? `lot ${lot.number}` : newLot ? 'the new lot' : null;
  if (difference !== null)
    return (
      <>
        Counted {counted}, {tracked ? `${where} holds ${lot?.quantity ?? 0}` : `stock ${stock}`}:{' '}
        <span className="font-semibold tabular-nums">{signed(difference)}</span>
      </>
    );
  if (tracked && where)
    return (
      <>
        In {where} now: <span className="font-semibold tabular-nums">{lot?.quantity ?? 0}</span>
      </>
    );
  return (
    <>
      In stock now: <span className="font-semibold tabular-nums">{stock}</span>
      {tracked ? ', across its lots. Choose the lot you counted.' : null}
    </>
  );
}

/** What an adjustment would leave in the chosen lot. */
function LotAfter({ lot, change }: { lot: Lot; change: number }) {
  const after = lot.quantity + change;
  return (
    <>
      ; lot {lot.number} {lot.quantity} → <span className="font-semibold tabular-nums">{after}</span>
      {after < 0 ? ' (more than it holds)' : ''}
    </>
  );
}

function DialogButtons({
  pending,
  onClose,
  label,
}: {
  pending: boolean;
  onClose: () => void;
  label: string;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
      <button type="button" className={buttonClass('secondary')} onClick={onClose} disabled={pending}>
        Cancel
      </button>
      <button type="submit" className={buttonClass('primary')} disabled={pending}>
        {pending ? 'Saving...' : label}
      </button>
    </div>
  );
}
