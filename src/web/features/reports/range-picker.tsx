import { SelectField, TextField } from '../../components/form-field';
import { formatRange } from './report-format';
import {
  type DateRange,
  PRESET_LABEL,
  RANGE_PRESETS,
  type RangePreset,
  type ReportView,
} from './report-range';

/** The range every report but the stock value covers: a preset, or two days of one's own. */
export function RangePicker({
  view,
  onPreset,
  onDates,
}: {
  view: ReportView;
  onPreset: (preset: RangePreset) => void;
  onDates: (range: DateRange) => void;
}) {
  const custom = view.preset === 'custom';
  const missing = (day: string) => (view.rangeError && !day ? 'Choose a day.' : undefined);
  const toError = missing(view.to) ?? (view.rangeError && view.from ? view.rangeError : undefined);
  return (
    <div className="mb-5 rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
      <div className="flex flex-wrap items-start gap-3">
        <div className="w-full sm:w-48">
          <SelectField
            label="Date range"
            value={view.preset}
            onChange={(event) => onPreset(event.target.value as RangePreset)}
          >
            {RANGE_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {PRESET_LABEL[preset]}
              </option>
            ))}
          </SelectField>
        </div>
        {custom ? (
          <div className="grid w-full gap-3 min-[400px]:grid-cols-2 sm:w-auto">
            <div className="sm:w-44">
              <TextField
                label="From"
                type="date"
                value={view.from}
                max={view.to || undefined}
                error={missing(view.from)}
                onChange={(event) => onDates({ from: event.target.value, to: view.to })}
              />
            </div>
            <div className="sm:w-44">
              <TextField
                label="To"
                type="date"
                value={view.to}
                min={view.from || undefined}
                error={toError}
                onChange={(event) => onDates({ from: view.from, to: event.target.value })}
              />
            </div>
          </div>
        ) : null}
        {view.rangeError ? null : (
          <p className="self-end pb-2 text-sm text-slate-600 sm:ml-2" aria-live="polite">
            <span className="font-medium text-slate-900">{formatRange(view)}</span>
          </p>
        )}
      </div>
    </div>
  );
}
