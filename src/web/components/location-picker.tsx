import { useId } from 'react';
import { useLocations } from '../lib/locations';
import { BoxLabel, controlClass } from './form-field';

/**
 * The location picker above a list, report or the dashboard (DESIGN §17): "All locations" (value
 * '') or one location; inactive ones only when already chosen. While the locations load it shows
 * the choice it has; when they fail to load it says so beside the box, never an empty list.
 */
export function LocationPicker({
  value,
  onChange,
  label = 'Location',
  allLabel = 'All locations',
  allowAll = true,
}: {
  value: string;
  onChange: (value: string) => void;
  label?: string;
  allLabel?: string;
  allowAll?: boolean;
}) {
  const id = useId();
  const locations = useLocations();
  const choices = (locations.data?.locations ?? []).filter(
    (location) => location.active || location._id === value,
  );
  return (
    <div className="w-full sm:w-56">
      <BoxLabel htmlFor={id}>{label}</BoxLabel>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={locations.isPending}
        aria-describedby={locations.isError ? `${id}-error` : undefined}
        className={controlClass()}
      >
        {allowAll && <option value="">{allLabel}</option>}
        {locations.isPending && value !== '' && <option value={value}>Loading…</option>}
        {choices.map((location) => (
          <option key={location._id} value={location._id}>
            {location.name}
          </option>
        ))}
      </select>
      {locations.isError && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700">
          Locations could not be loaded.
        </p>
      )}
    </div>
  );
}
