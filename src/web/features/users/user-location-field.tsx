import { useQuery } from '@tanstack/react-query';
import type { ComponentProps } from 'react';
import { can } from '../../../shared/roles';
import { NamedOptions, SelectField } from '../../components/form-field';
import { locationsQuery } from '../../lib/locations';
import { useSession } from '../../lib/use-session';

/** The select's '' is null: the default location (DESIGN §17). */
export const locationOrDefault = {
  setValueAs: (value: unknown) => (value === '' || value == null ? null : value),
};

/**
 * Where a user's sales outside a till session take stock from (DESIGN §17), for an admin: the
 * active locations and `current` (the user's own, even when inactive). Nothing for a caller who
 * does not read locations (the superAdmin manages accounts, not the store).
 */
export function UserLocationField({
  current,
  ...props
}: { current?: { _id: string; name: string } | null; error?: string } & ComponentProps<'select'>) {
  const role = useSession()?.user.role;
  const reads = role !== undefined && can(role, 'locations:read');
  const locations = useQuery({ ...locationsQuery, enabled: reads });
  if (!reads) return null;
  const choices = (locations.data?.locations ?? []).filter(
    (location) => location.active || location._id === current?._id,
  );
  if (current && !choices.some((location) => location._id === current._id))
    choices.push({ ...current, kind: 'store', address: '', active: false });
  return (
    <SelectField
      label="Location"
      hint={
        locations.isError
          ? 'Locations could not be loaded.'
          : 'Where their sales outside a till session take stock from.'
      }
      {...props}
    >
      <option value="">The default location</option>
      <NamedOptions items={choices} />
    </SelectField>
  );
}
