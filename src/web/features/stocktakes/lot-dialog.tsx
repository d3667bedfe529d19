import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { StocktakeLine } from '../../../shared/stocktakes';
import { buttonClass } from '../../components/button';
import { FormError } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { Modal } from '../../components/modal';
import { type NewLotErrors, NewLotFields } from '../../components/new-lot-fields';
import { errorMessage } from '../../lib/api';
import { type NewLotDraft, newLotOf } from '../../lib/new-lot';
import { lotText } from './stocktake-status';
import { stocktakeLinesQuery, useCount } from './stocktakes-api';

const ANOTHER = 'another';

/** Whether `line`'s product is the one `code` names (its id, SKU or barcode, ignoring case). */
const names = (line: StocktakeLine, code: string) =>
  [line.product._id, line.product.sku, line.product.barcode].some(
    (one) => one !== '' && one.toLowerCase() === code.toLowerCase(),
  );

/**
 * A scan of a lot-tracked product names no lot (LOT_NEEDED): pick one of its lines' lots, or type
 * another lot's number and expiry, and the scan is sent again with it.
 */
export function LotDialog({
  stocktakeId,
  code,
  onClose,
  onCounted,
}: {
  stocktakeId: string;
  code: string;
  onClose: () => void;
  onCounted: (line: StocktakeLine) => void;
}) {
  const lines = useQuery(stocktakeLinesQuery(stocktakeId, { search: code, page: 1, pageSize: 50 }));
  const count = useCount(stocktakeId);
  const found = (lines.data?.lines ?? []).filter((line) => line.lot);
  const exact = found.filter((line) => names(line, code));
  const lots = exact.length > 0 ? exact : found;
  const [choice, setChoice] = useState('');
  const [draft, setDraft] = useState<NewLotDraft>({ number: '', expiresOn: '', noExpiry: false });
  const [errors, setErrors] = useState<NewLotErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const picked = choice || (lines.isSuccess && lots.length === 0 ? ANOTHER : '');
  const product = lots[0]?.product.name ?? code;
  // The first lot has the focus, so the arrow keys choose and Enter counts.
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (lines.isSuccess) first.current?.focus();
  }, [lines.isSuccess]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    let lot: { number: string; expiresOn?: string | null } | undefined;
    if (picked === ANOTHER) {
      const made = newLotOf(draft);
      setErrors(made.errors);
      if (!made.lot) return;
      lot = made.lot;
    } else {
      const line = lots.find((one) => one._id === picked);
      if (!line?.lot) {
        setFailure('Choose the lot you counted.');
        return;
      }
      lot = { number: line.lot.number };
    }
    try {
      const answer = await count.mutateAsync({
        counts: [{ product: code, lot, quantity: 1, mode: 'add' }],
        key: crypto.randomUUID(),
      });
      for (const line of answer.counted) onCounted(line);
      onClose();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  return (
    <Modal title={`Which lot of ${product}?`} onClose={onClose} initialFocus={first}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <p className="text-sm text-slate-600">
          {product} is tracked by lot: say which lot this one is from, and it is counted.
        </p>
        <LoadState query={lines} what="the lots" loading="Loading lots...">
          {() => (
            <fieldset className="space-y-2">
              <legend className="mb-1 text-sm font-medium text-slate-700">Lot</legend>
              {lots.map((line, index) => (
                <label key={line._id} className="flex min-h-10 items-center gap-2 text-sm text-slate-800">
                  <input
                    ref={index === 0 ? first : undefined}
                    type="radio"
                    name="lot"
                    value={line._id}
                    checked={picked === line._id}
                    onChange={() => setChoice(line._id)}
                    className="size-4"
                  />
                  {lotText(line)}
                  <span className="text-slate-500">({line.counted ?? 0} counted)</span>
                </label>
              ))}
              <label className="flex min-h-10 items-center gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  name="lot"
                  value={ANOTHER}
                  checked={picked === ANOTHER}
                  onChange={() => setChoice(ANOTHER)}
                  className="size-4"
                />
                Another lot (not on the list)
              </label>
            </fieldset>
          )}
        </LoadState>
        {picked === ANOTHER ? (
          <NewLotFields
            legend="The lot"
            hint="Its number and expiry as printed on the pack."
            draft={draft}
            errors={errors}
            onChange={(next, field) => {
              setDraft(next);
              setErrors((now) => ({ ...now, [field]: undefined }));
            }}
          />
        ) : null}
        <FormError>{failure}</FormError>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass('secondary')} onClick={onClose}>
            Skip this scan
          </button>
          <button type="submit" className={buttonClass('primary')} disabled={count.isPending}>
            {count.isPending ? 'Counting...' : 'Count 1'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
