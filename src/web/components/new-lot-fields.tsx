import type { ReactNode } from 'react';
import type { NewLotDraft } from '../lib/new-lot';
import { TextField } from './form-field';

export type NewLotErrors = { number?: string; expiresOn?: string };

/**
 * A new lot's number and its expiry day, or "Does not expire" (DESIGN §15): the product form's
 * opening lot and the stock dialogs' new lot. `legend` names the group; `hint` says where the
 * units go.
 */
export function NewLotFields({
  legend,
  hint,
  draft,
  onChange,
  errors,
}: {
  legend: string;
  hint?: ReactNode;
  draft: NewLotDraft;
  onChange: (draft: NewLotDraft, field: keyof NewLotErrors) => void;
  errors: NewLotErrors;
}) {
  return (
    <fieldset className="grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-2">
      <legend className="px-1 text-sm font-medium text-slate-700">{legend}</legend>
      {hint ? <p className="text-sm text-slate-600 sm:col-span-2">{hint}</p> : null}
      <TextField
        label="Lot number"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        required
        value={draft.number}
        error={errors.number}
        onChange={(event) => onChange({ ...draft, number: event.target.value }, 'number')}
      />
      <div className="space-y-2">
        <TextField
          label="Expires on"
          type="date"
          required={!draft.noExpiry}
          disabled={draft.noExpiry}
          value={draft.noExpiry ? '' : draft.expiresOn}
          error={errors.expiresOn}
          onChange={(event) => onChange({ ...draft, expiresOn: event.target.value }, 'expiresOn')}
        />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={draft.noExpiry}
            onChange={(event) => onChange({ ...draft, noExpiry: event.target.checked }, 'expiresOn')}
            className="size-4 rounded border-slate-300"
          />
          Does not expire
        </label>
      </div>
    </fieldset>
  );
}
