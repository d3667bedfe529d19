import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import {
  LOCATION_KIND_LABEL,
  LOCATION_KINDS,
  LOCATION_MAX,
  type Location,
  LocationInput,
} from '../../../shared/locations';
import { FormDialog } from '../../components/form-dialog';
import { Options, SelectField, TextField } from '../../components/form-field';
import { applyServerFieldErrors, fieldProps } from '../../lib/form-errors';
import { notify } from '../../lib/notify';
import { useSaveLocation } from './locations-api';

const FIELDS = ['name', 'kind', 'address'] as const;

/** Add or edit a location; edit mode when a location is given. */
export function LocationFormModal({ location, onClose }: { location: Location | null; onClose: () => void }) {
  const editing = location !== null;
  const save = useSaveLocation();
  const form = useForm({
    resolver: zodResolver(LocationInput),
    defaultValues: {
      name: location?.name ?? '',
      kind: location?.kind ?? 'store',
      address: location?.address ?? '',
    },
  });
  const field = fieldProps(form);

  const submit = form.handleSubmit((input) =>
    save.mutate(
      { id: location?._id ?? null, input },
      {
        onSuccess: () => {
          notify.success(editing ? 'Location updated.' : 'Location added.');
          onClose();
        },
        onError: (error) => applyServerFieldErrors(error, FIELDS, form.setError),
      },
    ),
  );

  return (
    <FormDialog
      title={editing ? `Edit ${location.name}` : 'Add a location'}
      onClose={onClose}
      onSubmit={submit}
      saving={save}
      submitLabel={editing ? 'Save changes' : 'Add location'}
    >
      <TextField label="Name" autoComplete="off" maxLength={LOCATION_MAX.name} {...field('name')} />
      <SelectField label="Kind" {...field('kind')}>
        <Options values={LOCATION_KINDS} labels={LOCATION_KIND_LABEL} />
      </SelectField>
      <TextField label="Address" autoComplete="off" maxLength={LOCATION_MAX.address} {...field('address')} />
    </FormDialog>
  );
}
