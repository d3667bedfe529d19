import { useQuery } from '@tanstack/react-query';
import { expiryState, type Lot, type LotRef } from '../../../shared/lots';
import { SelectField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { EXPIRY_WORDS, expiryLabel } from '../../components/lot-expiry';
import { NewLotFields } from '../../components/new-lot-fields';
import { type NewLotDraft, newLotOf } from '../../lib/new-lot';
import { lotsQuery } from './stock-api';

/** The choice that names a lot not yet there (adding and counting only). */
export const NEW_LOT = 'new';

/** What the admin chose: a lot's id, NEW_LOT with its number and expiry, or '' (nothing yet). */
export type LotDraft = NewLotDraft & { choice: string };
export const NO_LOT: LotDraft = { choice: '', number: '', expiresOn: '', noExpiry: false };

export type LotErrors = { lot?: string; lotNumber?: string; lotExpiresOn?: string };

const units = (count: number) => `${count} ${count === 1 ? 'unit' : 'units'}`;

/** One lot as a choice reads: "L-001 · Mar 3, 2027 · 12 units · Expires soon". */
export function lotChoiceLabel(lot: Lot, today: string): string {
  const state = EXPIRY_WORDS[expiryState(lot.expiresOn, today)];
  return `${lot.number} · ${expiryLabel(lot.expiresOn)} · ${units(lot.quantity)} · ${state}`;
}

/**
 * The lot the request names (DESIGN §15), or why it cannot be sent yet: an existing lot by its
 * id; a new one by its number and expiry (null: it does not expire). `allowNew` false: units are
 * taken, so only a lot there is will do (a new choice left from before counts as none).
 */
export function lotRefOf(draft: LotDraft, allowNew: boolean): { lot?: LotRef; errors: LotErrors } {
  const choice = draft.choice === NEW_LOT && !allowNew ? '' : draft.choice;
  if (choice === '')
    return {
      errors: { lot: allowNew ? 'Choose a lot, or a new one.' : 'Choose the lot the units come from.' },
    };
  if (choice !== NEW_LOT) return { lot: { _id: choice }, errors: {} };
  const made = newLotOf(draft);
  if (made.lot) return { lot: made.lot, errors: {} };
  const errors: LotErrors = {};
  if (made.errors.number) errors.lotNumber = made.errors.number;
  if (made.errors.expiresOn) errors.lotExpiresOn = made.errors.expiresOn;
  return { errors };
}

/** The lot chosen among `lots`, when it is one there is. */
export function chosenLot(draft: LotDraft, lots: readonly Lot[] | undefined): Lot | undefined {
  return lots?.find((lot) => lot._id === draft.choice);
}

/**
 * Choose the lot of a lot-tracked product (DESIGN §15): one of its lots, or (`allowNew`) a new
 * one with its number and expiry. The lots come from the stock page's own list, judged by the
 * store's today that the list answers with (never the device's clock).
 */
export function LotChoice({
  productId,
  draft,
  onChange,
  allowNew,
  errors,
}: {
  productId: string;
  draft: LotDraft;
  onChange: (draft: LotDraft, field: keyof LotErrors) => void;
  allowNew: boolean;
  errors: LotErrors;
}) {
  const lots = useQuery(lotsQuery(productId));
  const choice = draft.choice === NEW_LOT && !allowNew ? '' : draft.choice;
  return (
    <LoadState query={lots} what="the lots" loading="Loading lots...">
      {({ lots: list, today }) => (
        <div className="space-y-3">
          <SelectField
            label="Lot"
            required
            value={choice}
            hint={
              allowNew
                ? 'A lot the product has, or a new one with its number and expiry.'
                : 'Units are taken from a lot the product has.'
            }
            error={errors.lot}
            onChange={(event) => onChange({ ...draft, choice: event.target.value }, 'lot')}
          >
            <option value="">Choose a lot</option>
            {list.map((lot) => (
              <option key={lot._id} value={lot._id}>
                {lotChoiceLabel(lot, today)}
              </option>
            ))}
            {allowNew ? <option value={NEW_LOT}>New lot…</option> : null}
          </SelectField>
          {choice === NEW_LOT ? (
            <NewLotFields
              legend="New lot"
              draft={draft}
              errors={{ number: errors.lotNumber, expiresOn: errors.lotExpiresOn }}
              onChange={(lot, field) =>
                onChange({ ...draft, ...lot }, field === 'number' ? 'lotNumber' : 'lotExpiresOn')
              }
            />
          ) : null}
        </div>
      )}
    </LoadState>
  );
}
