import { MAX_LOTS_PER_LINE, type ReceiveLot } from '../../../shared/lots';
import { buttonClass } from '../../components/button';
import { TextField } from '../../components/form-field';
import { type NewLotDraft, newLotOf } from '../../lib/new-lot';

/** One lot of a receive line as the dialog holds it; `key` tells rows apart while they move. */
export type LotRow = NewLotDraft & { key: number; quantity: string };
export type LotRowErrors = { number?: string; expiresOn?: string; quantity?: string };

export const blankLot = (key: number, quantity = ''): LotRow => ({
  key,
  number: '',
  expiresOn: '',
  noExpiry: false,
  quantity,
});

/** A lot row's units: a whole number from 1, or null while the box holds none. */
function lotUnits(text: string): number | null {
  return /^\d+$/.test(text.trim()) && Number(text) >= 1 ? Number(text) : null;
}

/** The units the rows hold so far (boxes that hold no whole number count as none). */
export function lotsTotal(rows: readonly LotRow[]): number {
  return rows.reduce((sum, row) => sum + (lotUnits(row.quantity) ?? 0), 0);
}

/**
 * The lots a receive line sends (DESIGN §15: `{number, expiresOn, quantity}` adding up to the
 * line's quantity), or what is wrong: per row, and for the line (`line`: the sum, a number twice).
 * The server judges again; this only says it before sending.
 */
export function receiveLotsOf(
  rows: readonly LotRow[],
  quantity: number,
): { lots?: ReceiveLot[]; rows: Record<number, LotRowErrors>; line?: string } {
  const problems: Record<number, LotRowErrors> = {};
  const lots: ReceiveLot[] = [];
  for (const row of rows) {
    const made = newLotOf(row);
    const units = lotUnits(row.quantity);
    const found: LotRowErrors = { ...made.errors };
    if (units === null) found.quantity = 'Quantity must be a whole number of at least 1.';
    if (Object.keys(found).length > 0) problems[row.key] = found;
    else if (made.lot && units !== null) lots.push({ ...made.lot, quantity: units });
  }
  let line: string | undefined;
  const total = lotsTotal(rows);
  if (total !== quantity) line = lotsMismatch(total, quantity);
  else if (new Set(lots.map((lot) => lot.number.toLowerCase())).size !== lots.length)
    line = 'Each lot may appear once per line.';
  if (Object.keys(problems).length > 0 || line) return { rows: problems, line };
  return { lots, rows: {} };
}

function lotsMismatch(total: number, quantity: number): string {
  return `The lots hold ${total} of the ${quantity} received; they must add up to ${quantity}.`;
}

/**
 * The lots a lot-tracked line is received into (DESIGN §15): a number, an expiry or "Does not
 * expire", and units per lot; "Add lot" splits the line, each row but a lone one can be removed.
 * While the line receives units, it says whether the lots add up to them.
 */
export function ReceiveLots({
  lineId,
  productName,
  quantity,
  rows,
  errors,
  lineError,
  onChange,
  onAdd,
  onRemove,
}: {
  lineId: string;
  productName: string;
  /** What the line receives now; null while its box holds no whole number. */
  quantity: number | null;
  rows: readonly LotRow[];
  errors: Record<number, LotRowErrors>;
  lineError?: string;
  onChange: (row: LotRow, field: keyof LotRowErrors) => void;
  onAdd: () => void;
  onRemove: (key: number) => void;
}) {
  const total = lotsTotal(rows);
  const statusId = `lots-${lineId}-status`;
  const adds = quantity !== null && quantity > 0;
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3" aria-describedby={statusId}>
      <legend className="px-1 text-sm font-medium text-slate-700">Lots of {productName}</legend>
      {rows.map((row, index) => {
        const id = `lot-${lineId}-${row.key}`;
        const problem = errors[row.key] ?? {};
        return (
          <fieldset
            key={row.key}
            className="grid items-start gap-2 sm:grid-cols-[minmax(0,1fr)_10rem_6rem_auto]"
          >
            <legend className="sr-only">Lot {index + 1}</legend>
            <TextField
              id={`${id}-number`}
              label="Lot number"
              autoComplete="off"
              spellCheck={false}
              value={row.number}
              error={problem.number}
              onChange={(event) => onChange({ ...row, number: event.target.value }, 'number')}
            />
            <div className="space-y-1">
              <TextField
                id={`${id}-expires`}
                label="Expires on"
                type="date"
                disabled={row.noExpiry}
                value={row.noExpiry ? '' : row.expiresOn}
                error={problem.expiresOn}
                onChange={(event) => onChange({ ...row, expiresOn: event.target.value }, 'expiresOn')}
              />
              <label className="flex items-center gap-2 text-xs text-slate-700">
                <input
                  type="checkbox"
                  checked={row.noExpiry}
                  onChange={(event) => onChange({ ...row, noExpiry: event.target.checked }, 'expiresOn')}
                  className="size-4 rounded border-slate-300"
                />
                Does not expire
              </label>
            </div>
            <TextField
              id={`${id}-quantity`}
              label="Quantity"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              className="text-right tabular-nums"
              value={row.quantity}
              error={problem.quantity}
              onChange={(event) => onChange({ ...row, quantity: event.target.value }, 'quantity')}
            />
            {rows.length > 1 ? (
              <button
                type="button"
                className={`${buttonClass('secondary', 'sm')} sm:mt-6`}
                aria-label={`Remove lot ${index + 1} of ${productName}`}
                onClick={() => onRemove(row.key)}
              >
                Remove
              </button>
            ) : null}
          </fieldset>
        );
      })}
      <div className="flex flex-wrap items-center gap-3">
        {rows.length < MAX_LOTS_PER_LINE ? (
          <button
            type="button"
            id={`lots-${lineId}-add`}
            className={buttonClass('secondary', 'sm')}
            aria-label={`Add lot to ${productName}`}
            onClick={onAdd}
          >
            Add lot
          </button>
        ) : null}
        <p
          id={statusId}
          aria-live="polite"
          className={`text-sm ${lineError ? 'text-red-600' : adds && total !== quantity ? 'text-amber-800' : 'text-slate-600'}`}
        >
          {lineError ??
            (!adds
              ? 'Lots are asked for the units received now.'
              : total === quantity
                ? `The lots hold all ${quantity} received.`
                : lotsMismatch(total, quantity))}
        </p>
      </div>
    </fieldset>
  );
}
